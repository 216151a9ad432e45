// Running a scenario in the fixsteer tool: the world, its memory and the scenario's
// game-side state, stepped one tick at a time with the commands the scenario issues.
#ifndef FIXSTEER_TOOL_SESSION_H
#define FIXSTEER_TOOL_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "scenario.h"
#include "scenario_file.h"

typedef struct session {
  const scenario *sc;
  const scenario *loaded; // a scenario file, freed at the end
  fxs_world world;
  void *memory;
  scenario_state state;
  fxs_command *commands; // SCENARIO_MAX_COMMANDS, one tick's input
} session;

// A built-in scenario by name, or a scenario file by path read within `yaml` (NULL: the
// defaults). Prints the error and returns 2 (the tool's exit code for bad input) on
// failure, else 0.
int session_start(session *s, const char *name, const scenario_file_limits *yaml);

// One tick: the scenario's commands (into s->commands), then the step. Returns their number.
uint32_t session_tick(session *s);

void session_end(session *s);

#endif
