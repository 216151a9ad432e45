// Containment and clamped bounds in the world's step: the brake before an inset bound, agents
// that seek past a bound turning before it, a clamped agent losing its velocity into it, and
// kinematic agents bouncing off it.
#include <string.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "result.h"
#include "command.h"
#include "world.h"
#include "fxs_test_world.h"

static uint64_t memory[8192];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

static void make_clamped(void) {
  fxs_world_capacity c = {4, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(1000), FXS_INT(1000));
  def.clamp_to_bounds = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
}

static void seek_point(fxs_agent_handle h, fix16_t x, fix16_t y) {
  fxs_test_add_behavior(&world, h, FXS_BEHAVIOR_SEEK, 0);
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  c.agent = h.value, c.arg[0] = x, c.arg[1] = y;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
}

void test_containment_brakes_with_the_full_budget_when_the_stop_would_cross_the_inset_bound(void) {
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(1000), FXS_INT(1000));
  def.clamp_to_bounds = 1;
  fxs_agent a = fxs_default_agent();
  a.max_force = FXS_RATIO(1, 5), a.mass = FXS_ONE, a.radius = FXS_INT(8);
  // x: 950 + 3 + 3 * 3 * 5 = 998 > 1000 - 16; y: 500 + 0 + 0 inside [16, 984].
  a.position = fxs_vec2_make(FXS_INT(950), FXS_INT(500));
  a.velocity = fxs_vec2_make(FXS_INT(3), 0);
  fxs_vec2 f = fxs_containment(&a, &def);
  TEST_ASSERT_EQUAL_INT32(-13107, f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  // 900 + 3 + 45 = 948 <= 984: nothing yet. Moving away from the low bound: nothing.
  a.position.x = FXS_INT(900);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_containment(&a, &def)));
  a.position = fxs_vec2_make(FXS_INT(10), FXS_INT(10)); // inside the inset on both axes
  a.velocity = fxs_vec2_zero();
  f = fxs_containment(&a, &def);
  TEST_ASSERT_EQUAL_INT32(13107, f.x);
  TEST_ASSERT_EQUAL_INT32(13107, f.y);
  def.clamp_to_bounds = 0;
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_containment(&a, &def)));
}

void test_an_agent_seeking_past_a_clamped_bound_turns_before_its_body_reaches_it(void) {
  make_clamped();
  // max speed 3, max force 1/5
  fxs_agent_handle h = fxs_test_spawn_raw(&world, FXS_INT(500), FXS_INT(500));
  seek_point(h, FXS_INT(2000), FXS_INT(520));
  fix16_t far = 0;
  for (int t = 0; t < 600; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    const fxs_agent *a = fxs_world_agent(&world, h);
    TEST_ASSERT_TRUE(a->position.x <= FXS_INT(1000) - a->radius);
    far = fxs_max(far, a->position.x);
  }
  TEST_ASSERT_TRUE(far > FXS_INT(950)); // it did go for the bound
}

void test_a_clamped_agent_loses_its_velocity_into_the_bound(void) {
  make_clamped();
  fxs_agent_handle h = fxs_test_spawn_raw(&world, FXS_INT(999), FXS_INT(500));
  fxs_command c = fxs_command_make(FXS_CMD_APPLY_FORCE, 0, 0);
  c.agent = h.value, c.arg[0] = FXS_INT(5), c.arg[1] = FXS_INT(1);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  fxs_world_step(&world, 0, 0, 0);
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1000), a->position.x);
  TEST_ASSERT_EQUAL_INT32(0, a->velocity.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1), a->velocity.y); // along the bound: kept
}

void test_a_kinematic_agent_heading_into_a_clamped_bound_bounces_off_it(void) {
  make_clamped();
  // radius 8: within 16 of x = 1000
  fxs_agent_handle h = fxs_test_spawn_raw(&world, FXS_INT(990), FXS_INT(500));
  fxs_test_add_behavior(&world, h, FXS_BEHAVIOR_KINEMATIC_WANDER, 0);
  fxs_world_step(&world, 0, 0, 0); // orientation 0: full speed towards +x, reversed
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(3), a->velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, a->velocity.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(987), a->position.x);
  TEST_ASSERT_INT32_WITHIN(700, FXS_PI, fxs_abs(a->orientation)); // faces -x (atan2 within 0.0102)
}

// Without the bounce the wanderer of the orientation scene stayed on an edge for 892 ticks.
void test_a_kinematic_wanderer_is_never_pressed_against_a_bound(void) {
  make_clamped();
  fxs_agent_handle h = fxs_test_spawn_raw(&world, FXS_INT(500), FXS_INT(500));
  fxs_test_add_behavior(&world, h, FXS_BEHAVIOR_KINEMATIC_WANDER, FXS_RATIO(1, 2));
  int run = 0, longest = 0, visits = 0;
  for (int t = 0; t < 20000; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    const fxs_agent *a = fxs_world_agent(&world, h);
    fix16_t edge = fxs_add(a->radius, a->radius); // the containment margin
    bool near = a->position.x < edge || a->position.y < edge ||
                a->position.x > FXS_INT(1000) - edge || a->position.y > FXS_INT(1000) - edge;
    run = near ? run + 1 : 0;
    visits += run == 1;
    longest = run > longest ? run : longest;
  }
  TEST_ASSERT_TRUE(visits >= 4);  // it does reach the edges
  TEST_ASSERT_TRUE(longest <= 3); // and leaves them at once
}
