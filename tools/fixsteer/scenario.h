// Built-in scenarios of the fixsteer tool. A scenario builds the initial world and, every
// tick, issues the commands its game logic decides on. Only those commands reach the world,
// so a replay of them reproduces the session without the game logic.
#ifndef FIXSTEER_TOOL_SCENARIO_H
#define FIXSTEER_TOOL_SCENARIO_H

#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"

// Commands one tick may carry: what a replay can record.
#define SCENARIO_MAX_COMMANDS FXS_REPLAY_MAX_COMMANDS
#define SCENARIO_MAX_AGENTS 64

// Game-side state a scenario keeps between ticks (not part of the world).
typedef struct scenario_state {
  int32_t stamina[SCENARIO_MAX_AGENTS];
  uint8_t mode[SCENARIO_MAX_AGENTS];
  uint32_t target[SCENARIO_MAX_AGENTS];
  uint32_t prey[SCENARIO_MAX_AGENTS];    // a hunter's chosen prey (handle), kept until it tires
  uint32_t reached[SCENARIO_MAX_AGENTS]; // targets reached so far
  uint32_t cursor;                       // next event of a scenario file
  fxs_vec2 ball, ball_velocity;          // a scripted moving point
} scenario_state;

typedef struct scenario scenario;
struct scenario {
  const char *name;
  const char *summary;
  fxs_world_capacity capacity;
  uint32_t default_ticks;
  // Fills the world definition, then sets up the world before tick 0: a built-in scenario
  // adds its paths; a scenario file also applies what its sections describe (agents,
  // obstacles, walls, the field), so it is the replay's initial snapshot, not tick 0's input.
  void (*configure)(const scenario *self, fxs_world_def *def);
  void (*add_paths)(const scenario *self, fxs_world *world);
  // Commands for the coming tick, decided from the world's state before it.
  uint32_t (*commands)(const scenario *self, const fxs_world *world, scenario_state *state,
                       fxs_command *out);
  const void *data; // scenario-specific (a loaded scenario file)
};

// All built-in scenarios, and how many.
const scenario *scenario_list(uint32_t *count);
// The scenario named `name`, or NULL.
const scenario *scenario_find(const char *name);

#endif
