#include "unity.h"

#include "scalar.h"
#include "vec2.h"

#include "agent.h"
#include "manager.h"
#include "seek.h"
#include "behavior.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_seek_desires_max_speed_straight_at_the_target(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 f = fxs_seek(&a, fxs_vec2_make(FXS_INT(300), FXS_INT(400)));
  TEST_ASSERT_EQUAL_INT32(157286, f.x); // 2.4 units/tick
  TEST_ASSERT_EQUAL_INT32(209715, f.y); // 3.2 units/tick
}

void test_seek_subtracts_the_current_velocity(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_vec2 f = fxs_seek(&a, fxs_vec2_make(FXS_INT(300), FXS_INT(400)));
  TEST_ASSERT_EQUAL_INT32(157286 - 65536, f.x);
  TEST_ASSERT_EQUAL_INT32(209715, f.y);
}

void test_seek_works_thousands_of_units_away(void) {
  fxs_agent a = fxs_test_agent_at(-9000, 2000);
  fxs_vec2 f = fxs_seek(&a, fxs_vec2_make(FXS_INT(15000), FXS_INT(-5000)));
  // direction (24000, -7000) = 25000 * (0.96, -0.28)
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(384, 100), f.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(112, 100), f.y);
}

void test_seek_limited_by_max_force_is_seed_001s_limit(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_agent_integrate(&a,
                      fxs_steering_linear(fxs_seek(&a, fxs_vec2_make(FXS_INT(300), FXS_INT(400)))),
                      fxs_vec2_zero(), FXS_ONE);
  // force (91750, 209715) truncated to 0.25 = (6566.997, 15010.33) toward zero
  TEST_ASSERT_EQUAL_INT32(65536 + 6566, a.velocity.x);
  TEST_ASSERT_EQUAL_INT32(15010, a.velocity.y);
  TEST_ASSERT_EQUAL_INT32(65536 + 6566, a.position.x);
}

void test_flee_is_the_negated_seek_desire(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 f = fxs_flee(&a, fxs_vec2_make(FXS_INT(30), FXS_INT(40)), 0);
  TEST_ASSERT_EQUAL_INT32(-157286, f.x);
  TEST_ASSERT_EQUAL_INT32(-209715, f.y);
}

void test_flee_ignores_threats_beyond_the_panic_radius(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 target = fxs_vec2_make(FXS_INT(30), FXS_INT(40));
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_flee(&a, target, FXS_INT(50) - 1)));
  TEST_ASSERT_FALSE(fxs_vec2_is_zero(fxs_flee(&a, target, FXS_INT(50))));
}

void test_flee_from_its_own_position_picks_a_defined_direction(void) {
  fxs_agent a = fxs_test_agent_at(10, 10);
  fxs_vec2 f = fxs_flee(&a, a.position, 0);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  a.velocity = fxs_vec2_make(0, -FXS_ONE);
  f = fxs_flee(&a, a.position, 0);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(4) + FXS_ONE, f.y);
}

void test_arrive_slows_linearly_inside_the_slowing_radius(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 f = fxs_arrive(&a, fxs_vec2_make(FXS_INT(30), FXS_INT(40)), FXS_INT(100));
  TEST_ASSERT_EQUAL_INT32(78643, f.x); // speed 4 * 50/100 = 2 -> (1.2, 1.6)
  TEST_ASSERT_EQUAL_INT32(104858, f.y);
  fxs_vec2 far = fxs_arrive(&a, fxs_vec2_make(FXS_INT(300), FXS_INT(400)), FXS_INT(100));
  TEST_ASSERT_EQUAL_INT32(157286, far.x); // outside the radius: plain seek
}

void test_arrive_on_the_target_brakes_to_a_stop(void) {
  fxs_agent a = fxs_test_agent_at(5, 5);
  a.velocity = fxs_vec2_make(FXS_RATIO(1, 10), 0);
  fxs_vec2 f = fxs_arrive(&a, a.position, FXS_INT(100));
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(1, 10), f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
}

// Runs arrive until the agent stops; returns the tick it stopped at (or -1). Fails on a
// creep: 10 ticks in a row at 1 LSB a tick or less without being at rest.
static int run_until_rest(fxs_agent *a, fxs_vec2 target, fix16_t slowing, int max_ticks) {
  fxs_steering_manager m;
  int still = 0, creep = 0;
  for (int t = 0; t < max_ticks; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE, fxs_steering_linear(fxs_arrive(a, target, slowing)),
                    FXS_ONE, 0);
    fxs_vec2 before = a->position;
    fxs_manager_update(&m, a);
    still = fxs_vec2_equal(before, a->position) && fxs_vec2_is_zero(a->velocity) ? still + 1 : 0;
    bool crawling = !fxs_vec2_is_zero(a->velocity) && fxs_abs(a->velocity.x) <= 1 &&
                    fxs_abs(a->velocity.y) <= 1;
    creep = crawling ? creep + 1 : 0;
    TEST_ASSERT_TRUE_MESSAGE(creep < 10, "creeps at 1 LSB a tick");
    if (still == 3) return t;
  }
  return -1;
}

void test_arrive_comes_to_rest_on_far_targets_and_stays_for_200_ticks(void) {
  uint32_t rng = 2024;
  for (int c = 0; c < 40; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    a.position = fxs_test_point(&rng, -2000, 2000);
    a.mass = FXS_ONE + (fix16_t)(fxs_test_lcg(&rng) % (uint32_t)FXS_INT(2));
    fxs_vec2 target = fxs_test_point(&rng, -2000, 2000);
    if (fxs_vec2_within(a.position, target, FXS_INT(300)))
      target.x = fxs_add(target.x, FXS_INT(600));
    fix16_t slowing = fxs_test_units(&rng, 120, 300);
    TEST_ASSERT_TRUE_MESSAGE(run_until_rest(&a, target, slowing, 5000) >= 0, "never came to rest");
    // On the target to 1 LSB: a heavier agent's last force (offset - velocity) / mass can
    // round to nothing one LSB short.
    TEST_ASSERT_INT32_WITHIN_MESSAGE(1, target.x, a.position.x, "rested away from the target");
    TEST_ASSERT_INT32_WITHIN_MESSAGE(1, target.y, a.position.y, "rested away from the target");
    fxs_vec2 rest = a.position;
    fxs_steering_manager m;
    for (int t = 0; t < 200; ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE, fxs_steering_linear(fxs_arrive(&a, target, slowing)),
                      FXS_ONE, 0);
      fxs_manager_update(&m, &a);
      TEST_ASSERT_TRUE_MESSAGE(fxs_vec2_equal(rest, a.position), "jitter after coming to rest");
    }
  }
}
