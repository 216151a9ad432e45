#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "pursuit.h"
#include <math.h>

#include "fxs_test_util.h"
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

// ---------------------------------------------------------------- offset pursuit

static fxs_offset_pursuit_def slot_def(int forward, int side) {
  fxs_offset_pursuit_def d = fxs_default_offset_pursuit_def();
  d.offset_forward = FXS_INT(forward);
  d.offset_side = FXS_INT(side);
  return d;
}

void test_offset_pursuit_defaults_are_the_documented_ones(void) {
  fxs_offset_pursuit_def d = fxs_default_offset_pursuit_def();
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(30), d.offset_forward);
  TEST_ASSERT_EQUAL_INT32(0, d.offset_side);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(32), d.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), d.max_prediction);
}

void test_the_slot_turns_with_the_leaders_velocity(void) {
  fxs_agent leader = fxs_test_agent_at(100, 50);
  leader.velocity = fxs_vec2_make(FXS_INT(3), FXS_INT(4)); // heading (0.6, 0.8)
  fxs_offset_pursuit_def d = slot_def(-30, 10);
  fxs_vec2 slot = fxs_offset_pursuit_slot(&leader, &d);
  // -30 (0.6, 0.8) + 10 (-0.8, 0.6) = (-26, -18). The unit heading is raw (39322, 52429)
  // (0.6 and 0.8 rounded up), so x = -30 * 39322 - 10 * 52429 = -1703950 raw (exact -1703936).
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100) - 1703950, slot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(50) - 1179650, slot.y);
  TEST_ASSERT_DOUBLE_WITHIN(1e-3, 74.0, fxs_test_to_double(slot.x));
  TEST_ASSERT_DOUBLE_WITHIN(1e-3, 32.0, fxs_test_to_double(slot.y));
}

void test_a_leader_at_rest_places_the_slot_by_its_orientation(void) {
  fxs_agent leader = fxs_test_agent_at(0, 0);
  leader.orientation = FXS_HALF_PI; // facing +y
  fxs_offset_pursuit_def d = slot_def(-30, 10);
  fxs_vec2 slot = fxs_offset_pursuit_slot(&leader, &d);
  // forward (0, 1), side (-1, 0): -30 (0, 1) + 10 (-1, 0) = (-10, -30)
  TEST_ASSERT_INT32_WITHIN(4 * 30, -FXS_INT(10), slot.x);
  TEST_ASSERT_INT32_WITHIN(4 * 30, -FXS_INT(30), slot.y);
  // Crawling below FXS_HEADING_MIN_SPEED along -x does not turn the slot.
  leader.velocity = fxs_vec2_make(-(FXS_HEADING_MIN_SPEED - 1), 0);
  fxs_vec2 same = fxs_offset_pursuit_slot(&leader, &d);
  TEST_ASSERT_EQUAL_INT32(slot.x, same.x);
  TEST_ASSERT_EQUAL_INT32(slot.y, same.y);
}

void test_offset_pursuit_looks_ahead_by_distance_over_both_speeds(void) {
  fxs_agent self = fxs_test_agent_at(0, 40); // max speed 4
  fxs_agent leader = fxs_test_agent_at(100, 0);
  leader.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_offset_pursuit_def d = slot_def(-30, 0); // slot (70, 0), 80.62 away
  fix16_t t = fxs_offset_pursuit_ticks(&self, &leader, &d);
  double t_ref = sqrt(70.0 * 70.0 + 40.0 * 40.0) / 6.0; // 13.437 ticks
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, t_ref, fxs_test_to_double(t));
  TEST_ASSERT_EQUAL_INT32(880614, t); // regression pin
  fxs_vec2 f = fxs_offset_pursuit(&self, &leader, &d);
  // Outside the slowing radius: full speed toward (70 + 2 T, 0).
  double px = 70.0 + 2.0 * t_ref, py = -40.0, len = sqrt(px * px + py * py);
  TEST_ASSERT_DOUBLE_WITHIN(1e-3, 4.0 * px / len, fxs_test_to_double(f.x));
  TEST_ASSERT_DOUBLE_WITHIN(1e-3, 4.0 * py / len, fxs_test_to_double(f.y));
  TEST_ASSERT_EQUAL_INT32(242301, f.x);
  TEST_ASSERT_EQUAL_INT32(-100048, f.y);
  d.max_prediction = FXS_INT(5); // the cap
  TEST_ASSERT_EQUAL_INT32(FXS_INT(5), fxs_offset_pursuit_ticks(&self, &leader, &d));
  self.max_speed = 0;
  leader.velocity = fxs_vec2_zero();
  TEST_ASSERT_EQUAL_INT32(0, fxs_offset_pursuit_ticks(&self, &leader, &d));
}

void test_offset_pursuit_comes_to_rest_on_the_slot_of_a_leader_at_rest(void) {
  fxs_agent leader = fxs_test_agent_at(200, 0);
  fxs_offset_pursuit_def d = slot_def(-30, 20);
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_vec2 slot = fxs_offset_pursuit_slot(&leader, &d);
  self.position = slot;
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_offset_pursuit(&self, &leader, &d)));
}

// Random leaders, followers and slots: the slot sits |offset| from the leader along the
// rotated offset, the force is a desired velocity (at most max_speed) minus the velocity, and
// mirroring the scene across the x axis mirrors the force exactly.
void test_offset_pursuit_properties_over_seeded_cases(void) {
  uint32_t rng = 2024;
  double worst_slot = 0;
  for (int c = 0; c < 500; ++c) {
    fxs_agent leader = fxs_test_agent_at(0, 0), self = fxs_test_agent_at(0, 0);
    leader.position = fxs_test_point(&rng, -2000, 2000);
    leader.velocity = fxs_test_point(&rng, -3, 3);
    leader.orientation = fxs_angle_wrap((fix16_t)(fxs_test_lcg(&rng) % 411774u));
    self.position = fxs_test_point(&rng, -2000, 2000);
    self.velocity = fxs_vec2_truncate(fxs_test_point(&rng, -4, 4), self.max_speed);
    fxs_offset_pursuit_def d = slot_def(0, 0);
    d.offset_forward = fxs_test_units(&rng, -80, 80);
    d.offset_side = fxs_test_units(&rng, -80, 80);
    fxs_vec2 slot = fxs_offset_pursuit_slot(&leader, &d);
    fxs_vec2 h = fxs_agent_heading(&leader);
    double hx = fxs_test_to_double(h.x), hy = fxs_test_to_double(h.y), hl = sqrt(hx * hx + hy * hy);
    hx /= hl, hy /= hl;
    double fw = fxs_test_to_double(d.offset_forward), sd = fxs_test_to_double(d.offset_side);
    double ex = fxs_test_to_double(leader.position.x) + fw * hx - sd * hy;
    double ey = fxs_test_to_double(leader.position.y) + fw * hy + sd * hx;
    double gap = hypot(fxs_test_to_double(slot.x) - ex, fxs_test_to_double(slot.y) - ey);
    worst_slot = gap > worst_slot ? gap : worst_slot;
    TEST_ASSERT_TRUE(gap < 5e-3);
    fxs_vec2 f = fxs_offset_pursuit(&self, &leader, &d);
    fxs_vec2 desired = fxs_vec2_add(f, self.velocity);
    TEST_ASSERT_TRUE(fxs_vec2_length(desired) <= fxs_add(self.max_speed, 1));
    if (!fxs_vec2_is_zero(leader.velocity)) { // the mirror of a heading from cos/sin is not exact
      fxs_agent ml = leader, ms = self;
      ml.position.y = -ml.position.y, ml.velocity.y = -ml.velocity.y;
      ms.position.y = -ms.position.y, ms.velocity.y = -ms.velocity.y;
      fxs_offset_pursuit_def md = d;
      md.offset_side = -md.offset_side;
      fxs_vec2 mf = fxs_offset_pursuit(&ms, &ml, &md);
      TEST_ASSERT_EQUAL_INT32(f.x, mf.x);
      TEST_ASSERT_EQUAL_INT32(-f.y, mf.y);
    }
  }
  FXS_TEST_REPORT("offset pursuit: slot within %.2e units of the double-precision slot",
                  worst_slot);
}

// A leader drives a square; four followers in a V hold their slots. On the straights (100
// ticks after a corner) every follower sits the documented lag behind its slot,
// 2 * 32 * (4 + 2) / (4 * (4 + 2 * 2)) = 12 units at leader speed 2, within half a unit;
// round a corner the gap grows at most by the slot's own swing; no two bodies (radius 8) ever
// touch.
void test_followers_keep_a_v_formation_behind_a_leader_driving_a_square(void) {
  enum { N = 4 };
  static const int slots[N][2] = {{-30, 25}, {-30, -25}, {-60, 50}, {-60, -50}};
  fxs_agent leader = fxs_test_agent_at(0, 0), f[N];
  leader.max_speed = FXS_INT(2);
  fxs_offset_pursuit_def defs[N];
  uint32_t rng = 77;
  for (int i = 0; i < N; ++i) {
    f[i] = fxs_test_agent_at(0, 0);
    f[i].position = fxs_test_point(&rng, -200, -50);
    defs[i] = slot_def(slots[i][0], slots[i][1]);
  }
  const fxs_vec2 corners[4] = {
      {FXS_INT(600), 0}, {FXS_INT(600), FXS_INT(600)}, {0, FXS_INT(600)}, {0, 0}};
  int corner = 0, since_turn = 0;
  double worst = 0, least = 1e9, turning = 0, closest = 1e9;
  fxs_steering_manager m;
  for (int t = 0; t < 1500; ++t) {
    if (fxs_vec2_within(leader.position, corners[corner], FXS_INT(4))) {
      corner = (corner + 1) % 4;
      since_turn = 0;
    }
    ++since_turn;
    fxs_agent next[N];
    for (int i = 0; i < N; ++i) {
      next[i] = f[i];
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_NONE,
                      fxs_steering_linear(fxs_offset_pursuit(&f[i], &leader, &defs[i])), FXS_ONE,
                      0);
      fxs_manager_update(&m, &next[i]);
    }
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, fxs_steering_linear(fxs_seek(&leader, corners[corner])),
                    FXS_ONE, 0);
    fxs_manager_update(&m, &leader);
    for (int i = 0; i < N; ++i) f[i] = next[i];
    // On a straight, 100 ticks past a corner.
    bool steady = t > 300 && since_turn > 100;
    for (int i = 0; i < N; ++i) {
      double gap = fxs_test_to_double(
          fxs_vec2_distance(f[i].position, fxs_offset_pursuit_slot(&leader, &defs[i])));
      if (steady && gap > worst) worst = gap;
      if (steady && gap < least) least = gap;
      if (t > 300 && gap > turning) turning = gap;
      for (int j = i + 1; j < N; ++j) {
        double apart = fxs_test_to_double(fxs_vec2_distance(f[i].position, f[j].position));
        if (apart < closest) closest = apart;
      }
    }
  }
  FXS_TEST_REPORT(
      "V formation: slot gap on the straights %.3f..%.3f units, at corners up to "
      "%.2f, closest followers %.2f",
      least, worst, turning, closest);
  TEST_ASSERT_DOUBLE_WITHIN(0.5, 12.0, worst);
  TEST_ASSERT_DOUBLE_WITHIN(0.5, 12.0, least);
  // A 90 degree turn swings the outer slots (78.1 from the leader) by 78.1 * sqrt(2) = 110.5.
  TEST_ASSERT_TRUE(turning < 110.5 + 12.0);
  TEST_ASSERT_TRUE(closest > 16.0);
}

// Any raw value in [FXS_MIN, FXS_MAX], edges included often.
// Extreme positions, velocities, offsets and limits: no UB (the sanitizer build checks),
// no 0x80000000 sentinel out, and a look-ahead within [0, max_prediction].
void test_offset_pursuit_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 99;
  for (int c = 0; c < 3000; ++c) {
    fxs_agent leader = fxs_test_agent_at(0, 0), self = fxs_test_agent_at(0, 0);
    leader.position = fxs_test_any_point(&rng);
    leader.velocity = fxs_test_any_point(&rng);
    leader.orientation = fxs_test_any_raw(&rng);
    self.position = fxs_test_any_point(&rng);
    self.max_speed = fxs_abs(fxs_test_any_raw(&rng));
    self.velocity = fxs_vec2_truncate(fxs_test_any_point(&rng), self.max_speed);
    fxs_offset_pursuit_def d = fxs_default_offset_pursuit_def();
    d.offset_forward = fxs_test_any_raw(&rng);
    d.offset_side = fxs_test_any_raw(&rng);
    d.slowing_radius = fxs_abs(fxs_test_any_raw(&rng));
    d.max_prediction = fxs_abs(fxs_test_any_raw(&rng));
    fxs_vec2 f = fxs_offset_pursuit(&self, &leader, &d);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.x);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.y);
    fix16_t t = fxs_offset_pursuit_ticks(&self, &leader, &d);
    TEST_ASSERT_TRUE(t >= 0 && t <= d.max_prediction);
  }
}
