// The newer behavior kinds running in a world: unaligned avoidance, offset pursuit,
// interpose, hide, the neighbor field of view and cap, ORCA. Each runs from commands, is
// validated against the parameter table, and survives a snapshot round trip.
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "hash.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "pursuit.h"
#include "avoidance.h"
#include "unaligned_avoidance.h"
#include "interpose.h"
#include "hide.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "bytes.h"

static const fxs_world_capacity cap = {16, 8, 0, 0, 0};
static uint64_t memory[8192];
static uint64_t memory2[8192];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

static void apply(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

static fxs_agent_handle spawn_at(int x, int y, fix16_t max_speed) {
  fxs_spawn_def d = fxs_default_spawn_def();
  d.position = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  d.max_speed = max_speed;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&d);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static void combine(fxs_agent_handle h, fxs_combine_mode mode) {
  apply(fxs_command_clear_behaviors(h, mode));
}

static fxs_blend blend(uint8_t priority) {
  fxs_blend b = fxs_default_blend();
  b.priority = priority;
  return b;
}

static void arrive_at(fxs_agent_handle h, int x, int y, uint8_t priority) {
  apply(fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(x), FXS_INT(y))));
  apply(fxs_command_add_arrive(h, blend(priority), FXS_INT(40)));
}

static void step(int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(&world, 0, 0, 0);
}

static const fxs_agent *body(fxs_agent_handle h) { return fxs_world_agent(&world, h); }

static fix16_t gap(fxs_agent_handle a, fxs_agent_handle b) {
  return fxs_vec2_distance(body(a)->position, body(b)->position);
}

// Saves the world, restores it into a second one, and checks both step on identically.
static void expect_snapshot_round_trip(int ticks) {
  static uint8_t snap[8192];
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, n, 0));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  for (int t = 0; t < ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
}

// A behavior command of `kind` with its defaults and parameter `index` set to `value`.
static fxs_result add_with(fxs_agent_handle h, fxs_behavior kind, uint32_t index, fix16_t value) {
  fxs_behavior_slot s = fxs_behavior_slot_default(kind);
  s.p[index] = value;
  fxs_command c = fxs_command_add_behavior(h, &s);
  return fxs_world_apply(&world, &c, 0);
}

// ------------------------------------------------------------------ unaligned avoidance

// Two agents walking at each other along y = 200, swapping ends.
static void head_on(bool avoid, fxs_agent_handle *a, fxs_agent_handle *b) {
  *a = spawn_at(100, 200, FXS_INT(2));
  *b = spawn_at(300, 200, FXS_INT(2));
  fxs_unaligned_avoidance_def d = fxs_default_unaligned_avoidance_def();
  for (int i = 0; i < 2; ++i) {
    fxs_agent_handle h = i ? *b : *a;
    combine(h, FXS_COMBINE_PRIORITIZED_SUM);
    if (avoid) apply(fxs_command_add_unaligned_avoidance(h, blend(0), &d));
    arrive_at(h, i ? 100 : 300, 200, 1);
  }
}

void test_unaligned_avoidance_keeps_two_agents_walking_head_on_apart_in_a_world(void) {
  fxs_agent_handle a, b;
  head_on(true, &a, &b);
  fix16_t closest = FXS_MAX;
  for (int t = 0; t < 300; ++t) {
    step(1);
    closest = fxs_min(closest, gap(a, b));
  }
  TEST_ASSERT_TRUE(closest >= FXS_INT(16));             // the sum of the radii
  TEST_ASSERT_TRUE(body(a)->position.x > FXS_INT(280)); // and both got through
  TEST_ASSERT_TRUE(body(b)->position.x < FXS_INT(120));
}

void test_without_unaligned_avoidance_the_same_agents_walk_into_each_other(void) {
  fxs_agent_handle a, b;
  head_on(false, &a, &b);
  fix16_t closest = FXS_MAX;
  for (int t = 0; t < 300; ++t) {
    step(1);
    closest = fxs_min(closest, gap(a, b));
  }
  TEST_ASSERT_TRUE(closest < FXS_INT(16));
}

void test_unaligned_avoidance_in_a_world_reproduces_its_pinned_state(void) {
  fxs_agent_handle a, b;
  head_on(true, &a, &b);
  step(60);
  // a keeps right of b: it passes below y = 200 (y up), b above
  TEST_ASSERT_EQUAL_INT32(12931990, body(a)->position.x);
  TEST_ASSERT_EQUAL_INT32(12467228, body(a)->position.y);
  TEST_ASSERT_EQUAL_INT32(-88225, body(b)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(24328, body(b)->velocity.y);
  expect_snapshot_round_trip(60);
}

void test_unaligned_avoidance_parameters_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  for (uint32_t i = 0; i < 4; ++i) {
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, i, -1));
  }
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 4, 1));
  TEST_ASSERT_EQUAL(FXS_OK, add_with(a, FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 1, 0));
  TEST_ASSERT_EQUAL_UINT8(1, world.agents[0].behavior_count);
}

// ------------------------------------------------------------------ offset pursuit

// A leader walking +x at speed 1 from (100, 300); a follower told to hold the slot 30 behind
// and 20 to its left.
static void formation(fxs_agent_handle *leader, fxs_agent_handle *follower) {
  *leader = spawn_at(100, 300, FXS_ONE);
  apply(fxs_command_set_target_point(*leader, fxs_vec2_make(FXS_INT(4000), FXS_INT(300))));
  apply(fxs_command_add_seek(*leader, fxs_default_blend()));
  *follower = spawn_at(40, 200, FXS_INT(3));
  fxs_offset_pursuit_def d = fxs_default_offset_pursuit_def();
  d.offset_side = FXS_INT(20);
  d.slowing_radius = FXS_INT(8);
  apply(fxs_command_set_target_agent(*follower, *leader));
  apply(fxs_command_add_offset_pursuit(*follower, fxs_default_blend(), &d));
}

void test_offset_pursuit_holds_the_slot_behind_and_left_of_the_leader_in_a_world(void) {
  fxs_agent_handle leader, follower;
  formation(&leader, &follower);
  step(400);
  fxs_vec2 rel = fxs_vec2_sub(body(follower)->position, body(leader)->position);
  // the slot is (-30, +20); arrival trails it by u * r * (m + u) / (m * (m + 2u)) = 32 / 15
  // units (pursuit.h), with u = 1 the leader's speed, r = 8, m = 3
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 64), -FXS_INT(30) - FXS_RATIO(32, 15), rel.x);
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 8), FXS_INT(20), rel.y);
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 64), FXS_ONE, body(follower)->velocity.x);
}

void test_offset_pursuit_in_a_world_reproduces_its_pinned_state(void) {
  fxs_agent_handle leader, follower;
  formation(&leader, &follower);
  step(50);
  TEST_ASSERT_EQUAL_INT32(7380353, body(follower)->position.x);
  TEST_ASSERT_EQUAL_INT32(20403509, body(follower)->position.y);
  TEST_ASSERT_EQUAL_INT32(134292, body(follower)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(143596, body(follower)->velocity.y);
  expect_snapshot_round_trip(50);
}

void test_offset_pursuit_without_a_leader_exerts_no_force(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  fxs_offset_pursuit_def d = fxs_default_offset_pursuit_def();
  apply(fxs_command_add_offset_pursuit(a, fxs_default_blend(), &d));
  step(10);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), body(a)->position.x);
  TEST_ASSERT_EQUAL_INT32(0, body(a)->velocity.y);
}

void test_offset_pursuit_parameters_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    add_with(a, FXS_BEHAVIOR_OFFSET_PURSUIT, 0, (fix16_t)INT32_MIN));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_OFFSET_PURSUIT, 2, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_OFFSET_PURSUIT, 3, -1));
  TEST_ASSERT_EQUAL(FXS_OK, add_with(a, FXS_BEHAVIOR_OFFSET_PURSUIT, 1, FXS_MIN));
}

// ------------------------------------------------------------------ hide

// One obstacle of radius 40 at (400, 300), a still hunter at (200, 300), a hider at (300, 440).
static void hiding(bool hunter_agent, fxs_agent_handle *hunter, fxs_agent_handle *hider) {
  fxs_obstacle o = {{FXS_INT(400), FXS_INT(300)}, FXS_INT(40)};
  apply(fxs_command_add_obstacle(o));
  *hunter = spawn_at(200, 300, FXS_INT(2));
  *hider = spawn_at(300, 440, FXS_INT(2));
  fxs_hide_def d = fxs_default_hide_def();
  if (hunter_agent) {
    apply(fxs_command_set_target_agent(*hider, *hunter));
  } else {
    apply(fxs_command_set_target_point(*hider, fxs_vec2_make(FXS_INT(200), FXS_INT(300))));
  }
  apply(fxs_command_add_hide(*hider, fxs_default_blend(), &d));
}

void test_hide_takes_the_spot_behind_the_obstacle_from_the_target_agent(void) {
  fxs_agent_handle hunter, hider;
  hiding(true, &hunter, &hider);
  step(400);
  // the spot: the centre + (40 + 16) away from the hunter
  fxs_vec2 spot = fxs_vec2_make(FXS_INT(456), FXS_INT(300));
  TEST_ASSERT_TRUE(fxs_vec2_within(body(hider)->position, spot, FXS_RATIO(1, 4)));
  TEST_ASSERT_TRUE(fxs_vec2_length(body(hider)->velocity) < FXS_RATIO(1, 16));
}

void test_hide_without_a_target_agent_hides_from_the_target_point(void) {
  fxs_agent_handle hunter, hider;
  hiding(false, &hunter, &hider);
  step(400);
  fxs_vec2 spot = fxs_vec2_make(FXS_INT(456), FXS_INT(300));
  TEST_ASSERT_TRUE(fxs_vec2_within(body(hider)->position, spot, FXS_RATIO(1, 4)));
}

void test_hide_in_a_world_reproduces_its_pinned_state(void) {
  fxs_agent_handle hunter, hider;
  hiding(true, &hunter, &hider);
  step(50);
  TEST_ASSERT_EQUAL_INT32(24563982, body(hider)->position.x);
  TEST_ASSERT_EQUAL_INT32(25217306, body(hider)->position.y);
  TEST_ASSERT_EQUAL_INT32(108009, body(hider)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(-74255, body(hider)->velocity.y);
  expect_snapshot_round_trip(50);
}

void test_hide_parameters_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  for (uint32_t i = 0; i < 3; ++i)
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_HIDE, i, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_HIDE, 3, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_OK, add_with(a, FXS_BEHAVIOR_HIDE, 0, 0));
}

// ------------------------------------------------------------------ interpose

// A client walking +x at speed 1 from (100, 300), an attacker standing at (500, 100), and
// a bodyguard at (300, 500) told to step between them.
static void bodyguard(fxs_agent_handle *client, fxs_agent_handle *attacker,
                      fxs_agent_handle *guard) {
  *client = spawn_at(100, 300, FXS_ONE);
  apply(fxs_command_set_target_point(*client, fxs_vec2_make(FXS_INT(4000), FXS_INT(300))));
  apply(fxs_command_add_seek(*client, fxs_default_blend()));
  *attacker = spawn_at(500, 100, FXS_INT(2));
  *guard = spawn_at(300, 500, FXS_INT(3));
  fxs_interpose_def d = fxs_default_interpose_def();
  d.slowing_radius = FXS_INT(8);
  apply(fxs_command_set_target_agent(*guard, *client));
  apply(fxs_command_set_second_target(*guard, *attacker));
  apply(fxs_command_add_interpose(*guard, fxs_default_blend(), &d));
}

void test_interpose_keeps_the_guard_between_client_and_attacker_in_a_world(void) {
  fxs_agent_handle client, attacker, guard;
  bodyguard(&client, &attacker, &guard);
  for (int t = 0; t < 300; ++t) {
    step(1);
    if (t < 150) continue;
    // once caught up, the guard stays within 4 units of the midpoint, which moves at 1/2
    fxs_vec2 mid = fxs_midpoint(body(client)->position, body(attacker)->position);
    TEST_ASSERT_TRUE(fxs_vec2_within(body(guard)->position, mid, FXS_INT(4)));
  }
}

void test_interpose_without_a_live_second_target_exerts_no_force(void) {
  fxs_agent_handle client, attacker, guard;
  bodyguard(&client, &attacker, &guard);
  apply(fxs_command_despawn(attacker));
  step(20);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), body(guard)->position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500), body(guard)->position.y);
  TEST_ASSERT_EQUAL_UINT32(attacker.value, world.agents[2].second_target); // kept, but stale
}

void test_a_stale_second_target_is_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2)), b = spawn_at(200, 100, FXS_INT(2));
  apply(fxs_command_despawn(b));
  fxs_command c = fxs_command_set_second_target(a, b);
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_apply(&world, &c, 0));
  fxs_agent_handle none = {0};
  apply(fxs_command_set_second_target(a, none));
  TEST_ASSERT_EQUAL_UINT32(0, world.agents[0].second_target);
}

void test_interpose_in_a_world_reproduces_its_pinned_state(void) {
  fxs_agent_handle client, attacker, guard;
  bodyguard(&client, &attacker, &guard);
  step(50);
  TEST_ASSERT_EQUAL_INT32(20521202, body(guard)->position.x);
  TEST_ASSERT_EQUAL_INT32(24066266, body(guard)->position.y);
  TEST_ASSERT_EQUAL_INT32(29776, body(guard)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(-194340, body(guard)->velocity.y);
  expect_snapshot_round_trip(50);
}

void test_the_second_target_is_state_hashed_and_snapshotted(void) {
  fxs_agent_handle client, attacker, guard;
  bodyguard(&client, &attacker, &guard);
  step(5);
  uint64_t base = fxs_world_hash(&world);
  world.agents[2].second_target ^= 1u << 22; // another generation of the same slot
  TEST_ASSERT_NOT_EQUAL(base, fxs_world_hash(&world));
  world.agents[2].second_target = 0;
  uint64_t cleared = fxs_world_hash(&world);
  TEST_ASSERT_NOT_EQUAL(base, cleared);
  world.agents[2].second_target = attacker.value;
  TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world));
  expect_snapshot_round_trip(5);
}

// A slot record is 2 bytes of generation, then the record byte: 0 free, 1 live, 2 live with
// the second target after the walker state, 3 live and owned (the second target, then the
// owner). Other record bytes, and an extension of zeros (which is the record of a live agent
// without it), are refused.
void test_restore_refuses_unknown_slot_records_and_empty_extensions(void) {
  fxs_agent_handle client, attacker, guard;
  bodyguard(&client, &attacker, &guard);
  static uint8_t snap[8192];
  size_t n = 0, at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  // find the guard's record: the first slot record whose byte is 2
  size_t first_slot = 4 + 2 + 8 + 16 + 1 + 4 + 20 + 12; // magic .. node_count
  size_t slot1 = first_slot + 3 + 24 + 53 + 33 + 30;    // agent 0: one behavior (seek)
  size_t slot2 = slot1 + 3 + 24 + 53 + 33;              // agent 1: none
  TEST_ASSERT_EQUAL_UINT8(2, snap[slot2 + 2]);
  snap[slot2 + 2] = 4;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, n, &at));
  TEST_ASSERT_EQUAL_UINT32(slot2 + 2, at);
  snap[slot2 + 2] = 2;
  size_t ext = slot2 + 3 + 24 + 53 + 33;
  uint32_t saved = fxs_load_le32(snap + ext);
  TEST_ASSERT_EQUAL_UINT32(attacker.value, saved);
  memset(snap + ext, 0, 4);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, n, &at));
  TEST_ASSERT_EQUAL_UINT32(ext, at);
}

void test_interpose_parameters_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  for (uint32_t i = 0; i < 2; ++i)
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_INTERPOSE, i, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_INTERPOSE, 2, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_OK, add_with(a, FXS_BEHAVIOR_INTERPOSE, 1, FXS_MAX));
}

// ------------------------------------------------------------------ flocking views

static fxs_flocking_view view(fix16_t blind_angle, uint32_t max_neighbors) {
  fxs_flocking_view v;
  v.blind_angle = blind_angle, v.max_neighbors = max_neighbors;
  return v;
}

// An agent at (100, 100) moving +x at 2 with one neighbor 10 units straight behind it.
static fxs_agent_handle walker_with_a_tailgater(const fxs_flocking_view *v) {
  fxs_spawn_def d = fxs_default_spawn_def();
  d.position = fxs_vec2_make(FXS_INT(100), FXS_INT(100));
  d.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_agent_handle a = {0};
  fxs_command c = fxs_command_spawn(&d);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &a));
  spawn_at(90, 100, FXS_INT(2));
  apply(fxs_command_add_separation_view(a, fxs_default_blend(), FXS_INT(24), v));
  return a;
}

void test_separation_ignores_a_neighbor_in_its_blind_cone(void) {
  fxs_flocking_view blind = view(FXS_PI / 2, 0); // a 90 degree cone behind
  fxs_agent_handle a = walker_with_a_tailgater(&blind);
  step(1);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), body(a)->velocity.x); // no push
  TEST_ASSERT_EQUAL_INT32(FXS_INT(102), body(a)->position.x);
}

void test_separation_with_the_default_view_is_pushed_by_the_same_neighbor(void) {
  fxs_flocking_view all = fxs_default_flocking_view();
  fxs_agent_handle a = walker_with_a_tailgater(&all);
  step(1);
  // max_speed 4 * (24 / 10 - 1) = 5.6 forward, truncated to max_force 1/4, but max_speed 4
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2) + FXS_RATIO(1, 4), body(a)->velocity.x);
}

// An agent at (100, 100) with neighbors at (110, 100) (slot 1) and (90, 100) (slot 2), both
// 10 away, and a third at (100, 130) (slot 3); cohesion over the nearest max_neighbors.
static fxs_agent_handle cohesive(uint32_t max_neighbors) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  spawn_at(110, 100, FXS_INT(2));
  spawn_at(90, 100, FXS_INT(2));
  spawn_at(100, 130, FXS_INT(2));
  fxs_flocking_view v = view(0, max_neighbors);
  apply(fxs_command_add_cohesion_view(a, fxs_default_blend(), FXS_INT(60), &v));
  return a;
}

void test_a_neighbor_cap_takes_the_nearest_and_breaks_ties_by_the_lower_slot(void) {
  fxs_agent_handle a = cohesive(1);
  step(1);
  // only slot 1 counts: seek (110, 100) at max speed 2, the force truncated to 1/4
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4), body(a)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, body(a)->velocity.y);
}

void test_a_cap_of_two_balances_the_tie_and_a_cap_of_three_sees_the_far_one(void) {
  fxs_agent_handle a = cohesive(2);
  step(1);
  TEST_ASSERT_EQUAL_INT32(0, body(a)->velocity.x); // centre (100, 100): no pull
  TEST_ASSERT_EQUAL_INT32(0, body(a)->velocity.y);
  setUp();
  a = cohesive(3);
  step(1);
  TEST_ASSERT_EQUAL_INT32(0, body(a)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4), body(a)->velocity.y); // centre (100, 110)
}

// A flock whose rules see all around with a cap of 16 moves exactly as with the defaults
// (which skip the view query altogether): the query keeps the search's order and distances.
static uint64_t flock_hash(const fxs_flocking_view *v) {
  setUp();
  for (int i = 0; i < 12; ++i) {
    fxs_agent_handle h = spawn_at(300 + 17 * (i % 4), 300 + 23 * (i / 4), FXS_INT(2));
    apply(fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(600), FXS_INT(500))));
    apply(fxs_command_add_separation_view(h, fxs_default_blend(), FXS_INT(24), v));
    apply(fxs_command_add_alignment_view(h, fxs_default_blend(), FXS_INT(60), v));
    apply(fxs_command_add_cohesion_view(h, fxs_default_blend(), FXS_INT(60), v));
    apply(fxs_command_add_arrive(h, fxs_default_blend(), FXS_INT(100)));
  }
  step(200);
  fxs_hasher h = fxs_hasher_make(); // the bodies only: the parameters differ, and are state
  for (uint32_t i = 0; i < 12; ++i) {
    const fxs_agent *a = &world.agents[i].body;
    fxs_hash_i32(&h, a->position.x), fxs_hash_i32(&h, a->position.y);
    fxs_hash_i32(&h, a->velocity.x), fxs_hash_i32(&h, a->velocity.y);
  }
  return h.state;
}

void test_a_view_of_all_around_and_sixteen_neighbors_changes_nothing(void) {
  fxs_flocking_view defaults = fxs_default_flocking_view(), sixteen = view(0, 16),
                    blind = view(FXS_PI, 5);
  uint64_t base = flock_hash(&defaults);
  TEST_ASSERT_EQUAL_HEX64(base, flock_hash(&sixteen));
  uint64_t narrowed = flock_hash(&blind);
  TEST_ASSERT_NOT_EQUAL(base, narrowed);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xa75d38ae4a99eb11),
                          narrowed); // pinned: a 180 degree blind cone, 5 neighbors
  expect_snapshot_round_trip(20);
}

void test_the_default_view_commands_are_the_plain_flocking_commands(void) {
  fxs_agent_handle h = {0x42};
  fxs_flocking_view v = fxs_default_flocking_view();
  fxs_command a = fxs_command_add_separation(h, fxs_default_blend(), FXS_INT(24));
  fxs_command b = fxs_command_add_separation_view(h, fxs_default_blend(), FXS_INT(24), &v);
  TEST_ASSERT_EQUAL_MEMORY(&a.arg, &b.arg, sizeof a.arg);
  TEST_ASSERT_EQUAL_UINT32(a.ref, b.ref);
}

void test_flocking_views_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  fxs_behavior kinds[3] = {FXS_BEHAVIOR_SEPARATION, FXS_BEHAVIOR_ALIGNMENT, FXS_BEHAVIOR_COHESION};
  for (int k = 0; k < 3; ++k) {
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, kinds[k], 1, FXS_TWO_PI + 1));
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, kinds[k], 1, -1));
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, kinds[k], 2, FXS_INT(17)));
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, kinds[k], 2, FXS_RATIO(3, 2))); // not whole
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, kinds[k], 3, FXS_ONE));
    TEST_ASSERT_EQUAL(FXS_OK, add_with(a, kinds[k], 2, FXS_INT(16)));
  }
  fxs_flocking_view huge = view(0, 0x10000u);
  fxs_command c = fxs_command_add_cohesion_view(a, fxs_default_blend(), FXS_INT(60), &huge);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
}

// ------------------------------------------------------------------ ORCA

// Eight agents on a circle of radius 150 round (400, 400), each headed for the opposite point,
// with ORCA (a force large enough to reach its velocity within a tick) or with arrival only.
// ORCA assumes neighbors of radius 9 round bodies of 8: with exactly 8 the closest pair came
// to 15.99995 units, 3 LSB of rounding inside contact (orca.h: bodies may touch by a little).
static void orca_circle(bool orca) {
  static const int xy[8][2] = {{550, 400}, {506, 506}, {400, 550}, {294, 506},
                               {250, 400}, {294, 294}, {400, 250}, {506, 294}};
  fxs_orca_def d = fxs_default_orca_def();
  d.neighbor_radius = FXS_INT(9);
  for (int i = 0; i < 8; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make(FXS_INT(xy[i][0]), FXS_INT(xy[i][1]));
    s.max_speed = FXS_INT(2), s.max_force = FXS_INT(4);
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
    // turned slightly per agent, as orca.h advises for symmetric scenes
    apply(fxs_command_set_target_point(
        h, fxs_vec2_make(FXS_INT(800 - xy[i][0] + i), FXS_INT(800 - xy[i][1]))));
    if (orca) {
      apply(fxs_command_add_orca(h, fxs_default_blend(), &d, FXS_INT(32)));
    } else {
      apply(fxs_command_add_arrive(h, fxs_default_blend(), FXS_INT(32)));
    }
  }
}

// The closest two bodies come (centre to centre) over `ticks`.
static fix16_t closest_pair(int ticks) {
  fix16_t closest = FXS_MAX;
  for (int t = 0; t < ticks; ++t) {
    step(1);
    for (uint32_t i = 0; i < 8; ++i) {
      for (uint32_t j = i + 1; j < 8; ++j) {
        closest = fxs_min(closest, fxs_vec2_distance(world.agents[i].body.position,
                                                     world.agents[j].body.position));
      }
    }
  }
  return closest;
}

void test_orca_agents_swapping_across_a_circle_keep_their_bodies_apart_in_a_world(void) {
  orca_circle(true);
  fix16_t closest = closest_pair(400);
  TEST_ASSERT_TRUE(closest >= FXS_INT(16));
  for (uint32_t i = 0; i < 8; ++i) { // and everyone arrived
    TEST_ASSERT_TRUE(
        fxs_vec2_within(world.agents[i].body.position, world.agents[i].target_point, FXS_INT(2)));
  }
}

void test_without_orca_the_same_agents_collide_in_the_middle(void) {
  orca_circle(false);
  TEST_ASSERT_TRUE(closest_pair(400) < FXS_INT(16));
}

void test_orca_in_a_world_reproduces_its_pinned_state(void) {
  orca_circle(true);
  step(80);
  const fxs_agent *a = &world.agents[3].body;
  TEST_ASSERT_EQUAL_INT32(24857100, a->position.x);
  TEST_ASSERT_EQUAL_INT32(27433275, a->position.y);
  TEST_ASSERT_EQUAL_INT32(11089, a->velocity.x);
  TEST_ASSERT_EQUAL_INT32(-23235, a->velocity.y);
  expect_snapshot_round_trip(40);
}

// Eight ORCA agents whose targets lie 17 units apart (their bodies need 16) arrive side by
// side. Each comes to rest exactly (velocity 0) instead of crawling a few LSB a tick against
// its neighbors' half-planes.
void test_orca_agents_arriving_side_by_side_rest_without_creeping(void) {
  static const int xy[8][2] = {{550, 400}, {506, 506}, {400, 550}, {294, 506},
                               {250, 400}, {294, 294}, {400, 250}, {506, 294}};
  fxs_orca_def d = fxs_default_orca_def();
  fxs_agent_handle h[8];
  for (int i = 0; i < 8; ++i) {
    h[i] = spawn_at(xy[i][0], xy[i][1], FXS_INT(2));
    apply(fxs_command_set_target_point(h[i], fxs_vec2_make(FXS_INT(340 + 17 * i), FXS_INT(400))));
    apply(fxs_command_add_orca(h[i], fxs_default_blend(), &d, FXS_INT(32)));
  }
  int crawl[8] = {0}, longest = 0;
  for (int t = 0; t < 1500; ++t) {
    step(1);
    for (int i = 0; i < 8; ++i) {
      fxs_vec2 v = body(h[i])->velocity;
      bool slow = !fxs_vec2_is_zero(v) && fxs_vec2_within(v, fxs_vec2_zero(), FXS_RATIO(1, 64));
      crawl[i] = slow ? crawl[i] + 1 : 0;
      if (crawl[i] > longest) longest = crawl[i];
    }
  }
  TEST_ASSERT_LESS_THAN(10, longest);
  for (int i = 0; i < 8; ++i) TEST_ASSERT_TRUE(fxs_vec2_is_zero(body(h[i])->velocity));
}

// Two agents head-on along y = 400 (b a unit aside, as orca.h advises for symmetric scenes),
// a with ORCA at priority pa, b with ORCA at priority pb or, for FXS_ORCA_PASSIVE, arrival
// only; each one's largest distance from its line while they pass.
static void orca_head_on(fix16_t pa, fix16_t pb, fix16_t *dev_a, fix16_t *dev_b) {
  fxs_orca_def d = fxs_default_orca_def();
  fxs_agent_handle h[2];
  for (int i = 0; i < 2; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make(FXS_INT(i ? 500 : 300), FXS_INT(400 + i));
    s.max_speed = FXS_INT(2), s.max_force = FXS_INT(4);
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h[i]));
    apply(fxs_command_set_target_point(h[i],
                                       fxs_vec2_make(FXS_INT(i ? 280 : 520), FXS_INT(400 + i))));
    d.priority = i ? pb : pa;
    if (d.priority < 0) {
      apply(fxs_command_add_arrive(h[i], fxs_default_blend(), FXS_INT(32)));
    } else {
      apply(fxs_command_add_orca(h[i], fxs_default_blend(), &d, FXS_INT(32)));
    }
  }
  *dev_a = *dev_b = 0;
  for (int t = 0; t < 200; ++t) {
    step(1);
    *dev_a = fxs_max(*dev_a, fxs_abs(body(h[0])->position.y - FXS_INT(400)));
    *dev_b = fxs_max(*dev_b, fxs_abs(body(h[1])->position.y - FXS_INT(401)));
  }
  TEST_ASSERT_TRUE(body(h[0])->position.x > FXS_INT(500)); // both got past each other
  TEST_ASSERT_TRUE(body(h[1])->position.x < FXS_INT(300));
}

// The world hands ORCA each neighbor's own priority: of a pair, the lower priority turns
// further (priorities 0 and 100: the first takes 101/102 of the change); equal priorities,
// whatever their value, share it half and half (the same paths at 0 and 60); an agent
// without ORCA is passive (it never leaves its line, the ORCA agent turns for both).
void test_orca_in_a_world_shares_each_pair_by_the_neighbors_priorities(void) {
  fix16_t low, high, a0, b0, a60, b60, orca, passive;
  orca_head_on(0, FXS_INT(100), &low, &high);
  TEST_ASSERT_TRUE(low > 4 * high);
  setUp();
  orca_head_on(FXS_INT(60), FXS_INT(60), &a60, &b60);
  setUp();
  orca_head_on(0, 0, &a0, &b0);
  TEST_ASSERT_EQUAL_INT32(a0, a60);
  TEST_ASSERT_EQUAL_INT32(b0, b60);
  TEST_ASSERT_TRUE(a0 < 2 * b0 && b0 < 2 * a0);
  setUp();
  orca_head_on(0, FXS_ORCA_PASSIVE, &orca, &passive);
  TEST_ASSERT_EQUAL_INT32(0, passive);
  TEST_ASSERT_TRUE(orca > a0);
  TEST_MESSAGE("head-on, largest distance from the line (units)");
  char line[160];
  snprintf(line, sizeof line,
           "priorities 0/100: %.2f/%.2f; equal: %.2f/%.2f; against a passive agent: %.2f",
           low / 65536.0, high / 65536.0, a0 / 65536.0, b0 / 65536.0, orca / 65536.0);
  TEST_MESSAGE(line);
}

// Agents far from the pair's line (300 units), resting on their own spots with ORCA at
// `priority` (FXS_ORCA_PASSIVE: arrival only), spawned before the pair (the first slots).
static void spawn_bystanders(int count, fix16_t priority) {
  fxs_orca_def d = fxs_default_orca_def();
  d.priority = priority;
  for (int i = 0; i < count; ++i) {
    fxs_agent_handle h = spawn_at(300 + 40 * i, 100, FXS_INT(2));
    apply(fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(300 + 40 * i), FXS_INT(100))));
    if (priority < 0) {
      apply(fxs_command_add_arrive(h, fxs_default_blend(), FXS_INT(32)));
    } else {
      apply(fxs_command_add_orca(h, fxs_default_blend(), &d, FXS_INT(32)));
    }
  }
}

// Agents out of the pair's reach change nothing of it, whatever their priority. The step
// skips reading the neighbors' priorities when every live agent has one priority; the
// bystanders, first in the slots, have the priority of one of the pair (or of neither), so
// the other's must still count: the same paths as beside one passive bystander (a world of
// mixed priorities, where every neighbor's priority is read).
void test_orca_shares_in_a_world_depend_only_on_the_pair(void) {
  const fix16_t pairs[3][2] = {{0, FXS_INT(100)}, {FXS_INT(100), 0}, {0, 0}};
  const fix16_t crowds[3] = {0, FXS_INT(100), FXS_INT(50)};
  for (int k = 0; k < 3; ++k) {
    fix16_t a, b, a_crowd, b_crowd;
    setUp();
    spawn_bystanders(1, FXS_ORCA_PASSIVE);
    orca_head_on(pairs[k][0], pairs[k][1], &a, &b);
    for (int c = 0; c < 3; ++c) {
      setUp();
      spawn_bystanders(3, crowds[c]);
      orca_head_on(pairs[k][0], pairs[k][1], &a_crowd, &b_crowd);
      TEST_ASSERT_EQUAL_INT32(a, a_crowd);
      TEST_ASSERT_EQUAL_INT32(b, b_crowd);
    }
  }
}

void test_orca_parameters_outside_the_table_are_refused(void) {
  fxs_agent_handle a = spawn_at(100, 100, FXS_INT(2));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 0, FXS_ONE - 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 1, FXS_INT(1024) + 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 2, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 3, FXS_INT(17)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 3, FXS_ONE + 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 4, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 5, FXS_INT(100) + 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(a, FXS_BEHAVIOR_ORCA, 5, -1));
  TEST_ASSERT_EQUAL(FXS_OK, add_with(a, FXS_BEHAVIOR_ORCA, 3, 0));
}
