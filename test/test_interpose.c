#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "interpose.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_interpose_defaults_are_the_documented_ones(void) {
  fxs_interpose_def d = fxs_default_interpose_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(32), d.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), d.max_prediction);
}

void test_the_midpoint_rounds_half_away_from_zero_and_never_overflows(void) {
  fxs_vec2 m = fxs_midpoint(fxs_vec2_make(1, -1), fxs_vec2_make(2, -2)); // 1.5 and -1.5 raw
  TEST_ASSERT_EQUAL_INT32(2, m.x);
  TEST_ASSERT_EQUAL_INT32(-2, m.y);
  m = fxs_midpoint(fxs_vec2_make(FXS_MAX, FXS_MIN), fxs_vec2_make(FXS_MAX, FXS_MAX));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, m.x);
  TEST_ASSERT_EQUAL_INT32(0, m.y);
  m = fxs_midpoint(fxs_vec2_make(FXS_MIN, FXS_INT(-3)), fxs_vec2_make(FXS_MIN, FXS_INT(10)));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, m.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(7, 2), m.y);
}

void test_interpose_predicts_both_agents_by_the_time_to_the_midpoint(void) {
  fxs_agent self = fxs_test_agent_at(0, 0); // max speed 4
  fxs_agent a = fxs_test_agent_at(100, 0), b = fxs_test_agent_at(100, 80);
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  b.velocity = fxs_vec2_make(0, FXS_INT(1));
  fxs_interpose_def d = fxs_default_interpose_def();
  // Midpoint (100, 40), 107.70 away: T = 26.926 ticks.
  double t_ref = sqrt(100.0 * 100.0 + 40.0 * 40.0) / 4.0;
  fix16_t t = fxs_interpose_ticks(&self, &a, &b, &d);
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, t_ref, fxs_test_to_double(t));
  TEST_ASSERT_EQUAL_INT32(1764611, t);
  // Predicted (100 + 2T, 0) and (100, 80 + T): midpoint (100 + T, 40 + T / 2).
  fxs_vec2 p = fxs_interpose_point(&self, &a, &b, &d);
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 100.0 + t_ref, fxs_test_to_double(p.x));
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 40.0 + t_ref / 2.0, fxs_test_to_double(p.y));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100) + 1764611, p.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(40) + 882306, p.y); // 1764611 / 2 rounded away from zero
  fxs_vec2 f = fxs_interpose(&self, &a, &b, &d);
  double px = 100.0 + t_ref, py = 40.0 + t_ref / 2.0, len = sqrt(px * px + py * py);
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 4.0 * px / len, fxs_test_to_double(f.x));
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 4.0 * py / len, fxs_test_to_double(f.y));
  fxs_vec2 expected = fxs_arrive(&self, p, d.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
}

void test_interpose_look_ahead_is_capped_and_defined_at_zero_speed(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_agent a = fxs_test_agent_at(100, 0), b = fxs_test_agent_at(100, 80);
  fxs_interpose_def d = fxs_default_interpose_def();
  d.max_prediction = FXS_INT(10);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), fxs_interpose_ticks(&self, &a, &b, &d));
  self.max_speed = 0;
  d.max_prediction = FXS_INT(7);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(7), fxs_interpose_ticks(&self, &a, &b, &d));
  d.max_prediction = -FXS_INT(7); // out of range: treated as 0
  TEST_ASSERT_EQUAL_INT32(0, fxs_interpose_ticks(&self, &a, &b, &d));
}

void test_an_agent_on_the_midpoint_of_two_still_agents_stays_there(void) {
  fxs_agent a = fxs_test_agent_at(-50, 20), b = fxs_test_agent_at(70, -40);
  fxs_agent self = fxs_test_agent_at(10, -10);
  fxs_interpose_def d = fxs_default_interpose_def();
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_interpose(&self, &a, &b, &d)));
}

static fxs_agent mirrored(fxs_agent a) {
  a.position.y = fxs_neg(a.position.y);
  a.velocity.y = fxs_neg(a.velocity.y);
  return a;
}

// Seeded scenes: the point matches double precision, swapping a and b changes nothing,
// mirroring the scene mirrors the force exactly, and the desired velocity is within max_speed.
void test_interpose_properties_over_seeded_cases(void) {
  uint32_t rng = 4242;
  double worst = 0;
  for (int c = 0; c < 500; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0), a = self, b = self;
    self.position = fxs_test_point(&rng, -1000, 1000);
    self.velocity = fxs_vec2_truncate(fxs_test_point(&rng, -4, 4), self.max_speed);
    a.position = fxs_test_point(&rng, -1000, 1000);
    a.velocity = fxs_test_point(&rng, -3, 3);
    b.position = fxs_test_point(&rng, -1000, 1000);
    b.velocity = fxs_test_point(&rng, -3, 3);
    fxs_interpose_def d = fxs_default_interpose_def();
    d.max_prediction = fxs_test_units(&rng, 0, 60);
    fxs_vec2 p = fxs_interpose_point(&self, &a, &b, &d);
    double mx = (fxs_test_to_double(a.position.x) + fxs_test_to_double(b.position.x)) / 2;
    double my = (fxs_test_to_double(a.position.y) + fxs_test_to_double(b.position.y)) / 2;
    double t =
        hypot(mx - fxs_test_to_double(self.position.x), my - fxs_test_to_double(self.position.y)) /
        4.0;
    if (t > fxs_test_to_double(d.max_prediction)) t = fxs_test_to_double(d.max_prediction);
    double ex = mx + t * (fxs_test_to_double(a.velocity.x) + fxs_test_to_double(b.velocity.x)) / 2;
    double ey = my + t * (fxs_test_to_double(a.velocity.y) + fxs_test_to_double(b.velocity.y)) / 2;
    double gap = hypot(fxs_test_to_double(p.x) - ex, fxs_test_to_double(p.y) - ey);
    worst = gap > worst ? gap : worst;
    TEST_ASSERT_TRUE(gap < 1e-3);
    fxs_vec2 f = fxs_interpose(&self, &a, &b, &d);
    fxs_vec2 swapped = fxs_interpose(&self, &b, &a, &d);
    TEST_ASSERT_EQUAL_INT32(f.x, swapped.x);
    TEST_ASSERT_EQUAL_INT32(f.y, swapped.y);
    fxs_agent ms = mirrored(self), ma = mirrored(a), mb = mirrored(b);
    fxs_vec2 mf = fxs_interpose(&ms, &ma, &mb, &d);
    TEST_ASSERT_EQUAL_INT32(f.x, mf.x);
    TEST_ASSERT_EQUAL_INT32(-f.y, mf.y);
    TEST_ASSERT_TRUE(fxs_vec2_length(fxs_vec2_add(f, self.velocity)) <= fxs_add(self.max_speed, 1));
  }
  FXS_TEST_REPORT("interpose: point within %.2e units of the double-precision point", worst);
}

// A client walks a circle of radius 150 at 1 unit per tick, an attacker a circle of radius
// 300 the other way at 1.5; a bodyguard starting far off interposes. Once it has closed in it
// stays near the moving midpoint: arrival needs a gap of about speed * slowing_radius /
// max_speed = 1.25 * 32 / 4 = 10 units to match the midpoint's speed of up to 1.25.
void test_a_bodyguard_stays_between_a_client_and_an_attacker(void) {
  fxs_agent guard = fxs_test_agent_at(-400, 400);
  fxs_interpose_def d = fxs_default_interpose_def();
  fxs_steering_manager m;
  double worst = 0;
  int reached = -1;
  for (int t = 0; t < 1200; ++t) {
    fxs_agent client = fxs_test_agent_at(0, 0), attacker = client;
    fix16_t ca = fxs_angle_wrap((fix16_t)(t * FXS_RATIO(1, 150)));
    fix16_t aa = fxs_angle_wrap((fix16_t)(-t * FXS_RATIO(1, 200)));
    client.position = fxs_vec2_scale(fxs_vec2_from_angle(ca), FXS_INT(150));
    client.velocity = fxs_vec2_from_angle(fxs_add(ca, FXS_HALF_PI));
    attacker.position = fxs_vec2_scale(fxs_vec2_from_angle(aa), FXS_INT(300));
    attacker.velocity =
        fxs_vec2_scale(fxs_vec2_from_angle(fxs_sub(aa, FXS_HALF_PI)), FXS_RATIO(3, 2));
    double gap = fxs_test_to_double(
        fxs_vec2_distance(guard.position, fxs_midpoint(client.position, attacker.position)));
    if (reached < 0 && gap < 12.0) reached = t;
    if (reached >= 0 && t > reached + 50 && gap > worst) worst = gap;
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_NONE,
                    fxs_steering_linear(fxs_interpose(&guard, &client, &attacker, &d)), FXS_ONE, 0);
    fxs_manager_update(&m, &guard);
  }
  FXS_TEST_REPORT("bodyguard: at the midpoint by tick %d, then within %.2f units of it", reached,
                  worst);
  TEST_ASSERT_TRUE(reached >= 0 && reached < 300);
  TEST_ASSERT_TRUE(worst < 12.0);
}

void test_interpose_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 7;
  for (int c = 0; c < 3000; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0), a = self, b = self;
    self.position = fxs_test_any_point(&rng);
    self.max_speed = fxs_abs(fxs_test_any_raw(&rng));
    self.velocity = fxs_vec2_truncate(fxs_test_any_point(&rng), self.max_speed);
    a.position = fxs_test_any_point(&rng);
    a.velocity = fxs_test_any_point(&rng);
    b.position = fxs_test_any_point(&rng);
    b.velocity = fxs_test_any_point(&rng);
    fxs_interpose_def d;
    d.slowing_radius = fxs_abs(fxs_test_any_raw(&rng));
    d.max_prediction = fxs_test_any_raw(&rng);
    fxs_vec2 f = fxs_interpose(&self, &a, &b, &d);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.x);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.y);
    fix16_t t = fxs_interpose_ticks(&self, &a, &b, &d);
    TEST_ASSERT_TRUE(t >= 0 && t <= fxs_max(d.max_prediction, 0));
  }
}
