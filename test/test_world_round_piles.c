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

// Round other groups' piles (world_rules.h, FXS_RULES_ROUND_PILES, simulation version 9): a
// group of 25 navigate agents rests in its pile round (200, 200); a second group of 8, sent
// later from the west to (360, 200), sees its goal from the start, so its last leg runs
// straight through that pile. By version 9's rules its followers slide round the pile and all
// 8 end at rest in their own cluster, the pile's agents back on theirs; by version 8's some
// press into the pile and wait there for good.

#define PILE 25
#define LATE 8
#define AGENTS (PILE + LATE)
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 0, 0, 0, 1600, 2, 1600, 64, 2, 0, 0};
static uint64_t memory[200000];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

typedef struct outcome {
  int late_home; // of the late group: at rest within its compact cluster at the end
  int pile_home; // of the pile's group: the same round (200, 200)
  int last_move; // the last tick an agent moved
  uint64_t hash; // the world's hash at the end
} outcome;

static int at_rest_within(uint32_t from, uint32_t to, double gx, double gy, double disc) {
  int n = 0;
  for (uint32_t i = from; i < to; ++i) {
    const fxs_agent *a = &world.agents[i].body;
    double dx = fxs_test_to_double(a->position.x) - gx, dy = fxs_test_to_double(a->position.y) - gy;
    n += fxs_vec2_is_zero(a->velocity) && sqrt(dx * dx + dy * dy) <= disc;
  }
  return n;
}

// The pile's group spawned in a 5 x 5 block round its goal, the late group at tick 400 in a
// column of 8, 12 apart, at x = 40.
static outcome run(uint32_t version, int ticks) {
  nav_world_init(&world, 1, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  nav_grid(&world, 1600);
  for (int i = 0; i < PILE; ++i)
    nav_crowd_walker(&world, 168 + 16 * (i % 5), 168 + 16 * (i / 5), 200, 200);
  outcome o = {0, 0, 0, 0};
  for (int t = 1; t <= ticks; ++t) {
    if (t == 400)
      for (int i = 0; i < LATE; ++i) nav_crowd_walker(&world, 40, 158 + 12 * i, 360, 200);
    fxs_world_step(&world, 0, 0, 0);
    for (uint32_t i = 0; i < world.capacity.agents; ++i)
      if (!fxs_vec2_is_zero(world.agents[i].body.velocity)) o.last_move = t;
  }
  o.pile_home = at_rest_within(0, PILE, 200, 200, 1.3 * 5 * sqrt((double)PILE));
  o.late_home = at_rest_within(PILE, AGENTS, 360, 200, 1.3 * 5 * sqrt((double)LATE));
  o.hash = fxs_world_hash(&world);
  FXS_TEST_REPORT(
      "version %u: late group %d of %d home, pile %d of %d home, last move at tick "
      "%d, hash 0x%016llx",
      version, o.late_home, LATE, o.pile_home, PILE, o.last_move, (unsigned long long)o.hash);
  return o;
}

// The latest version: the late group goes round the pile; every agent of both groups at rest
// in its own cluster well before the end.
void test_a_group_goes_round_another_groups_pile_on_its_last_leg(void) {
  outcome o = run(FXS_SIMULATION_VERSION, 1500);
  TEST_ASSERT_EQUAL_INT(LATE, o.late_home);
  TEST_ASSERT_EQUAL_INT(PILE, o.pile_home);
  TEST_ASSERT_TRUE(o.last_move < 1400);
}

// Version 8's rules: the same scene steps as it did (the hash is the one the library of
// simulation version 8 computed); followers of the late group press into the pile, 2 of 8 not
// home and still shoving at the end.
void test_version_8_presses_into_the_pile(void) {
  outcome o = run(8, 1500);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x27a7d1f7464a9143), o.hash);
  TEST_ASSERT_TRUE(o.late_home < LATE);
}
