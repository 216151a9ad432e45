#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "kinematic.h"
#include "align.h"
#include "velocity_match.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_kinematic_seek_moves_at_full_speed_and_faces_its_velocity(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_kinematic_output out = fxs_kinematic_seek(&a, fxs_vec2_make(FXS_INT(300), FXS_INT(400)));
  TEST_ASSERT_EQUAL_INT32(157286, out.velocity.x);
  TEST_ASSERT_EQUAL_INT32(209715, out.velocity.y);
  TEST_ASSERT_EQUAL_INT32(fxs_atan2(FXS_INT(4), FXS_INT(3)), out.rotation);
  TEST_ASSERT_INT32_WITHIN(FXS_ATAN2_MAX_ERROR, 60771, out.rotation); // atan2(4, 3)
  fxs_kinematic_apply(&a, out);
  TEST_ASSERT_EQUAL_INT32(out.rotation, a.orientation);
  TEST_ASSERT_EQUAL_INT32(157286, a.position.x);
}

// One unit short of the target at max speed 4: the agent lands on it and, at rest there,
// keeps the orientation it arrived with for good (no pi flip of an overshoot each tick).
void test_kinematic_seek_lands_on_the_target_and_keeps_its_orientation(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 target = fxs_vec2_make(FXS_ONE, 0);
  fxs_kinematic_apply(&a, fxs_kinematic_seek(&a, target));
  TEST_ASSERT_TRUE(fxs_vec2_equal(target, a.position));
  TEST_ASSERT_EQUAL_INT32(0, a.orientation);
  a.orientation = FXS_RATIO(1, 3); // any heading it had is kept from here on
  for (int t = 0; t < 50; ++t) {
    fxs_kinematic_output out = fxs_kinematic_seek(&a, target);
    TEST_ASSERT_EQUAL_INT32(0, out.rotation);
    fxs_kinematic_apply(&a, out);
    TEST_ASSERT_TRUE(fxs_vec2_equal(target, a.position));
    TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 3), a.orientation);
  }
}

// A target that creeps ahead slower than max speed: the seeker keeps facing forward, never
// turning round (a turn of more than pi / 2 in one tick).
void test_kinematic_seek_after_a_slow_target_never_turns_round(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 target = fxs_vec2_make(FXS_INT(10), 0);
  for (int t = 0; t < 100; ++t) {
    target.x = fxs_add(target.x, FXS_RATIO(3, 2));
    fxs_kinematic_output out = fxs_kinematic_seek(&a, target);
    TEST_ASSERT_TRUE(fxs_abs(out.rotation) < FXS_RATIO(157, 100));
    fxs_kinematic_apply(&a, out);
  }
  TEST_ASSERT_TRUE(fxs_vec2_equal(target, a.position));
  TEST_ASSERT_EQUAL_INT32(0, a.orientation);
}

void test_kinematic_arrive_divides_by_time_to_target_and_stops_inside_the_radius(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_kinematic_output out =
      fxs_kinematic_arrive(&a, fxs_vec2_make(FXS_INT(6), FXS_INT(8)), FXS_INT(2), FXS_INT(4));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 2), out.velocity.x); // (6, 8) / 4, under max speed
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), out.velocity.y);
  out = fxs_kinematic_arrive(&a, fxs_vec2_make(FXS_INT(600), FXS_INT(800)), FXS_INT(2), FXS_INT(4));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(24, 10), out.velocity.x); // clipped to max speed 4
  out = fxs_kinematic_arrive(&a, fxs_vec2_make(FXS_ONE, FXS_ONE), FXS_INT(2), FXS_INT(4));
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(out.velocity));
  TEST_ASSERT_EQUAL_INT32(0, out.rotation);
}

void test_kinematic_arrive_reaches_a_far_target_and_stops(void) {
  fxs_agent a = fxs_test_agent_at(-1500, 900);
  fxs_vec2 target = fxs_vec2_make(FXS_INT(700), FXS_INT(-300));
  for (int t = 0; t < 2000; ++t) {
    fxs_kinematic_apply(&a, fxs_kinematic_arrive(&a, target, FXS_INT(2), FXS_INT(4)));
  }
  TEST_ASSERT_TRUE(fxs_vec2_within(a.position, target, FXS_INT(2)));
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
}

void test_kinematic_wander_moves_along_its_orientation_and_turns_randomly(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_rng rng;
  fxs_rng_seed(&rng, 12);
  fxs_kinematic_output out = fxs_kinematic_wander(&a, FXS_RATIO(1, 5), &rng);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), out.velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, out.velocity.y);
  TEST_ASSERT_TRUE(out.rotation > -FXS_RATIO(1, 5) && out.rotation < FXS_RATIO(1, 5));
  fxs_rng again;
  fxs_rng_seed(&again, 12);
  TEST_ASSERT_EQUAL_INT32(out.rotation, fxs_kinematic_wander(&a, FXS_RATIO(1, 5), &again).rotation);
}

void test_align_accelerates_toward_the_target_orientation(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);       // max rotation 0.2, max angular acceleration 0.05
  fxs_align_def def = fxs_default_align_def(); // time to target 2
  // Far outside the slow radius: target rotation 0.2, (0.2 - 0) / 2 = 0.1, limited to 0.05.
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 20), fxs_align(&a, FXS_HALF_PI, &def));
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(1, 20), fxs_align(&a, -FXS_HALF_PI, &def));
  // Inside the slow radius: 0.25 rad -> target rotation 0.2 * 0.25 / 0.5 = 0.1; minus the
  // current rotation 0.08, over 2 ticks = 0.01.
  a.rotation = FXS_RATIO(8, 100);
  TEST_ASSERT_EQUAL_INT32(
      fxs_div(fxs_muldiv(FXS_RATIO(1, 5), FXS_RATIO(1, 4), FXS_RATIO(1, 2)) - FXS_RATIO(8, 100),
              FXS_INT(2)),
      fxs_align(&a, FXS_RATIO(1, 4), &def));
}

void test_align_takes_the_short_way_round(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.orientation = FXS_PI - FXS_RATIO(1, 10);
  fxs_align_def def = fxs_default_align_def();
  // Target just across +-pi: mapToRange gives +0.2 rad, not -6.08.
  TEST_ASSERT_TRUE(fxs_align(&a, -FXS_PI + FXS_RATIO(1, 10), &def) > 0);
}

// Steers orientation with `behavior` until it settles; returns the final agent.
static fxs_agent settle_orientation(fxs_agent a, fxs_vec2 face_point, int use_face) {
  fxs_align_def def = fxs_default_align_def();
  a.orientation_mode = FXS_ORIENT_STEERED;
  fxs_steering_manager m;
  for (int t = 0; t < 400; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fix16_t angular = use_face ? fxs_face(&a, face_point, &def) : fxs_look_where_going(&a, &def);
    fxs_manager_add(&m, use_face ? FXS_BEHAVIOR_FACE : FXS_BEHAVIOR_LOOK_WHERE_GOING,
                    fxs_steering_angular(angular), FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    TEST_ASSERT_TRUE(fxs_abs(a.rotation) <= a.max_rotation);
  }
  return a;
}

void test_face_turns_to_the_point_and_comes_to_rest(void) {
  fxs_agent a = fxs_test_agent_at(100, 100);
  a.orientation = -FXS_RATIO(3, 1);
  a = settle_orientation(a, fxs_vec2_make(FXS_INT(100), FXS_INT(900)), 1); // straight +y
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 100), FXS_HALF_PI, a.orientation);
  TEST_ASSERT_EQUAL_INT32(0, a.rotation);
}

void test_look_where_going_turns_to_the_velocity(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(-FXS_INT(2), 0);
  a.max_speed = FXS_INT(2);
  a = settle_orientation(a, fxs_vec2_zero(), 0);
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 100), 0, fxs_angle_wrap(a.orientation - FXS_PI));
  TEST_ASSERT_EQUAL_INT32(0, a.rotation);
}

void test_velocity_match_divides_by_time_and_limits_acceleration(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_vec2 f = fxs_velocity_match(&a, fxs_vec2_make(FXS_INT(2), FXS_ONE), FXS_INT(8), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 8), f.x); // (1, 1) / 8
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 8), f.y);
  f = fxs_velocity_match(&a, fxs_vec2_make(FXS_INT(4), -FXS_INT(3)), FXS_ONE, FXS_RATIO(1, 2));
  TEST_ASSERT_TRUE(fxs_vec2_length_sq(f) <= (uint64_t)FXS_RATIO(1, 2) * FXS_RATIO(1, 2));
  TEST_ASSERT_INT32_WITHIN(2, FXS_RATIO(1, 2), fxs_vec2_length(f));
}

void test_dynamic_arrive_comes_to_rest_inside_the_target_radius(void) {
  uint32_t rng = 404;
  fxs_dynamic_arrive_def def = fxs_default_dynamic_arrive_def();
  for (int c = 0; c < 20; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    a.max_force = def.max_acceleration;
    fxs_vec2 target = fxs_test_point(&rng, -2500, 2500);
    a.position = fxs_vec2_add(target, fxs_vec2_make(FXS_INT(400), fxs_test_units(&rng, -300, 300)));
    fxs_steering_manager m;
    fxs_vec2 rest = a.position;
    for (int t = 0; t < 1200; ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_DYNAMIC_ARRIVE,
                      fxs_steering_linear(fxs_dynamic_arrive(&a, target, &def)), FXS_ONE, 0);
      fxs_manager_update(&m, &a);
      if (t == 999) rest = a.position;
      if (t >= 1000)
        TEST_ASSERT_TRUE_MESSAGE(fxs_vec2_equal(rest, a.position), "drifts after arriving");
    }
    TEST_ASSERT_TRUE(fxs_vec2_within(a.position, target, def.target_radius));
  }
}
