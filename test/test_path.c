#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "path.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static const fxs_vec2 nodes[4] = {
    {0, 0}, {FXS_INT(300), 0}, {FXS_INT(300), FXS_INT(300)}, {FXS_INT(600), FXS_INT(300)}};

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

// A path with power-of-two lengths, so that points along it are exact in Q16.16.
static const fxs_vec2 square[4] = {
    {0, 0}, {FXS_INT(256), 0}, {FXS_INT(256), FXS_INT(256)}, {FXS_INT(512), FXS_INT(256)}};

static fxs_agent moving_agent(int x, int y, int vx, int vy) {
  fxs_agent a = fxs_test_agent_at(x, y);
  a.velocity = fxs_vec2_make(FXS_INT(vx), FXS_INT(vy));
  return a;
}

void test_the_predicted_position_is_projected_on_the_nearest_segment_ahead(void) {
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(28, 20);
  fxs_vec2 q = fxs_path_project(&a, &path, &s, fxs_vec2_make(FXS_INT(44), FXS_INT(20)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(44), q.x);
  TEST_ASSERT_EQUAL_INT32(0, q.y);
  TEST_ASSERT_EQUAL_UINT16(1, s.current_node); // node 0 lies behind: its segment is current
}

void test_the_force_seeks_the_point_lead_ahead_of_the_projection(void) {
  // 8 ticks at (2, 0) predict (128, 20), projected to (128, 0); the lead is 8 ticks at max
  // speed 4 = 32 units, so the target is (160, 0), not node 0 behind the agent.
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = moving_agent(112, 20, 2, 0);
  fxs_vec2 f = fxs_follow_path(&a, &path, &s);
  fxs_vec2 expected = fxs_seek(&a, fxs_vec2_make(FXS_INT(160), 0));
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  TEST_ASSERT_EQUAL_UINT16(1, s.current_node);
}

void test_the_target_turns_the_corner_along_the_next_segment(void) {
  // Predicted (256, -4): the corner (256, 0) is as near on both segments, so progress stays on
  // the first; the lead of 32 continues down the second segment to (256, 32).
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  s.current_node = 1;
  fxs_agent a = moving_agent(240, -4, 2, 0);
  fxs_vec2 f = fxs_follow_path(&a, &path, &s);
  fxs_vec2 expected = fxs_seek(&a, fxs_vec2_make(FXS_INT(256), FXS_INT(32)));
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  TEST_ASSERT_EQUAL_UINT16(1, s.current_node);
}

// Steps one agent on a path under the path force alone.
static void step(fxs_agent *a, const fxs_path_def *path, fxs_path_state *s) {
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_manager_add(&m, FXS_BEHAVIOR_PATH, fxs_steering_linear(fxs_follow_path(a, path, s)), FXS_ONE,
                  0);
  fxs_manager_update(&m, a);
}

void test_an_agent_pushed_off_the_path_rejoins_it_before_the_next_node(void) {
  static const fxs_vec2 line[3] = {{0, 0}, {FXS_INT(1024), 0}, {FXS_INT(1024), FXS_INT(512)}};
  fxs_path_def path = fxs_default_path_def(line, 3, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  s.current_node = 1; // on its way along the first segment
  fxs_agent a = moving_agent(100, 0, 4, 0);
  for (int t = 0; t < 20; ++t) step(&a, &path, &s);
  a.position.y = fxs_add(a.position.y, FXS_INT(150)); // a shove sideways
  int rejoined_at = -1;
  for (int t = 0; t < 400 && a.position.x < FXS_INT(1000); ++t) {
    step(&a, &path, &s);
    if (rejoined_at < 0 && fxs_abs(a.position.y) <= path.radius)
      rejoined_at = a.position.x / FXS_ONE;
  }
  // Seeking the node instead would close in on the line only near x = 1024.
  TEST_ASSERT_TRUE_MESSAGE(rejoined_at >= 0 && rejoined_at < 700,
                           "back within the path radius by x = 700");
}

void test_nodes_already_passed_are_not_sought_again(void) {
  // Placed on the first segment, at rest: node 0 is behind and is never headed for.
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(128, 0);
  uint16_t progress = 0;
  for (int t = 0; t < 600; ++t) {
    step(&a, &path, &s);
    TEST_ASSERT_TRUE(s.current_node >= progress);
    progress = s.current_node;
    TEST_ASSERT_TRUE(a.position.x >= FXS_INT(128));
  }
  TEST_ASSERT_EQUAL_UINT16(3, s.current_node);
}

void test_the_agent_does_not_head_at_a_node_behind_a_wall(void) {
  // The next node (256, 0) lies beyond the wall x = 150 (y 20..200). From (128, 100) the
  // point 32 ahead of the projection (128, 0), (160, 0), is behind the wall too, and the
  // line to (152, 0) passes within the body radius of the wall's end: the agent heads for
  // (144, 0), half the lead ahead.
  static const fxs_vec2 ell[3] = {{0, 0}, {FXS_INT(256), 0}, {FXS_INT(256), FXS_INT(200)}};
  static const fxs_wall wall = {{FXS_INT(150), FXS_INT(20)}, {FXS_INT(150), FXS_INT(200)}};
  fxs_path_def path = fxs_default_path_def(ell, 3, FXS_PATH_STOP_AT_END);
  path.walls = &wall, path.wall_count = 1;
  fxs_path_state s = fxs_path_start();
  s.current_node = 1;
  fxs_agent a = fxs_test_agent_at(128, 100);
  fxs_vec2 target;
  fxs_vec2 f = fxs_follow_path_toward(&a, &path, &s, &target);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(144), target.x);
  TEST_ASSERT_EQUAL_INT32(0, target.y);
  fxs_vec2 expected = fxs_seek(&a, target);
  TEST_ASSERT_EQUAL_INT32(expected.x, f.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, f.y);
  TEST_ASSERT_TRUE(fxs_path_sees(&path, a.position, target, a.radius));
  TEST_ASSERT_FALSE(fxs_path_sees(&path, a.position, ell[1], 0));
}

void test_a_target_out_of_sight_is_pulled_back_toward_the_projection(void) {
  // A wall across the path at x = 200 (y -50..50): the lead's point (232, 0) and its 3/4
  // (224, 0) and 1/2 (216, 0) lie beyond it; the quarter (208, 0) too; the projection
  // (200, 0) touches the wall's line only, so it is the target.
  static const fxs_vec2 line[2] = {{0, 0}, {FXS_INT(1024), 0}};
  static const fxs_wall wall = {{FXS_INT(204), FXS_INT(-50)}, {FXS_INT(204), FXS_INT(50)}};
  fxs_path_def path = fxs_default_path_def(line, 2, FXS_PATH_STOP_AT_END);
  path.walls = &wall, path.wall_count = 1;
  fxs_path_state s = fxs_path_start();
  fxs_agent a = fxs_test_agent_at(200, 0);
  fxs_vec2 target;
  fxs_follow_path_toward(&a, &path, &s, &target);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), target.x);
  TEST_ASSERT_EQUAL_INT32(0, target.y);
}

void test_followers_at_the_end_hold_and_queue_on_resting_ones(void) {
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  s.current_node = 3;
  fxs_vec2 end = square[3];
  fxs_path_rest rest = {{FXS_INT(500), FXS_INT(256)}, FXS_INT(8)};
  fxs_agent on_end = fxs_test_agent_at(512, 256);
  on_end.position.x -= FXS_RATIO(1, 8);
  TEST_ASSERT_TRUE(fxs_path_hold(&on_end, &path, &s, end, 0, 0));
  // Reach: speed 1 + 1/2 + 1.5 body radii (12) + the other's radius 8 = 21.5.
  fxs_agent behind = moving_agent(480, 256, 1, 0);
  TEST_ASSERT_TRUE(fxs_path_hold(&behind, &path, &s, end, &rest, 1));
  behind.position.x = FXS_INT(478);
  TEST_ASSERT_FALSE(fxs_path_hold(&behind, &path, &s, end, &rest, 1));
  // Overshot the end, still within the path radius: it stops where it is.
  fxs_agent past = moving_agent(518, 256, 1, 0);
  TEST_ASSERT_TRUE(fxs_path_hold(&past, &path, &s, end, 0, 0));
  // Not on the last segment, or another mode: never held.
  s.current_node = 2;
  TEST_ASSERT_FALSE(fxs_path_hold(&on_end, &path, &s, end, 0, 0));
  s.current_node = 3;
  path.mode = FXS_PATH_LOOP;
  TEST_ASSERT_FALSE(fxs_path_hold(&on_end, &path, &s, end, 0, 0));
}

void test_a_follower_holds_within_its_separation_of_a_resting_one_ahead(void) {
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  fxs_path_state s = fxs_path_start();
  s.current_node = 1; // on the first segment, toward (256, 0): not the last one
  fxs_vec2 target = fxs_vec2_make(FXS_INT(200), 0);
  fxs_path_rest ahead = {{FXS_INT(125), 0}, FXS_INT(8)};
  // At rest, reach = 0 + 1/2 + 1.5 body radii (12) + the other's radius 8 = 20.5: 25 away is
  // not held; with a separation keeping followers 28 apart it is, up to 28.5.
  fxs_agent a = fxs_test_agent_at(100, 0);
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, target, &ahead, 1));
  path.keep_apart = FXS_INT(28);
  TEST_ASSERT_TRUE(fxs_path_hold(&a, &path, &s, target, &ahead, 1));
  a.position.x = FXS_INT(125) - FXS_RATIO(57, 2) - 1; // 28.5 + 1 LSB away
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, target, &ahead, 1));
  a.position.x += 1;
  TEST_ASSERT_TRUE(fxs_path_hold(&a, &path, &s, target, &ahead, 1));
  // A resting follower behind it, or beside it, does not hold it.
  fxs_path_rest behind = {{FXS_INT(90), 0}, FXS_INT(8)},
                beside = {{FXS_INT(97), FXS_INT(20)}, FXS_INT(8)};
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, target, &behind, 1));
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, target, &beside, 1));
}

// Resting followers crowded round the sharp corner of a V, each with the state and target path
// following gives it: no two or three of them hold each other in a ring (which would keep
// them at rest for good), while many hold.
void test_resting_followers_never_hold_each_other_in_a_ring(void) {
  static const fxs_vec2 v[5] = {{0, 0},
                                {FXS_INT(200), 0},
                                {FXS_INT(300), FXS_INT(150)},
                                {FXS_INT(400), 0},
                                {FXS_INT(600), 0}};
  fxs_path_def path = fxs_default_path_def(v, 5, FXS_PATH_STOP_AT_END);
  path.radius = FXS_INT(30), path.keep_apart = FXS_INT(28);
  uint32_t seed = 12345u;
  long holds = 0, rings = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    enum { N = 4 };
    fxs_agent a[N];
    fxs_path_state st[N];
    fxs_vec2 target[N];
    fxs_path_rest r[N];
    for (int i = 0; i < N; ++i) {
      seed = seed * 1103515245u + 12345u;
      int x = 300 - 40 + (int)((seed >> 8) % 81u);
      seed = seed * 1103515245u + 12345u;
      int y = 150 - 60 + (int)((seed >> 8) % 61u);
      a[i] = fxs_test_agent_at(x, y);
      st[i] = fxs_path_start();
      st[i].current_node = (uint16_t)(2 + (seed >> 20) % 2u); // before or past the corner
      bool at_end;
      target[i] = fxs_path_target(&a[i], &path, &st[i], &at_end);
      r[i].position = a[i].position, r[i].radius = a[i].radius;
    }
    bool h[N][N];
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) {
        h[i][j] = i != j && fxs_path_hold(&a[i], &path, &st[i], target[i], &r[j], 1);
        holds += h[i][j];
      }
    }
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) {
        rings += h[i][j] && h[j][i];
        for (int k = 0; k < N; ++k) rings += h[i][j] && h[j][k] && h[k][i] && i != k;
      }
    }
  }
  TEST_ASSERT_EQUAL_INT32(0, rings);
  TEST_ASSERT_GREATER_THAN(1000, holds);
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

// fxs_path_hold has no unit of length: its distances come from the follower's radius and
// speed (the touching distance, agent.h). The end and queue cases above, every length
// divided by 16 (radius 1/2, the end within 1/64, the reach 21.5/16), hold or not exactly as
// at full size; one LSB past each edge does not hold.
void test_holding_at_the_end_and_in_a_queue_has_no_unit_of_length(void) {
  fxs_vec2 small[4];
  for (int i = 0; i < 4; ++i) small[i] = fxs_vec2_make(square[i].x / 16, square[i].y / 16);
  fxs_path_def path = fxs_default_path_def(small, 4, FXS_PATH_STOP_AT_END);
  path.radius /= 16;
  fxs_path_state s = fxs_path_start();
  s.current_node = 3;
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.radius = FXS_RATIO(1, 2), a.max_speed /= 16;
  a.position = fxs_vec2_make(small[3].x - FXS_RATIO(1, 64), small[3].y);
  TEST_ASSERT_TRUE(fxs_path_hold(&a, &path, &s, small[3], 0, 0));
  a.position.x -= 1, a.velocity = fxs_vec2_make(FXS_RATIO(1, 16), 0);
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, small[3], 0, 0));
  // Queueing: reach 1/16 + 1/32 + 3/4 + 1/2 = 43/32 from a resting one of radius 1/2.
  fxs_path_rest rest = {{FXS_INT(500) / 16, FXS_INT(256) / 16}, FXS_RATIO(1, 2)};
  a.position = fxs_vec2_make(rest.position.x - FXS_RATIO(43, 32), rest.position.y);
  TEST_ASSERT_TRUE(fxs_path_hold(&a, &path, &s, small[3], &rest, 1));
  a.position.x -= 1;
  TEST_ASSERT_FALSE(fxs_path_hold(&a, &path, &s, small[3], &rest, 1));
}
