// Running a scenario: the world, its memory and the scenario's game-side state.
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FXS_TOOL_NO_YAML
// Built with NO_YAML=1: no scenario files, the built-in scenarios and replays only.
scenario_file_limits scenario_file_default_limits(void) {
  scenario_file_limits l = {SCENARIO_FILE_MAX_BYTES, SCENARIO_FILE_MAX_NODES,
                            SCENARIO_FILE_MAX_DEPTH};
  return l;
}
const scenario *scenario_file_load(const char *path, const scenario_file_limits *limits,
                                   char *error, size_t size) {
  (void)limits;
  snprintf(error, size, "%s: this fixsteer was built without scenario files (NO_YAML=1)", path);
  return 0;
}
void scenario_file_free(const scenario *sc) { (void)sc; }
#endif

// A built-in scenario by name, or a scenario file by path.
int session_start(session *s, const char *name, const scenario_file_limits *yaml) {
  s->sc = scenario_find(name);
  s->loaded = 0;
  s->memory = 0;
  s->commands = 0;
  if (!s->sc) {
    FILE *probe = fopen(name, "rb");
    if (!probe) {
      fprintf(
          stderr,
          "fixsteer: unknown scenario '%s': not a built-in name (see: fixsteer list) nor a file\n",
          name);
      return 2;
    }
    fclose(probe);
    char error[512];
    s->sc = s->loaded = scenario_file_load(name, yaml, error, sizeof error);
    if (!s->sc) return fprintf(stderr, "fixsteer: %s\n", error), 2;
  }
  fxs_world_def def;
  s->sc->configure(s->sc, &def);
  size_t size = fxs_world_memory_size(&s->sc->capacity);
  s->memory = calloc(1, size);
  s->commands = malloc(sizeof(fxs_command) * SCENARIO_MAX_COMMANDS);
  memset(&s->state, 0, sizeof s->state);
  if (!s->memory || !s->commands ||
      fxs_world_init(&s->world, &def, &s->sc->capacity, s->memory, size) != FXS_OK) {
    fprintf(stderr, "fixsteer: cannot set up the world of '%s'\n", name);
    return 2;
  }
  s->sc->add_paths(s->sc, &s->world);
  return 0;
}

// One tick: the scenario's commands (into s->commands), then the step. Returns their number.
uint32_t session_tick(session *s) {
  uint32_t n = s->sc->commands(s->sc, &s->world, &s->state, s->commands);
  fxs_world_step(&s->world, s->commands, n, 0);
  return n;
}

void session_end(session *s) {
  free(s->memory);
  free(s->commands);
  scenario_file_free(s->loaded);
}
