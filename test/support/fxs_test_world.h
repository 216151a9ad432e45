// Shared set-up for world tests: an agent spawned by command and a behavior added by command,
// with the behavior's default parameters.
#ifndef FXS_TEST_WORLD_H
#define FXS_TEST_WORLD_H

#include "unity.h"

#include "behavior_params.h"
#include "command.h"
#include "world.h"

// An agent at (x, y), raw: max speed 3, max force 1/5, mass 1, radius 8.
static inline fxs_agent_handle fxs_test_spawn_raw(fxs_world *world, fix16_t x, fix16_t y) {
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[0] = x, c.arg[1] = y;
  c.arg[4] = FXS_INT(3), c.arg[5] = FXS_RATIO(1, 5), c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(8);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(world, &c, &h));
  return h;
}

// Behavior `kind` with its defaults, its first parameter p0 unless p0 is 0.
static inline void fxs_test_add_behavior(fxs_world *world, fxs_agent_handle h, fxs_behavior kind,
                                         fix16_t p0) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value, c.ref = (uint32_t)kind, c.arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  if (p0) c.arg[1] = p0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(world, &c, 0));
}

#endif
