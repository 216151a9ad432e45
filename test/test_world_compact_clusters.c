#include <math.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "result.h"
#include "world.h"
#include "snapshot.h"
#include "version.h"
#include "fxs_nav_test.h"

// Compact goal clusters (world_rules.h): a group of N navigate agents sharing one goal on an
// integration field, whose behavior asks ORCA for more room than the bodies take
// (neighbor_radius 7 for bodies of radius 5, as scenarios/nav_crowd.yaml), ends at rest
// within 1.3 r sqrt(N) of the goal, without overlap. By version 9's rules
// (FXS_RULES_CLUSTER_FILL) no hole is left a step or two inside from any of them
// (test_world_cluster_fill.c); by version 8's (FXS_RULES_CLUSTER_LATTICE) they settle on their
// cluster's lattice (world_cluster.h), all within that disc; by version 7's
// (FXS_RULES_COMPACT_CLUSTERS) the last comers rest behind the pile; by version 6's its followers
// hold a radius of air between them and more rest short of that disc, in the pile behind it.

// One group of 49, an open 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
#define AGENTS 49
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 0, 0, 0, 1600, 2, 1600, 64, 2, 0, 0};
static uint64_t memory[200000];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// The scene at simulation version `version`: a 7 x 7 block of agents 16 apart round (80,
// 200), all sent to (300, 200).
static void group(uint32_t version) {
  nav_world_init(&world, 1, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  nav_grid(&world, 1600);
  for (int i = 0; i < AGENTS; ++i)
    nav_crowd_walker(&world, 32 + 16 * (i % 7), 152 + 16 * (i / 7), 300, 200);
}

typedef struct outcome {
  int outside, moving; // at the end: beyond 1.3 r sqrt(N) of the goal; not at rest
  int on_nodes;        // at the end: exactly on a node of the lattice round the goal
  int holes;           // at the end: free nodes nearer the goal than the farthest on a node
  int unfilled;        // at the end: agents with a free node nearer the goal a step or two on
  double deepest;      // the deepest overlap of two bodies at any tick, in radii
  double farthest;     // the farthest agent from the goal at the end, in compact discs
  int last_move;       // the last tick an agent moved
  uint64_t hash;       // the world's hash at the end
} outcome;

// The lattice round the goal (nodes 2r + r/8 = 10.625 apart for bodies of radius 5, exact in
// Q16.16), nodes -15..15 each way: which ones an agent stands exactly on.
enum { SIDE = 31, MID = 15 };
static bool on_lattice[SIDE][SIDE];

static bool free_node(int i, int j) {
  return i >= -MID && i <= MID && j >= -MID && j <= MID && !on_lattice[i + MID][j + MID];
}

// Of the agents on nodes, those with a free node nearer the goal one step away, or two steps
// away through a free node (what the fill of simulation version 9 takes); into *holes, the
// free nodes nearer the goal than the farthest agent on a node.
static int unfilled(int *holes) {
  const int64_t step = FXS_INT(10) + FXS_INT(5) / 8;
  static const int dirs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  memset(on_lattice, 0, sizeof on_lattice);
  int far = -1;
  for (uint32_t k = 0; k < AGENTS; ++k) {
    const fxs_agent *a = &world.agents[k].body;
    int64_t dx = (int64_t)a->position.x - FXS_INT(300), dy = (int64_t)a->position.y - FXS_INT(200);
    if (dx % step != 0 || dy % step != 0) continue;
    int i = (int)(dx / step), j = (int)(dy / step);
    TEST_ASSERT_TRUE(i >= -MID && i <= MID && j >= -MID && j <= MID);
    on_lattice[i + MID][j + MID] = true;
    if (i * i + j * j > far) far = i * i + j * j;
  }
  *holes = 0;
  for (int i = -MID; i <= MID; ++i)
    for (int j = -MID; j <= MID; ++j) *holes += free_node(i, j) && i * i + j * j < far;
  int count = 0;
  for (int i = -MID; i <= MID; ++i)
    for (int j = -MID; j <= MID; ++j) {
      if (free_node(i, j) || i == -MID || i == MID || j == -MID || j == MID) continue;
      bool open = false;
      for (int k = 0; k < 4 && !open; ++k) {
        int mi = i + dirs[k][0], mj = j + dirs[k][1];
        if (!free_node(mi, mj)) continue;
        open = mi * mi + mj * mj < i * i + j * j;
        for (int m = 0; m < 4 && !open; ++m) {
          int ti = mi + dirs[m][0], tj = mj + dirs[m][1];
          open = free_node(ti, tj) && ti * ti + tj * tj < i * i + j * j;
        }
      }
      count += open;
    }
  return count;
}

static outcome run(uint32_t version, int ticks) {
  group(version);
  outcome o = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int t = 1; t <= ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    for (uint32_t i = 0; i < AGENTS; ++i) {
      const fxs_agent *a = &world.agents[i].body;
      if (!fxs_vec2_is_zero(a->velocity)) o.last_move = t;
      for (uint32_t j = 0; j < i; ++j) {
        const fxs_agent *b = &world.agents[j].body;
        double ex = fxs_test_to_double(a->position.x - b->position.x);
        double ey = fxs_test_to_double(a->position.y - b->position.y);
        double over = (10 - sqrt(ex * ex + ey * ey)) / 5;
        if (over > o.deepest) o.deepest = over;
      }
    }
  }
  const double cluster = 1.3 * 5 * sqrt((double)AGENTS);
  for (uint32_t i = 0; i < AGENTS; ++i) {
    const fxs_agent *a = &world.agents[i].body;
    double dx = fxs_test_to_double(a->position.x) - 300,
           dy = fxs_test_to_double(a->position.y) - 200;
    o.outside += sqrt(dx * dx + dy * dy) > cluster;
    if (sqrt(dx * dx + dy * dy) / cluster > o.farthest)
      o.farthest = sqrt(dx * dx + dy * dy) / cluster;
    o.moving += !fxs_vec2_is_zero(a->velocity);
    // The lattice of bodies of radius 5: nodes 2r + r/8 = 10.625 apart (exact in Q16.16).
    int64_t step = FXS_INT(10) + FXS_INT(5) / 8;
    o.on_nodes += ((int64_t)a->position.x - FXS_INT(300)) % step == 0 &&
                  ((int64_t)a->position.y - FXS_INT(200)) % step == 0;
  }
  o.unfilled = unfilled(&o.holes);
  o.hash = fxs_world_hash(&world);
  return o;
}

static void report(const char *what, uint32_t version, outcome o) {
  FXS_TEST_REPORT(
      "%s, version %u: %d outside the compact disc, %d on lattice nodes, %d holes, %d unfilled, "
      "%d moving, "
      "last move at tick %d, farthest %.3f of the disc, deepest overlap %.4f r, hash 0x%016llx",
      what, version, o.outside, o.on_nodes, o.holes, o.unfilled, o.moving, o.last_move, o.farthest,
      o.deepest, (unsigned long long)o.hash);
}

// The latest version: every one at rest for good well before the end, on its cluster's
// lattice (the pile packs as tight as bodies can round the goal), all within the compact disc,
// none overlapping by more than 5 % of a radius, none with a free node nearer the goal a step
// or two on; by version 7's rules 3 of 49 rest outside it.
void test_a_group_sharing_a_goal_ends_at_rest_on_its_lattice(void) {
  outcome o = run(FXS_SIMULATION_VERSION, 1500);
  report("cluster lattice", FXS_SIMULATION_VERSION, o);
  TEST_ASSERT_EQUAL_INT(0, o.unfilled);

  TEST_ASSERT_EQUAL_INT(0, o.moving);
  TEST_ASSERT_TRUE(o.last_move < 1000);
  TEST_ASSERT_TRUE(o.deepest <= 0.05);
  TEST_ASSERT_EQUAL_INT(0, o.outside);
  TEST_ASSERT_TRUE(o.farthest < 1.0);
  TEST_ASSERT_EQUAL_INT(AGENTS, o.on_nodes);
}

// Version 8's rules (FXS_RULES_CLUSTER_LATTICE without FXS_RULES_CLUSTER_FILL): the same
// scene steps as it did before the fill (the hash is the one the library of simulation
// version 8 computed), all on the lattice, at rest by tick 580 (version 9: 476). This group
// comes from one side only: version 8's pile leaves 2 free nodes inside its farthest, version
// 9's 3 (its last comers walk round the pile's edge and take the first free node of the room
// they meet), neither one a step or two from an agent farther out.
void test_version_8_steps_as_before(void) {
  outcome o = run(8, 1500);
  report("cluster lattice", 8, o);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x71818c2ea4f7eedd), o.hash);
  TEST_ASSERT_EQUAL_INT(AGENTS, o.on_nodes);
  TEST_ASSERT_EQUAL_INT(0, o.outside);
}

// Version 7's rules: the same scene steps as it did before the lattice (the hash is the one
// the library of simulation version 7 computed), none on the lattice, the pile nearer the
// compact disc than by version 6's rules but 3 of 49 outside it, the farthest at 1.177 of it.
void test_version_7_steps_as_before_and_rests_behind_the_pile(void) {
  outcome o = run(7, 1500);
  report("compact clusters", 7, o);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x690c45d24618c617), o.hash);
  TEST_ASSERT_EQUAL_INT(0, o.moving);
  TEST_ASSERT_TRUE(o.deepest <= 0.05);
  TEST_ASSERT_EQUAL_INT(3, o.outside);
  TEST_ASSERT_TRUE(o.farthest > 1.1 && o.farthest < 1.2);
}

// Version 6's rules: the same scene steps as it did before the rule (the hash is the one the
// library of simulation version 6 computed: its low 32 bits were checked against that
// library's), and its pile is wider than the compact disc.
void test_version_6_steps_as_before_and_rests_short_of_the_disc(void) {
  outcome o = run(6, 1500);
  report("version 6", 6, o);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xec8edae9e923448d), o.hash);
  TEST_ASSERT_EQUAL_INT(0, o.moving);
  TEST_ASSERT_TRUE(o.outside >= 10);
  TEST_ASSERT_TRUE(o.farthest > 1.4);
}
