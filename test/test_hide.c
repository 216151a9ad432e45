#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "pursuit.h"
#include "avoidance.h"
#include "hide.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_obstacle obstacle(int x, int y, int r) {
  fxs_obstacle o;
  o.center = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  o.radius = FXS_INT(r);
  return o;
}

void test_hide_defaults_are_the_documented_ones(void) {
  fxs_hide_def d = fxs_default_hide_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(16), d.distance_from_boundary);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(32), d.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), d.max_prediction);
}

void test_the_hiding_spot_is_beyond_the_obstacle_on_the_line_from_the_hunter(void) {
  fxs_obstacle o = obstacle(100, 0, 20);
  fxs_vec2 spot;
  TEST_ASSERT_TRUE(fxs_hiding_spot(&o, fxs_vec2_zero(), FXS_INT(16), &spot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(136), spot.x);
  TEST_ASSERT_EQUAL_INT32(0, spot.y);
  o = obstacle(30, 40, 10); // direction (0.6, 0.8), reach 25: (15, 20) beyond the centre
  TEST_ASSERT_TRUE(fxs_hiding_spot(&o, fxs_vec2_zero(), FXS_INT(15), &spot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(45), spot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), spot.y);
}

void test_a_hunter_on_the_centre_leaves_no_hiding_spot(void) {
  fxs_obstacle o = obstacle(10, 10, 20);
  fxs_vec2 spot = fxs_vec2_make(7, 7);
  TEST_ASSERT_FALSE(fxs_hiding_spot(&o, o.center, FXS_INT(16), &spot));
  TEST_ASSERT_EQUAL_INT32(7, spot.x); // untouched
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_hide_def d = fxs_default_hide_def();
  TEST_ASSERT_EQUAL_INT(-1, fxs_best_hiding_spot(&self, o.center, &o, 1, &d, &spot));
}

void test_the_hiding_spot_direction_is_exact_across_the_whole_range(void) {
  // Hunter and obstacle at opposite corners: the difference (2^32 - 2 raw per axis) does not
  // fit in Q16.16; halved, it keeps the exact diagonal.
  fxs_obstacle o;
  o.center = fxs_vec2_make(FXS_INT(32000), FXS_INT(32000));
  o.radius = FXS_INT(10);
  fxs_vec2 spot;
  TEST_ASSERT_TRUE(fxs_hiding_spot(&o, fxs_vec2_make(FXS_MIN, FXS_MIN), FXS_INT(20), &spot));
  TEST_ASSERT_EQUAL_INT32(spot.x, spot.y);
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 32000.0 + 30.0 / sqrt(2.0), fxs_test_to_double(spot.x));
  o.center = fxs_vec2_make(FXS_MAX, FXS_MAX); // the spot saturates
  TEST_ASSERT_TRUE(fxs_hiding_spot(&o, fxs_vec2_make(FXS_MIN, FXS_MIN), FXS_INT(20), &spot));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, spot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, spot.y);
}

void test_the_nearest_spot_wins_and_ties_keep_the_lower_index(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_vec2 hunter = fxs_vec2_make(0, -FXS_INT(200));
  fxs_hide_def d = fxs_default_hide_def(); // 16 beyond the edge
  // Spots: (100, 36), (-100, 36) (a tie), (0, 136).
  fxs_obstacle obs[] = {obstacle(0, 100, 20), obstacle(100, 0, 20), obstacle(-100, 0, 20)};
  fxs_vec2 spot;
  int best = fxs_best_hiding_spot(&self, hunter, obs, 3, &d, &spot);
  // Distances: 136 for 0; sqrt(dx^2 + dy^2) with the spots off the line from the hunter
  // for 1 and 2, which mirror each other exactly: the lower index wins.
  fxs_vec2 s1, s2;
  fxs_hiding_spot(&obs[1], hunter, d.distance_from_boundary, &s1);
  fxs_hiding_spot(&obs[2], hunter, d.distance_from_boundary, &s2);
  TEST_ASSERT_EQUAL_INT32(s1.x, -s2.x);
  TEST_ASSERT_EQUAL_INT32(s1.y, s2.y);
  TEST_ASSERT_TRUE(fxs_vec2_distance(s1, self.position) < FXS_INT(136));
  TEST_ASSERT_EQUAL_INT(1, best);
  TEST_ASSERT_EQUAL_INT32(s1.x, spot.x);
  TEST_ASSERT_EQUAL_INT32(s1.y, spot.y);
  fxs_obstacle swapped[] = {obs[0], obs[2], obs[1]};
  TEST_ASSERT_EQUAL_INT(1, fxs_best_hiding_spot(&self, hunter, swapped, 3, &d, &spot));
  TEST_ASSERT_EQUAL_INT32(s2.x, spot.x);
}

// Two spots, (136, 0) behind A and (0, 136) behind B, the hunter at the origin. A rival
// nearer to A has it; the agent, also nearest to A, takes B's spot.
void test_a_spot_taken_by_a_rival_sends_the_agent_to_the_next_one(void) {
  fxs_obstacle o[2] = {obstacle(100, 0, 20), obstacle(0, 100, 20)};
  fxs_hide_def d = fxs_default_hide_def();
  fxs_hider rival = {fxs_vec2_make(FXS_INT(140), FXS_INT(10)), FXS_INT(16)};
  fxs_agent a = fxs_test_agent_at(130, 5);
  fxs_vec2 spot;
  TEST_ASSERT_EQUAL_INT(0, fxs_best_hiding_spot(&a, fxs_vec2_zero(), o, 2, &d, &spot));
  TEST_ASSERT_EQUAL_INT(1,
                        fxs_distinct_hiding_spot(&a, fxs_vec2_zero(), o, 2, &d, &rival, 1, &spot));
  TEST_ASSERT_EQUAL_INT32(0, spot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(136), spot.y);
  // B's spot lies round obstacle B from here: the agent walks round it (the detour point on
  // B's ring), not on to A's spot.
  fxs_agent hunter = fxs_test_agent_at(0, 0);
  bool detour;
  fxs_obstacle only_b = o[1];
  fxs_vec2 toward = fxs_hide_target(&a, fxs_vec2_zero(), &only_b, 1, &d, &detour);
  fxs_vec2 f = fxs_hide_among(&a, &hunter, o, 2, &d, &rival, 1);
  TEST_ASSERT_TRUE(
      fxs_vec2_equal(detour ? fxs_seek(&a, toward) : fxs_arrive(&a, toward, d.slowing_radius), f));
  TEST_ASSERT_FALSE(fxs_vec2_equal(fxs_hide(&a, &hunter, o, 2, &d), f));
}

// Rivals choose in order, each among the spots left; with every spot taken the agent shares
// the nearest; without rivals it is plain fxs_hide.
void test_rivals_choose_in_order_and_the_last_shares_when_spots_run_out(void) {
  fxs_obstacle o[2] = {obstacle(100, 0, 20), obstacle(0, 100, 20)};
  fxs_hide_def d = fxs_default_hide_def();
  fxs_hider rivals[2] = {{fxs_vec2_make(FXS_INT(140), FXS_INT(10)), FXS_INT(16)},
                         {fxs_vec2_make(FXS_INT(150), 0), FXS_INT(16)}};
  fxs_agent a = fxs_test_agent_at(130, 5);
  fxs_vec2 spot;
  // rival 0 takes A, rival 1 (nearest to A too) takes B, nothing is left: A, the nearest.
  TEST_ASSERT_EQUAL_INT(0,
                        fxs_distinct_hiding_spot(&a, fxs_vec2_zero(), o, 2, &d, rivals, 2, &spot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(136), spot.x);
  fxs_agent hunter = fxs_test_agent_at(0, 0);
  TEST_ASSERT_TRUE(fxs_vec2_equal(fxs_hide(&a, &hunter, o, 2, &d),
                                  fxs_hide_among(&a, &hunter, o, 2, &d, NULL, 0)));
}

void test_hide_arrives_at_the_spot_and_evades_without_obstacles(void) {
  fxs_agent self = fxs_test_agent_at(120, 40); // already on the far side: a clear walk
  fxs_agent hunter = fxs_test_agent_at(-100, 0);
  hunter.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_hide_def d = fxs_default_hide_def();
  fxs_obstacle o = obstacle(50, 50, 20);
  fxs_vec2 spot;
  fxs_hiding_spot(&o, hunter.position, d.distance_from_boundary, &spot);
  bool detour = true;
  fxs_vec2 target = fxs_hide_target(&self, hunter.position, &o, 1, &d, &detour);
  TEST_ASSERT_FALSE(detour);
  TEST_ASSERT_EQUAL_INT32(spot.x, target.x);
  TEST_ASSERT_EQUAL_INT32(spot.y, target.y);
  fxs_vec2 f = fxs_hide(&self, &hunter, &o, 1, &d);
  fxs_vec2 expected = fxs_arrive(&self, spot, d.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  f = fxs_hide(&self, &hunter, &o, 0, &d);
  expected = fxs_evade(&self, &hunter, d.max_prediction, 0);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
}

void test_hide_walks_round_the_obstacle_when_the_spot_is_behind_it(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_agent hunter = fxs_test_agent_at(-100, 0);
  fxs_hide_def d = fxs_default_hide_def();
  fxs_obstacle o = obstacle(50, 50, 20); // spot (84.2, 61.4): the walk passes 10.9 from the centre
  bool detour = false;
  fxs_vec2 target = fxs_hide_target(&self, hunter.position, &o, 1, &d, &detour);
  TEST_ASSERT_TRUE(detour);
  // From the centre the agent is along (-1, -1) and the spot turns counter-clockwise from
  // there; 45 degrees round the ring of radius 36: (0, -36) from the centre.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(50), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(14), target.y);
  fxs_vec2 f = fxs_hide(&self, &hunter, &o, 1, &d);
  fxs_vec2 expected = fxs_seek(&self, target);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  // Mirrored across the x axis, the detour turns the other way.
  self.position.y = 0;
  hunter.position.y = 0;
  o.center.y = -FXS_INT(50);
  target = fxs_hide_target(&self, hunter.position, &o, 1, &d, &detour);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(50), target.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(14), target.y);
}

static double dx(fix16_t v) { return fxs_test_to_double(v); }

// Seeded scenes: every spot lies on the ray from the hunter through the centre, radius +
// distance_from_boundary beyond the centre (double precision, 1e-3 units); the chosen spot is
// the nearest by double precision too; mirroring the scene across the y axis mirrors the
// spot and the force exactly.
void test_hide_properties_over_seeded_cases(void) {
  uint32_t rng = 1357;
  double worst = 0;
  for (int c = 0; c < 300; ++c) {
    fxs_obstacle obs[5], mobs[5];
    uint32_t n = 1 + fxs_test_lcg(&rng) % 5u;
    for (uint32_t i = 0; i < n; ++i) {
      obs[i].center = fxs_test_point(&rng, -800, 800);
      obs[i].radius = fxs_test_units(&rng, 5, 60);
      mobs[i] = obs[i];
      mobs[i].center.x = fxs_neg(obs[i].center.x);
    }
    fxs_agent self = fxs_test_agent_at(0, 0), hunter = self;
    self.position = fxs_test_point(&rng, -800, 800);
    self.velocity = fxs_vec2_truncate(fxs_test_point(&rng, -4, 4), self.max_speed);
    hunter.position = fxs_test_point(&rng, -800, 800);
    fxs_hide_def d = fxs_default_hide_def();
    d.distance_from_boundary = fxs_test_units(&rng, 0, 40);
    double best_d = 1e18, second_d = 1e18;
    int best_ref = -1;
    for (uint32_t i = 0; i < n; ++i) {
      fxs_vec2 s;
      if (!fxs_hiding_spot(&obs[i], hunter.position, d.distance_from_boundary, &s)) continue;
      double cx = dx(obs[i].center.x), cy = dx(obs[i].center.y);
      double ux = cx - dx(hunter.position.x), uy = cy - dx(hunter.position.y), ul = hypot(ux, uy);
      double reach = dx(obs[i].radius) + dx(d.distance_from_boundary);
      double ex = cx + ux / ul * reach, ey = cy + uy / ul * reach;
      double gap = hypot(dx(s.x) - ex, dx(s.y) - ey);
      worst = gap > worst ? gap : worst;
      TEST_ASSERT_TRUE(gap < 1e-3);
      double dist = hypot(ex - dx(self.position.x), ey - dx(self.position.y));
      if (dist < best_d) second_d = best_d, best_d = dist, best_ref = (int)i;
      else if (dist < second_d) second_d = dist;
    }
    fxs_vec2 spot;
    int best = fxs_best_hiding_spot(&self, hunter.position, obs, n, &d, &spot);
    if (second_d - best_d > 1e-2) TEST_ASSERT_EQUAL_INT(best_ref, best);
    fxs_agent ms = self, mh = hunter;
    ms.position.x = fxs_neg(ms.position.x), ms.velocity.x = fxs_neg(ms.velocity.x);
    mh.position.x = fxs_neg(mh.position.x);
    fxs_vec2 mspot;
    TEST_ASSERT_EQUAL_INT(best, fxs_best_hiding_spot(&ms, mh.position, mobs, n, &d, &mspot));
    TEST_ASSERT_EQUAL_INT32(spot.x, fxs_neg(mspot.x));
    TEST_ASSERT_EQUAL_INT32(spot.y, mspot.y);
    fxs_vec2 f = fxs_hide(&self, &hunter, obs, n, &d), mf = fxs_hide(&ms, &mh, mobs, n, &d);
    TEST_ASSERT_EQUAL_INT32(f.x, fxs_neg(mf.x));
    TEST_ASSERT_EQUAL_INT32(f.y, mf.y);
    TEST_ASSERT_TRUE(fxs_vec2_length(fxs_vec2_add(f, self.velocity)) <= fxs_add(self.max_speed, 1));
  }
  FXS_TEST_REPORT("hide: spots within %.2e units of the double-precision spots", worst);
}

// True when the segment from the hunter to the agent's centre passes through an obstacle.
static bool out_of_sight(fxs_vec2 hunter, fxs_vec2 agent, const fxs_obstacle *obs, int n,
                         double *depth) {
  bool hidden = false;
  *depth = 0;
  for (int i = 0; i < n; ++i) {
    fxs_vec2 c = fxs_vec2_closest_on_segment(obs[i].center, hunter, agent);
    double inside = dx(obs[i].radius) - dx(fxs_vec2_distance(c, obs[i].center));
    if (inside > 0) hidden = true;
    if (inside > *depth) *depth = inside;
  }
  return hidden;
}

// A hunter walks slowly past a field of four obstacles; agents starting anywhere outside
// them hide. After 500 ticks each is behind an obstacle (the segment from the hunter to its
// centre crosses one) and near its spot, and its centre never entered an obstacle on the way,
// with obstacle avoidance (first, hide gets what is left of the force) or with hide alone.
static void hide_from_a_walking_hunter(bool with_avoidance) {
  const fxs_obstacle obs[4] = {obstacle(-150, -100, 35), obstacle(150, -80, 30),
                               obstacle(-120, 140, 40), obstacle(140, 150, 25)};
  fxs_hide_def d = fxs_default_hide_def();
  fxs_avoidance_def avoid = fxs_default_avoidance_def();
  uint32_t rng = 8080;
  double shallowest = 1e9, worst_spot = 0, min_clearance = 1e9;
  for (int c = 0; c < 12; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0), hunter = self;
    bool clear;
    do { // a start outside every obstacle, body included
      self.position = fxs_test_point(&rng, -300, 300);
      clear = true;
      for (int i = 0; i < 4; ++i) {
        clear = clear &&
                !fxs_vec2_within(self.position, obs[i].center, fxs_add(obs[i].radius, self.radius));
      }
    } while (!clear);
    hunter.position = fxs_vec2_make(-FXS_INT(300), fxs_test_units(&rng, -40, 40));
    hunter.velocity = fxs_vec2_make(FXS_RATIO(1, 2), 0);
    fxs_steering_manager m;
    for (int t = 0; t < 500; ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      if (with_avoidance) {
        fxs_manager_add(&m, FXS_BEHAVIOR_AVOID,
                        fxs_steering_linear(fxs_avoid_obstacles(&self, obs, 4, &avoid)), FXS_ONE,
                        0);
      }
      fxs_manager_add(&m, FXS_BEHAVIOR_NONE,
                      fxs_steering_linear(fxs_hide(&self, &hunter, obs, 4, &d)), FXS_ONE, 1);
      fxs_manager_update(&m, &self);
      hunter.position = fxs_vec2_add(hunter.position, hunter.velocity);
      for (int i = 0; i < 4; ++i) {
        double gap = dx(fxs_vec2_distance(self.position, obs[i].center)) - dx(obs[i].radius);
        if (gap < min_clearance) min_clearance = gap;
      }
    }
    double depth;
    TEST_ASSERT_TRUE_MESSAGE(out_of_sight(hunter.position, self.position, obs, 4, &depth),
                             "the hunter still sees the agent");
    if (depth < shallowest) shallowest = depth;
    fxs_vec2 spot;
    fxs_best_hiding_spot(&self, hunter.position, obs, 4, &d, &spot);
    double off = dx(fxs_vec2_distance(spot, self.position));
    if (off > worst_spot) worst_spot = off;
  }
  FXS_TEST_REPORT(
      "hide%s: line of sight >= %.2f units inside an obstacle, agent <= %.2f units "
      "from its spot, centre >= %.2f units off every edge",
      with_avoidance ? " + avoidance" : "", shallowest, worst_spot, min_clearance);
  TEST_ASSERT_TRUE(worst_spot < 4.0);
  TEST_ASSERT_TRUE(min_clearance > 0.0);
}

void test_an_agent_hides_from_a_walking_hunter(void) { hide_from_a_walking_hunter(false); }

void test_an_agent_hides_from_a_walking_hunter_with_obstacle_avoidance(void) {
  hide_from_a_walking_hunter(true);
}

void test_hide_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 31337;
  for (int c = 0; c < 2000; ++c) {
    fxs_obstacle obs[3];
    for (int i = 0; i < 3; ++i) {
      obs[i].center = fxs_test_any_point(&rng);
      obs[i].radius = fxs_abs(fxs_test_any_raw(&rng));
    }
    fxs_agent self = fxs_test_agent_at(0, 0), hunter = self;
    self.position = fxs_test_any_point(&rng);
    self.max_speed = fxs_abs(fxs_test_any_raw(&rng));
    self.radius = fxs_abs(fxs_test_any_raw(&rng));
    self.velocity = fxs_vec2_truncate(fxs_test_any_point(&rng), self.max_speed);
    hunter.position = fxs_test_any_point(&rng);
    hunter.velocity = fxs_test_any_point(&rng);
    fxs_hide_def d;
    d.distance_from_boundary = fxs_abs(fxs_test_any_raw(&rng));
    d.slowing_radius = fxs_abs(fxs_test_any_raw(&rng));
    d.max_prediction = fxs_abs(fxs_test_any_raw(&rng));
    fxs_vec2 f = fxs_hide(&self, &hunter, obs, 3, &d);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.x);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.y);
  }
}

// An agent whose straight walk passes the obstacle's rim closely, with a still hunter:
// it must settle exactly on the spot, not circle back round once it is pressed close (the
// walk from there leads away from the centre).
void test_an_agent_pressed_close_to_the_obstacle_walks_on_to_its_spot(void) {
  fxs_obstacle o = {{FXS_INT(400), FXS_INT(300)}, FXS_INT(40)};
  fxs_agent hunter = fxs_default_agent();
  hunter.position = fxs_vec2_make(FXS_INT(200), FXS_INT(300));
  fxs_agent a = fxs_default_agent();
  a.position = fxs_vec2_make(FXS_INT(443), FXS_INT(294)); // 43.4 from the centre: inside 40 + 8
  fxs_hide_def d = fxs_default_hide_def();
  bool detour = true;
  fxs_vec2 target = fxs_hide_target(&a, hunter.position, &o, 1, &d, &detour);
  TEST_ASSERT_FALSE(detour);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(456), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), target.y);
}
