#include <math.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "result.h"
#include "world.h"
#include "fxs_nav_test.h"
#include "world_rules.h"

// Walled off, at rest (world_rules.h, FXS_RULES_WALLED_REST, simulation version 11): 25 ORCA
// agents (no route) sent to a point inside a closed box pile against its west wall. A body
// pressed into that pile, its target walled in, that ORCA leaves no faster than its rest speed
// rests. The same scene in smaller units (every length divided by `shrink`: radius 5 / 4 is
// RVO2's size, 5 / 16 a third of a metre) must settle as it does at x1; by version 10's rules,
// bodies boxed in by their neighbours and the wall crawled back and forth by a raw unit or slid
// on at a fraction of their rest speed to the end (issue 52, orca_unreachable at x1/4, x1/16).

#define GROUP 25
#define GOAL_X 300
#define GOAL_Y 200
static const fxs_world_capacity cap = {GROUP, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static uint64_t memory[40000];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// (x, y) units divided by `shrink`.
static fxs_vec2 point(int x, int y, int32_t shrink) {
  return fxs_vec2_make(FXS_INT(x) / shrink, FXS_INT(y) / shrink);
}

// nav_crowd_body's agent (radius 5, speed 2, force 0.25) with its lengths divided by `shrink`,
// at (x, y), running ORCA with its defaults toward the goal.
static void walker(int x, int y, int32_t shrink) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = point(x, y, shrink);
  s.radius = FXS_INT(5) / shrink, s.max_speed = FXS_INT(2) / shrink;
  s.max_force = (FXS_ONE / 4) / shrink;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  fxs_orca_def d = fxs_default_orca_def();
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_orca(h, fxs_default_blend(), &d, 0)));
  c = fxs_command_set_target_point(h, point(GOAL_X, GOAL_Y, shrink));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
}

// The scene (the group in a 5 x 5 block, 16 apart, west of a closed 100 x 100 box round its
// goal) at version `version`, lengths divided by `shrink`, for `ticks`: the last tick an agent
// moved; *overlap the deepest overlap of two bodies at the end, in radii.
static int last_move(uint32_t version, int32_t shrink, int ticks, double *overlap) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 1;
  def.bounds_max = point(400, 400, shrink);
  def.neighbor_radius = fxs_max(def.neighbor_radius / shrink, 1);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  int c[5][2] = {{-50, -50}, {50, -50}, {50, 50}, {-50, 50}, {-50, -50}};
  for (int i = 0; i < 4; ++i) {
    fxs_wall w = {point(GOAL_X + c[i][0], GOAL_Y + c[i][1], shrink),
                  point(GOAL_X + c[i + 1][0], GOAL_Y + c[i + 1][1], shrink)};
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_wall(w)));
  }
  for (int i = 0; i < GROUP; ++i) walker(40 + 16 * (i % 5), 168 + 16 * (i / 5), shrink);
  int last = 0;
  for (int t = 1; t <= ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    for (uint32_t i = 0; i < GROUP; ++i)
      if (!fxs_vec2_is_zero(world.agents[i].body.velocity)) last = t;
  }
  *overlap = 0.0;
  double r = fxs_test_to_double(world.agents[0].body.radius);
  for (uint32_t i = 0; i < GROUP; ++i) {
    fxs_vec2 a = world.agents[i].body.position;
    for (uint32_t j = i + 1; j < GROUP; ++j) {
      fxs_vec2 b = world.agents[j].body.position;
      double dx = fxs_test_to_double(a.x) - fxs_test_to_double(b.x);
      double dy = fxs_test_to_double(a.y) - fxs_test_to_double(b.y);
      double depth = 2.0 - sqrt(dx * dx + dy * dy) / r;
      if (depth > *overlap) *overlap = depth;
    }
  }
  FXS_TEST_REPORT("version %u, x1/%d: last move at tick %d, deepest overlap %.4f r", version,
                  (int)shrink, last, *overlap);
  return last;
}

// At x1, x1/4 and x1/16 the pile comes to rest for good long before the end, none overlapping
// another by more than the give of contact.
void test_a_pile_walled_off_from_its_goal_comes_to_rest_in_any_unit(void) {
  const int32_t shrinks[3] = {1, 4, 16};
  for (int k = 0; k < 3; ++k) {
    double overlap;
    TEST_ASSERT_TRUE(last_move(FXS_RULES_WALLED_REST, shrinks[k], 1500, &overlap) < 1000);
    TEST_ASSERT_TRUE(overlap <= 0.05);
  }
}

// The rules before it (version 10's) left part of the pile moving to the end at x1/4 and x1/16.
void test_the_rules_before_kept_the_walled_off_pile_crawling_in_small_units(void) {
  double overlap;
  TEST_ASSERT_TRUE(last_move(FXS_RULES_WALLED_REST - 1, 4, 1500, &overlap) > 1400);
  TEST_ASSERT_TRUE(last_move(FXS_RULES_WALLED_REST - 1, 16, 1500, &overlap) > 1400);
}
