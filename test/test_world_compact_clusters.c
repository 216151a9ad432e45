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

// Compact goal clusters (world_rules.h, FXS_RULES_COMPACT_CLUSTERS, simulation version 7): a
// group of N navigate agents sharing one goal on an integration field, whose behavior asks
// ORCA for more room than the bodies take (neighbor_radius 7 for bodies of radius 5, as
// scenarios/nav_crowd.yaml), ends at rest within 1.3 r sqrt(N) of the goal, without overlap.
// By version 6's rules its followers hold a radius of air between them and some rest short
// of that disc, in the pile behind it.

// One group of 49, an open 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
#define AGENTS 49
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 0, 0, 0, 1600, 2, 1600, 64, 2, 0, 0};
static uint64_t memory[200000];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// A navigating agent of radius 5 at (x, y) to (300, 200): top speed 2, force 0.25, ORCA's
// defaults but neighbor_radius 7.
static void walker(int x, int y) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.radius = FXS_INT(5), s.max_speed = FXS_INT(2);
  s.max_force = FXS_ONE / 4;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  fxs_orca_def d = fxs_default_orca_def();
  d.neighbor_radius = FXS_INT(7);
  c = fxs_command_add_navigate(h, fxs_default_blend(), FXS_INT(40), &d);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&world, fxs_command_set_target_point(h, nav_point(300, 200))));
}

// The scene at simulation version `version`: a 7 x 7 block of agents 16 apart round (80,
// 200), all sent to (300, 200).
static void group(uint32_t version) {
  nav_world_init(&world, 1, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  nav_grid(&world, 1600);
  for (int i = 0; i < AGENTS; ++i) walker(32 + 16 * (i % 7), 152 + 16 * (i / 7));
}

typedef struct outcome {
  int outside, moving; // at the end: beyond 1.3 r sqrt(N) of the goal; not at rest
  double deepest;      // the deepest overlap of two bodies at any tick, in radii
  double farthest;     // the farthest agent from the goal at the end, in compact discs
  int last_move;       // the last tick an agent moved
  uint64_t hash;       // the world's hash at the end
} outcome;

static outcome run(uint32_t version, int ticks) {
  group(version);
  outcome o = {0, 0, 0, 0, 0, 0};
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
  }
  o.hash = fxs_world_hash(&world);
  return o;
}

static void report(const char *what, uint32_t version, outcome o) {
  FXS_TEST_REPORT(
      "%s, version %u: %d outside the compact disc, %d moving, last move at tick %d, "
      "farthest %.3f of the disc, deepest overlap %.4f r, hash %016llx",
      what, version, o.outside, o.moving, o.last_move, o.farthest, o.deepest,
      (unsigned long long)o.hash);
}

// Version 7: every one at rest for good well before the end, no overlap beyond 5 % of a
// radius, and the pile nearer the compact disc: 46 of 49 within it, the farthest at 1.177 of
// it (issue 52 asks for all: the last comers rest behind the pile, held by its static
// friction); by version 6's rules 12 rest outside it, the farthest at 1.477.
void test_a_group_sharing_a_goal_ends_at_rest_compact(void) {
  outcome o = run(FXS_SIMULATION_VERSION, 1500);
  report("compact clusters", FXS_SIMULATION_VERSION, o);
  TEST_ASSERT_EQUAL_INT(0, o.moving);
  TEST_ASSERT_TRUE(o.last_move < 1000);
  TEST_ASSERT_TRUE(o.deepest <= 0.05);
  TEST_ASSERT_TRUE(o.outside <= 3);
  TEST_ASSERT_TRUE(o.farthest < 1.2);
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
