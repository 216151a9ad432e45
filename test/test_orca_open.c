// ORCA for a crowd walking apart (fxs_orca_velocity_open): the neighbors in the order a
// search met them, against fxs_orca_velocity_sorted on the same neighbors sorted.

#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "neighbors.h"
#include "orca.h"
#include "orca_sorted.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

// A view as the world's step keeps it: positions and velocities by view entry. The found
// neighbors sit at scattered entries, in the order a search met them.
enum { VIEW = 64 };
typedef struct open_case {
  fxs_agent self;
  fxs_orca_def def;
  fxs_vec2 preferred;
  fxs_vec2 positions[VIEW], velocities[VIEW];
  uint32_t views[FXS_NEIGHBORS_MAX_K];
  uint64_t dist_sq[FXS_NEIGHBORS_MAX_K];
  uint32_t count;
} open_case;

// A speed component in [-spread, spread] units a tick, raw.
static fix16_t raw_within(uint32_t *rng, uint32_t spread) {
  return (fix16_t)(fxs_test_lcg(rng) % (2u * spread + 1u)) - (fix16_t)spread;
}

// A seeded case. `apart`: a crowd walking apart, as in the open phase of RVO2's Circle (each
// neighbor at least 3 units off, moving about as the agent does, most of them away from it);
// else a crowd: neighbors within 6 units a side, going anywhere.
static void make_case(uint32_t *rng, bool apart, open_case *c) {
  memset(c, 0, sizeof *c);
  c->self = fxs_test_agent_at(0, 0);
  c->self.position = fxs_test_point(rng, -20, 20);
  c->self.radius = fxs_test_units(rng, 0, 2) + FXS_RATIO(1, 2);
  c->self.max_speed = fxs_test_units(rng, 0, 2) + FXS_RATIO(1, 2);
  c->self.velocity =
      fxs_vec2_make(raw_within(rng, FXS_RATIO(1, 2)), raw_within(rng, FXS_RATIO(1, 2)));
  c->def = fxs_default_orca_def();
  c->def.neighbor_distance = fxs_test_units(rng, 5, 30);
  c->def.neighbor_radius = c->self.radius;
  c->def.time_horizon = fxs_test_units(rng, 1, 40);
  c->def.max_neighbors = 1u + fxs_test_lcg(rng) % FXS_NEIGHBORS_MAX_K;
  c->preferred = fxs_vec2_make(raw_within(rng, FXS_INT(1)), raw_within(rng, FXS_INT(1)));
  // A search's k is max_neighbors; one case in eight has more, which ORCA must choose among.
  uint32_t most = fxs_test_lcg(rng) % 8u ? c->def.max_neighbors : FXS_NEIGHBORS_MAX_K;
  c->count = fxs_test_lcg(rng) % (most + 1u);
  uint32_t first = fxs_test_lcg(rng) % VIEW;
  for (uint32_t i = 0; i < c->count; ++i) {
    uint32_t view = (first + 7u * i) % VIEW; // distinct: 7 and 64 are coprime
    fxs_vec2 offset = apart ? fxs_test_point(rng, -35, 35) : fxs_test_point(rng, -6, 6);
    fxs_vec2 v = fxs_vec2_make(raw_within(rng, FXS_INT(1)), raw_within(rng, FXS_INT(1)));
    if (apart) {
      while (fxs_vec2_length(offset) < FXS_INT(3)) offset = fxs_test_point(rng, -35, 35);
      // The agent's velocity, nudged, plus a drift away from it in three cases of four.
      fxs_vec2 away = fxs_vec2_set_length(offset, FXS_RATIO(1, 16));
      v = fxs_vec2_add(c->self.velocity, fxs_vec2_make(raw_within(rng, FXS_RATIO(1, 32)),
                                                       raw_within(rng, FXS_RATIO(1, 32))));
      if (fxs_test_lcg(rng) % 4u != 0) v = fxs_vec2_add(v, away);
    }
    if (apart && i == 0 && fxs_test_lcg(rng) % 4u == 0) {
      // Head-on ahead on the preferred course: the side turn, and a start point turned aside
      // toward the others.
      offset = fxs_vec2_set_length(c->preferred, fxs_test_units(rng, 4, 30));
      v = fxs_vec2_make(-c->preferred.x / 2, -c->preferred.y / 2);
    }
    if (i > 0 && fxs_test_lcg(rng) % 8u == 0) { // an equal distance: the id breaks the tie
      offset = fxs_vec2_make(-(c->positions[c->views[i - 1]].x - c->self.position.x),
                             c->positions[c->views[i - 1]].y - c->self.position.y);
    }
    c->views[i] = view;
    c->positions[view] = fxs_vec2_add(c->self.position, offset);
    c->velocities[view] = v;
    c->dist_sq[i] = fxs_vec2_length_sq(fxs_vec2_sub(c->positions[view], c->self.position));
  }
}

// fxs_orca_velocity_sorted on the case's neighbors sorted as the world's search sorts them
// (squared distance, then id; the id of a neighbor is its view entry here), the prefix
// fxs_orca_sorted_count takes, equal shares, no static line.
static fxs_vec2 sorted_velocity(const open_case *c) {
  fxs_neighbor list[FXS_NEIGHBORS_MAX_K];
  uint64_t d2[FXS_NEIGHBORS_MAX_K];
  for (uint32_t i = 0; i < c->count; ++i) {
    fxs_neighbor n;
    n.position = c->positions[c->views[i]];
    n.velocity = c->velocities[c->views[i]];
    n.id = c->views[i];
    uint32_t at = i;
    while (at > 0 && (d2[at - 1] > c->dist_sq[i] ||
                      (d2[at - 1] == c->dist_sq[i] && list[at - 1].id > n.id))) {
      list[at] = list[at - 1], d2[at] = d2[at - 1];
      --at;
    }
    list[at] = n, d2[at] = c->dist_sq[i];
  }
  uint32_t n = fxs_orca_sorted_count(d2, c->count, &c->def);
  static fxs_orca_scratch scratch;
  return fxs_orca_velocity_sorted(&c->self, VIEW, c->preferred, list, 0, 0, n, 0, &c->def, false, 0,
                                  &scratch);
}

static bool open_velocity(const open_case *c, fxs_vec2 *v) {
  fxs_orca_found found = {c->positions, c->velocities, c->views, c->dist_sq, c->count};
  return fxs_orca_velocity_open(&c->self, VIEW, c->preferred, &found, &c->def, false, v);
}

// Wherever the open path answers, its velocity is the sorted program's, bit for bit; it
// answers for most of a crowd walking apart (the case it is for), with and without the side
// turn, and declines for most crowds.
void test_open_orca_answers_only_with_the_sorted_velocity(void) {
  uint32_t rng = 4242;
  int answered[2] = {0, 0}, turned = 0, cases = 3000;
  for (int k = 0; k < 2 * cases; ++k) {
    bool apart = k < cases;
    static open_case c;
    make_case(&rng, apart, &c);
    fxs_vec2 open, sorted = sorted_velocity(&c);
    if (!open_velocity(&c, &open)) continue;
    TEST_ASSERT_EQUAL_INT32(sorted.x, open.x);
    TEST_ASSERT_EQUAL_INT32(sorted.y, open.y);
    answered[apart]++;
    // The untouched start point is the preferred velocity within the speed limit.
    fxs_vec2 start = fxs_vec2_truncate(c.preferred, c.self.max_speed);
    turned += c.count > 0 && !fxs_vec2_equal(open, start);
  }
  FXS_TEST_REPORT("open ORCA: answered %d of %d apart, %d of %d near, %d turned aside", answered[1],
                  cases, answered[0], cases, turned);
  TEST_ASSERT_TRUE(answered[1] > cases / 2);
  TEST_ASSERT_TRUE(answered[0] < cases / 4);
  TEST_ASSERT_TRUE(turned > 20);
}

// More neighbors within ORCA's reach than it takes: their order decides which, so the open
// path declines. Without neighbors it answers with the start point.
void test_open_orca_declines_more_neighbors_than_it_takes(void) {
  uint32_t rng = 77;
  static open_case c;
  make_case(&rng, true, &c);
  c.def.max_neighbors = 3;
  c.def.neighbor_distance = FXS_INT(100);
  c.count = 0;
  for (uint32_t i = 0; i < 5; ++i) { // 10 units apart in a row, all walking as the agent does
    c.views[i] = i;
    c.positions[i] = fxs_vec2_add(c.self.position, fxs_vec2_make(FXS_INT(10 * ((int)i + 1)), 0));
    c.velocities[i] = c.self.velocity;
    c.dist_sq[i] = fxs_vec2_length_sq(fxs_vec2_sub(c.positions[i], c.self.position));
    c.count++;
  }
  fxs_vec2 v;
  TEST_ASSERT_FALSE(open_velocity(&c, &v));
  c.count = 3; // as many as ORCA takes: the sorted result
  TEST_ASSERT_TRUE(open_velocity(&c, &v));
  fxs_vec2 sorted = sorted_velocity(&c);
  TEST_ASSERT_EQUAL_INT32(sorted.x, v.x);
  TEST_ASSERT_EQUAL_INT32(sorted.y, v.y);
  c.count = 0;
  TEST_ASSERT_TRUE(open_velocity(&c, &v));
  fxs_vec2 start = fxs_vec2_truncate(c.preferred, c.self.max_speed);
  TEST_ASSERT_EQUAL_INT32(start.x, v.x);
  TEST_ASSERT_EQUAL_INT32(start.y, v.y);
}

// An agent of RVO2's Circle (radius 1.5, max speed 0.5 a tick, 10 neighbors) going along x at
// full speed, with no neighbors yet.
static void circle_agent(open_case *c, fix16_t neighbor_distance, fix16_t time_horizon) {
  memset(c, 0, sizeof *c);
  c->self = fxs_test_agent_at(0, 0);
  c->self.velocity = fxs_vec2_make(FXS_RATIO(1, 2), 0);
  c->self.max_speed = FXS_RATIO(1, 2);
  c->self.radius = FXS_RATIO(3, 2);
  c->def = fxs_default_orca_def();
  c->def.neighbor_radius = c->self.radius;
  c->def.neighbor_distance = neighbor_distance;
  c->def.time_horizon = time_horizon;
  c->def.max_neighbors = 10;
  c->preferred = c->self.velocity;
}

// Neighbors beyond ORCA's reach are not ORCA's: a neighbor head-on but past the neighbor
// distance changes nothing, and within it the open path declines.
void test_open_orca_leaves_out_neighbors_beyond_its_reach(void) {
  static open_case c;
  circle_agent(&c, FXS_INT(15), FXS_INT(40));
  c.count = 1;
  c.views[0] = 5;
  c.positions[5] = fxs_vec2_make(FXS_INT(16), 0); // ahead, coming straight at the agent
  c.velocities[5] = fxs_vec2_make(-FXS_RATIO(1, 2), 0);
  c.dist_sq[0] = fxs_vec2_length_sq(c.positions[5]);
  fxs_vec2 v;
  TEST_ASSERT_TRUE(open_velocity(&c, &v));
  TEST_ASSERT_EQUAL_INT32(c.preferred.x, v.x);
  TEST_ASSERT_EQUAL_INT32(c.preferred.y, v.y);
  c.def.neighbor_distance = FXS_INT(20);
  TEST_ASSERT_FALSE(open_velocity(&c, &v));
}

// A neighbor head-on ahead turns the start point aside, toward a second neighbor whose line
// holds at the start point before the turn but not after it (a case found by a seeded
// search): the open path must take the bound again at the turned point, and so declines or
// gives the sorted velocity, which is not the turned start point.
void test_open_orca_takes_the_bound_again_at_the_turned_start_point(void) {
  static open_case c;
  circle_agent(&c, FXS_INT(30), FXS_INT(25));
  c.count = 2;
  c.views[0] = 0, c.views[1] = 1;
  c.positions[0] = fxs_vec2_make(1900544, -45147), c.velocities[0] = fxs_vec2_make(-23553, 0);
  c.positions[1] = fxs_vec2_make(665952, -1048961), c.velocities[1] = fxs_vec2_make(7236, 30758);
  for (uint32_t i = 0; i < 2; ++i) c.dist_sq[i] = fxs_vec2_length_sq(c.positions[i]);
  fxs_vec2 sorted = sorted_velocity(&c), v;
  fxs_vec2 turned = {32512, -4086}; // the preferred velocity turned aside (the side turn)
  TEST_ASSERT_FALSE(fxs_vec2_equal(turned, sorted));
  if (open_velocity(&c, &v)) {
    TEST_ASSERT_EQUAL_INT32(sorted.x, v.x);
    TEST_ASSERT_EQUAL_INT32(sorted.y, v.y);
  }
}
