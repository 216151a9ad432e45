#include <math.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "version.h"
#include "fxs_nav_test.h"

// Goal clusters that fill their holes (world_rules.h, FXS_RULES_CLUSTER_FILL, simulation
// version 9), on RVO2's Blocks in RVO2's units (scenarios/peer_blocks_nav.yaml): 100 navigate
// agents of radius 2 at 0.25 units a tick, in four 5 x 5 groups, cross four 30 x 30 blocks to
// four shared goals at the opposite corners. A group comes in through the passages from two
// sides, so the near side of its goal fills first. By version 9's rules every agent ends at
// rest within its group's compact cluster (1.3 r sqrt(25) = 13 units of its goal) on its
// lattice, with no free node nearer the goal a step or two from any of them; by version 8's,
// 3 rest outside their cluster, held against nodes that stand out of the pile, while their
// piles keep holes a step or two inside.

#define AGENTS 100
#define CELLS (120 * 120)
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 16, 0, 0, CELLS, 4, CELLS, 64, 4, 0, 0};
static uint64_t memory[366400]; // 2.93 MB: the world needs 2,929,680 bytes
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

static const int goal_of[4][2] = {{-75, -75}, {75, -75}, {-75, 75}, {75, 75}};

static void wall(int ax, int ay, int bx, int by) {
  fxs_wall w = {nav_point(ax, ay), nav_point(bx, by)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_wall(w)));
}

// The scene at simulation version `version` (tools/peer-scenes.py's Blocks, in the same order).
static void blocks(uint32_t version) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 1;
  def.bounds_min = nav_point(-120, -120), def.bounds_max = nav_point(120, 120);
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  TEST_ASSERT_EQUAL(
      FXS_OK, nav_apply(&world, fxs_command_set_nav_grid(nav_point(-120, -120), FXS_INT(2), 120,
                                                         120, FXS_INT(2), 4096)));
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2) { // each block's four sides
      int x0 = 10 * sx, x1 = 40 * sx, y0 = 10 * sy, y1 = 40 * sy;
      wall(x0, y0, x1, y0), wall(x1, y0, x1, y1), wall(x1, y1, x0, y1), wall(x0, y1, x0, y0);
    }
  for (int i = 0; i < AGENTS; ++i) {
    int g = i % 4, k = i / 4, sx = g % 2 ? -1 : 1, sy = g / 2 ? -1 : 1;
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = nav_point(sx * (55 + 10 * (k / 5)), sy * (55 + 10 * (k % 5)));
    s.radius = FXS_INT(2), s.max_speed = FXS_ONE / 4, s.max_force = FXS_ONE / 4;
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
    fxs_orca_def d = fxs_default_orca_def();
    d.time_horizon = FXS_INT(20), d.neighbor_distance = FXS_INT(15);
    d.neighbor_radius = FXS_INT(2), d.max_neighbors = 10;
    TEST_ASSERT_EQUAL(
        FXS_OK, nav_apply(&world, fxs_command_add_navigate(h, fxs_default_blend(), FXS_ONE, &d)));
    TEST_ASSERT_EQUAL(
        FXS_OK, nav_apply(&world, fxs_command_set_target_point(h, nav_point(-sx * 75, -sy * 75))));
  }
}

typedef struct outcome {
  int outside;  // at the end: beyond 1.3 r sqrt(25) of its goal
  int moving;   // at the end: not at rest
  int unfilled; // at the end: on a node, with a free node nearer its goal a step or two on
  int last_move;
  uint64_t hash;
} outcome;

// Whether node (i, j) of the lattice round goal g (nodes 2r + r/8 = 4.25 apart) is free: no
// agent of the group stands on it.
static bool node_free(int g, int i, int j) {
  const int64_t step = FXS_INT(4) + FXS_ONE / 4;
  for (uint32_t k = 0; k < AGENTS; ++k) {
    const fxs_agent *a = &world.agents[k].body;
    int64_t dx = (int64_t)a->position.x - FXS_INT(goal_of[g][0]);
    int64_t dy = (int64_t)a->position.y - FXS_INT(goal_of[g][1]);
    if (dx == i * step && dy == j * step) return false;
  }
  return true;
}

// Whether the agent on node (i, j) round goal g has a free node nearer the goal one step on,
// or two through a free node.
static bool unfilled(int g, int i, int j) {
  static const int dirs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (int k = 0; k < 4; ++k) {
    int mi = i + dirs[k][0], mj = j + dirs[k][1];
    if (!node_free(g, mi, mj)) continue;
    if (mi * mi + mj * mj < i * i + j * j) return true;
    for (int m = 0; m < 4; ++m) {
      int ti = mi + dirs[m][0], tj = mj + dirs[m][1];
      if (ti * ti + tj * tj < i * i + j * j && node_free(g, ti, tj)) return true;
    }
  }
  return false;
}

static outcome run(uint32_t version, int ticks) {
  blocks(version);
  outcome o = {0, 0, 0, 0, 0};
  for (int t = 1; t <= ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    for (uint32_t i = 0; i < AGENTS; ++i)
      if (!fxs_vec2_is_zero(world.agents[i].body.velocity)) o.last_move = t;
  }
  const int64_t step = FXS_INT(4) + FXS_ONE / 4;
  for (uint32_t k = 0; k < AGENTS; ++k) {
    const fxs_agent *a = &world.agents[k].body;
    fxs_vec2 goal = world.agents[k].target_point;
    int g = 0;
    while (g < 3 && !fxs_vec2_equal(goal, nav_point(goal_of[g][0], goal_of[g][1]))) ++g;
    TEST_ASSERT_TRUE(fxs_vec2_equal(goal, nav_point(goal_of[g][0], goal_of[g][1])));
    double dx = fxs_test_to_double(a->position.x - goal.x);
    double dy = fxs_test_to_double(a->position.y - goal.y);
    o.outside += sqrt(dx * dx + dy * dy) > 1.3 * 2 * 5;
    o.moving += !fxs_vec2_is_zero(a->velocity);
    int64_t ex = (int64_t)a->position.x - goal.x, ey = (int64_t)a->position.y - goal.y;
    if (ex % step == 0 && ey % step == 0)
      o.unfilled += unfilled(g, (int)(ex / step), (int)(ey / step));
  }
  o.hash = fxs_world_hash(&world);
  FXS_TEST_REPORT(
      "version %u: %d outside their cluster, %d unfilled, %d moving, last move at "
      "tick %d, hash 0x%016llx",
      version, o.outside, o.unfilled, o.moving, o.last_move, (unsigned long long)o.hash);
  return o;
}

// Version 9: all 100 at rest for good within their compact clusters, no hole left a step or
// two inside any pile.
void test_every_agent_ends_in_its_cluster_with_no_hole_a_step_or_two_in(void) {
  outcome o = run(FXS_SIMULATION_VERSION, 2600);
  TEST_ASSERT_EQUAL_INT(0, o.outside);
  TEST_ASSERT_EQUAL_INT(0, o.moving);
  TEST_ASSERT_EQUAL_INT(0, o.unfilled);
  TEST_ASSERT_TRUE(o.last_move < 2500);
}

// Version 8's rules (the lattice without its fill): the same scene steps as it did (the hash
// is the one the library of simulation version 8 computed), 3 resting outside their clusters.
void test_version_8_steps_as_before_and_leaves_agents_outside(void) {
  outcome o = run(8, 2600);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xfba1296bdbd7b2ff), o.hash);
  TEST_ASSERT_EQUAL_INT(3, o.outside);
  TEST_ASSERT_TRUE(o.unfilled > 0);
}
