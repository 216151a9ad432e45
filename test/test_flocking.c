#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "flocking.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_neighbor nb(int x, int y, int vx, int vy, uint32_t id) {
  fxs_neighbor n;
  n.position = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  n.velocity = fxs_vec2_make(FXS_INT(vx), FXS_INT(vy));
  n.id = id;
  return n;
}

// Reynolds' push: max_speed * (radius / distance - 1) per neighbor within the radius, nothing
// at the radius, growing without bound as the distance shrinks (capped at
// FXS_SEPARATION_MAX_PUSH * max_speed), so close bodies outweigh any seek-like pull.
void test_separation_grows_as_neighbors_close_in(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // max speed 4
  fxs_neighbor one[] = {nb(10, 0, 0, 0, 2)};
  fxs_vec2 f = fxs_separation(&a, 1, one, 1, FXS_INT(20));
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(4), f.x); // 4 * (20 / 10 - 1)
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  fxs_neighbor two[] = {nb(10, 0, 0, 0, 2), nb(0, -15, 0, 0, 3), nb(0, 25, 0, 0, 4)};
  f = fxs_separation(&a, 1, two, 3, FXS_INT(20));
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(4), f.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(4, 3), f.y); // 4 * (20 / 15 - 1); the third is out
  fxs_neighbor near[] = {nb(2, 0, 0, 0, 2)};
  f = fxs_separation(&a, 1, near, 1, FXS_INT(20));
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(32), f.x); // 4 * (20 / 2 - 1) = 36, capped at 8 * 4
  fxs_neighbor edge[] = {nb(20, 0, 0, 0, 2)};
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_separation(&a, 1, edge, 1, FXS_INT(20))));
}

void test_separation_splits_agents_on_the_same_spot_by_id(void) {
  fxs_agent a = fxs_test_agent_at(5, 5);
  fxs_neighbor same[] = {nb(5, 5, 0, 0, 9), nb(5, 5, 0, 0, 1)};
  fxs_vec2 f = fxs_separation(&a, 4, same, 2, FXS_INT(20));
  // id 4 < 9 pushes toward -x, id 4 > 1 toward +x: both at the capped push, they cancel.
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  f = fxs_separation(&a, 4, same, 1, FXS_INT(20));
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(32), f.x);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_separation(&a, 9, same, 1, FXS_INT(20)))); // itself
}

void test_alignment_matches_the_average_neighbor_velocity(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_neighbor n[] = {nb(10, 0, 2, 0, 2), nb(0, 10, 0, 2, 3), nb(90, 0, 5, 5, 4)};
  fxs_vec2 f = fxs_alignment(&a, 1, n, 3, FXS_INT(50));
  TEST_ASSERT_EQUAL_INT32(0, f.x); // avg (1, 1) - (1, 0)
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, f.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_alignment(&a, 1, n, 0, FXS_INT(50))));
}

void test_cohesion_seeks_the_centre_of_the_neighbors(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_neighbor n[] = {nb(30, 10, 0, 0, 2), nb(30, 70, 0, 0, 3)};
  fxs_vec2 f = fxs_cohesion(&a, 1, n, 2, FXS_INT(100));
  fxs_vec2 expected = fxs_seek(&a, fxs_vec2_make(FXS_INT(30), FXS_INT(40)));
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(24, 10), f.x); // (30, 40) -> (2.4, 3.2)
}

// Twelve agents seek one point; returns the smallest pairwise distance over the last 300
// of 900 ticks, with or without separation.
static fix16_t crowd_min_distance(int with_separation) {
  enum { N = 12 };
  fxs_agent agents[N];
  fxs_neighbor view[N];
  uint32_t rng = 77;
  for (int i = 0; i < N; ++i) {
    agents[i] = fxs_test_agent_at(0, 0);
    agents[i].position = fxs_test_point(&rng, -400, 400);
  }
  fxs_vec2 goal = fxs_vec2_make(FXS_INT(50), FXS_INT(-20));
  fix16_t worst = FXS_MAX;
  fxs_steering_manager m;
  for (int t = 0; t < 900; ++t) {
    for (int i = 0; i < N; ++i) view[i] = fxs_neighbor_of(&agents[i], (uint32_t)i);
    fxs_agent next[N];
    for (int i = 0; i < N; ++i) { // every agent steers from the state at the start of the tick
      next[i] = agents[i];
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE,
                      fxs_steering_linear(fxs_arrive(&agents[i], goal, FXS_INT(100))), FXS_ONE, 0);
      if (with_separation) {
        fxs_manager_add(
            &m, FXS_BEHAVIOR_SEPARATION,
            fxs_steering_linear(fxs_separation(&agents[i], (uint32_t)i, view, N, FXS_INT(40))),
            FXS_INT(4), 0);
      }
      fxs_manager_update(&m, &next[i]);
    }
    for (int i = 0; i < N; ++i) agents[i] = next[i];
    if (t < 600) continue;
    for (int i = 0; i < N; ++i) {
      for (int j = i + 1; j < N; ++j) {
        worst = fxs_min(worst, fxs_vec2_distance(agents[i].position, agents[j].position));
      }
    }
  }
  return worst;
}

void test_separation_keeps_a_crowd_apart(void) {
  fix16_t apart = crowd_min_distance(1);
  fix16_t together = crowd_min_distance(0);
  FXS_TEST_REPORT("crowd of 12 on one goal: min distance %.2f units with separation, %.4f without",
                  fxs_test_to_double(apart), fxs_test_to_double(together));
  TEST_ASSERT_TRUE(together < FXS_ONE);   // the control collapses onto the goal
  TEST_ASSERT_TRUE(apart >= FXS_INT(12)); // separation keeps bodies (radius 8) from merging
}

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s ^ (*s >> 16); // all 32 bits, the weak low ones mixed with the high ones
}

static fix16_t raw_in(uint32_t *s, int units) { // uniform raw value in [-units, units)
  return (fix16_t)((int32_t)(lcg(s) % (uint32_t)(2 * units * 65536)) - units * 65536);
}

void test_known_squared_distances_give_the_measured_results(void) {
  uint32_t s = 2024;
  for (int round = 0; round < 2000; ++round) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    a.position = fxs_vec2_make(raw_in(&s, 300), raw_in(&s, 300));
    a.velocity = fxs_vec2_make(raw_in(&s, 3), raw_in(&s, 3));
    fxs_neighbor list[12];
    uint64_t d2[12];
    uint32_t count = 1u + lcg(&s) % 12u, self_id = lcg(&s) % 8u;
    for (uint32_t i = 0; i < count; ++i) {
      fxs_vec2 at = fxs_vec2_add(a.position, fxs_vec2_make(raw_in(&s, 120), raw_in(&s, 120)));
      if (lcg(&s) % 8u == 0) at = a.position;                    // on the same spot
      if (i > 0 && lcg(&s) % 8u == 0) at = list[i - 1].position; // a tie
      list[i].position = at;
      list[i].velocity = fxs_vec2_make(raw_in(&s, 3), raw_in(&s, 3));
      list[i].id = lcg(&s) % 8u; // sometimes self_id: skipped by both
      d2[i] = fxs_vec2_length_sq(fxs_vec2_sub(at, a.position));
    }
    fix16_t radius = raw_in(&s, 150); // negative a quarter of the time
    if (lcg(&s) % 4u == 0) radius = fxs_vec2_distance(a.position, list[0].position); // exact edge
    if (lcg(&s) % 16u == 0) radius = 0;
    fxs_vec2 m = fxs_separation(&a, self_id, list, count, radius);
    fxs_vec2 k = fxs_separation_known(&a, self_id, list, d2, count, radius);
    TEST_ASSERT_EQUAL_INT32(m.x, k.x);
    TEST_ASSERT_EQUAL_INT32(m.y, k.y);
    fxs_neighborhood h = fxs_neighborhood_gather(self_id, list, d2, count, radius);
    m = fxs_alignment(&a, self_id, list, count, radius);
    k = fxs_alignment_of(&a, &h);
    TEST_ASSERT_EQUAL_INT32(m.x, k.x);
    TEST_ASSERT_EQUAL_INT32(m.y, k.y);
    m = fxs_cohesion(&a, self_id, list, count, radius);
    k = fxs_cohesion_of(&a, &h);
    TEST_ASSERT_EQUAL_INT32(m.x, k.x);
    TEST_ASSERT_EQUAL_INT32(m.y, k.y);
  }
}

void test_a_neighborhood_sums_exactly_the_neighbors_within_the_radius(void) {
  fxs_neighbor list[] = {nb(3, 4, 1, 0, 2), nb(6, 8, 0, 2, 3), nb(0, 0, 5, 5, 1),
                         nb(30, 40, 9, 9, 4)};
  uint64_t d2[4];
  fxs_agent a = fxs_test_agent_at(0, 0);
  for (int i = 0; i < 4; ++i) d2[i] = fxs_vec2_length_sq(list[i].position);
  fxs_neighborhood h = fxs_neighborhood_gather(1, list, d2, 4, FXS_INT(10)); // id 1 is self
  TEST_ASSERT_EQUAL_INT32(2, h.count); // the one at distance 10 counts, the one at 50 not
  TEST_ASSERT_EQUAL_INT64(FXS_INT(9), h.position_x);
  TEST_ASSERT_EQUAL_INT64(FXS_INT(12), h.position_y);
  TEST_ASSERT_EQUAL_INT64(FXS_INT(1), h.velocity_x);
  TEST_ASSERT_EQUAL_INT64(FXS_INT(2), h.velocity_y);
  h = fxs_neighborhood_gather(1, list, d2, 4, -FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(0, h.count);
  TEST_ASSERT_EQUAL_INT32(0, fxs_cohesion_of(&a, &h).x);
}
