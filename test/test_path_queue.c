// Packed queues (simulation version 6, FXS_RULES_PACKED_QUEUES): followers of a stop path
// fill the path's width from its end back instead of queueing in single file
// (fxs_path_hold_packed), and a world set to version 5 still queues them single file.
#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "path.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "version.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

// A path with power-of-two lengths; its last segment runs from (256, 256) to (512, 256).
static const fxs_vec2 square[4] = {
    {0, 0}, {FXS_INT(256), 0}, {FXS_INT(256), FXS_INT(256)}, {FXS_INT(512), FXS_INT(256)}};

static fxs_path_def last_leg(fxs_path_state *s) {
  fxs_path_def path = fxs_default_path_def(square, 4, FXS_PATH_STOP_AT_END);
  path.radius = FXS_INT(30), path.keep_apart = FXS_INT(28);
  *s = fxs_path_start();
  s->current_node = 3;
  return path;
}

void test_a_follower_goes_beside_a_resting_one_where_version_5_queues_behind_it(void) {
  fxs_path_state s;
  fxs_path_def path = last_leg(&s);
  fxs_path_rest end = {square[3], FXS_INT(8)};
  fxs_agent a = fxs_test_agent_at(490, 256);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  fxs_vec2 target = square[3];
  // Version 5: 22 from the resting one, within keep_apart + 1/2: it holds behind it.
  TEST_ASSERT_TRUE(fxs_path_hold(&a, &path, &s, target, &end, 1));
  // Packed: room beside it, a lane (28) across the path: the first lane, (512, 228).
  TEST_ASSERT_FALSE(fxs_path_hold_packed(&a, &path, &s, &target, &end, 1));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(512), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(228), target.y);
  // There (within two touching distances, 2 units) it holds.
  fxs_agent there = fxs_test_agent_at(511, 229);
  there.velocity = fxs_vec2_make(FXS_RATIO(1, 2), 0);
  target = square[3];
  TEST_ASSERT_TRUE(fxs_path_hold_packed(&there, &path, &s, &target, &end, 1));
}

void test_a_packed_follower_holds_when_every_lane_is_taken(void) {
  fxs_path_state s;
  fxs_path_def path = last_leg(&s);
  // The end row and the row past the last node, three lanes each: no room left.
  fxs_path_rest full[6] = {
      {{FXS_INT(512), FXS_INT(228)}, FXS_INT(8)}, {{FXS_INT(512), FXS_INT(256)}, FXS_INT(8)},
      {{FXS_INT(512), FXS_INT(284)}, FXS_INT(8)}, {{FXS_INT(540), FXS_INT(228)}, FXS_INT(8)},
      {{FXS_INT(540), FXS_INT(256)}, FXS_INT(8)}, {{FXS_INT(540), FXS_INT(284)}, FXS_INT(8)}};
  fxs_vec2 target = square[3];
  // Still under way and not about to touch: it comes on (its separation slows it).
  fxs_agent a = fxs_test_agent_at(488, 256);
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  TEST_ASSERT_FALSE(fxs_path_hold_packed(&a, &path, &s, &target, full, 6));
  TEST_ASSERT_TRUE(fxs_vec2_equal(square[3], target));
  // Almost stopped within keep_apart (+ 1/2) of one: it holds.
  a.position.x = FXS_INT(485), a.velocity = fxs_vec2_zero();
  TEST_ASSERT_TRUE(fxs_path_hold_packed(&a, &path, &s, &target, full, 6));
  // About to touch one, moving toward it, whatever room there is: it holds.
  fxs_agent fast = fxs_test_agent_at(494, 256);
  fast.velocity = fxs_vec2_make(FXS_INT(2), 0);
  TEST_ASSERT_TRUE(fxs_path_hold_packed(&fast, &path, &s, &target, &full[1], 1));
}

void test_a_stopped_follower_holds_when_its_room_lies_behind_a_resting_one(void) {
  fxs_path_state s;
  fxs_path_def path = last_leg(&s);
  // The end row full, and the row past the end but for its middle, (540, 256): the one room,
  // straight behind the follower resting on the end.
  fxs_path_rest rest[5] = {{{FXS_INT(512), FXS_INT(228)}, FXS_INT(8)},
                           {{FXS_INT(512), FXS_INT(256)}, FXS_INT(8)},
                           {{FXS_INT(512), FXS_INT(284)}, FXS_INT(8)},
                           {{FXS_INT(540), FXS_INT(228)}, FXS_INT(8)},
                           {{FXS_INT(540), FXS_INT(284)}, FXS_INT(8)}};
  fxs_agent a = fxs_test_agent_at(485, 256);
  fxs_vec2 target = square[3];
  // Version 10: stopped 27 behind it (within keep_apart), it still heads for the room.
  TEST_ASSERT_FALSE(fxs_path_hold_packed(&a, &path, &s, &target, rest, 5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(540), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(256), target.y);
  // Version 11: the way there passes through the resting body: no room in reach, it holds.
  target = square[3];
  TEST_ASSERT_TRUE(fxs_path_hold_reachable(&a, &path, &s, &target, rest, 5));
  // Under way it goes for the room as before (it steers round the resting one).
  a.velocity = fxs_vec2_make(FXS_ONE, 0);
  TEST_ASSERT_FALSE(fxs_path_hold_reachable(&a, &path, &s, &target, rest, 5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(540), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(256), target.y);
  // Stopped off the line, the way to the room passes the resting one by more than its radius.
  fxs_agent b = fxs_test_agent_at(490, 240);
  target = square[3];
  TEST_ASSERT_FALSE(fxs_path_hold_reachable(&b, &path, &s, &target, rest, 5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(540), target.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(256), target.y);
}

// ------------------------------------------------------------------ in the world

#define FOLLOWERS 12
static const fxs_world_capacity cap = {FOLLOWERS, 0, 1, 2, 3, 0};
static uint64_t memory[16384];

// Twelve followers of a stop path (radius 8, separation 28, obstacle avoidance, path radius
// 30) coming single file down an 80-wide corridor closed 60 past the path's end; the last
// segment is 130 long. Returns how many rest on it (past its first node, inside the
// corridor) after 1,500 ticks, and the final hash in *hash.
static int queue_on_last_segment(uint32_t version, uint64_t *hash) {
  fxs_world world;
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  fxs_vec2 nodes[2] = {fxs_vec2_make(FXS_INT(370), 0), fxs_vec2_make(FXS_INT(500), 0)};
  uint16_t path = 0;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_add_path(&world, nodes, 2, FXS_PATH_STOP_AT_END, FXS_INT(30), &path));
  const int corner[4][2] = {{-300, -40}, {560, -40}, {560, 40}, {-300, 40}};
  for (int k = 0; k < 3; ++k) {
    fxs_wall w = {fxs_vec2_make(FXS_INT(corner[k][0]), FXS_INT(corner[k][1])),
                  fxs_vec2_make(FXS_INT(corner[k + 1][0]), FXS_INT(corner[k + 1][1]))};
    fxs_command c = fxs_command_add_wall(w);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  }
  for (int i = 0; i < FOLLOWERS; ++i) {
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = fxs_vec2_make(FXS_INT(340 - 30 * i), 0);
    sd.max_speed = FXS_RATIO(5, 2);
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&sd);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
    c = fxs_command_clear_behaviors(h, FXS_COMBINE_PRIORITIZED_SUM);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
    fxs_behavior_slot avoid = fxs_behavior_slot_default(FXS_BEHAVIOR_AVOID);
    fxs_behavior_slot sep = fxs_behavior_slot_default(FXS_BEHAVIOR_SEPARATION);
    sep.p[FXS_PARAM(SEPARATION, radius)] = FXS_INT(28), sep.weight = FXS_INT(3), sep.priority = 1;
    fxs_behavior_slot follow = fxs_behavior_slot_default(FXS_BEHAVIOR_PATH);
    follow.priority = 1;
    const fxs_behavior_slot *set[3] = {&avoid, &sep, &follow};
    for (int k = 0; k < 3; ++k) {
      c = fxs_command_add_behavior(h, set[k]);
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
    }
    c = fxs_command_set_path(h, path);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  }
  for (int t = 0; t < 1500; ++t) fxs_world_step(&world, 0, 0, 0);
  int on_last = 0;
  for (uint32_t i = 0; i < world.capacity.agents; ++i) {
    const fxs_agent *a = &world.agents[i].body;
    on_last += world.agents[i].alive && fxs_vec2_is_zero(a->velocity) &&
               a->position.x > FXS_INT(370) && a->position.y > -FXS_INT(40) &&
               a->position.y < FXS_INT(40);
  }
  *hash = fxs_world_hash(&world);
  return on_last;
}

void test_twelve_followers_all_rest_on_a_last_segment_that_holds_them_three_abreast(void) {
  uint64_t packed, single_file;
  TEST_ASSERT_EQUAL_INT(FOLLOWERS, queue_on_last_segment(FXS_SIMULATION_VERSION, &packed));
  // Version 5 queues them single file, 28.5 apart: the queue runs back off the segment (6 of
  // 12 on it).
  int v5 = queue_on_last_segment(5u, &single_file);
  TEST_ASSERT_TRUE(v5 < FOLLOWERS);
  TEST_ASSERT_NOT_EQUAL_UINT64(packed, single_file);
  // Version 5 steps exactly as before the rule: the hash main's version-5 build gives.
  TEST_ASSERT_EQUAL_HEX64(0x5711c809d81fb260ull, single_file);
}
