#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "flocking.h"
#include "unaligned_avoidance.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static double dx(fix16_t v) { return fxs_test_to_double(v); }

static fxs_neighbor nb(int x, int y, int vx, int vy, uint32_t id) {
  fxs_neighbor n;
  n.position = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  n.velocity = fxs_vec2_make(FXS_INT(vx), FXS_INT(vy));
  n.id = id;
  return n;
}

void test_unaligned_avoidance_defaults_are_the_documented_ones(void) {
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), d.time_horizon);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), d.margin);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(8), d.neighbor_radius);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, d.max_avoid_force);
}

void test_closest_approach_time_is_exact_and_rounded_down(void) {
  fix16_t t = -1;
  TEST_ASSERT_TRUE(fxs_closest_approach_ticks(fxs_vec2_make(FXS_INT(100), FXS_INT(30)),
                                              fxs_vec2_make(-FXS_INT(4), 0), &t));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(25), t);
  TEST_ASSERT_TRUE(
      fxs_closest_approach_ticks(fxs_vec2_make(FXS_INT(10), 0), fxs_vec2_make(-FXS_INT(3), 0), &t));
  TEST_ASSERT_EQUAL_INT32(218453, t); // 10 / 3 = 218453.33 raw, rounded down
  TEST_ASSERT_TRUE(fxs_closest_approach_ticks(fxs_vec2_make(FXS_INT(10), 0), fxs_vec2_zero(), &t));
  TEST_ASSERT_EQUAL_INT32(0, t); // no relative motion: the distance never changes
  t = 77;
  TEST_ASSERT_FALSE(fxs_closest_approach_ticks(fxs_vec2_make(FXS_INT(10), 0),
                                               fxs_vec2_make(FXS_INT(3), 0), &t)); // apart
  TEST_ASSERT_EQUAL_INT32(77, t);
  TEST_ASSERT_FALSE(fxs_closest_approach_ticks(fxs_vec2_make(FXS_INT(30000), 0),
                                               fxs_vec2_make(-1, 0), &t)); // 2^31 ticks away
  // The extremes: exact in 64 bits, no overflow.
  TEST_ASSERT_TRUE(fxs_closest_approach_ticks(fxs_vec2_make(FXS_MAX, FXS_MAX),
                                              fxs_vec2_make(FXS_MIN, FXS_MIN), &t));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, t);
}

// Self at the origin moving +x at 2 (radius 8; limit 8 + 8 + 4 = 20). A meets it head-on at
// t = 25 passing 10 units to its left; B crosses from the right, also at t = 25, 14.1 away;
// C travels alongside 40 away (no relative motion); E is beyond the horizon; the agent's own
// entry (id 9) is skipped.
void test_the_most_imminent_threat_wins_and_ties_go_to_the_lower_id(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  fxs_neighbor list[] = {nb(100, 10, -2, 0, 5), nb(60, -40, 0, 2, 3), nb(40, 0, 2, 0, 1),
                         nb(1000, 0, -2, 0, 2), nb(1, 0, 0, 0, 9)};
  fxs_threat th = fxs_most_imminent_threat(&self, 9, list, 5, &d);
  TEST_ASSERT_EQUAL_INT(1, th.index); // B: same t* as A, lower id
  TEST_ASSERT_EQUAL_INT32(FXS_INT(25), th.ticks);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), th.separation.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), th.separation.y);
  // B crosses on the left of the heading (its position at t* is (10, 10) from ours): steer
  // right, no braking (the headings are 90 degrees apart).
  fxs_vec2 f = fxs_unaligned_avoidance(&self, 9, list, 5, &d);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.y);
  th = fxs_most_imminent_threat(&self, 9, list + 2, 3, &d);
  TEST_ASSERT_EQUAL_INT(-1, th.index);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_unaligned_avoidance(&self, 9, list + 2, 3, &d)));
  d.time_horizon = FXS_INT(24); // both at t* = 25 are now too late
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_imminent_threat(&self, 9, list, 5, &d).index);
}

void test_head_on_the_agent_steers_away_and_brakes(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  fxs_neighbor a[] = {nb(100, 10, -2, 0, 5)}; // passes 10 to the left at t* = 25
  fxs_vec2 f = fxs_unaligned_avoidance(&self, 1, a, 1, &d);
  // (0, -1) sideways + (-1, 0) braking, scaled to length 1 and truncated: raw 46341 would make
  // the length exceed 1 by a hair, so it is 46340.
  TEST_ASSERT_EQUAL_INT32(-46340, f.x);
  TEST_ASSERT_EQUAL_INT32(-46340, f.y);
  // Dead on the line, both keep right, so the forces are exact opposites.
  fxs_neighbor line[] = {nb(100, 0, -2, 0, 5)};
  f = fxs_unaligned_avoidance(&self, 1, line, 1, &d);
  TEST_ASSERT_EQUAL_INT32(-46340, f.x);
  TEST_ASSERT_EQUAL_INT32(-46340, f.y);
  fxs_agent other = fxs_test_agent_at(100, 0);
  other.velocity = fxs_vec2_make(-FXS_INT(2), 0);
  fxs_neighbor me[] = {nb(0, 0, 2, 0, 1)};
  fxs_vec2 g = fxs_unaligned_avoidance(&other, 5, me, 1, &d);
  TEST_ASSERT_EQUAL_INT32(46340, g.x);
  TEST_ASSERT_EQUAL_INT32(46340, g.y);
}

void test_an_agent_at_rest_steps_out_of_the_threats_path(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  fxs_neighbor a[] = {nb(100, 10, -4, 0, 5)}; // will pass 10 units above, at t* = 25
  fxs_vec2 f = fxs_unaligned_avoidance(&self, 1, a, 1, &d);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.y);
  fxs_neighbor still[] = {nb(3, 4, 0, 0, 5)}; // both at rest, 5 apart: straight away
  f = fxs_unaligned_avoidance(&self, 1, still, 1, &d);
  // (-0.6, -0.8) rounds to raw (-39322, -52429), a hair longer than 1: truncated toward zero.
  TEST_ASSERT_EQUAL_INT32(-39321, f.x);
  TEST_ASSERT_EQUAL_INT32(-52428, f.y);
  fxs_neighbor same[] = {nb(0, 0, 0, 0, 5)}; // coincident: the lower id goes to -x
  f = fxs_unaligned_avoidance(&self, 1, same, 1, &d);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.x);
  f = fxs_unaligned_avoidance(&self, 7, same, 1, &d);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, f.x);
  d.max_avoid_force = 0;
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_unaligned_avoidance(&self, 1, a, 1, &d)));
}

// A raw value in [-4, 4] units with all 16 fraction bits random.
static fix16_t raw_speed(uint32_t *rng) {
  return (fix16_t)(fxs_test_lcg(rng) % (8u * 65536u + 1u)) - FXS_INT(4);
}

typedef struct ref_threat {
  int index;
  double t, margin; // margin: how far the decision is from flipping
} ref_threat;

// The same threat search in double precision, with the distance of every decision from its
// threshold so that near-ties can be told apart.
static ref_threat reference(const fxs_agent *self, const fxs_neighbor *n, int count,
                            const fxs_unaligned_avoidance_def *d) {
  ref_threat best = {-1, 0, 1e9};
  uint32_t best_id = 0;
  double limit = dx(self->radius) + dx(d->neighbor_radius) + dx(d->margin);
  double horizon = dx(d->time_horizon);
  double times[16];
  int k = 0;
  for (int i = 0; i < count; ++i) {
    double px = dx(n[i].position.x) - dx(self->position.x),
           py = dx(n[i].position.y) - dx(self->position.y);
    double vx = dx(n[i].velocity.x) - dx(self->velocity.x),
           vy = dx(n[i].velocity.y) - dx(self->velocity.y);
    double v2 = vx * vx + vy * vy, t = v2 == 0 ? 0 : -(px * vx + py * vy) / v2;
    double sep = hypot(px + vx * t, py + vy * t);
    double m = fmin(fabs(t), fmin(fabs(t - horizon), fabs(sep - limit)));
    if (m < best.margin) best.margin = m;
    if (t < 0 || t > horizon || sep >= limit) continue;
    times[k++] = t;
    if (best.index >= 0 && (t > best.t || (t == best.t && n[i].id >= best_id))) continue;
    best.index = i, best.t = t, best_id = n[i].id;
  }
  for (int i = 0; i < k; ++i) { // two threats with nearly (not exactly) equal times
    double gap = fabs(times[i] - best.t);
    if (gap > 0 && gap < best.margin) best.margin = gap;
  }
  return best;
}

static fxs_neighbor negated(fxs_neighbor n) {
  n.position = fxs_vec2_negate(n.position);
  n.velocity = fxs_vec2_negate(n.velocity);
  return n;
}

static fxs_neighbor mirrored(fxs_neighbor n) {
  n.position.y = fxs_neg(n.position.y);
  n.velocity.y = fxs_neg(n.velocity.y);
  return n;
}

static fxs_agent agent_of(fxs_neighbor n) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.position = n.position;
  a.velocity = n.velocity;
  return a;
}

// Seeded crowds of six neighbors around a moving agent: the threat is the one double
// precision picks (away from thresholds), the force never exceeds max_avoid_force, its
// sideways part points away from the threat's predicted position (right on exact ties),
// without braking it points away from it altogether, and the result does not depend on the
// neighbors' order; negating the scene negates the force exactly, and mirroring it mirrors
// the force wherever the side is not an exact tie.
void test_unaligned_avoidance_properties_over_seeded_cases(void) {
  uint32_t rng = 9001;
  int threats = 0, compared = 0;
  double worst_t = 0;
  for (int c = 0; c < 1500; ++c) {
    fxs_neighbor me = nb(0, 0, 0, 0, 100);
    me.position = fxs_test_point(&rng, -100, 100);
    fix16_t vx = raw_speed(&rng), vy = raw_speed(&rng);
    me.velocity = fxs_vec2_truncate(fxs_vec2_make(vx, vy), FXS_INT(4));
    fxs_agent self = agent_of(me);
    fxs_neighbor list[6], shuffled[6], neg[6], mir[6];
    for (int i = 0; i < 6; ++i) {
      list[i] = nb(0, 0, 0, 0, (uint32_t)(i * 7) % 6u);
      list[i].position = fxs_test_point(&rng, -150, 150);
      vx = raw_speed(&rng), vy = raw_speed(&rng);
      list[i].velocity = fxs_vec2_make(vx, vy);
    }
    for (int i = 0; i < 6; ++i) {
      shuffled[i] = list[(i + 4) % 6];
      neg[i] = negated(list[i]);
      mir[i] = mirrored(list[i]);
    }
    fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
    d.max_avoid_force = fxs_test_units(&rng, 0, 3);
    d.max_avoid_force += (fix16_t)(fxs_test_lcg(&rng) % 65536u);
    fxs_threat th = fxs_most_imminent_threat(&self, 100, list, 6, &d);
    ref_threat ref = reference(&self, list, 6, &d);
    if (ref.margin > 1e-3) {
      ++compared;
      TEST_ASSERT_EQUAL_INT(ref.index, th.index);
      if (th.index >= 0) {
        double gap = fabs(dx(th.ticks) - ref.t);
        worst_t = gap > worst_t ? gap : worst_t;
        TEST_ASSERT_TRUE(gap < 1e-4);
      }
    }
    fxs_vec2 f = fxs_unaligned_avoidance(&self, 100, list, 6, &d);
    TEST_ASSERT_TRUE(fxs_vec2_length_sq(f) <=
                     (uint64_t)d.max_avoid_force * (uint64_t)d.max_avoid_force);
    fxs_vec2 g = fxs_unaligned_avoidance(&self, 100, shuffled, 6, &d);
    TEST_ASSERT_TRUE(fxs_vec2_equal(f, g));
    fxs_agent nself = agent_of(negated(me)), mself = agent_of(mirrored(me));
    g = fxs_unaligned_avoidance(&nself, 100, neg, 6, &d);
    TEST_ASSERT_TRUE(fxs_vec2_equal(fxs_vec2_negate(f), g));
    if (th.index < 0 || d.max_avoid_force == 0) continue;
    ++threats;
    fxs_vec2 s = th.separation;
    int64_t side = fxs_vec2_cross(self.velocity, s);
    if (fxs_vec2_length(self.velocity) >= FXS_HEADING_MIN_SPEED) {
      fxs_vec2 left = fxs_vec2_make(fxs_neg(self.velocity.y), self.velocity.x);
      int64_t lateral = fxs_vec2_dot(f, left);
      TEST_ASSERT_TRUE(side > 0 || side == 0 ? lateral < 0 : lateral > 0);
      bool braking = fxs_vec2_dot(f, self.velocity) < 0;
      if (!braking) TEST_ASSERT_TRUE(fxs_vec2_dot(f, s) <= 0);
    }
    if (side != 0) {
      g = fxs_unaligned_avoidance(&mself, 100, mir, 6, &d);
      TEST_ASSERT_EQUAL_INT32(f.x, g.x);
      TEST_ASSERT_EQUAL_INT32(-f.y, g.y);
    }
  }
  FXS_TEST_REPORT(
      "unaligned avoidance: %d threats in 1500 scenes; %d compared with double "
      "precision, t* within %.2e ticks",
      threats, compared, worst_t);
  TEST_ASSERT_TRUE(threats > 200);
}

// Agents that each arrive at a goal, with predictive avoidance first in a prioritized sum
// (arrival gets what is left of max_force). All steering of a tick is computed from the
// state at its start. Returns the smallest centre distance over all pairs and ticks, and
// the tick at which every agent was within 4 units of its goal (-1 if never).
static double crowd(fxs_agent *a, const fxs_vec2 *goal, int n, int ticks, bool separate,
                    int *arrived) {
  fxs_neighbor view[16];
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  double closest = 1e9;
  *arrived = -1;
  for (int t = 0; t < ticks; ++t) {
    for (int i = 0; i < n; ++i) view[i] = fxs_neighbor_of(&a[i], (uint32_t)i);
    fxs_agent next[16];
    bool all_home = true;
    for (int i = 0; i < n; ++i) {
      fxs_steering_manager m;
      next[i] = a[i];
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      if (separate) { // first: the bodies already close get their share before anything else
        fxs_manager_add(
            &m, FXS_BEHAVIOR_SEPARATION,
            fxs_steering_linear(fxs_separation(&a[i], (uint32_t)i, view, (uint32_t)n, FXS_INT(24))),
            FXS_INT(2), 0);
      }
      fxs_manager_add(
          &m, FXS_BEHAVIOR_NONE,
          fxs_steering_linear(fxs_unaligned_avoidance(&a[i], (uint32_t)i, view, (uint32_t)n, &d)),
          FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE,
                      fxs_steering_linear(fxs_arrive(&a[i], goal[i], FXS_INT(40))), FXS_ONE, 1);
      fxs_manager_update(&m, &next[i]);
      all_home = all_home && fxs_vec2_within(next[i].position, goal[i], FXS_INT(4));
    }
    for (int i = 0; i < n; ++i) a[i] = next[i];
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        double gap = dx(fxs_vec2_distance(a[i].position, a[j].position));
        closest = gap < closest ? gap : closest;
      }
    }
    if (all_home && *arrived < 0) *arrived = t;
  }
  return closest;
}

// Two agents walking at each other along one line (the exact tie: each keeps right) and
// two crossing at right angles: neither pair ever overlaps (bodies of radius 8: centres
// more than 16 apart), and all arrive.
void test_two_agents_walking_through_each_other_never_overlap(void) {
  fxs_agent a[2] = {fxs_test_agent_at(-200, 0), fxs_test_agent_at(200, 0)};
  fxs_vec2 goal[2] = {a[1].position, a[0].position};
  int arrived;
  double head_on = crowd(a, goal, 2, 600, false, &arrived);
  TEST_ASSERT_TRUE(head_on > 16.0);
  TEST_ASSERT_TRUE(arrived >= 0);
  int head_on_arrived = arrived;
  fxs_agent b[2] = {fxs_test_agent_at(-200, 0), fxs_test_agent_at(0, -200)};
  fxs_vec2 goal2[2] = {fxs_vec2_make(FXS_INT(200), 0), fxs_vec2_make(0, FXS_INT(200))};
  double crossing = crowd(b, goal2, 2, 600, false, &arrived);
  FXS_TEST_REPORT(
      "head-on pair: closest centres %.2f units, home by tick %d; right-angle "
      "crossing: %.2f units, home by tick %d",
      head_on, head_on_arrived, crossing, arrived);
  TEST_ASSERT_TRUE(crossing > 16.0);
  TEST_ASSERT_TRUE(arrived >= 0);
}

// Eight agents on a circle of radius 150 each walk to the opposite point, so all meet in
// the middle at once: no two ever overlap, and all arrive.
void test_agents_swapping_across_a_circle_never_overlap(void) {
  enum { N = 8 };
  fxs_agent a[N];
  fxs_vec2 goal[N];
  for (int i = 0; i < N; ++i) {
    fix16_t ang = (fix16_t)(i * (FXS_TWO_PI / N));
    a[i] = fxs_test_agent_at(0, 0);
    a[i].position = fxs_vec2_scale(fxs_vec2_from_angle(ang), FXS_INT(150));
    goal[i] = fxs_vec2_negate(a[i].position);
  }
  int arrived;
  double closest = crowd(a, goal, N, 1500, false, &arrived);
  FXS_TEST_REPORT("circle swap of %d: closest centres %.2f units, all home by tick %d", N, closest,
                  arrived);
  TEST_ASSERT_TRUE(closest > 16.0);
  TEST_ASSERT_TRUE(arrived >= 0);
}

// Two columns of six agents swap sides through each other, starts jittered by a seeded
// stream. Avoidance alone handles one threat at a time, and an agent dodging an oncoming one
// can drift into a neighbor of its own column converging slowly beside it (measured: centres
// 10.3 units apart); with separation (radius 24, weight 2) ahead of it in the prioritized
// sum, no two ever overlap, and all arrive.
static double swap_columns(bool separate, int *latest) {
  enum { N = 12 };
  uint32_t rng = 4711;
  double worst = 1e9;
  *latest = 0;
  for (int c = 0; c < 4; ++c) {
    fxs_agent a[N];
    fxs_vec2 goal[N];
    for (int i = 0; i < N; ++i) {
      int side = i < N / 2 ? -1 : 1, row = i % (N / 2);
      a[i] = fxs_test_agent_at(0, 0);
      fix16_t jx = fxs_test_units(&rng, -10, 10), jy = fxs_test_units(&rng, -5, 5);
      a[i].position =
          fxs_vec2_make(fxs_add(FXS_INT(side * 200), jx), fxs_add(FXS_INT(row * 40 - 100), jy));
      goal[i] = fxs_vec2_make(FXS_INT(-side * 200), FXS_INT(row * 40 - 100));
    }
    int arrived;
    double closest = crowd(a, goal, N, 1500, separate, &arrived);
    worst = closest < worst ? closest : worst;
    if (arrived < 0 || *latest < 0) *latest = -1;
    else if (arrived > *latest) *latest = arrived;
  }
  return worst;
}

void test_two_groups_swapping_sides_never_overlap_with_separation(void) {
  int latest, alone_latest;
  double closest = swap_columns(true, &latest);
  double alone = swap_columns(false, &alone_latest);
  FXS_TEST_REPORT(
      "two groups of 6 swapping sides (4 seeds): closest centres %.2f units, all home "
      "by tick %d (avoidance alone: %.2f, by tick %d)",
      closest, latest, alone, alone_latest);
  TEST_ASSERT_TRUE(closest > 16.0);
  TEST_ASSERT_TRUE(latest >= 0);
}

void test_unaligned_avoidance_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 1618;
  for (int c = 0; c < 3000; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0);
    self.position = fxs_test_any_point(&rng);
    self.velocity = fxs_test_any_point(&rng);
    self.radius = fxs_abs(fxs_test_any_raw(&rng));
    fxs_neighbor list[4];
    for (int i = 0; i < 4; ++i) {
      list[i].position = fxs_test_any_point(&rng);
      list[i].velocity = fxs_test_any_point(&rng);
      list[i].id = fxs_test_lcg(&rng) % 4u;
    }
    fxs_unaligned_avoidance_def d;
    d.time_horizon = fxs_test_any_raw(&rng);
    d.margin = fxs_test_any_raw(&rng);
    d.neighbor_radius = fxs_test_any_raw(&rng);
    d.max_avoid_force = fxs_test_any_raw(&rng);
    fxs_vec2 f = fxs_unaligned_avoidance(&self, 1, list, 4, &d);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.x);
    TEST_ASSERT_NOT_EQUAL(INT32_MIN, f.y);
    fix16_t limit = fxs_max(d.max_avoid_force, 0);
    TEST_ASSERT_TRUE(fxs_vec2_length_sq(f) <= (uint64_t)limit * (uint64_t)limit);
    fxs_threat th = fxs_most_imminent_threat(&self, 1, list, 4, &d);
    if (th.index >= 0) TEST_ASSERT_TRUE(th.ticks >= 0 && th.ticks <= d.time_horizon);
  }
}
