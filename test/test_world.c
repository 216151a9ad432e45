#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "hash.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "manager.h"
#include "seek.h"
#include "pursuit.h"
#include "path.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"

static const fxs_world_capacity cap = {16, 8, 2, 16, 4};
static uint64_t memory[8192];
static uint64_t memory2[8192];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 99;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

static fxs_command spawn_cmd(int x, int y) {
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y);
  c.arg[4] = FXS_INT(4), c.arg[5] = FXS_RATIO(1, 4), c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(8);
  return c;
}

static fxs_agent_handle spawn_at(int x, int y) {
  fxs_agent_handle h = {0};
  fxs_command c = spawn_cmd(x, y);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static fxs_result add(fxs_agent_handle h, fxs_behavior kind, uint8_t priority) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value;
  c.ref = (uint32_t)kind | ((uint32_t)priority << 8);
  c.arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  return fxs_world_apply(&world, &c, 0);
}

static void target_point(fxs_agent_handle h, int x, int y) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  c.agent = h.value, c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
}

static void step(int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(&world, 0, 0, 0);
}

void test_init_refuses_a_buffer_that_is_too_small(void) {
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_world_init(&w, &def, &cap, memory, fxs_world_memory_size(&cap) - 1));
}

void test_handles_go_stale_on_despawn_and_slots_are_reused_with_a_new_generation(void) {
  fxs_agent_handle a = spawn_at(10, 20);
  TEST_ASSERT_NOT_NULL(fxs_world_agent(&world, a));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(20), fxs_world_agent(&world, a)->position.y);
  fxs_command d = fxs_command_make(FXS_CMD_DESPAWN, 0, 0);
  d.agent = a.value;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &d, 0));
  TEST_ASSERT_NULL(fxs_world_agent(&world, a));
  fxs_agent_handle b = spawn_at(5, 5);
  TEST_ASSERT_EQUAL_UINT32(a.value & FXS_HANDLE_INDEX_MASK,
                           b.value & FXS_HANDLE_INDEX_MASK); // same slot
  TEST_ASSERT_NOT_EQUAL(a.value, b.value);                   // new generation
  TEST_ASSERT_NULL(fxs_world_agent(&world, a));
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_apply(&world, &d, 0));
  fxs_agent_handle zero = {0};
  TEST_ASSERT_NULL(fxs_world_agent(&world, zero));
}

void test_invalid_commands_are_rejected_and_change_nothing(void) {
  fxs_agent_handle a = spawn_at(0, 0);
  uint64_t before = fxs_world_hash(&world);
  fxs_command c = spawn_cmd(1, 1);
  c.arg[6] = 0; // mass 0
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = a.value;
  c.ref = 200; // no such behavior
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c.ref = FXS_BEHAVIOR_SEEK;
  c.agent = a.value + (1u << FXS_HANDLE_INDEX_BITS); // wrong generation
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_make((fxs_command_type)77, 0, 0);
  c.agent = a.value;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_COMMAND, fxs_world_apply(&world, &c, 0));
  c = fxs_command_make(FXS_CMD_SET_PATH, 0, 0);
  c.agent = a.value;
  c.ref = 1; // no path added yet
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_make(FXS_CMD_REMOVE_OBSTACLE, 0, 0);
  c.ref = 3;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_make(FXS_CMD_REMOVE_WALL, 0, 0);
  c.ref = 0; // no wall there
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  for (int i = 0; i < FXS_AGENT_BEHAVIORS; ++i)
    TEST_ASSERT_EQUAL(FXS_OK, add(a, FXS_BEHAVIOR_SEEK, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_FULL, add(a, FXS_BEHAVIOR_SEEK, 0));
}

void test_wall_and_obstacle_commands_refuse_nonzero_unused_slots_ref_and_agent(void) {
  fxs_wall wall = {fxs_vec2_make(0, 0), fxs_vec2_make(FXS_INT(4), 0)};
  fxs_obstacle ob = {fxs_vec2_make(FXS_INT(2), FXS_INT(2)), FXS_ONE};
  uint64_t before = fxs_world_hash(&world);
  for (int slot = 4; slot < FXS_COMMAND_ARGS; ++slot) {
    fxs_command c = fxs_command_add_wall(wall);
    c.arg[slot] = 1;
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  }
  for (int slot = 3; slot < FXS_COMMAND_ARGS; ++slot) {
    fxs_command c = fxs_command_add_obstacle(ob);
    c.arg[slot] = 1;
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  }
  fxs_command c = fxs_command_add_wall(wall);
  c.ref = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_add_obstacle(ob);
  c.ref = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  fxs_agent_handle a = spawn_at(9, 9);
  before = fxs_world_hash(&world);
  c = fxs_command_add_wall(wall);
  c.agent = a.value;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_add_obstacle(ob);
  c.agent = a.value;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  c = fxs_command_add_wall(wall);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = fxs_command_add_obstacle(ob);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_wall(0);
  c.arg[0] = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_obstacle(0);
  c.arg[7] = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_wall(0);
  c.agent = a.value;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_wall(0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_obstacle(0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
}

void test_commands_received_in_any_order_give_the_same_state(void) {
  fxs_command in[6];
  for (int i = 0; i < 6; ++i) {
    in[i] = spawn_cmd(10 * i, -7 * i);
    in[i].source = (uint8_t)(i % 2);
    in[i].sequence = (uint16_t)(i / 2);
  }
  fxs_command shuffled[6] = {in[4], in[1], in[5], in[0], in[3], in[2]};
  fxs_world_step(&world, in, 6, 0);
  uint64_t first = fxs_world_hash(&world);
  setUp();
  fxs_world_step(&world, shuffled, 6, 0);
  TEST_ASSERT_EQUAL_HEX64(first, fxs_world_hash(&world));
  TEST_ASSERT_EQUAL_UINT32(6, fxs_world_agent_count(&world));
}

void test_a_seeking_agent_moves_exactly_as_the_manager_would_move_it(void) {
  fxs_agent_handle a = spawn_at(100, 100);
  TEST_ASSERT_EQUAL(FXS_OK, add(a, FXS_BEHAVIOR_SEEK, 0));
  target_point(a, 900, -300);
  fxs_agent expected = *fxs_world_agent(&world, a);
  fxs_steering_manager m;
  for (int t = 0; t < 50; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(
        &m, FXS_BEHAVIOR_SEEK,
        fxs_steering_linear(fxs_seek(&expected, fxs_vec2_make(FXS_INT(900), FXS_INT(-300)))),
        FXS_ONE, 0);
    fxs_manager_update(&m, &expected);
  }
  step(50);
  const fxs_agent *got = fxs_world_agent(&world, a);
  TEST_ASSERT_EQUAL_INT32(expected.position.x, got->position.x);
  TEST_ASSERT_EQUAL_INT32(expected.position.y, got->position.y);
  TEST_ASSERT_EQUAL_INT32(expected.velocity.x, got->velocity.x);
  TEST_ASSERT_EQUAL_UINT32(50, world.tick);
}

void test_every_agent_steers_from_the_state_at_the_start_of_the_tick(void) {
  // Two agents pursue each other: each must see the other's old position and velocity,
  // whichever slot comes first.
  fxs_agent_handle a = spawn_at(0, 0), b = spawn_at(300, 40);
  add(a, FXS_BEHAVIOR_PURSUIT, 0);
  add(b, FXS_BEHAVIOR_PURSUIT, 0);
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_AGENT, 0, 0);
  c.agent = a.value, c.ref = b.value;
  fxs_world_apply(&world, &c, 0);
  c.agent = b.value, c.ref = a.value;
  fxs_world_apply(&world, &c, 0);
  fxs_agent ea = *fxs_world_agent(&world, a), eb = *fxs_world_agent(&world, b);
  fix16_t pred = fxs_behavior_slot_default(FXS_BEHAVIOR_PURSUIT).p[0];
  fxs_steering_manager m;
  for (int t = 0; t < 30; ++t) {
    fxs_agent oa = ea, ob = eb;
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_PURSUIT, fxs_steering_linear(fxs_pursuit(&oa, &ob, pred)),
                    FXS_ONE, 0);
    fxs_manager_update(&m, &ea);
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_PURSUIT, fxs_steering_linear(fxs_pursuit(&ob, &oa, pred)),
                    FXS_ONE, 0);
    fxs_manager_update(&m, &eb);
  }
  step(30);
  TEST_ASSERT_EQUAL_INT32(ea.position.x, fxs_world_agent(&world, a)->position.x);
  TEST_ASSERT_EQUAL_INT32(eb.position.y, fxs_world_agent(&world, b)->position.y);
}

// A populated world: agents with several behaviors, an obstacle and a path.
static void populate(void) {
  const fxs_vec2 nodes[3] = {{0, 0}, {FXS_INT(200), 0}, {FXS_INT(200), FXS_INT(200)}};
  uint16_t path;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_add_path(&world, nodes, 3, FXS_PATH_PATROL, FXS_INT(10), &path));
  fxs_agent_handle a = spawn_at(50, 50), b = spawn_at(80, 60), c = spawn_at(-40, 10);
  add(a, FXS_BEHAVIOR_WANDER, 0);
  add(a, FXS_BEHAVIOR_SEPARATION, 0);
  add(b, FXS_BEHAVIOR_PATH, 0);
  add(b, FXS_BEHAVIOR_AVOID, 0);
  add(c, FXS_BEHAVIOR_WALKER, 0);
  target_point(c, 300, 250);
  fxs_command cmd = fxs_command_make(FXS_CMD_SET_PATH, 0, 0);
  cmd.agent = b.value, cmd.ref = path;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &cmd, 0));
  cmd = fxs_command_make(FXS_CMD_ADD_OBSTACLE, 0, 0);
  cmd.arg[0] = FXS_INT(120), cmd.arg[1] = FXS_INT(20), cmd.arg[2] = FXS_INT(15);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &cmd, 0));
  cmd = fxs_command_make(FXS_CMD_ADD_WALL, 0, 0);
  cmd.arg[0] = FXS_INT(-100), cmd.arg[1] = FXS_INT(-60), cmd.arg[2] = FXS_INT(300),
  cmd.arg[3] = FXS_INT(-60);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &cmd, 0));
}

// Flips one field and checks that the hash notices.
static void expect_hash_change(uint64_t base, const char *what) {
  TEST_ASSERT_NOT_EQUAL_MESSAGE(base, fxs_world_hash(&world), what);
}

void test_flipping_any_kind_of_state_changes_the_hash(void) {
  populate();
  step(20);
  uint64_t base = fxs_world_hash(&world);
  fxs_agent_slot *s = &world.agents[0];
  fxs_agent_slot saved = *s;
#define FLIP(field, what)           \
  do {                              \
    *s = saved;                     \
    s->field ^= 1;                  \
    expect_hash_change(base, what); \
  } while (0)
  FLIP(body.position.x, "position");
  FLIP(body.velocity.y, "velocity");
  FLIP(body.orientation, "orientation");
  FLIP(body.rotation, "rotation");
  FLIP(body.max_speed, "max speed");
  FLIP(body.orientation_mode, "orientation mode");
  FLIP(rng.s[2], "random stream");
  FLIP(wander_angle, "wander angle");
  FLIP(target_point.x, "target point");
  FLIP(target_agent, "target agent");
  FLIP(second_target, "second target");
  FLIP(pending_force.y, "pending force");
  FLIP(behaviors[0].p[1], "behavior parameter");
  FLIP(behaviors[1].weight, "behavior weight");
  FLIP(combine_mode, "combine mode");
  FLIP(walker.waypoint.x, "walker waypoint");
  FLIP(path.current_node, "path progress");
  FLIP(generation, "generation");
  FLIP(owned, "owned");
  s->owned = 1;
  base = fxs_world_hash(&world);
  FLIP(owner, "owner");
  s->owned = 1;
  FLIP(owner, "owner of an owned agent");
  *s = saved;
  base = fxs_world_hash(&world);
  TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world));
  world.agents[5].generation ^= 1; // a free slot's generation is state too
  expect_hash_change(base, "free slot generation");
  world.agents[5].generation ^= 1;
  world.obstacles[0].radius ^= 1;
  expect_hash_change(base, "obstacle");
  world.obstacles[0].radius ^= 1;
  world.nodes[1].y ^= 1;
  expect_hash_change(base, "path node");
  world.nodes[1].y ^= 1;
  world.walls[0].b.x ^= 1;
  expect_hash_change(base, "wall");
  world.walls[0].b.x ^= 1;
  world.tick ^= 1;
  expect_hash_change(base, "tick");
  world.tick ^= 1;
  TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world));
#undef FLIP
}

void test_restoring_a_snapshot_continues_with_the_same_hashes(void) {
  populate();
  step(10);
  static uint8_t snap[4096];
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  TEST_ASSERT_EQUAL_UINT32(fxs_world_snapshot_size(&world), n);
  uint64_t hashes[40];
  for (int t = 0; t < 40; ++t) {
    step(1);
    hashes[t] = fxs_world_hash(&world);
  }
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, n, 0));
  for (int t = 0; t < 40; ++t) {
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(hashes[t], fxs_world_hash(&other));
  }
}

void test_saving_with_the_hash_writes_the_snapshot_and_the_hash_of_the_same_state(void) {
  populate();
  step(15);
  static uint8_t fused[4096], plain[4096];
  size_t n = 0, m = 0;
  uint64_t h = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save_hashed(&world, fused, sizeof fused, &n, &h));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, plain, sizeof plain, &m));
  TEST_ASSERT_EQUAL_UINT32(m, n);
  TEST_ASSERT_EQUAL_MEMORY(plain, fused, n);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), h);
  fxs_state_hasher bytes = fxs_state_hasher_make();
  fxs_state_hash_bytes(&bytes, fused, n);
  TEST_ASSERT_EQUAL_HEX64(fxs_state_hash_value(&bytes), h);
  // One flipped bit of state: a different hash and different bytes, from the same call.
  world.agents[1].wander_angle ^= 1;
  uint64_t flipped = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save_hashed(&world, fused, sizeof fused, &n, &flipped));
  TEST_ASSERT_NOT_EQUAL(h, flipped);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), flipped);
  TEST_ASSERT_TRUE(memcmp(plain, fused, n) != 0);
}

void test_saving_with_the_hash_into_a_short_buffer_says_so_and_still_hashes(void) {
  populate();
  step(3);
  static uint8_t small[64];
  size_t n = 0;
  uint64_t h = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_world_save_hashed(&world, small, sizeof small, &n, &h));
  TEST_ASSERT_EQUAL_UINT32(fxs_world_snapshot_size(&world), n);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), h);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_world_save_hashed(&world, 0, 0, 0, &h));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), h);
}

void test_capacity_of_a_snapshot_cut_before_its_capacities_is_truncated(void) {
  populate();
  static uint8_t snap[4096]; // the bytes after each cut stay readable: nothing may read them
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  fxs_world_capacity c;
  for (size_t cut = 0; cut < 55; ++cut) { // capacities: five u32 from byte 35
    TEST_ASSERT_EQUAL_MESSAGE(FXS_ERR_TRUNCATED, fxs_snapshot_capacity(snap, cut, &c), "cut");
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, n, &c));
  TEST_ASSERT_EQUAL_UINT32(cap.agents, c.agents);
  TEST_ASSERT_EQUAL_UINT32(cap.walls, c.walls);
}

void test_synctest_rolls_back_1_to_8_ticks_every_tick(void) {
  populate();
  static uint8_t ring[9][4096];
  size_t sizes[9];
  uint64_t hashes[9];
  for (int t = 0; t < 120; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, ring[t % 9], sizeof ring[0], &sizes[t % 9]));
    step(1);
    hashes[t % 9] = fxs_world_hash(&world);
    int back = 1 + t % 8;
    if (back > t) continue;
    // Roll back `back` ticks to the state before tick `from` and re-simulate to now.
    int from = t - back + 1;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&world, ring[from % 9], sizes[from % 9], 0));
    for (int k = from; k <= t; ++k) {
      step(1);
      TEST_ASSERT_EQUAL_HEX64(hashes[k % 9], fxs_world_hash(&world));
    }
  }
}

void test_restore_rejects_bad_data_and_leaves_the_world_unchanged(void) {
  populate();
  step(5);
  static uint8_t snap[4096];
  size_t n = 0;
  fxs_world_save(&world, snap, sizeof snap, &n);
  step(3);
  uint64_t before = fxs_world_hash(&world);
  size_t at = 0;
  for (size_t cut = 0; cut < n; ++cut) {
    fxs_result r = fxs_world_restore(&world, snap, cut, &at);
    TEST_ASSERT_TRUE_MESSAGE(r == FXS_ERR_TRUNCATED || r == FXS_ERR_BAD_MAGIC,
                             "truncation not caught");
    TEST_ASSERT_TRUE(at <= cut);
  }
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_LENGTH, fxs_world_restore(&world, snap, n + 1, &at));
  snap[0] ^= 0x40;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_MAGIC, fxs_world_restore(&world, snap, n, &at));
  snap[0] ^= 0x40;
  snap[4] ^= 0x02;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VERSION, fxs_world_restore(&world, snap, n, &at));
  TEST_ASSERT_EQUAL_UINT32(4, at); // the version field starts at byte 4
  snap[4] ^= 0x02;
  snap[35] ^= 0x01; // capacity.agents low byte
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_world_restore(&world, snap, n, &at));
  TEST_ASSERT_EQUAL_UINT32(35, at); // capacities start at byte 35
  snap[35] ^= 0x01;
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&world, snap, n, &at));
}

void test_an_applied_force_acts_for_one_tick_beyond_max_force(void) {
  fxs_agent_handle a = spawn_at(0, 0); // max force 0.25, max speed 4
  fxs_command c = fxs_command_make(FXS_CMD_APPLY_FORCE, 0, 0);
  c.agent = a.value;
  c.arg[0] = -FXS_RATIO(124, 100); // seed 001's wind, scaled to this agent
  fxs_world_step(&world, &c, 1, 0);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(124, 100), fxs_world_agent(&world, a)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, world.agents[a.value - 1].pending_force.x); // spent
  step(1);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(124, 100),
                          fxs_world_agent(&world, a)->velocity.x); // no new push
}

void test_agents_outside_the_bounds_still_sense_each_other(void) {
  // Both sit beyond the lower corner (clamped into the same edge cell of the grid) and one
  // far beyond the upper corner; separation must act between the close pair only.
  fxs_agent_handle a = spawn_at(-900, -900), b = spawn_at(-890, -900), c = spawn_at(9000, 9000);
  add(a, FXS_BEHAVIOR_SEPARATION, 0);
  add(b, FXS_BEHAVIOR_SEPARATION, 0);
  add(c, FXS_BEHAVIOR_SEPARATION, 0);
  step(1);
  TEST_ASSERT_TRUE(fxs_world_agent(&world, a)->velocity.x < 0); // pushed apart
  TEST_ASSERT_TRUE(fxs_world_agent(&world, b)->velocity.x > 0);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_world_agent(&world, c)->velocity));
}

// Lockstep peers name the agents a tick spawns before the tick runs: the predicted handles
// are the ones the spawns get, with despawned slots reused at their new generation.
void test_the_handles_of_a_ticks_spawns_are_known_before_the_tick(void) {
  fxs_agent_handle first[6];
  for (int i = 0; i < 6; ++i) first[i] = spawn_at(10 * i, 0);
  fxs_command gone[2];
  gone[0] = fxs_command_make(FXS_CMD_DESPAWN, 0, 0), gone[0].agent = first[1].value;
  gone[1] = fxs_command_make(FXS_CMD_DESPAWN, 0, 1), gone[1].agent = first[4].value;
  fxs_world_step(&world, gone, 2, 0);
  fxs_agent_handle predicted[4];
  TEST_ASSERT_EQUAL_UINT32(4, fxs_world_next_spawn_handles(&world, 4, predicted));
  fxs_command spawns[4];
  fxs_result results[4];
  for (uint16_t i = 0; i < 4; ++i)
    spawns[i] = spawn_cmd(5, 5), spawns[i].sequence = (uint16_t)(3 - i);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, spawns, 4, results));
  for (uint32_t k = 0; k < 4; ++k) {
    TEST_ASSERT_NOT_NULL(fxs_world_agent(&world, predicted[k]));
    TEST_ASSERT_NOT_EQUAL(first[1].value, predicted[0].value); // a new generation
  }
  TEST_ASSERT_EQUAL_UINT32(1, (predicted[0].value & FXS_HANDLE_INDEX_MASK) - 1u); // slot 1 first
  TEST_ASSERT_EQUAL_UINT32(4, (predicted[1].value & FXS_HANDLE_INDEX_MASK) - 1u); // then slot 4
  TEST_ASSERT_EQUAL_UINT32(6, (predicted[2].value & FXS_HANDLE_INDEX_MASK) - 1u);
  fxs_agent_handle none[32];
  TEST_ASSERT_EQUAL_UINT32(cap.agents - 8u, fxs_world_next_spawn_handles(&world, 32, none));
}

// ------------------------------------------------------------------ ownership

static fxs_agent_handle spawn_owned_by(uint8_t source) {
  fxs_agent_handle h = {0};
  fxs_command c = spawn_cmd(10, 20);
  c.source = source;
  c.ref = FXS_SPAWN_OWNED;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static fxs_result apply_from(fxs_command c, uint8_t source) {
  c.source = source;
  return fxs_world_apply(&world, &c, 0);
}

static uint32_t owner_of(fxs_agent_handle h) {
  uint32_t owner = 12345;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_owner(&world, h, &owner));
  return owner;
}

void test_an_owned_agent_refuses_every_agent_command_of_another_source_and_changes_nothing(void) {
  fxs_agent_handle h = spawn_owned_by(1), other = spawn_at(0, 0);
  TEST_ASSERT_EQUAL_UINT32(1, owner_of(h));
  TEST_ASSERT_EQUAL_UINT32(FXS_OWNER_SHARED, owner_of(other));
  fxs_agent_limits_def limits = fxs_default_agent_limits_def();
  fxs_behavior_slot b = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  fxs_command agent_commands[] = {
      fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(5), FXS_INT(5))),
      fxs_command_set_target_agent(h, other),
      fxs_command_set_second_target(h, other),
      fxs_command_clear_behaviors(h, FXS_COMBINE_WEIGHTED_SUM),
      fxs_command_add_behavior(h, &b),
      fxs_command_set_path(h, FXS_NO_PATH),
      fxs_command_apply_force(h, fxs_vec2_make(FXS_INT(1), 0)),
      fxs_command_set_limits(h, &limits),
      fxs_command_set_owner(h, 0),
      fxs_command_despawn(h),
  };
  enum { COUNT = sizeof agent_commands / sizeof agent_commands[0] };
  uint64_t before = fxs_world_hash(&world);
  for (size_t i = 0; i < COUNT; ++i) {
    TEST_ASSERT_EQUAL_MESSAGE(FXS_ERR_NOT_OWNER, apply_from(agent_commands[i], 0),
                              fxs_command_name(agent_commands[i].type));
    TEST_ASSERT_EQUAL_MESSAGE(FXS_ERR_NOT_OWNER, apply_from(agent_commands[i], 2),
                              fxs_command_name(agent_commands[i].type));
  }
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  // Its owner's commands apply (set_owner to 1 keeps it), and the shared agent takes any source.
  agent_commands[8] = fxs_command_set_owner(h, 1);
  for (size_t i = 0; i < COUNT; ++i) {
    TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, apply_from(agent_commands[i], 1),
                              fxs_command_name(agent_commands[i].type));
  }
  TEST_ASSERT_NULL(fxs_world_agent(&world, h));
  TEST_ASSERT_EQUAL(FXS_OK, apply_from(fxs_command_despawn(other), 7));
}

void test_only_the_owner_hands_an_agent_over_and_a_shared_agent_can_be_claimed(void) {
  fxs_agent_handle h = spawn_owned_by(0);
  TEST_ASSERT_EQUAL(FXS_ERR_NOT_OWNER, apply_from(fxs_command_set_owner(h, 3), 3));
  TEST_ASSERT_EQUAL(FXS_OK, apply_from(fxs_command_set_owner(h, 3), 0));
  TEST_ASSERT_EQUAL_UINT32(3, owner_of(h));
  TEST_ASSERT_EQUAL(FXS_ERR_NOT_OWNER, apply_from(fxs_command_set_owner(h, 0), 0));
  TEST_ASSERT_EQUAL(FXS_OK, apply_from(fxs_command_set_owner(h, FXS_OWNER_SHARED), 3));
  TEST_ASSERT_EQUAL_UINT32(FXS_OWNER_SHARED, owner_of(h));
  TEST_ASSERT_EQUAL(FXS_OK, apply_from(fxs_command_set_owner(h, 255), 9));
  TEST_ASSERT_EQUAL_UINT32(255, owner_of(h));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply_from(fxs_command_set_owner(h, 256), 255));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply_from(fxs_command_set_owner(h, 0x10000u), 255));
  TEST_ASSERT_EQUAL_UINT32(255, owner_of(h));
  fxs_command bad = spawn_cmd(0, 0);
  bad.ref = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &bad, 0));
  fxs_agent_handle none = {0};
  uint32_t owner = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_agent_owner(&world, none, &owner));
}

void test_owners_survive_a_snapshot_and_a_shared_agent_keeps_the_record_it_had_before_owners(void) {
  fxs_agent_handle shared = spawn_at(1, 2), owned = spawn_owned_by(4);
  (void)owned;
  static uint8_t buf[8192], again[8192];
  size_t size = 0, size2 = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, buf, sizeof buf, &size));
  static uint64_t restored_memory[8192];
  fxs_world restored;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_init(&restored, &def, &cap, restored_memory, sizeof restored_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&restored, buf, size, 0));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&restored));
  TEST_ASSERT_EQUAL_UINT8(1, restored.agents[1].owned);
  TEST_ASSERT_EQUAL_UINT8(4, restored.agents[1].owner);
  TEST_ASSERT_EQUAL_UINT8(0, restored.agents[0].owned);
  // The owned agent's record is 5 bytes longer than a shared one's (second target, owner).
  TEST_ASSERT_EQUAL(FXS_OK, apply_from(fxs_command_set_owner(owned, FXS_OWNER_SHARED), 4));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, again, sizeof again, &size2));
  TEST_ASSERT_EQUAL_size_t(size - 5u, size2);
  (void)shared;
}

// ------------------------------------------------------------------ accessors by handle

static void apply_ok(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

void test_an_agents_targets_are_read_by_its_handle_as_the_commands_set_them(void) {
  fxs_agent_handle a = spawn_at(10, 20), b = spawn_at(30, 40), c = spawn_at(50, 60);
  fxs_vec2 nodes[2] = {fxs_vec2_make(FXS_INT(0), FXS_INT(0)),
                       fxs_vec2_make(FXS_INT(100), FXS_INT(0))};
  uint16_t path = 0;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_add_path(&world, nodes, 2, FXS_PATH_STOP_AT_END, FXS_INT(4), &path));
  fxs_agent_targets t;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, a, &t));
  TEST_ASSERT_EQUAL_UINT32(0, t.target_agent.value);
  TEST_ASSERT_EQUAL_UINT32(0, t.second_target.value);
  TEST_ASSERT_EQUAL_UINT16(FXS_NO_PATH, t.path_index);
  apply_ok(fxs_command_set_target_point(a, fxs_vec2_make(FXS_INT(7), FXS_RATIO(-3, 2))));
  apply_ok(fxs_command_set_target_agent(a, b));
  apply_ok(fxs_command_set_second_target(a, c));
  apply_ok(fxs_command_set_path(a, path));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, a, &t));
  TEST_ASSERT_EQUAL_UINT32(b.value, t.target_agent.value);
  TEST_ASSERT_EQUAL_UINT32(c.value, t.second_target.value);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(7), t.target_point.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(-3, 2), t.target_point.y);
  TEST_ASSERT_EQUAL_UINT16(path, t.path_index);
  // The other agents are untouched, and the targets survive a step.
  step(3);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, b, &t));
  TEST_ASSERT_EQUAL_UINT32(0, t.target_agent.value);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, a, &t));
  TEST_ASSERT_EQUAL_UINT32(b.value, t.target_agent.value);
}

void test_an_agents_behavior_set_is_read_by_its_handle_in_order(void) {
  fxs_agent_handle a = spawn_at(10, 20);
  fxs_agent_behaviors set;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_behaviors(&world, a, &set));
  TEST_ASSERT_EQUAL_UINT32(0, set.count);
  apply_ok(fxs_command_clear_behaviors(a, FXS_COMBINE_PRIORITY_GROUPS));
  TEST_ASSERT_EQUAL(FXS_OK, add(a, FXS_BEHAVIOR_SEEK, 2));
  TEST_ASSERT_EQUAL(FXS_OK, add(a, FXS_BEHAVIOR_WANDER, 5));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_behaviors(&world, a, &set));
  TEST_ASSERT_EQUAL_UINT32(2, set.count);
  TEST_ASSERT_EQUAL_UINT8(FXS_COMBINE_PRIORITY_GROUPS, set.combine_mode);
  TEST_ASSERT_EQUAL_UINT8(FXS_BEHAVIOR_SEEK, set.slots[0].kind);
  TEST_ASSERT_EQUAL_UINT8(2, set.slots[0].priority);
  TEST_ASSERT_EQUAL_UINT8(FXS_BEHAVIOR_WANDER, set.slots[1].kind);
  TEST_ASSERT_EQUAL_UINT8(5, set.slots[1].priority);
  fxs_behavior_slot wander = fxs_behavior_slot_default(FXS_BEHAVIOR_WANDER);
  TEST_ASSERT_EQUAL_MEMORY(wander.p, set.slots[1].p, sizeof wander.p);
}

void test_the_accessors_refuse_a_stale_handle_and_say_nothing(void) {
  fxs_agent_handle a = spawn_at(10, 20), b = spawn_at(30, 40);
  apply_ok(fxs_command_set_target_agent(a, b));
  TEST_ASSERT_EQUAL(FXS_OK, add(a, FXS_BEHAVIOR_SEEK, 0));
  fxs_command gone = fxs_command_make(FXS_CMD_DESPAWN, 0, 0);
  gone.agent = a.value;
  apply_ok(gone);
  fxs_agent_handle again = spawn_at(1, 1); // the slot again, a new generation
  TEST_ASSERT_NOT_EQUAL(a.value, again.value);
  fxs_agent_targets t;
  fxs_agent_behaviors set;
  fxs_agent_handle none = {0}, junk = {0xFFFFFFFFu};
  fxs_agent_handle handles[3] = {a, none, junk};
  for (int i = 0; i < 3; ++i) {
    memset(&t, 0x5A, sizeof t);
    memset(&set, 0x5A, sizeof set);
    TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_agent_targets(&world, handles[i], &t));
    TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_agent_behaviors(&world, handles[i], &set));
    TEST_ASSERT_EQUAL_UINT32(0, t.target_agent.value);
    TEST_ASSERT_NULL(set.slots);
    TEST_ASSERT_EQUAL_UINT32(0, set.count);
  }
  // The new agent in that slot starts with no targets and no behaviors.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, again, &t));
  TEST_ASSERT_EQUAL_UINT32(0, t.target_agent.value);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_behaviors(&world, again, &set));
  TEST_ASSERT_EQUAL_UINT32(0, set.count);
}
