#include <math.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "result.h"
#include "world.h"
#include "snapshot.h"
#include "version.h"
#include "fxs_nav_test.h"

// ORCA alone round a wall (world_rules.h, FXS_RULES_WALL_SLIDE, simulation version 10): an ORCA
// agent whose target lies straight behind a wall, pressed against it, slides along it to its
// free end the shorter way round and on to the target; by version 9's rules it rests against
// the wall for good. A wall whose ends are both joined to other walls is left to ORCA, but for
// the face of a block (FXS_RULES_BLOCK_ROUND, simulation version 11): round the block's corner.

static const fxs_world_capacity cap = {1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static uint64_t memory[8192];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

typedef struct outcome {
  bool home;     // at rest within a quarter radius of the target at the end
  bool crossed;  // the centre passed through a wall on some tick
  double top;    // the least y the agent reached (the way round goes over the wall's top end)
  uint64_t hash; // the world's hash at the end
} outcome;

typedef enum shape { WALL, CUP, BLOCK } shape;

// One ORCA agent of radius 5 at (150, 200), its target (250, 200) behind the wall x = 200
// from y = 120 to y = 300 (nearer its top end); in a CUP two more walls join both its ends,
// running back past the agent (a cup it stands in); a BLOCK closes the wall into a 30 x 180
// block (the target (250, 200) 20 beyond its far face).
static outcome run(uint32_t version, shape form, int ticks) {
  nav_world_init(&world, 1, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  fxs_wall cup[3] = {{nav_point(200, 120), nav_point(200, 300)},
                     {nav_point(200, 120), nav_point(100, 120)},
                     {nav_point(200, 300), nav_point(100, 300)}};
  fxs_wall block[4] = {{nav_point(200, 120), nav_point(200, 300)},
                       {nav_point(200, 300), nav_point(230, 300)},
                       {nav_point(230, 300), nav_point(230, 120)},
                       {nav_point(230, 120), nav_point(200, 120)}};
  fxs_wall *walls = form == BLOCK ? block : cup;
  int wall_count = form == BLOCK ? 4 : (form == CUP ? 3 : 1);
  bool is_cup = form == CUP;
  for (int i = 0; i < wall_count; ++i)
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_wall(walls[i])));
  fxs_agent_handle h = nav_crowd_body(&world, 150, 200);
  fxs_orca_def d = fxs_default_orca_def();
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_orca(h, fxs_default_blend(), &d, 0)));
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&world, fxs_command_set_target_point(h, nav_point(250, 200))));
  outcome o = {false, false, 1e9, 0};
  for (int t = 0; t < ticks; ++t) {
    fxs_vec2 before = world.agents[0].body.position;
    fxs_world_step(&world, 0, 0, 0);
    fxs_vec2 after = world.agents[0].body.position;
    for (int i = 0; i < wall_count; ++i) o.crossed |= nav_crosses(before, after, walls[i]);
    double y = fxs_test_to_double(after.y);
    if (y < o.top) o.top = y;
  }
  const fxs_agent *a = &world.agents[0].body;
  double dx = fxs_test_to_double(a->position.x) - 250, dy = fxs_test_to_double(a->position.y) - 200;
  o.home = fxs_vec2_is_zero(a->velocity) && sqrt(dx * dx + dy * dy) <= 1.25;
  o.hash = fxs_world_hash(&world);
  FXS_TEST_REPORT("version %u%s: home %d, crossed %d, least y %.2f, hash 0x%016llx", version,
                  is_cup ? " (cup)" : (form == BLOCK ? " (block)" : ""), o.home, o.crossed, o.top,
                  (unsigned long long)o.hash);
  return o;
}

// The latest version: over the wall's top end (the shorter way) and home, through no wall.
void test_an_orca_agent_slides_round_a_wall_to_a_target_behind_it(void) {
  outcome o = run(FXS_SIMULATION_VERSION, WALL, 800);
  TEST_ASSERT_TRUE(o.home);
  TEST_ASSERT_FALSE(o.crossed);
  TEST_ASSERT_TRUE(o.top < 120.0 - 5.0); // its body passed above the top end
}

// Version 9's rules: pressed against the wall for good (the hash of the library of simulation
// version 9).
void test_version_9_rests_against_the_wall(void) {
  outcome o = run(9, WALL, 800);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xb9d7f68394bdbda6), o.hash);
  TEST_ASSERT_FALSE(o.home);
}

// In the cup both ends of the wall are joined: no way round by the rule, and the world steps as
// by version 9's rules, bit for bit.
void test_a_wall_with_both_ends_joined_is_left_to_orca(void) {
  outcome o = run(FXS_SIMULATION_VERSION, CUP, 800);
  TEST_ASSERT_FALSE(o.home);
  TEST_ASSERT_FALSE(o.crossed);
  TEST_ASSERT_EQUAL_HEX64(run(9, CUP, 800).hash, o.hash);
}

// A block's face (both its ends joined, turning away from the agent): since version 11 round
// the block keeping it on the agent's left (over its top corner, y = 120) and home, through no
// wall.
void test_an_orca_agent_goes_round_a_block_to_a_target_behind_it(void) {
  outcome o = run(FXS_SIMULATION_VERSION, BLOCK, 1200);
  TEST_ASSERT_TRUE(o.home);
  TEST_ASSERT_FALSE(o.crossed);
  TEST_ASSERT_TRUE(o.top < 120.0 - 5.0); // its body passed above the block
}

// Version 10's rules: the block's face is left to ORCA, and the agent rests against it.
void test_version_10_rests_against_the_block(void) {
  outcome o = run(10, BLOCK, 1200);
  TEST_ASSERT_FALSE(o.home);
  TEST_ASSERT_FALSE(o.crossed);
}
