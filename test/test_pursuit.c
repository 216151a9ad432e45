#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "behavior_params.h"
#include "seek.h"
#include "pursuit.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_prediction_is_distance_over_max_speed(void) {
  fxs_agent self = fxs_test_agent_at(0, 0); // max speed 4
  fxs_agent target = fxs_test_agent_at(100, 0);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(25), fxs_prediction_ticks(&self, &target, FXS_INT(100)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), fxs_prediction_ticks(&self, &target, FXS_INT(10)));
  self.max_speed = 0;
  TEST_ASSERT_EQUAL_INT32(FXS_INT(7), fxs_prediction_ticks(&self, &target, FXS_INT(7)));
}

void test_pursuit_seeks_the_predicted_position(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_agent target = fxs_test_agent_at(100, 0);
  target.velocity = fxs_vec2_make(0, FXS_INT(2));
  fxs_vec2 f = fxs_pursuit(&self, &target, FXS_INT(100));
  fxs_vec2 expected = fxs_seek(&self, fxs_vec2_make(FXS_INT(100), FXS_INT(50))); // T = 25
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  // (100, 50) / |(100, 50)| * 4 = raw (234468.72, 117234.36), rounded to nearest
  TEST_ASSERT_EQUAL_INT32(234469, f.x);
  TEST_ASSERT_EQUAL_INT32(117234, f.y);
}

void test_evade_flees_the_predicted_position_with_the_look_ahead_cap(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_agent target = fxs_test_agent_at(100, 0);
  target.velocity = fxs_vec2_make(0, FXS_INT(2));
  fxs_vec2 f = fxs_evade(&self, &target, FXS_INT(10), 0);
  fxs_vec2 expected = fxs_flee(&self, fxs_vec2_make(FXS_INT(100), FXS_INT(20)), 0);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
}

void test_pursuit_catches_a_slower_target_crossing_its_path(void) {
  uint32_t rng = 31;
  for (int c = 0; c < 20; ++c) {
    fxs_agent hunter = fxs_test_agent_at(0, 0);
    fxs_agent prey = fxs_test_agent_at(0, 0);
    fix16_t px = fxs_test_units(&rng, 300, 1500);
    fix16_t py = fxs_test_units(&rng, -1500, 1500);
    prey.position = fxs_vec2_make(px, py);
    prey.velocity = fxs_vec2_make(fxs_test_units(&rng, -2, 2), FXS_INT(2));
    prey.velocity = fxs_vec2_truncate(prey.velocity, FXS_INT(2));
    int caught = -1;
    fxs_steering_manager m;
    for (int t = 0; t < 3000 && caught < 0; ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_PURSUIT,
                      fxs_steering_linear(fxs_pursuit(&hunter, &prey, FXS_INT(60))), FXS_ONE, 0);
      fxs_manager_update(&m, &hunter);
      prey.position = fxs_vec2_add(prey.position, prey.velocity);
      if (fxs_vec2_within(hunter.position, prey.position, FXS_INT(10))) caught = t;
    }
    TEST_ASSERT_TRUE_MESSAGE(caught >= 0, "pursuer never caught the prey");
  }
}

void test_evade_opens_the_distance_to_a_chaser(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_agent chaser = fxs_test_agent_at(-100, 20);
  chaser.velocity = fxs_vec2_make(FXS_INT(3), 0);
  fxs_steering_manager m;
  fix16_t before = fxs_vec2_distance(self.position, chaser.position);
  for (int t = 0; t < 200; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_EVADE,
                    fxs_steering_linear(fxs_evade(&self, &chaser, FXS_INT(30), 0)), FXS_ONE, 0);
    fxs_manager_update(&m, &self);
    chaser.position = fxs_vec2_add(chaser.position, chaser.velocity);
  }
  TEST_ASSERT_TRUE(fxs_vec2_distance(self.position, chaser.position) > before);
}
