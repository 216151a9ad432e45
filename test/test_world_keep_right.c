#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "version.h"
#include "snapshot.h"
#include "fxs_nav_test.h"

// Keeping right (world_way.h, fxs_way_keep_right; simulation version 6): a field group's
// follower on its way among agents going elsewhere turns 45 degrees to its right. Four groups
// crossing between four blocks, as RVO2's Blocks (each group from one corner to the opposite
// one, every passage shared by two flows each way), fill every passage with agents going in
// without the rule, and the crossing jams; with it the flows take each passage's two sides.

// Four groups of 16, four blocks (16 walls), a 40 x 40 grid of 10-unit cells, 4 fields.
#define AGENTS 64
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 16, 0, 0, 1600, 4, 1600, 64, 4, 0, 0};
static uint64_t memory[200000];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// The block of side 80 with its lower-left corner at (x, y): four walls.
static void block(int x, int y) {
  nav_wall(&world, x, y, x + 80, y), nav_wall(&world, x + 80, y, x + 80, y + 80);
  nav_wall(&world, x + 80, y + 80, x, y + 80), nav_wall(&world, x, y + 80, x, y);
}

// A navigating agent of radius 8 at (x, y) to (tx, ty), at Blocks' top speed and force of an
// eighth of its radius a tick, with ORCA's defaults.
static void walker(int x, int y, int tx, int ty) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.max_speed = FXS_ONE, s.max_force = FXS_ONE;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  fxs_orca_def d = fxs_default_orca_def();
  c = fxs_command_add_navigate(h, fxs_default_blend(), 0, &d);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_target_point(h, nav_point(tx, ty))));
}

// The scene at simulation version `version`: blocks 80 apart round the centre (200, 200)
// (passages 80 wide: five bodies, as Blocks'), 4 x 4 agents 20 apart in each corner, each
// group sent to the opposite corner.
static void blocks(uint32_t version) {
  nav_world_init(&world, 1, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  nav_grid(&world, 1600);
  block(80, 80), block(240, 80), block(80, 240), block(240, 240);
  for (int i = 0; i < AGENTS / 4; ++i) {
    int dx = 20 * (i % 4), dy = 20 * (i / 4);
    walker(10 + dx, 10 + dy, 350, 350);
    walker(390 - dx, 10 + dy, 50, 350);
    walker(10 + dx, 390 - dy, 350, 50);
    walker(390 - dx, 390 - dy, 50, 50);
  }
}

// Runs until every agent is home, within 64 of its goal (8 radii; a cluster of 16 has a
// radius of 1.3 r sqrt(16), 42), or `ticks` pass; the tick all are home, or 0. *hash: the
// world's hash after tick `hash_tick`.
static int all_home_by(int ticks, int hash_tick, uint64_t *hash) {
  for (int t = 1; t <= ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    if (t == hash_tick) *hash = fxs_world_hash(&world);
    uint32_t home = 0;
    for (uint32_t i = 0; i < AGENTS; ++i) {
      fxs_vec2 goal = world.agents[i].target_point;
      home += fxs_vec2_within(world.agents[i].body.position, goal, FXS_INT(64));
    }
    if (home == AGENTS && t >= hash_tick) return t;
  }
  return 0;
}

void test_four_groups_crossing_between_blocks_keep_right_and_get_home_sooner(void) {
  uint64_t old_hash = 0, new_hash = 0;
  blocks(5);
  int old_home = all_home_by(3000, 300, &old_hash);
  blocks(FXS_SIMULATION_VERSION);
  int new_home = all_home_by(3000, 300, &new_hash);
  FXS_TEST_REPORT(
      "all %d home by tick %d under version 5, %d under version %u; hashes at tick "
      "300 %016llx, %016llx",
      AGENTS, old_home, new_home, FXS_SIMULATION_VERSION, (unsigned long long)old_hash,
      (unsigned long long)new_hash);
  // Version 5 steps as before the rule: its hash is the one the library computed before it.
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xbfcf9d709d465a83), old_hash);
  TEST_ASSERT_TRUE(old_hash != new_hash);
  // Without the rule the crossing jams: not all home in 3,000 ticks (within 40 of their goal,
  // 58 of 64 by tick 2,000 and no more by tick 6,000); with it all by tick 1,273.
  TEST_ASSERT_EQUAL_INT(0, old_home);
  TEST_ASSERT_TRUE(new_home > 0 && new_home <= 1500);
}
