#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "wander.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_wander_force_is_circle_center_plus_displacement(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_wander_def def = fxs_default_wander_def(); // distance 6, radius 8, change 1
  fxs_rng rng = {{1, 2, 3, 4}};                  // first draw 11520 -> below(65536) = 0
  fix16_t angle = 0;
  fxs_vec2 f = fxs_wander(&a, &def, &angle, &rng);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(14), f.x); // (6, 0) + (8, 0)
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(1, 2), angle); // 0 + (0 - change/2)
}

void test_wander_displacement_follows_the_wander_angle(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(0, FXS_INT(3));
  fxs_wander_def def = fxs_default_wander_def();
  def.angle_change = 0; // no randomness: the angle stays
  fxs_rng rng;
  fxs_rng_seed(&rng, 1);
  fix16_t angle = FXS_PI;
  fxs_vec2 f = fxs_wander(&a, &def, &angle, &rng);
  TEST_ASSERT_INT32_WITHIN(2, FXS_INT(-8), f.x); // displacement (-8, 0)
  TEST_ASSERT_INT32_WITHIN(2, FXS_INT(6), f.y);  // circle centre (0, 6)
  TEST_ASSERT_EQUAL_INT32(FXS_PI, angle);
}

// Runs a wandering agent for `ticks` and returns a hash of its path.
static uint64_t wander_path(uint64_t seed, int ticks) {
  fxs_agent a = fxs_test_agent_at(400, 300);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_wander_def def = fxs_default_wander_def();
  fxs_rng rng;
  fxs_rng_seed_stream(&rng, seed, 1);
  fix16_t angle = 0;
  uint64_t h = 1469598103934665603u;
  fxs_steering_manager m;
  for (int t = 0; t < ticks; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_vec2 f = fxs_wander(&a, &def, &angle, &rng);
    // sin/cos err <= 4 LSB per unit of circle_radius, plus rounding.
    TEST_ASSERT_TRUE(fxs_vec2_length(f) <= def.circle_distance + def.circle_radius + 8 * 4 + 2);
    TEST_ASSERT_TRUE(angle > -FXS_PI && angle <= FXS_PI);
    fxs_manager_add(&m, FXS_BEHAVIOR_WANDER, fxs_steering_linear(f), FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    h = (h ^ (uint32_t)a.position.x) * 1099511628211u;
    h = (h ^ (uint32_t)a.position.y) * 1099511628211u;
  }
  return h;
}

void test_the_same_seed_gives_the_same_wander_path(void) {
  TEST_ASSERT_EQUAL_HEX64(wander_path(77, 500), wander_path(77, 500));
}

void test_another_seed_gives_another_wander_path(void) {
  TEST_ASSERT_NOT_EQUAL(wander_path(77, 500), wander_path(78, 500));
}

void test_wander_keeps_moving_and_turning(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_wander_def def = fxs_default_wander_def();
  fxs_rng rng;
  fxs_rng_seed(&rng, 9);
  fix16_t angle = 0, min_heading = 0, max_heading = 0;
  fxs_steering_manager m;
  for (int t = 0; t < 400; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_WANDER,
                    fxs_steering_linear(fxs_wander(&a, &def, &angle, &rng)), FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    fix16_t h = fxs_vec2_angle(a.velocity);
    min_heading = fxs_min(min_heading, h);
    max_heading = fxs_max(max_heading, h);
  }
  TEST_ASSERT_TRUE(fxs_vec2_length(a.velocity) > FXS_ONE); // not stalled
  TEST_ASSERT_TRUE(max_heading - min_heading > FXS_ONE);   // turned by more than a radian
}
