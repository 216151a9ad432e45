// Untrusted input at the world's boundary: every behavior parameter, command and snapshot
// field outside what the library can handle is rejected with a result code, and everything
// accepted steps without tripping an assertion (these tests run with asserts enabled).
#include <stdbool.h>
#include <string.h>

#include "unity.h"

#include "scalar.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "wander.h"
#include "leader.h"
#include "align.h"
#include "walker.h"
#include "result.h"
#include "command.h"
#include "world.h"
#include "snapshot.h"

static const fxs_world_capacity cap = {8, 4, 2, 8, 2};
static uint64_t memory[8192];
static uint64_t memory2[8192];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

static fxs_agent_handle spawn_at(int x, int y) {
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y);
  c.arg[4] = FXS_INT(4), c.arg[5] = FXS_RATIO(1, 4), c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(8);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static fxs_command behavior_cmd(fxs_agent_handle h, const fxs_behavior_slot *b) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value;
  c.ref = b->kind;
  c.arg[0] = b->weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b->p[i];
  return c;
}

void test_every_default_lies_inside_its_documented_range(void) {
  for (int k = FXS_BEHAVIOR_SEEK; k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
    uint32_t n = fxs_behavior_param_count((fxs_behavior)k);
    TEST_ASSERT_TRUE(n <= FXS_BEHAVIOR_PARAMS);
    for (uint32_t i = 0; i < n; ++i) {
      const fxs_behavior_param *p = fxs_behavior_param_info((fxs_behavior)k, i);
      TEST_ASSERT_NOT_NULL(p);
      TEST_ASSERT_TRUE(p->minimum <= p->default_value && p->default_value <= p->maximum);
      TEST_ASSERT_TRUE(strlen(p->name) > 0 && strlen(p->unit) > 0 && strlen(p->meaning) > 0);
      for (uint32_t j = 0; j < i; ++j) {
        TEST_ASSERT_NOT_EQUAL(0,
                              strcmp(p->name, fxs_behavior_param_info((fxs_behavior)k, j)->name));
      }
    }
    TEST_ASSERT_NULL(fxs_behavior_param_info((fxs_behavior)k, n));
    fxs_behavior_slot s = fxs_behavior_slot_default((fxs_behavior)k);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_behavior_params_check(s.kind, s.weight, s.p, 0));
  }
}

// The table's index column names each row's place among its behavior's rows, so that
// FXS_PARAM(behavior, name) reads the slot parameter the table describes under that name.
typedef struct param_row {
  fxs_behavior behavior;
  uint32_t index;
  const char *name;
} param_row;

void test_every_named_parameter_index_is_its_rows_place_in_the_table(void) {
#define ROW_(behavior, index, name, unit, lo, hi, def, basis, meaning) {behavior, index, #name},
  static const param_row rows[] = {FXS_BEHAVIOR_PARAM_LIST(ROW_)};
#undef ROW_
  uint32_t count = (uint32_t)(sizeof rows / sizeof rows[0]);
  for (uint32_t r = 0; r < count; ++r) {
    const fxs_behavior_param *p = fxs_behavior_param_info(rows[r].behavior, rows[r].index);
    TEST_ASSERT_NOT_NULL_MESSAGE(p, rows[r].name);
    TEST_ASSERT_EQUAL_STRING(rows[r].name, p->name);
    // Rows of one behavior are contiguous, numbered from 0.
    bool first = r == 0 || rows[r - 1].behavior != rows[r].behavior;
    TEST_ASSERT_EQUAL_UINT32(first ? 0u : rows[r - 1].index + 1u, rows[r].index);
  }
  TEST_ASSERT_EQUAL_UINT32(5, FXS_PARAM(ORCA, priority));
  TEST_ASSERT_EQUAL_UINT32(1, FXS_PARAM(ALIGN, target_radius));
  TEST_ASSERT_EQUAL_UINT32(0, FXS_PARAM(FACE, target_radius));
}

void test_the_default_defs_are_the_table_defaults(void) {
  fxs_wander_def w = fxs_default_wander_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), w.circle_distance);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(8), w.circle_radius);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, w.angle_change);
  fxs_leader_def l = fxs_default_leader_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), l.leader_behind_dist);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(20), l.max_prediction);
  fxs_walker_def k = fxs_default_walker_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), k.max_step);
  fxs_align_def a = fxs_default_align_def();
  TEST_ASSERT_EQUAL_INT32(655, a.target_radius);
}

// Each parameter just outside its range is refused; at both ends it is accepted and a
// 40-tick run of the agent trips no assertion.
void test_parameters_outside_their_range_are_refused_and_the_ends_are_safe(void) {
  fxs_agent_handle h = spawn_at(100, 100);
  spawn_at(104, 100);
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_AGENT, 0, 0);
  c.agent = h.value, c.ref = fxs_world_handle_at(&world, 1).value;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  for (int k = FXS_BEHAVIOR_SEEK; k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
    uint32_t n = fxs_behavior_param_count((fxs_behavior)k);
    for (uint32_t i = 0; i < n; ++i) {
      const fxs_behavior_param *p = fxs_behavior_param_info((fxs_behavior)k, i);
      fxs_behavior_slot s = fxs_behavior_slot_default((fxs_behavior)k);
      uint64_t before = fxs_world_hash(&world);
      if (p->minimum > FXS_MIN) {
        s.p[i] = p->minimum - 1;
        fxs_command bad = behavior_cmd(h, &s);
        TEST_ASSERT_EQUAL_MESSAGE(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &bad, 0), p->name);
      }
      if (p->maximum < FXS_MAX) {
        s.p[i] = p->maximum + 1;
        fxs_command bad = behavior_cmd(h, &s);
        TEST_ASSERT_EQUAL_MESSAGE(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &bad, 0), p->name);
      }
      TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
      fix16_t ends[2] = {p->minimum, p->maximum};
      for (int e = 0; e < 2; ++e) {
        fxs_behavior_slot ok = fxs_behavior_slot_default((fxs_behavior)k);
        ok.p[i] = ends[e];
        if (k == FXS_BEHAVIOR_WALKER && i == 0) ok.p[1] = fxs_max(ok.p[1], ok.p[0]);
        if (k == FXS_BEHAVIOR_WALKER && i == 1) ok.p[0] = fxs_min(ok.p[0], ok.p[1]);
        fxs_command clear = fxs_command_make(FXS_CMD_CLEAR_BEHAVIORS, 0, 0);
        clear.agent = h.value;
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &clear, 0));
        fxs_command good = behavior_cmd(h, &ok);
        TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_apply(&world, &good, 0), p->name);
        for (int t = 0; t < 40; ++t) fxs_world_step(&world, 0, 0, 0);
      }
    }
  }
}

void test_unused_parameters_weights_and_walker_steps_are_checked(void) {
  fxs_agent_handle h = spawn_at(0, 0);
  fxs_behavior_slot s = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  s.p[0] = 1; // seek takes no parameter
  fxs_command c = behavior_cmd(h, &s);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  s = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  s.weight = -FXS_ONE;
  c = behavior_cmd(h, &s);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  s = fxs_behavior_slot_default(FXS_BEHAVIOR_WALKER);
  s.p[1] = s.p[0] - 1; // max_step < min_step
  uint32_t bad = 99;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_behavior_params_check(s.kind, s.weight, s.p, &bad));
  TEST_ASSERT_EQUAL_UINT32(1, bad);
  s = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  c = behavior_cmd(h, &s);
  c.arg[7] = 5; // beyond the six parameters
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  c.arg[7] = 0;
  c.ref |= 0x10000u; // bits above kind and priority
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
}

void test_spawn_and_limits_refuse_negative_limits(void) {
  fxs_agent_handle h = spawn_at(0, 0);
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[4] = -1, c.arg[6] = FXS_ONE;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  for (int i = 0; i < 7; ++i) {
    c = fxs_command_make(FXS_CMD_SET_LIMITS, 0, 0);
    c.agent = h.value;
    c.arg[2] = FXS_ONE; // mass
    c.arg[i] = i == 2 ? 0 : FXS_MIN;
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&world, &c, 0));
  }
}

void test_world_definitions_are_checked(void) {
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  def.neighbor_radius = -1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_init(&w, &def, &cap, memory2, sizeof memory2));
  def = fxs_default_world_def();
  def.bounds_min.x = def.bounds_max.x + 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_init(&w, &def, &cap, memory2, sizeof memory2));
  def = fxs_default_world_def();
  def.clamp_to_bounds = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_def_check(&def));
}

// Plants one bad value in agent slot 0, saves, and expects a fresh world to refuse it with
// `expected`, naming a byte inside the data and changing nothing.
static void expect_snapshot_refused_with(void (*plant)(fxs_agent_slot *), fxs_result expected) {
  spawn_at(10, 10);
  fxs_behavior_slot s = fxs_behavior_slot_default(FXS_BEHAVIOR_WANDER);
  fxs_command c = behavior_cmd(fxs_world_handle_at(&world, 0), &s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  plant(&world.agents[0]);
  static uint8_t snap[4096];
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  uint64_t before = fxs_world_hash(&other);
  size_t at = 0;
  TEST_ASSERT_EQUAL(expected, fxs_world_restore(&other, snap, n, &at));
  TEST_ASSERT_TRUE(at > 0 && at < n);
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
}

static void expect_snapshot_refused(void (*plant)(fxs_agent_slot *)) {
  expect_snapshot_refused_with(plant, FXS_ERR_BAD_VALUE);
}

static void zero_rng(fxs_agent_slot *s) { memset(s->rng.s, 0, sizeof s->rng.s); }
static void extreme_orientation(fxs_agent_slot *s) { s->body.orientation = INT32_MIN; }
static void negative_angular_limit(fxs_agent_slot *s) {
  s->body.max_angular_acceleration = INT32_MIN;
}
static void negative_max_speed(fxs_agent_slot *s) { s->body.max_speed = -FXS_ONE; }
static void negative_wander_distance(fxs_agent_slot *s) { s->behaviors[0].p[0] = -FXS_ONE; }
static void unwrapped_wander_angle(fxs_agent_slot *s) { s->wander_angle = FXS_INT(100); }
static void generation_past_its_bits(fxs_agent_slot *s) {
  s->generation = FXS_HANDLE_GENERATION_MASK + 1u;
}

void test_restore_refuses_an_all_zero_random_stream(void) { expect_snapshot_refused(zero_rng); }
void test_restore_refuses_an_orientation_outside_minus_pi_to_pi(void) {
  expect_snapshot_refused(extreme_orientation);
}
void test_restore_refuses_negative_angular_limits(void) {
  expect_snapshot_refused(negative_angular_limit);
}
void test_restore_refuses_a_negative_max_speed(void) {
  expect_snapshot_refused(negative_max_speed);
}
void test_restore_refuses_behavior_parameters_outside_the_table(void) {
  expect_snapshot_refused(negative_wander_distance);
}
void test_restore_refuses_an_unwrapped_wander_angle(void) {
  expect_snapshot_refused(unwrapped_wander_angle);
}
void test_restore_refuses_a_generation_past_its_bits(void) {
  expect_snapshot_refused(generation_past_its_bits);
}

// A kinematic behavior sets the velocity itself: mixed with others it would silently drop
// them, so a set holds either one kinematic behavior or steering behaviors only.
void test_kinematic_and_steering_behaviors_do_not_share_a_set(void) {
  fxs_agent_handle h = spawn_at(0, 0);
  fxs_behavior_slot seek = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
  fxs_behavior_slot kin = fxs_behavior_slot_default(FXS_BEHAVIOR_KINEMATIC_SEEK);
  fxs_command c = behavior_cmd(h, &seek);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = behavior_cmd(h, &kin);
  TEST_ASSERT_EQUAL(FXS_ERR_MIXED_SET, fxs_world_apply(&world, &c, 0));
  fxs_command clear = fxs_command_make(FXS_CMD_CLEAR_BEHAVIORS, 0, 0);
  clear.agent = h.value;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &clear, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  fxs_command again = behavior_cmd(h, &kin);
  TEST_ASSERT_EQUAL(FXS_ERR_MIXED_SET, fxs_world_apply(&world, &again, 0));
  fxs_command s2 = behavior_cmd(h, &seek);
  TEST_ASSERT_EQUAL(FXS_ERR_MIXED_SET, fxs_world_apply(&world, &s2, 0));
  TEST_ASSERT_EQUAL_UINT8(1, world.agents[0].behavior_count);
}

// An external force on a kinematic agent is not dropped: it adds force / mass to the
// velocity the behavior set, and to the position.
void test_an_external_force_moves_a_kinematic_agent_too(void) {
  fxs_agent_handle h = spawn_at(0, 0);
  fxs_behavior_slot kin = fxs_behavior_slot_default(FXS_BEHAVIOR_KINEMATIC_SEEK);
  fxs_command c = behavior_cmd(h, &kin);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  fxs_command t = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  t.agent = h.value, t.arg[0] = FXS_INT(100);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &t, 0));
  fxs_command f = fxs_command_make(FXS_CMD_APPLY_FORCE, 0, 0);
  f.agent = h.value, f.arg[1] = FXS_INT(3);
  fxs_world_step(&world, &f, 1, 0);
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), a->position.x); // kinematic seek at max speed 4
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), a->position.y); // and the push, mass 1
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), a->velocity.y);
  fxs_world_step(&world, 0, 0, 0); // one tick only: then seek alone, back toward y = 0
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3) + a->velocity.y, a->position.y);
  TEST_ASSERT_TRUE(a->velocity.y < 0);
}

static void mixed_set(fxs_agent_slot *s) {
  s->behaviors[1] = fxs_behavior_slot_default(FXS_BEHAVIOR_KINEMATIC_WANDER);
  s->behavior_count = 2;
}
void test_restore_refuses_a_mixed_set(void) {
  expect_snapshot_refused_with(mixed_set, FXS_ERR_MIXED_SET);
}
