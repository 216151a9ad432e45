// Typed command constructors: each packs its typed values into the slots the world reads,
// in the order of the behavior parameter table.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "manager.h"
#include "wander.h"
#include "pursuit.h"
#include "avoidance.h"
#include "leader.h"
#include "align.h"
#include "velocity_match.h"
#include "walker.h"
#include "unaligned_avoidance.h"
#include "interpose.h"
#include "hide.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "formation.h"

static const fxs_world_capacity cap = {8, 4, 2, 8, 2};
static uint64_t memory[8192];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

// The typed command of `kind` built from the library defaults.
static fxs_command typed_default(fxs_agent_handle h, fxs_behavior kind) {
  fxs_blend b = fxs_default_blend();
  fxs_align_def al = fxs_default_align_def();
  fxs_dynamic_arrive_def da = fxs_default_dynamic_arrive_def();
  fxs_wander_def wa = fxs_default_wander_def();
  fxs_avoidance_def av = fxs_default_avoidance_def();
  fxs_leader_def le = fxs_default_leader_def();
  fxs_queue_def qu = fxs_default_queue_def();
  fxs_walker_def wk = fxs_default_walker_def();
  fxs_unaligned_avoidance_def ua = fxs_default_unaligned_avoidance_def();
  fxs_offset_pursuit_def op = fxs_default_offset_pursuit_def();
  fxs_hide_def hi = fxs_default_hide_def();
  fxs_interpose_def ip = fxs_default_interpose_def();
  fxs_orca_def oc = fxs_default_orca_def();
  fxs_formation_def fo = fxs_default_formation_def();
#define D(i) fxs_behavior_param_default(kind, i)
  switch (kind) {
    case FXS_BEHAVIOR_SEEK:
      return fxs_command_add_seek(h, b);
    case FXS_BEHAVIOR_FLEE:
      return fxs_command_add_flee(h, b, D(0));
    case FXS_BEHAVIOR_ARRIVE:
      return fxs_command_add_arrive(h, b, D(0));
    case FXS_BEHAVIOR_WANDER:
      return fxs_command_add_wander(h, b, &wa);
    case FXS_BEHAVIOR_PURSUIT:
      return fxs_command_add_pursuit(h, b, D(0));
    case FXS_BEHAVIOR_EVADE:
      return fxs_command_add_evade(h, b, D(0), D(1));
    case FXS_BEHAVIOR_AVOID:
      return fxs_command_add_avoidance(h, b, &av);
    case FXS_BEHAVIOR_PATH:
      return fxs_command_add_path_following(h, b);
    case FXS_BEHAVIOR_SEPARATION:
      return fxs_command_add_separation(h, b, D(0));
    case FXS_BEHAVIOR_ALIGNMENT:
      return fxs_command_add_alignment(h, b, D(0));
    case FXS_BEHAVIOR_COHESION:
      return fxs_command_add_cohesion(h, b, D(0));
    case FXS_BEHAVIOR_LEADER:
      return fxs_command_add_leader_following(h, b, &le);
    case FXS_BEHAVIOR_QUEUE:
      return fxs_command_add_queue(h, b, &qu);
    case FXS_BEHAVIOR_DYNAMIC_ARRIVE:
      return fxs_command_add_dynamic_arrive(h, b, &da);
    case FXS_BEHAVIOR_VELOCITY_MATCH:
      return fxs_command_add_velocity_match(h, b, D(0), D(1));
    case FXS_BEHAVIOR_ALIGN:
      return fxs_command_add_align(h, b, D(0), &al);
    case FXS_BEHAVIOR_FACE:
      return fxs_command_add_face(h, b, &al);
    case FXS_BEHAVIOR_LOOK_WHERE_GOING:
      return fxs_command_add_look_where_going(h, b, &al);
    case FXS_BEHAVIOR_WALKER:
      return fxs_command_add_random_walker(h, b, &wk);
    case FXS_BEHAVIOR_KINEMATIC_SEEK:
      return fxs_command_add_kinematic_seek(h, b);
    case FXS_BEHAVIOR_KINEMATIC_ARRIVE:
      return fxs_command_add_kinematic_arrive(h, b, D(0), D(1));
    case FXS_BEHAVIOR_KINEMATIC_WANDER:
      return fxs_command_add_kinematic_wander(h, b, D(0));
    case FXS_BEHAVIOR_FLOW_FIELD:
      return fxs_command_add_flow_field(h, b, D(0));
    case FXS_BEHAVIOR_UNALIGNED_AVOIDANCE:
      return fxs_command_add_unaligned_avoidance(h, b, &ua);
    case FXS_BEHAVIOR_OFFSET_PURSUIT:
      return fxs_command_add_offset_pursuit(h, b, &op);
    case FXS_BEHAVIOR_HIDE:
      return fxs_command_add_hide(h, b, &hi);
    case FXS_BEHAVIOR_INTERPOSE:
      return fxs_command_add_interpose(h, b, &ip);
    case FXS_BEHAVIOR_ORCA:
      return fxs_command_add_orca(h, b, &oc, D(4));
    case FXS_BEHAVIOR_FORMATION:
      return fxs_command_add_formation(h, b, &fo);
    case FXS_BEHAVIOR_NAVIGATE:
      return fxs_command_add_navigate(h, b, D(0), &oc);
    default:
      TEST_FAIL_MESSAGE("a behavior has no typed constructor");
  }
#undef D
  return fxs_command_make(FXS_CMD_COUNT, 0, 0);
}

void test_every_typed_behavior_command_matches_the_table_order(void) {
  fxs_agent_handle h = {0x1234};
  for (int k = FXS_BEHAVIOR_SEEK; k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
    fxs_behavior_slot slot = fxs_behavior_slot_default((fxs_behavior)k);
    fxs_command generic = fxs_command_add_behavior(h, &slot);
    fxs_command typed = typed_default(h, (fxs_behavior)k);
    uint8_t a[FXS_COMMAND_BYTES], b[FXS_COMMAND_BYTES];
    fxs_command_encode(&generic, a);
    fxs_command_encode(&typed, b);
    TEST_ASSERT_EQUAL_MEMORY_MESSAGE(a, b, FXS_COMMAND_BYTES, fxs_behavior_name((fxs_behavior)k));
  }
}

void test_typed_commands_build_an_agent_the_world_accepts(void) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = fxs_vec2_make(FXS_INT(10), FXS_INT(-20));
  s.velocity = fxs_vec2_make(FXS_INT(3), 0);
  s.max_speed = FXS_INT(2);
  fxs_command c = fxs_command_spawn(&s);
  fxs_agent_handle h = {0};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_NOT_NULL(a);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(-20), a->position.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), a->velocity.x); // truncated to max_speed
  fxs_agent_limits_def l = fxs_default_agent_limits_def();
  l.max_turn_rate = FXS_RATIO(1, 8);
  l.orientation = FXS_ORIENT_STEERED;
  c = fxs_command_set_limits(h, &l);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 8), a->max_turn_rate);
  TEST_ASSERT_EQUAL_UINT8(FXS_ORIENT_STEERED, a->orientation_mode);
  c = fxs_command_clear_behaviors(h, FXS_COMBINE_PRIORITIZED_SUM);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = typed_default(h, FXS_BEHAVIOR_ARRIVE);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(50), FXS_INT(-20)));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  fxs_obstacle o = {{FXS_INT(300), 0}, FXS_INT(5)};
  c = fxs_command_add_obstacle(o);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(5), world.obstacles[0].radius);
  fxs_wall w = {{0, FXS_INT(100)}, {FXS_INT(10), FXS_INT(100)}};
  c = fxs_command_add_wall(w);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  c = fxs_command_remove_wall(0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  for (int t = 0; t < 600; ++t) fxs_world_step(&world, 0, 0, 0);
  TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 256), FXS_INT(50), a->position.x); // arrived
  c = fxs_command_despawn(h);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_NULL(fxs_world_agent(&world, h));
}

void test_a_step_reports_the_first_rejected_command_and_steps_anyway(void) {
  fxs_spawn_def s = fxs_default_spawn_def();
  fxs_command cmds[3];
  cmds[0] = fxs_command_spawn(&s);
  cmds[1] = fxs_command_despawn((fxs_agent_handle){0x7777});
  cmds[1].sequence = 1;
  cmds[2] = fxs_command_spawn(&s);
  cmds[2].sequence = 2;
  cmds[2].arg[6] = 0; // mass 0
  fxs_result results[3];
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_step(&world, cmds, 3, results));
  TEST_ASSERT_EQUAL(FXS_OK, results[0]);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, results[2]);
  TEST_ASSERT_EQUAL_UINT32(1, world.tick);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
}

void test_the_move_command_carries_its_group_point_and_gap_and_round_trips(void) {
  fxs_agent_handle h = {0x00012345u};
  fxs_command c =
      fxs_command_move(h, 0xA1B2C3D4u, fxs_vec2_make(-FXS_INT(7), FXS_INT(9) + 3), FXS_RATIO(1, 2));
  TEST_ASSERT_EQUAL_STRING("move", fxs_command_name(c.type));
  uint8_t e[FXS_COMMAND_BYTES];
  fxs_command_encode(&c, e);
  static const uint8_t head[12] = {FXS_CMD_MOVE, 0,    0,    0,    0x45, 0x23,
                                   0x01,         0x00, 0xD4, 0xC3, 0xB2, 0xA1};
  TEST_ASSERT_EQUAL_HEX8_ARRAY(head, e, 12);
  static const uint8_t args[12] = {0x00, 0x00, 0xF9, 0xFF, 0x03, 0x00,
                                   0x09, 0x00, 0x00, 0x80, 0x00, 0x00};
  TEST_ASSERT_EQUAL_HEX8_ARRAY(args, e + 12, 12);
  for (int i = 24; i < FXS_COMMAND_BYTES; ++i) TEST_ASSERT_EQUAL_HEX8(0, e[i]);
  fxs_command back;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_command_decode(e, &back));
  uint8_t again[FXS_COMMAND_BYTES];
  fxs_command_encode(&back, again);
  TEST_ASSERT_EQUAL_HEX8_ARRAY(e, again, FXS_COMMAND_BYTES);
  TEST_ASSERT_EQUAL_UINT32(0xA1B2C3D4u, back.ref);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 2), back.arg[2]);
}
