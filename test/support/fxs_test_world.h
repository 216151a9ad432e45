// Shared set-up for world tests: an agent spawned by command and a behavior added by command,
// with the behavior's default parameters.
#ifndef FXS_TEST_WORLD_H
#define FXS_TEST_WORLD_H

#include "unity.h"

#include "behavior_params.h"
#include "command.h"
#include "command_build.h"
#include "orca.h"
#include "scalar.h"
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

// 48 ORCA agents on a ring of radius 30 round (100, 100), each heading for the far side, as
// RVO2's Circle (they crowd in its middle, where their lists of 6 fill): radius 1.5, max speed
// 1/2, neighbor distance 15.
static inline void fxs_test_add_orca_ring(fxs_world *world) {
  fxs_orca_def orca = fxs_default_orca_def();
  orca.neighbor_distance = FXS_INT(15), orca.max_neighbors = 6,
  orca.neighbor_radius = FXS_RATIO(3, 2);
  for (int i = 0; i < 48; ++i) {
    fix16_t angle = (fix16_t)((int64_t)FXS_TWO_PI * i / 48);
    fix16_t c = fxs_cos(angle), sn = fxs_sin(angle);
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = fxs_vec2_make(FXS_INT(100) + 30 * c, FXS_INT(100) + 30 * sn);
    sd.max_speed = FXS_RATIO(1, 2), sd.max_force = FXS_ONE, sd.radius = FXS_RATIO(3, 2);
    fxs_command spawn = fxs_command_spawn(&sd);
    fxs_agent_handle h;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(world, &spawn, &h));
    fxs_command more[2] = {fxs_command_set_target_point(
                               h, fxs_vec2_make(FXS_INT(100) - 30 * c, FXS_INT(100) - 30 * sn)),
                           fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(2))};
    for (int k = 0; k < 2; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(world, &more[k], 0));
  }
}

// An empty world of `capacity` (64 agents and room for what else it names) 200 units square
// with a neighbor radius of 15, in `memory`.
static inline void fxs_test_orca_world(fxs_world *world, const fxs_world_capacity *capacity,
                                       void *memory, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(200), FXS_INT(200));
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(capacity) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(world, &def, capacity, memory, size));
}

// fxs_test_orca_world holding the ORCA ring (fxs_test_add_orca_ring).
static inline void fxs_test_orca_ring_world(fxs_world *world, const fxs_world_capacity *capacity,
                                            void *memory, size_t size) {
  fxs_test_orca_world(world, capacity, memory, size);
  fxs_test_add_orca_ring(world);
}

#endif
