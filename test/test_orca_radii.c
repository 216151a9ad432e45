// ORCA's scale-free defaults: the neighbor distance and the neighbor radius derive from the
// agents (orca.h's fxs_orca_reach; 0 is each neighbor's own radius), and the world's sorted
// program reads each neighbor's real radius in a crowd of mixed sizes.
#include "unity.h"

#include "orca.h"
#include "orca_sorted.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

// The neighbor distance of 0 is FXS_ORCA_REACH_RADII of the agent's radii, at most 1024
// units: 120 for the default radius 8, 15/16 for a radius of 1/16, 1024 for a radius of 100;
// a positive one is taken as it is.
void test_orca_reach_derives_from_the_radius(void) {
  fxs_agent a = fxs_default_agent();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(120), fxs_orca_reach(&a, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(7), fxs_orca_reach(&a, FXS_INT(7)));
  a.radius = FXS_RATIO(1, 16);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(15, 16), fxs_orca_reach(&a, 0));
  a.radius = FXS_INT(100);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1024), fxs_orca_reach(&a, 0));
}

// A neighbor radius of 0 assumes neighbors of the agent's own size: the same half-plane as
// that radius named.
void test_a_neighbor_radius_of_zero_is_the_agents_own(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.radius = FXS_INT(3);
  fxs_neighbor n = fxs_test_neighbor(20, 5, -1, 0, 2);
  fxs_orca_def d = fxs_default_orca_def(), named = d;
  named.neighbor_radius = FXS_INT(3);
  fxs_orca_line a = fxs_orca_half_plane(&self, 1, &n, &d),
                b = fxs_orca_half_plane(&self, 1, &n, &named);
  TEST_ASSERT_TRUE(fxs_vec2_equal(a.point, b.point) && fxs_vec2_equal(a.direction, b.direction));
  named.neighbor_radius = FXS_INT(8);
  b = fxs_orca_half_plane(&self, 1, &n, &named);
  TEST_ASSERT_FALSE(fxs_vec2_equal(a.point, b.point) && fxs_vec2_equal(a.direction, b.direction));
}

// Neighbors' own radii (a crowd of mixed sizes), read from a plain array of them by id: each
// pair's line takes its neighbor's radius. Over seeded crowds: radii read per neighbor give the
// velocity that def->neighbor_radius gives when every neighbor has that one radius; and one
// neighbor of its own radius gives the velocity of def->neighbor_radius set to it.
void test_neighbor_radii_read_per_neighbor_match_a_named_radius(void) {
  uint32_t rng = 4242;
  static fxs_orca_scratch scratch;
  for (int c = 0; c < 500; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0);
    self.velocity = fxs_vec2_make(fxs_test_raw_speed(&rng), fxs_test_raw_speed(&rng));
    self.radius = fxs_test_units(&rng, 1, 8);
    fix16_t radii[FXS_NEIGHBORS_MAX_K + 1];
    fix16_t one = fxs_test_units(&rng, 1, 8);
    uint32_t n = 1u + fxs_test_lcg(&rng) % FXS_NEIGHBORS_MAX_K;
    fxs_neighbor list[FXS_NEIGHBORS_MAX_K];
    for (uint32_t i = 0; i < n; ++i) {
      list[i] = fxs_test_neighbor(0, 0, 0, 0, 1u + i);
      list[i].position = fxs_test_point(&rng, -30, 30);
      list[i].velocity = fxs_vec2_make(fxs_test_raw_speed(&rng), fxs_test_raw_speed(&rng));
      radii[1u + i] = one;
    }
    fxs_vec2 preferred = fxs_vec2_make(fxs_test_raw_speed(&rng), fxs_test_raw_speed(&rng));
    fxs_orca_def named = fxs_default_orca_def();
    named.neighbor_radius = one;
    fxs_orca_def own = fxs_default_orca_def();
    fxs_orca_radii lookup = {radii, sizeof(fix16_t)};
    fxs_vec2 a =
        fxs_orca_velocity_sorted(&self, 0, preferred, list, 0, 0, n, 0, &named, false, 0, &scratch);
    fxs_vec2 b = fxs_orca_velocity_sorted(&self, 0, preferred, list, 0, &lookup, n, 0, &own, false,
                                          0, &scratch);
    TEST_ASSERT_TRUE(fxs_vec2_equal(a, b));
    // One neighbor smaller than the largest: its own line, not the largest one's.
    radii[1] = fxs_test_units(&rng, 1, 8);
    named.neighbor_radius = radii[1];
    a = fxs_orca_velocity_sorted(&self, 0, preferred, list, 0, 0, 1, 0, &named, false, 0, &scratch);
    b = fxs_orca_velocity_sorted(&self, 0, preferred, list, 0, &lookup, 1, 0, &own, false, 0,
                                 &scratch);
    TEST_ASSERT_TRUE(fxs_vec2_equal(a, b));
  }
}

// Whether velocity v is allowed by line l (on the left of its direction, exactly).
static bool allows(fxs_orca_line l, fxs_vec2 v) {
  int64_t dx = (int64_t)v.x - l.point.x, dy = (int64_t)v.y - l.point.y;
  return (int64_t)l.direction.x * dy - (int64_t)l.direction.y * dx >= 0;
}

// ORCA keeps pairs (r1 + r2) / FXS_ORCA_MARGIN_DIVISOR beyond their bodies: two agents at
// rest and touching (centres r1 + r2 apart) lie inside the margin, so standing still is
// refused and the line pushes the agent away (its point heads off the neighbor); at rest a
// unit beyond the margin, standing still is allowed. Radii 8 and 8 (margin 1/2 unit) and
// 2 and 6 (margin 1/4).
void test_orca_keeps_the_margin_beyond_touching_bodies(void) {
  const int radii[2][2] = {{8, 8}, {2, 6}};
  for (int c = 0; c < 2; ++c) {
    fxs_agent self = fxs_test_agent_at(0, 0);
    self.radius = FXS_INT(radii[c][0]);
    fxs_orca_def d = fxs_default_orca_def();
    d.neighbor_radius = FXS_INT(radii[c][1]);
    int sum = radii[c][0] + radii[c][1];
    fxs_neighbor touching = fxs_test_neighbor(sum, 0, 0, 0, 2);
    fxs_orca_line l = fxs_orca_half_plane(&self, 1, &touching, &d);
    TEST_ASSERT_FALSE(allows(l, fxs_vec2_zero()));
    TEST_ASSERT_TRUE(l.point.x < 0);
    fxs_neighbor beyond = fxs_test_neighbor(sum + 1, 0, 0, 0, 2);
    TEST_ASSERT_TRUE(allows(fxs_orca_half_plane(&self, 1, &beyond, &d), fxs_vec2_zero()));
  }
}
