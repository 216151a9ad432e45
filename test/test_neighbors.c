#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "flocking.h"
#include "neighbors.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static double dx(fix16_t v) { return fxs_test_to_double(v); }

static fxs_vec2 pt(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

static fxs_neighbor nb(int x, int y, uint32_t id) {
  fxs_neighbor n;
  n.position = pt(x, y);
  n.velocity = fxs_vec2_zero();
  n.id = id;
  return n;
}

void test_neighbor_query_defaults_are_the_documented_ones(void) {
  fxs_neighbor_query_def d = fxs_default_neighbor_query_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), d.radius);
  TEST_ASSERT_EQUAL_INT32(-46341, d.cos_half_fov);
  TEST_ASSERT_EQUAL_UINT32(7, d.k);
}

void test_the_field_of_view_is_a_cosine_threshold_decided_exactly(void) {
  fxs_vec2 o = fxs_vec2_zero(), east = pt(1, 0);
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, pt(1, 100), 0)); // half plane ahead
  TEST_ASSERT_FALSE(fxs_in_field_of_view(o, east, pt(-1, 100), 0));
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, pt(0, 5), 0)); // the edge is in view
  // (3, 4) is at cos 0.6 exactly: in view for a threshold 1 LSB below 0.6, out 1 LSB above
  // (0.6 is raw 39321.6).
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, pt(3, 4), 39321));
  TEST_ASSERT_FALSE(fxs_in_field_of_view(o, east, pt(3, 4), 39322));
  // A 240 degree view (cos 120 = -0.5): 116.6 degrees is in, 135 is out.
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, pt(-1, 2), -FXS_RATIO(1, 2)));
  TEST_ASSERT_FALSE(fxs_in_field_of_view(o, east, pt(-1, 1), -FXS_RATIO(1, 2)));
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, pt(-100, 0), -FXS_ONE));         // all around
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, east, o, FXS_ONE));                    // on the agent
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, fxs_vec2_zero(), pt(-5, 0), FXS_ONE)); // no heading
  // The heading's length does not matter; the offset must fit in Q16.16.
  TEST_ASSERT_TRUE(fxs_in_field_of_view(o, pt(300, 400), pt(3, 4), 65535));
  TEST_ASSERT_FALSE(fxs_in_field_of_view(fxs_vec2_make(FXS_MIN, 0), east, fxs_vec2_make(FXS_MAX, 0),
                                         -FXS_RATIO(1, 2)));
}

// Self at the origin heading +x, radius 60, a 270 degree view: of the candidates, the agent
// itself, one outside the radius and one in the blind cone behind are dropped; the rest come
// nearest first, equal distances by id.
void test_the_query_keeps_the_nearest_k_in_view_sorted_by_distance_then_id(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.velocity = pt(2, 0);
  fxs_neighbor_query_def d = fxs_default_neighbor_query_def();
  fxs_neighbor c[] = {nb(30, 0, 4),  nb(0, 0, 1),   nb(0, 30, 2),   nb(61, 0, 3), nb(-30, 0, 6),
                      nb(0, -30, 9), nb(10, 10, 8), nb(-20, 30, 5), nb(18, 24, 7)};
  uint32_t out[FXS_NEIGHBORS_MAX_K];
  uint32_t n = fxs_query_neighbors(&self, 1, c, 9, &d, out);
  // Distances: 14.1 (id 8), 30 (ids 2, 4, 7 and 9; 7 is at (18, 24)), 36.1 (id 5, at 123.7
  // degrees: in view). Dropped: id 1 (self), id 3 (61 away), id 6 (straight behind).
  TEST_ASSERT_EQUAL_UINT32(6, n);
  const uint32_t expected[] = {6, 2, 0, 8, 5, 7};
  TEST_ASSERT_EQUAL_UINT32_ARRAY(expected, out, 6);
  d.k = 3;
  TEST_ASSERT_EQUAL_UINT32(3, fxs_query_neighbors(&self, 1, c, 9, &d, out));
  TEST_ASSERT_EQUAL_UINT32_ARRAY(expected, out, 3);
  d.k = 0;
  TEST_ASSERT_EQUAL_UINT32(0, fxs_query_neighbors(&self, 1, c, 9, &d, out));
  d.k = 1000; // capped at FXS_NEIGHBORS_MAX_K
  d.cos_half_fov = -FXS_ONE;
  TEST_ASSERT_EQUAL_UINT32(7, fxs_query_neighbors(&self, 1, c, 9, &d, out));
  self.velocity = fxs_vec2_zero(); // at rest: the orientation (0, facing +x) is the heading
  d = fxs_default_neighbor_query_def();
  TEST_ASSERT_EQUAL_UINT32(6, fxs_query_neighbors(&self, 1, c, 9, &d, out));
  self.orientation = FXS_PI; // facing -x: (30, 0) is now straight behind
  n = fxs_query_neighbors(&self, 1, c, 9, &d, out);
  for (uint32_t i = 0; i < n; ++i) TEST_ASSERT_NOT_EQUAL(4, c[out[i]].id);
}

typedef struct ref_pick {
  double d2;
  uint32_t id, index;
} ref_pick;

// Seeded candidate sets (up to 40, ids unique, positions with random fraction bits): the
// result equals a brute-force selection (distances exact in 64 bits, the view by double
// precision; sets with a candidate within 1e-9 of the view's edge are skipped), and the ids
// chosen do not depend on the candidates' order.
void test_the_query_matches_brute_force_and_ignores_candidate_order(void) {
  uint32_t rng = 6502;
  int compared = 0;
  for (int c = 0; c < 400; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0);
    self.position = fxs_test_point(&rng, -50, 50);
    self.velocity = fxs_vec2_truncate(fxs_test_point(&rng, -4, 4), FXS_INT(4));
    self.orientation = fxs_angle_wrap((fix16_t)(fxs_test_lcg(&rng) % 411774u));
    fxs_neighbor_query_def d;
    d.radius = fxs_test_units(&rng, 0, 120);
    d.cos_half_fov = (fix16_t)(fxs_test_lcg(&rng) % (2u * 65536u + 1u)) - FXS_ONE;
    d.k = fxs_test_lcg(&rng) % 20u;
    uint32_t count = fxs_test_lcg(&rng) % 41u;
    fxs_neighbor cand[40], rev[40];
    for (uint32_t i = 0; i < count; ++i) {
      cand[i].position = fxs_test_point(&rng, -100, 100);
      cand[i].position.x += (fix16_t)(fxs_test_lcg(&rng) % 65536u);
      cand[i].velocity = fxs_vec2_zero();
      cand[i].id = (i * 17u + 3u) % 41u;                                          // unique
      if (fxs_test_lcg(&rng) % 10u == 0) cand[i].position = cand[i / 2].position; // ties
    }
    for (uint32_t i = 0; i < count; ++i) rev[i] = cand[count - 1 - i];
    fxs_vec2 h = fxs_agent_heading(&self);
    double hx = dx(h.x), hy = dx(h.y), hl = hypot(hx, hy), cmin = dx(d.cos_half_fov);
    ref_pick picks[40];
    uint32_t n_ref = 0;
    bool near_edge = false;
    for (uint32_t i = 0; i < count; ++i) {
      int64_t ox = (int64_t)cand[i].position.x - self.position.x;
      int64_t oy = (int64_t)cand[i].position.y - self.position.y;
      uint64_t d2 = (uint64_t)(ox * ox) + (uint64_t)(oy * oy);
      if (cand[i].id == 1000 || d2 > (uint64_t)d.radius * (uint64_t)d.radius) continue;
      double ol = hypot((double)ox, (double)oy);
      if (ol > 0 && cmin > -1.0) {
        double cosine = ((double)ox * hx + (double)oy * hy) / (ol * hl);
        if (fabs(cosine - cmin) < 1e-9) near_edge = true;
        if (cosine < cmin) continue;
      }
      ref_pick p = {(double)d2, cand[i].id, i};
      uint32_t j = n_ref++;
      while (j > 0 &&
             (picks[j - 1].d2 > p.d2 || (picks[j - 1].d2 == p.d2 && picks[j - 1].id > p.id))) {
        picks[j] = picks[j - 1];
        --j;
      }
      picks[j] = p;
    }
    uint32_t k = d.k < FXS_NEIGHBORS_MAX_K ? d.k : FXS_NEIGHBORS_MAX_K;
    if (n_ref > k) n_ref = k;
    uint32_t out[FXS_NEIGHBORS_MAX_K], out_rev[FXS_NEIGHBORS_MAX_K];
    uint32_t n = fxs_query_neighbors(&self, 1000, cand, count, &d, out);
    uint32_t n_rev = fxs_query_neighbors(&self, 1000, rev, count, &d, out_rev);
    TEST_ASSERT_EQUAL_UINT32(n, n_rev);
    for (uint32_t i = 0; i < n; ++i) TEST_ASSERT_EQUAL_UINT32(cand[out[i]].id, rev[out_rev[i]].id);
    if (near_edge) continue;
    ++compared;
    TEST_ASSERT_EQUAL_UINT32(n_ref, n);
    for (uint32_t i = 0; i < n; ++i) TEST_ASSERT_EQUAL_UINT32(picks[i].index, out[i]);
  }
  FXS_TEST_REPORT("neighbor query: %d of 400 seeded sets compared with brute force", compared);
  TEST_ASSERT_TRUE(compared > 350);
}

// A flock of 16 boids steering by separation, alignment and cohesion over the 7 nearest
// neighbors in a 270 degree view, toward a goal 1530 units away. Every tick the candidate
// list is handed over in a different rotation: the states are bit-identical to a run with
// the list in id order, no two boids ever overlap, and the flock gathers at the goal.
static double run_flock(fxs_agent *b, int n, int ticks, int rotate_list) {
  double closest = 1e9;
  fxs_neighbor_query_def q = fxs_default_neighbor_query_def();
  fxs_vec2 goal = pt(1500, 300);
  for (int t = 0; t < ticks; ++t) {
    fxs_neighbor all[16], list[16], chosen[FXS_NEIGHBORS_MAX_K];
    for (int i = 0; i < n; ++i) all[i] = fxs_neighbor_of(&b[i], (uint32_t)i);
    int shift = rotate_list ? (t * 5) % n : 0;
    for (int i = 0; i < n; ++i) list[i] = all[(i + shift) % n];
    fxs_agent next[16];
    for (int i = 0; i < n; ++i) {
      uint32_t idx[FXS_NEIGHBORS_MAX_K];
      uint32_t m = fxs_query_neighbors(&b[i], (uint32_t)i, list, (uint32_t)n, &q, idx);
      for (uint32_t j = 0; j < m; ++j) chosen[j] = list[idx[j]];
      fxs_steering_manager mg;
      next[i] = b[i];
      fxs_manager_begin(&mg, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(
          &mg, FXS_BEHAVIOR_SEPARATION,
          fxs_steering_linear(fxs_separation(&b[i], (uint32_t)i, chosen, m, FXS_INT(30))),
          FXS_INT(4), 0);
      fxs_manager_add(&mg, FXS_BEHAVIOR_ALIGNMENT,
                      fxs_steering_linear(fxs_alignment(&b[i], (uint32_t)i, chosen, m, q.radius)),
                      FXS_RATIO(1, 4), 0);
      fxs_manager_add(&mg, FXS_BEHAVIOR_COHESION,
                      fxs_steering_linear(fxs_cohesion(&b[i], (uint32_t)i, chosen, m, q.radius)),
                      FXS_RATIO(1, 32), 0);
      fxs_manager_add(&mg, FXS_BEHAVIOR_ARRIVE,
                      fxs_steering_linear(fxs_arrive(&b[i], goal, FXS_INT(150))), FXS_RATIO(1, 16),
                      0);
      fxs_manager_update(&mg, &next[i]);
    }
    for (int i = 0; i < n; ++i) b[i] = next[i];
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        double gap = dx(fxs_vec2_distance(b[i].position, b[j].position));
        closest = gap < closest ? gap : closest;
      }
    }
  }
  return closest;
}

void test_a_flock_over_topological_neighbors_does_not_depend_on_list_order(void) {
  enum { N = 16 };
  fxs_agent a[N], b[N];
  uint32_t rng = 1234;
  for (int i = 0; i < N; ++i) {
    a[i] = fxs_test_agent_at(0, 0);
    bool apart;
    do { // starts at least 24 units apart
      a[i].position = fxs_test_point(&rng, -120, 120);
      apart = true;
      for (int j = 0; j < i; ++j)
        apart = apart && !fxs_vec2_within(a[i].position, a[j].position, FXS_INT(24));
    } while (!apart);
    a[i].velocity = fxs_vec2_truncate(fxs_test_point(&rng, -2, 2), FXS_INT(4));
    b[i] = a[i];
  }
  double closest = 1e9, farthest = 0;
  for (int leg = 0; leg < 10; ++leg) { // 10 x 100 ticks, comparing the two runs in between
    double gap = run_flock(a, N, 100, 0);
    closest = gap < closest ? gap : closest;
    run_flock(b, N, 100, 1);
    for (int i = 0; i < N; ++i) {
      TEST_ASSERT_TRUE(fxs_vec2_equal(a[i].position, b[i].position));
      TEST_ASSERT_TRUE(fxs_vec2_equal(a[i].velocity, b[i].velocity));
    }
  }
  for (int i = 0; i < N; ++i) {
    double g = dx(fxs_vec2_distance(a[i].position, pt(1500, 300)));
    farthest = g > farthest ? g : farthest;
  }
  FXS_TEST_REPORT(
      "flock over 7 neighbors: closest centres %.2f units, farthest from the goal "
      "after 1000 ticks %.1f",
      closest, farthest);
  TEST_ASSERT_TRUE(closest > 16.0);
  TEST_ASSERT_TRUE(farthest < 150.0);
}

void test_the_query_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 8086;
  for (int c = 0; c < 2000; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0);
    self.position = fxs_test_any_point(&rng);
    self.velocity = fxs_test_any_point(&rng);
    self.orientation = fxs_test_any_raw(&rng);
    fxs_neighbor cand[8];
    for (int i = 0; i < 8; ++i) {
      cand[i].position = fxs_test_any_point(&rng);
      cand[i].velocity = fxs_vec2_zero();
      cand[i].id = fxs_test_lcg(&rng) % 6u;
    }
    fxs_neighbor_query_def d;
    d.radius = fxs_test_any_raw(&rng);
    d.cos_half_fov = fxs_test_any_raw(&rng);
    d.k = fxs_test_lcg(&rng) % 20u;
    uint32_t out[FXS_NEIGHBORS_MAX_K];
    uint32_t n = fxs_query_neighbors(&self, 2, cand, 8, &d, out);
    TEST_ASSERT_TRUE(n <= d.k && n <= 8);
    for (uint32_t i = 0; i < n; ++i) {
      TEST_ASSERT_TRUE(out[i] < 8);
      TEST_ASSERT_NOT_EQUAL(2, cand[out[i]].id);
      TEST_ASSERT_TRUE(fxs_vec2_within(self.position, cand[out[i]].position, d.radius));
    }
    (void)fxs_in_field_of_view(self.position, self.velocity, cand[0].position,
                               fxs_test_any_raw(&rng));
  }
}
