// The world's own thresholds follow the agent (issue 52): the same scene at x1 and at x1/16
// (every length and force times 1/16) makes the same choices.
#include "unity.h"

#include "behavior.h"
#include "command_build.h"
#include "manager.h"
#include "world.h"

static const fxs_world_capacity cap = {4, 0, 0, 0, 0};
static uint64_t memory[4096];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

static void apply_ok(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

static fix16_t times(fix16_t v, fix16_t k) { return (fix16_t)(((int64_t)v * k) / FXS_ONE); }

// Priority groups at scale k: group 0 seeks the target at weight 1/512 (a force of max_speed /
// 512, 1/128 of a max force of 1/4 at x1: above the negligible max_force / 256), group 1 flees
// it. Returns the velocity's x after a tick: + when group 0 won, - when it was negligible.
static fix16_t priority_groups_at(fix16_t k) {
  fxs_world_def def = fxs_default_world_def();
  def.bounds_min = fxs_vec2_make(-FXS_INT(100), -FXS_INT(100));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  fxs_spawn_def sd = fxs_default_spawn_def();
  sd.position = fxs_vec2_zero();
  sd.max_speed = times(FXS_INT(4), k), sd.max_force = times(FXS_RATIO(1, 4), k);
  sd.radius = times(FXS_INT(8), k);
  fxs_command spawn = fxs_command_spawn(&sd);
  fxs_agent_handle h;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
  apply_ok(fxs_command_clear_behaviors(h, FXS_COMBINE_PRIORITY_GROUPS));
  fxs_behavior_slot seek = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  seek.weight = FXS_RATIO(1, 512), seek.priority = 0;
  apply_ok(fxs_command_add_behavior(h, &seek));
  fxs_behavior_slot flee = fxs_behavior_slot_default(FXS_BEHAVIOR_FLEE);
  flee.priority = 1;
  apply_ok(fxs_command_add_behavior(h, &flee));
  apply_ok(fxs_command_set_target_point(h, fxs_vec2_make(times(FXS_INT(80), k), 0)));
  fxs_world_step(&world, 0, 0, 0);
  return fxs_world_agent(&world, h)->velocity.x;
}

// At x1 the seek group's force (4/512) is not negligible, and at x1/16 (1/16 of it against a
// max force of 1/64) neither: group 0 wins at both, the velocity 1/16 of x1's. With the
// manager's absolute 1/1024 the x1/16 force (1/2048) was negligible and the agent fled.
void test_priority_groups_choose_the_same_group_at_every_scale(void) {
  fix16_t v1 = priority_groups_at(FXS_ONE);
  TEST_ASSERT_TRUE(v1 > 0);
  static const fix16_t ks[] = {FXS_RATIO(1, 16), FXS_RATIO(1, 4), FXS_INT(4), FXS_INT(16)};
  for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    fix16_t vk = priority_groups_at(ks[i]);
    TEST_ASSERT_TRUE(vk > 0);
    TEST_ASSERT_INT32_WITHIN(2, times(v1, ks[i]), vk);
  }
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 1024), FXS_RATIO(1, 4) / FXS_MANAGER_EPSILON_DIVISOR);
}
