#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "walker.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_within_the_minimum_step_the_walker_goes_straight_to_the_target(void) {
  fxs_walker_def def = fxs_default_walker_def(); // min 1, max 10, aggro 30
  fxs_rng rng;
  fxs_rng_seed(&rng, 1);
  fxs_vec2 target = fxs_vec2_make(FXS_RATIO(1, 2), FXS_RATIO(1, 2)); // 0.71 away
  fxs_vec2 p = fxs_walker_pick(fxs_vec2_zero(), target, &def, &rng);
  TEST_ASSERT_TRUE(fxs_vec2_equal(target, p));
}

void test_the_step_is_half_the_distance_clamped(void) {
  fxs_walker_def def = fxs_default_walker_def();
  def.aggro_radius = FXS_RATIO(1, 1000); // no narrowing: use the full +-45 degrees
  fxs_rng rng;
  fxs_rng_seed(&rng, 3);
  fxs_vec2 from = fxs_vec2_make(FXS_INT(10), FXS_INT(10)); // seed 003's example: (10, 10) -> 0
  for (int i = 0; i < 200; ++i) {
    fxs_vec2 p = fxs_walker_pick(from, fxs_vec2_zero(), &def, &rng);
    // step = 14.14 * 0.5 = 7.07 (inside [1, 10]); rotating it costs up to 4 LSB of sin/cos
    // error per unit of length.
    TEST_ASSERT_INT32_WITHIN(4 * 8 + 2, FXS_RATIO(7071, 1000), fxs_vec2_distance(from, p));
  }
  fxs_vec2 far = fxs_walker_pick(fxs_vec2_make(FXS_INT(3000), 0), fxs_vec2_zero(), &def, &rng);
  TEST_ASSERT_INT32_WITHIN(4 * 10 + 2, FXS_INT(10),
                           fxs_vec2_distance(fxs_vec2_make(FXS_INT(3000), 0), far));
}

void test_the_field_of_view_narrows_near_the_target(void) {
  fxs_walker_def def = fxs_default_walker_def();
  fxs_rng rng;
  fxs_rng_seed(&rng, 5);
  fix16_t widest_far = 0, widest_near = 0;
  for (int i = 0; i < 400; ++i) {
    fxs_vec2 far_from = fxs_vec2_make(FXS_INT(200), 0);
    fxs_vec2 far = fxs_walker_pick(far_from, fxs_vec2_zero(), &def, &rng);
    fix16_t dev = fxs_abs(fxs_angle_wrap(fxs_vec2_angle(fxs_vec2_sub(far, far_from)) - FXS_PI));
    widest_far = fxs_max(widest_far, dev);
    fxs_vec2 near_from = fxs_vec2_make(FXS_INT(6), 0);
    fxs_vec2 near = fxs_walker_pick(near_from, fxs_vec2_zero(), &def, &rng);
    dev = fxs_abs(fxs_angle_wrap(fxs_vec2_angle(fxs_vec2_sub(near, near_from)) - FXS_PI));
    widest_near = fxs_max(widest_near, dev);
  }
  // Beyond the aggro radius: up to pi/4 either side; at 6 units: pi/4 * 6/30 = 0.157 rad.
  TEST_ASSERT_TRUE(widest_far <= FXS_RATIO(785398, 1000000) + FXS_ATAN2_MAX_ERROR);
  TEST_ASSERT_TRUE(widest_far > FXS_RATIO(70, 100));
  TEST_ASSERT_TRUE(widest_near <= FXS_RATIO(157, 1000) + FXS_ATAN2_MAX_ERROR);
}

// Walks from (10, 10) to the origin; returns the tick it arrived at (or -1) and fills a hash.
static int walk(uint64_t seed, uint64_t *path_hash) {
  fxs_agent a = fxs_test_agent_at(400, -250);
  a.max_speed = FXS_INT(2);
  fxs_walker_def def = fxs_default_walker_def();
  def.max_step = FXS_INT(60);
  def.aggro_radius = FXS_INT(200);
  fxs_walker_state s = {{0, 0}, 0};
  fxs_rng rng;
  fxs_rng_seed_stream(&rng, seed, 3);
  fxs_steering_manager m;
  uint64_t h = 1469598103934665603u;
  for (int t = 0; t < 3000; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_vec2 f = fxs_random_walker(&a, fxs_vec2_zero(), &def, &s, &rng);
    fxs_manager_add(&m, FXS_BEHAVIOR_WALKER, fxs_steering_linear(f), FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    h = (h ^ (uint32_t)s.waypoint.x ^ ((uint64_t)(uint32_t)s.waypoint.y << 32)) * 1099511628211u;
    if (fxs_vec2_within(a.position, fxs_vec2_zero(), FXS_RATIO(1, 256)) &&
        fxs_vec2_is_zero(a.velocity)) {
      *path_hash = h;
      return t;
    }
  }
  *path_hash = h;
  return -1;
}

void test_the_walker_reaches_the_target_and_its_path_depends_only_on_the_seed(void) {
  uint64_t h1, h2, h3;
  TEST_ASSERT_TRUE(walk(8, &h1) >= 0);
  TEST_ASSERT_TRUE(walk(8, &h2) >= 0);
  TEST_ASSERT_TRUE(walk(9, &h3) >= 0);
  TEST_ASSERT_EQUAL_HEX64(h1, h2);
  TEST_ASSERT_NOT_EQUAL(h1, h3);
}

// Every waypoint the walker picks lies beyond its reach radius, so it is walked to rather
// than counted as reached a tick or two later: over a whole approach, from several seeds, no
// waypoint is replaced on the tick after it was picked.
void test_every_waypoint_is_held_until_walked_to(void) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    fxs_walker_def def = fxs_default_walker_def();
    fxs_agent a = fxs_default_agent();
    a.position = fxs_vec2_make(FXS_INT(120), FXS_INT(-40));
    fxs_walker_state st = {{0, 0}, 0};
    fxs_rng rng;
    fxs_rng_seed(&rng, seed);
    fxs_vec2 target = fxs_vec2_zero();
    fxs_vec2 last = fxs_vec2_zero();
    int held = 0, picks = 0;
    for (int t = 0; t < 600; ++t) {
      fxs_vec2 f = fxs_random_walker(&a, target, &def, &st, &rng);
      if (!fxs_vec2_equal(st.waypoint, last) || t == 0) {
        if (t > 0)
          TEST_ASSERT_TRUE_MESSAGE(held >= 2,
                                   "a waypoint was replaced the tick after it was picked");
        last = st.waypoint, held = 0, ++picks;
      }
      ++held;
      fxs_agent_integrate(&a, fxs_steering_linear(f), fxs_vec2_zero(), FXS_ONE);
    }
    TEST_ASSERT_TRUE(picks >= 5);
    TEST_ASSERT_TRUE(fxs_vec2_equal(target, st.waypoint)); // it ended on the target
  }
}
