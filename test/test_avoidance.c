#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "behavior_params.h"
#include "seek.h"
#include "avoidance.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_obstacle obstacle(int x, int y, int r) {
  fxs_obstacle o;
  o.center = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  o.radius = FXS_INT(r);
  return o;
}

void test_avoidance_pushes_from_the_centre_toward_ahead(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // radius 8, max speed 4
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_avoidance_def def = fxs_default_avoidance_def(); // see ahead 60, force 1
  fxs_obstacle obs[] = {obstacle(70, 10, 20)};          // |ahead - centre| = 14.1 < 28
  fxs_vec2 f = fxs_avoid_obstacles(&a, obs, 1, &def);
  TEST_ASSERT_EQUAL_INT32(-46341, f.x); // (60, 0) - (70, 10) = (-10, -10), length 1
  TEST_ASSERT_EQUAL_INT32(-46341, f.y);
}

void test_probes_scale_with_speed(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(1), 0); // quarter speed: ahead at 15
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle far[] = {obstacle(50, 0, 10)}; // touched only by a full-length probe
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, far, 1, &def));
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, far, 1, &def));
}

void test_the_nearest_threat_wins_and_ties_keep_the_lower_index(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle obs[] = {obstacle(60, 0, 10), obstacle(30, 0, 10), obstacle(0, 30, 10),
                        obstacle(30, 0, 10)};
  TEST_ASSERT_EQUAL_INT(1, fxs_most_threatening_obstacle(&a, obs, 4, &def));
  fxs_obstacle none[] = {obstacle(0, 200, 10)};
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&a, none, 1, &def)));
}

void test_an_agent_crossing_an_obstacle_field_never_enters_an_obstacle(void) {
  // A grid of obstacles between the start and the goal, some jittered; prioritized sum puts
  // avoidance first so seek only gets the budget that is left.
  fxs_obstacle field[30];
  uint32_t rng = 5;
  int n = 0;
  for (int gx = 0; gx < 6; ++gx) {
    for (int gy = 0; gy < 5; ++gy) {
      int jx = (int)(fxs_test_lcg(&rng) % 40) - 20, jy = (int)(fxs_test_lcg(&rng) % 40) - 20;
      field[n++] = obstacle(200 + gx * 130 + jx, -260 + gy * 130 + jy, 25 + (int)(fxs_test_lcg(&rng) % 20));
    }
  }
  fxs_avoidance_def def = fxs_default_avoidance_def();
  def.max_see_ahead = FXS_INT(80);
  fix16_t worst_clearance = FXS_MAX;
  for (int c = 0; c < 12; ++c) {
    fxs_agent a = fxs_test_agent_at(0, -300 + c * 50);
    a.max_force = FXS_RATIO(1, 2);
    a.radius = FXS_INT(6);
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(1200), FXS_INT(300 - c * 50));
    fxs_steering_manager m;
    int t;
    for (t = 0; t < 2500 && !fxs_vec2_within(a.position, goal, FXS_INT(10)); ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, fxs_steering_linear(fxs_avoid_obstacles(&a, field, 30, &def)),
                      FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE, fxs_steering_linear(fxs_arrive(&a, goal, FXS_INT(80))),
                      FXS_ONE, 1);
      fxs_manager_update(&m, &a);
      for (int i = 0; i < 30; ++i) {
        fix16_t gap = fxs_sub(fxs_vec2_distance(a.position, field[i].center), field[i].radius);
        worst_clearance = fxs_min(worst_clearance, gap);
        TEST_ASSERT_TRUE_MESSAGE(gap > 0, "agent entered an obstacle");
      }
    }
    TEST_ASSERT_TRUE_MESSAGE(t < 2500, "agent never reached the far side");
  }
  FXS_TEST_REPORT("obstacle field: smallest centre-to-edge clearance %.2f units",
                  fxs_test_to_double(worst_clearance));
}

static fxs_wall wall(int ax, int ay, int bx, int by) {
  fxs_wall w;
  w.a = fxs_vec2_make(FXS_INT(ax), FXS_INT(ay));
  w.b = fxs_vec2_make(FXS_INT(bx), FXS_INT(by));
  return w;
}

void test_a_wall_across_the_probe_pushes_along_its_normal(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(4), 0); // probe to (60, 0) crosses x = 50
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_wall walls[] = {wall(50, 100, 50, -100), wall(-300, 0, -200, 0)};
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_wall(&a, walls, 2, &def));
  fxs_vec2 f = fxs_avoid_walls(&a, walls, 2, &def);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.x); // back toward the agent's side
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  a.velocity = fxs_vec2_make(0, FXS_INT(4)); // running parallel, far from it: no threat
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_wall(&a, walls, 2, &def));
}

void test_agents_pulled_toward_a_goal_behind_a_wall_never_cross_it(void) {
  fxs_wall walls[] = {wall(0, -400, 0, 400), wall(0, 400, 300, 600)};
  fxs_avoidance_def def = fxs_default_avoidance_def();
  uint32_t rng = 17;
  for (int c = 0; c < 16; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    fix16_t sx = fxs_test_units(&rng, -500, -100);
    fix16_t sy = fxs_test_units(&rng, -300, 300);
    a.position = fxs_vec2_make(sx, sy);
    a.max_force = FXS_RATIO(1, 2);
    fix16_t gy = fxs_test_units(&rng, -350, 350);
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(250), gy); // behind the wall
    fxs_steering_manager m;
    for (int t = 0; t < 800; ++t) {
      fxs_vec2 before = a.position;
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, fxs_steering_linear(fxs_avoid_walls(&a, walls, 2, &def)), FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, fxs_steering_linear(fxs_seek(&a, goal)), FXS_ONE, 1);
      fxs_manager_update(&m, &a);
      TEST_ASSERT_TRUE_MESSAGE(a.position.x < 0 || before.y > FXS_INT(400), "an agent crossed the wall");
    }
  }
}
