// Golden hashes: every behavior runs a fixed scenario and the agents' states are hashed
// tick by tick. The same pinned values must come out of every compiler and CPU the suite
// runs on (gcc and clang on the desktop, arm-none-eabi-gcc on the Cortex-M3).
#include <stdio.h>

#include "unity.h"

#include "vec2.h"
#include "rng.h"
#include "hash.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "seek.h"
#include "wander.h"
#include "pursuit.h"
#include "avoidance.h"
#include "path.h"
#include "flocking.h"
#include "leader.h"
#include "kinematic.h"
#include "align.h"
#include "velocity_match.h"
#include "walker.h"
#include "flow_field.h"
#include "unaligned_avoidance.h"
#include "hide.h"
#include "interpose.h"
#include "orca.h"
#include "formation.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

enum { N = 5, TICKS = 300 };

static void hash_agent(fxs_hasher *h, const fxs_agent *a) {
  fxs_hash_i32(h, a->position.x);
  fxs_hash_i32(h, a->position.y);
  fxs_hash_i32(h, a->velocity.x);
  fxs_hash_i32(h, a->velocity.y);
  fxs_hash_i32(h, a->orientation);
  fxs_hash_i32(h, a->rotation);
}

static const fxs_vec2 path_nodes[4] = {{FXS_INT(100), FXS_INT(100)},
                                       {FXS_INT(700), FXS_INT(120)},
                                       {FXS_INT(650), FXS_INT(600)},
                                       {FXS_INT(90), FXS_INT(540)}};
static const fxs_obstacle obstacles[3] = {{{FXS_INT(300), FXS_INT(310)}, FXS_INT(40)},
                                          {{FXS_INT(480), FXS_INT(260)}, FXS_INT(35)},
                                          {{FXS_INT(420), FXS_INT(450)}, FXS_INT(50)}};

// The field flow-field following reads: 8 x 6 cells of 100 units, a vortex round (400, 300)
// turning a quarter inward, with a block of sinks (zero cells) at its centre; built by run().
static fxs_vec2 field_cells[48];
static fxs_flow_field field;

static void build_field(void) {
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_flow_field_init(&field, field_cells, 48, 8, 6, fxs_vec2_zero(), FXS_INT(100)));
  fxs_flow_field_fill_vortex(&field, fxs_vec2_make(FXS_INT(400), FXS_INT(300)), FXS_ONE,
                             FXS_RATIO(1, 4));
  field_cells[2 * 8 + 3] = field_cells[2 * 8 + 4] = fxs_vec2_zero();
}

// The detection mode the obstacle-avoidance run uses (the default unless a test says).
static fix16_t avoid_mode = FXS_AVOID_SWEPT;

typedef struct world {
  fxs_agent a[N];
  fxs_neighbor view[N];
  fix16_t wander_angle[N];
  fxs_rng rng[N];
  fxs_path_state path[N];
  fxs_walker_state walker[N];
} world;

// The steering of agent i under `behavior`; kinematic behaviors move the agent themselves.
static void steer(world *w, int i, fxs_behavior behavior, fxs_steering_manager *m,
                  fxs_agent *next) {
  const fxs_agent *a = &w->a[i];
  fxs_vec2 goal = fxs_vec2_make(FXS_INT(800), FXS_INT(700));
  fxs_vec2 f = fxs_vec2_zero();
  fix16_t angular = 0;
  fxs_wander_def wdef = fxs_default_wander_def();
  fxs_avoidance_def adef = fxs_default_avoidance_def();
  adef.mode = avoid_mode;
  fxs_path_def pdef = fxs_default_path_def(path_nodes, 4, (fxs_path_mode)(i % 3));
  fxs_leader_def ldef = fxs_default_leader_def();
  fxs_queue_def qdef = fxs_default_queue_def();
  fxs_align_def aldef = fxs_default_align_def();
  fxs_dynamic_arrive_def ddef = fxs_default_dynamic_arrive_def();
  fxs_walker_def wkdef = fxs_default_walker_def();
  fxs_flow_field_def fdef = fxs_default_flow_field_def();
  fdef.look_ahead = FXS_INT(i);
  fxs_unaligned_avoidance_def uadef = fxs_default_unaligned_avoidance_def();
  fxs_interpose_def ipdef = fxs_default_interpose_def();
  fxs_orca_def ocdef = fxs_default_orca_def();
  fxs_hide_def hidef = fxs_default_hide_def();
  fxs_offset_pursuit_def opdef = fxs_default_offset_pursuit_def();
  opdef.offset_side = FXS_INT(20 * (i - 2)); // a line abreast, 20 units apart
  fix16_t scale = FXS_ONE;
  switch (behavior) {
    case FXS_BEHAVIOR_SEEK:
      f = fxs_seek(a, goal);
      break;
    case FXS_BEHAVIOR_FLEE:
      f = fxs_flee(a, goal, FXS_INT(900));
      break;
    case FXS_BEHAVIOR_ARRIVE:
      f = fxs_arrive(a, goal, FXS_INT(150));
      break;
    case FXS_BEHAVIOR_WANDER:
      f = fxs_wander(a, &wdef, &w->wander_angle[i], &w->rng[i]);
      break;
    case FXS_BEHAVIOR_PURSUIT:
      f = i ? fxs_pursuit(a, &w->a[0], FXS_INT(40)) : fxs_seek(a, goal);
      break;
    case FXS_BEHAVIOR_EVADE:
      f = i ? fxs_evade(a, &w->a[0], FXS_INT(40), FXS_INT(300)) : fxs_seek(a, goal);
      break;
    case FXS_BEHAVIOR_AVOID:
      f = fxs_vec2_add(fxs_avoid_obstacles(a, obstacles, 3, &adef), fxs_seek(a, goal));
      break;
    case FXS_BEHAVIOR_PATH:
      f = fxs_follow_path(a, &pdef, &w->path[i]);
      break;
    case FXS_BEHAVIOR_SEPARATION:
      f = fxs_vec2_add(fxs_separation(a, (uint32_t)i, w->view, N, FXS_INT(60)),
                       fxs_arrive(a, goal, FXS_INT(100)));
      break;
    case FXS_BEHAVIOR_ALIGNMENT:
      f = fxs_alignment(a, (uint32_t)i, w->view, N, FXS_INT(400));
      break;
    case FXS_BEHAVIOR_COHESION:
      f = fxs_cohesion(a, (uint32_t)i, w->view, N, FXS_INT(400));
      break;
    case FXS_BEHAVIOR_LEADER:
      f = i ? fxs_follow_leader(a, (uint32_t)i, &w->a[0], w->view, N, &ldef)
            : fxs_follow_path(a, &pdef, &w->path[i]);
      break;
    case FXS_BEHAVIOR_QUEUE:
      f = fxs_arrive(a, goal, FXS_INT(60));
      f = fxs_vec2_add(
          f, fxs_queue(a, (uint32_t)i, f, w->view, N, fxs_test_body_in, w->a, &qdef, &scale));
      break;
    case FXS_BEHAVIOR_DYNAMIC_ARRIVE:
      f = fxs_dynamic_arrive(a, goal, &ddef);
      break;
    case FXS_BEHAVIOR_VELOCITY_MATCH:
      f = fxs_velocity_match(a, w->a[(i + 1) % N].velocity, FXS_INT(4), FXS_RATIO(1, 4));
      break;
    case FXS_BEHAVIOR_ALIGN:
      angular = fxs_align(a, FXS_INT(2), &aldef);
      break;
    case FXS_BEHAVIOR_FACE:
      angular = fxs_face(a, goal, &aldef);
      break;
    case FXS_BEHAVIOR_LOOK_WHERE_GOING:
      angular = fxs_look_where_going(a, &aldef);
      f = fxs_seek(a, goal);
      break;
    case FXS_BEHAVIOR_WALKER:
      f = fxs_random_walker(a, goal, &wkdef, &w->walker[i], &w->rng[i]);
      break;
    case FXS_BEHAVIOR_FLOW_FIELD:
      f = fxs_follow_flow_field(a, &field, &fdef);
      break;
    case FXS_BEHAVIOR_KINEMATIC_SEEK:
      fxs_kinematic_apply(next, fxs_kinematic_seek(a, goal));
      return;
    case FXS_BEHAVIOR_KINEMATIC_ARRIVE:
      fxs_kinematic_apply(next, fxs_kinematic_arrive(a, goal, FXS_INT(2), FXS_INT(8)));
      return;
    case FXS_BEHAVIOR_KINEMATIC_WANDER:
      fxs_kinematic_apply(next, fxs_kinematic_wander(a, FXS_RATIO(1, 5), &w->rng[i]));
      return;
    case FXS_BEHAVIOR_UNALIGNED_AVOIDANCE:
      f = fxs_vec2_add(fxs_unaligned_avoidance(a, (uint32_t)i, w->view, N, &uadef),
                       fxs_arrive(a, goal, FXS_INT(100)));
      break;
    case FXS_BEHAVIOR_OFFSET_PURSUIT:
      f = i ? fxs_offset_pursuit(a, &w->a[0], &opdef) : fxs_follow_path(a, &pdef, &w->path[i]);
      break;
    case FXS_BEHAVIOR_HIDE:
      f = i ? fxs_hide(a, &w->a[0], obstacles, 3, &hidef) : fxs_follow_path(a, &pdef, &w->path[i]);
      break;
    case FXS_BEHAVIOR_INTERPOSE: // 0 and 1 seek; the others step between them
      f = i < 2 ? fxs_arrive(a, i ? goal : fxs_vec2_make(FXS_INT(100), FXS_INT(650)), FXS_INT(60))
                : fxs_interpose(a, &w->a[0], &w->a[1], &ipdef);
      break;
    case FXS_BEHAVIOR_FORMATION: { // 0 follows the path; the others form a box behind it
      const fxs_agent *members[N - 1];
      for (int k = 1; k < N; ++k) members[k - 1] = &w->a[k];
      fxs_formation_def fodef = fxs_default_formation_def();
      fodef.shape = FXS_FORMATION_BOX;
      f = i ? fxs_formation(members, N - 1, (uint32_t)(i - 1), &w->a[0], &fodef)
            : fxs_follow_path(a, &pdef, &w->path[i]);
      break;
    }
    case FXS_BEHAVIOR_ORCA: { // each to its own point on a diagonal line across the field
      fxs_vec2 to = fxs_vec2_make(FXS_INT(100 + 150 * i), FXS_INT(600 - 120 * i));
      f = fxs_orca(a, (uint32_t)i, fxs_vec2_add(a->velocity, fxs_arrive(a, to, FXS_INT(32))),
                   w->view, N, &ocdef);
      break;
    }
    default:
      break;
  }
  fxs_manager_begin(m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_steering s = fxs_steering_linear(f);
  s.angular = angular;
  fxs_manager_add(m, behavior, s, FXS_ONE, 0);
  fxs_manager_scale_velocity(m, scale);
  fxs_manager_update(m, next);
}

// flip_bit: xor 1 into the raw x of agent 2 before the first tick.
static uint64_t run(fxs_behavior behavior, int flip_bit) {
  world w;
  build_field();
  uint32_t lcg = 1000u + (uint32_t)behavior;
  for (int i = 0; i < N; ++i) {
    w.a[i] = fxs_test_agent_at(0, 0);
    w.a[i].position = fxs_test_point(&lcg, 0, 600);
    w.a[i].velocity = fxs_vec2_make(FXS_RATIO(i, 2), -FXS_RATIO(i, 3));
    w.a[i].orientation_mode = (i & 1) ? FXS_ORIENT_STEERED : FXS_ORIENT_LOOK_WHERE_GOING;
    w.a[i].max_turn_rate = FXS_RATIO(i, 10);
    w.wander_angle[i] = 0;
    fxs_rng_seed_stream(&w.rng[i], 20261122u, (uint32_t)i);
    w.path[i] = fxs_path_start();
    w.walker[i].has_waypoint = 0;
    w.walker[i].waypoint = fxs_vec2_zero();
  }
  if (flip_bit) w.a[2].position.x ^= 1;
  fxs_hasher h = fxs_hasher_make();
  fxs_steering_manager m;
  for (int t = 0; t < TICKS; ++t) {
    fxs_agent next[N];
    for (int i = 0; i < N; ++i) w.view[i] = fxs_neighbor_of(&w.a[i], (uint32_t)i);
    for (int i = 0; i < N; ++i) {
      next[i] = w.a[i];
      steer(&w, i, behavior, &m, &next[i]);
    }
    for (int i = 0; i < N; ++i) {
      w.a[i] = next[i];
      hash_agent(&h, &w.a[i]);
    }
  }
  return h.state;
}

static const uint64_t golden[FXS_BEHAVIOR_COUNT] = {
    [FXS_BEHAVIOR_SEEK] = UINT64_C(0x6d7321224289a009),
    [FXS_BEHAVIOR_FLEE] = UINT64_C(0x3ec9aa9f21fb06e0),
    [FXS_BEHAVIOR_ARRIVE] = UINT64_C(0x7048d98c47c455de),
    [FXS_BEHAVIOR_WANDER] = UINT64_C(0x554cb35db7915373),
    [FXS_BEHAVIOR_PURSUIT] = UINT64_C(0xd2a810364151074f),
    [FXS_BEHAVIOR_EVADE] = UINT64_C(0xb329c68db1d4b37b),
    [FXS_BEHAVIOR_AVOID] = UINT64_C(0xb8c6229127d0864e),
    [FXS_BEHAVIOR_PATH] = UINT64_C(0x21749391a425d215),
    [FXS_BEHAVIOR_SEPARATION] = UINT64_C(0x7d75a8d0fbbc9d5c),
    [FXS_BEHAVIOR_ALIGNMENT] = UINT64_C(0x3ba5da0b1047c6fa),
    [FXS_BEHAVIOR_COHESION] = UINT64_C(0xc451ea07a9e28151),
    [FXS_BEHAVIOR_LEADER] = UINT64_C(0x6d8fd800bb21dced),
    [FXS_BEHAVIOR_QUEUE] = UINT64_C(0xc67e02c83719cb2b),
    [FXS_BEHAVIOR_DYNAMIC_ARRIVE] = UINT64_C(0x1fa11258eaacafec),
    [FXS_BEHAVIOR_VELOCITY_MATCH] = UINT64_C(0xd3ef9d8c5eb2476f),
    [FXS_BEHAVIOR_ALIGN] = UINT64_C(0x486c02d0cc0491d1),
    [FXS_BEHAVIOR_FACE] = UINT64_C(0x0342b64679599cdb),
    [FXS_BEHAVIOR_LOOK_WHERE_GOING] = UINT64_C(0x94f2cceb88b10b92),
    [FXS_BEHAVIOR_WALKER] = UINT64_C(0x6d80ec5e85c77a49),
    [FXS_BEHAVIOR_KINEMATIC_SEEK] = UINT64_C(0xaaf9796f7a979556),
    [FXS_BEHAVIOR_KINEMATIC_ARRIVE] = UINT64_C(0xa1c79439b4625b25),
    [FXS_BEHAVIOR_KINEMATIC_WANDER] = UINT64_C(0x821c05c25d9b775a),
    [FXS_BEHAVIOR_FLOW_FIELD] = UINT64_C(0x317335bf09ba5dc1),
    [FXS_BEHAVIOR_OFFSET_PURSUIT] = UINT64_C(0xfa925b99d07708f8),
    [FXS_BEHAVIOR_HIDE] = UINT64_C(0x172889ed8a61686e),
    [FXS_BEHAVIOR_INTERPOSE] = UINT64_C(0x4e2b8d59935cae31),
    [FXS_BEHAVIOR_ORCA] = UINT64_C(0x5f84ac4b97ab4708),
    [FXS_BEHAVIOR_FORMATION] = UINT64_C(0x1dc7fcfd472fca99),
    // This scene's world has no navigation grid: navigate arrives straight at the target
    // with ORCA, landing exactly within its touching distance (agent.h).
    [FXS_BEHAVIOR_NAVIGATE] = UINT64_C(0x5e53035c0d0bf968),
    [FXS_BEHAVIOR_UNALIGNED_AVOIDANCE] = UINT64_C(0x8a328dd782ea7393),
};

void test_every_behavior_reproduces_its_golden_hash(void) {
  int mismatches = 0;
  for (int b = FXS_BEHAVIOR_SEEK; b < FXS_BEHAVIOR_COUNT; ++b) {
    if (!fxs_behavior_is_slot_kind((uint32_t)b)) continue;
    uint64_t got = run((fxs_behavior)b, 0);
    if (got != golden[b]) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s: 0x%08lx%08lx", fxs_behavior_name((fxs_behavior)b),
               (unsigned long)(got >> 32), (unsigned long)(got & 0xFFFFFFFFu));
      TEST_MESSAGE(msg);
      mismatches++;
    }
  }
  TEST_ASSERT_EQUAL_INT(0, mismatches);
}

void test_a_one_lsb_change_in_one_agent_changes_the_hash(void) {
  for (int b = FXS_BEHAVIOR_SEEK; b < FXS_BEHAVIOR_COUNT; ++b) {
    if (!fxs_behavior_is_slot_kind((uint32_t)b)) continue;
    TEST_ASSERT_NOT_EQUAL(golden[b], run((fxs_behavior)b, 1));
  }
}

void test_the_tutorial_probes_reproduce_their_recorded_avoidance_hash(void) {
  avoid_mode = FXS_AVOID_PROBES;
  uint64_t got = run(FXS_BEHAVIOR_AVOID, 0);
  avoid_mode = FXS_AVOID_SWEPT;
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xda3d5724e8fd1617), got);
}
