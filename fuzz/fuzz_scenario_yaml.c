// Scenario files shared between players: YAML through the fixsteer tool's loader (libyaml),
// then a few ticks of the loaded scenario recorded as `fixsteer record` does (configure, add
// paths, the scenario's commands each tick, the step). The recording must verify.
#include "fuzz_common.h"
#include "scenario_file.h"

#define TICKS 8u

static unsigned long refused;

static void report_refused(void) {
  if (refused) {
    fprintf(stderr, "scenario: %lu inputs refused: their world needs more than %zu MiB\n", refused,
            FUZZ_MEMORY_LIMIT >> 20);
  }
}

// More than the largest snapshot of a world of this capacity (snapshot.c's layout: a live
// agent with six behaviors takes under 300 bytes, an obstacle 13, a path 15, a wall 17, the
// flow field 24 and 8 a cell).
static size_t snapshot_bound(const fxs_world_capacity *c) {
  return 128u + 320u * (size_t)c->agents + 16u * (size_t)c->obstacles + 16u * (size_t)c->paths +
         8u * (size_t)c->path_nodes + 20u * (size_t)c->walls + 24u + 8u * (size_t)c->field_cells;
}

static void record(const scenario *sc) {
  fxs_world_def def;
  sc->configure(sc, &def);
  fuzz_world fw;
  if (fxs_world_memory_size(&sc->capacity) > FUZZ_MEMORY_LIMIT) {
    refused++;
    return;
  }
  FUZZ_CHECK(fuzz_world_make(&fw, &def, &sc->capacity), "cannot set up the world of a loaded file");
  fxs_world *w = &fw.world;
  sc->add_paths(sc, w);
  static scenario_state state;
  memset(&state, 0, sizeof state);
  size_t scratch_size = snapshot_bound(&sc->capacity);
  uint8_t *scratch = malloc(scratch_size);
  FUZZ_CHECK(scratch != 0, "out of memory");
  fuzz_sink sink = {0, 0, 0};
  fxs_replay_writer rw;
  fxs_result r = fxs_replay_writer_begin(&rw, fuzz_sink_write, &sink, w, 3, scratch, scratch_size);
  static fxs_command commands[SCENARIO_MAX_COMMANDS];
  for (uint32_t t = 0; t < TICKS && r == FXS_OK; ++t) {
    uint32_t n = sc->commands(sc, w, &state, commands);
    FUZZ_CHECK(n <= SCENARIO_MAX_COMMANDS, "%u commands in one tick", n);
    fxs_world_step(w, commands, n, 0);
    r = fxs_replay_writer_tick(&rw, w, commands, n);
  }
  if (r == FXS_OK) r = fxs_replay_writer_end(&rw, w);
  FUZZ_CHECK(r == FXS_OK, "recording failed: %s", fxs_result_message(r));
  fuzz_check_own_replay(&sink, TICKS);
  free(sink.data);
  free(scratch);
  fuzz_world_free(&fw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int registered;
  if (!registered) registered = 1, atexit(report_refused);
  char error[512];
  const scenario *sc = scenario_file_load_buffer("fuzz.yaml", data, size, 0, error, sizeof error);
  if (!sc) {
    FUZZ_CHECK(error[0] != '\0', "a refused file has no error message");
    return 0;
  }
  record(sc);
  scenario_file_free(sc);
  return 0;
}
