#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "behavior_params.h"
#include "seek.h"
#include "path.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static const fxs_vec2 nodes[4] = {{0, 0}, {FXS_INT(300), 0}, {FXS_INT(300), FXS_INT(300)},
                                  {FXS_INT(600), FXS_INT(300)}};

// Runs path following and records the sequence of current nodes (one entry per change).
static int run_path(fxs_path_mode mode, int ticks, int *visits, int max_visits, fxs_agent *out) {
  fxs_path_def path = fxs_default_path_def(nodes, 4, mode);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(-50, 20);
  fxs_steering_manager m;
  int n = 0;
  visits[n++] = s.current_node;
  for (int t = 0; t < ticks; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    uint16_t before = s.current_node;
    fxs_manager_add(&m, FXS_BEHAVIOR_PATH, fxs_steering_linear(fxs_follow_path(&a, &path, &s)),
                    FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    if (s.current_node != before && n < max_visits) visits[n++] = s.current_node;
  }
  if (out) *out = a;
  return n;
}

void test_the_force_seeks_the_current_node(void) {
  fxs_path_def path = fxs_default_path_def(nodes, 4, FXS_PATH_LOOP);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(-30, -40);
  fxs_vec2 f = fxs_follow_path(&a, &path, &s);
  fxs_vec2 expected = fxs_seek(&a, nodes[0]);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  TEST_ASSERT_EQUAL_UINT16(0, s.current_node);
}

void test_reaching_a_node_within_the_radius_advances_one_node_only(void) {
  fxs_path_def path = fxs_default_path_def(nodes, 4, FXS_PATH_STOP_AT_END);
  path.radius = FXS_INT(400); // every node "reached": still one step per call
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(150, 100);
  fxs_follow_path(&a, &path, &s);
  TEST_ASSERT_EQUAL_UINT16(1, s.current_node);
  fxs_follow_path(&a, &path, &s);
  TEST_ASSERT_EQUAL_UINT16(2, s.current_node);
}

void test_patrol_visits_nodes_in_order_both_ways(void) {
  int visits[32];
  int n = run_path(FXS_PATH_PATROL, 3000, visits, 32, 0);
  const int expected[] = {0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0};
  TEST_ASSERT_TRUE(n >= 13);
  TEST_ASSERT_EQUAL_INT_ARRAY(expected, visits, 13);
}

void test_loop_returns_to_the_first_node(void) {
  int visits[32];
  int n = run_path(FXS_PATH_LOOP, 3000, visits, 32, 0);
  const int expected[] = {0, 1, 2, 3, 0, 1, 2, 3, 0};
  TEST_ASSERT_TRUE(n >= 9);
  TEST_ASSERT_EQUAL_INT_ARRAY(expected, visits, 9);
}

void test_stop_at_end_comes_to_rest_on_the_last_node(void) {
  int visits[32];
  fxs_agent a;
  int n = run_path(FXS_PATH_STOP_AT_END, 2000, visits, 32, &a);
  const int expected[] = {0, 1, 2, 3};
  TEST_ASSERT_EQUAL_INT(4, n);
  TEST_ASSERT_EQUAL_INT_ARRAY(expected, visits, 4);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
  TEST_ASSERT_TRUE(fxs_vec2_within(a.position, nodes[3], FXS_RATIO(1, 256)));
}

void test_degenerate_paths_are_safe(void) {
  fxs_path_def empty = fxs_default_path_def(nodes, 0, FXS_PATH_PATROL);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(5, 5);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_follow_path(&a, &empty, &s)));
  fxs_path_def one = fxs_default_path_def(nodes, 1, FXS_PATH_PATROL);
  a.position = nodes[0];
  fxs_follow_path(&a, &one, &s);
  TEST_ASSERT_EQUAL_UINT16(0, s.current_node);
  s.current_node = 99; // corrupted progress is clamped, never read out of bounds
  fxs_follow_path(&a, &one, &s);
  TEST_ASSERT_EQUAL_UINT16(0, s.current_node);
}
