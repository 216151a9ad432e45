// The extreme-state suite: positions at the edge of the Q16.16 range, the largest speeds and
// forces, tiny and huge masses, coincident agents, one-node paths, degenerate walls, for every
// behavior. Under the sanitizer builds any undefined behavior fails the test; everywhere, every
// state the world reaches keeps its invariants and restores from its own snapshot.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "avoidance.h"
#include "path.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"

#define AGENTS 8
static const fxs_world_capacity cap = {AGENTS, 4, 2, 4, 3, 0, 16};
static uint64_t memory[6144];
static uint64_t memory2[6144];
static uint8_t snap[16384];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

typedef struct extreme {
  const char *name;
  fix16_t x, y; // where the agents start (all on one point)
  fix16_t max_speed, max_force, mass, radius;
  fxs_vec2 target;
} extreme;

static const extreme cases[] = {
    {"far corner to far corner",
     FXS_INT(32767),
     FXS_INT(32767),
     FXS_INT(4),
     FXS_ONE,
     FXS_ONE,
     FXS_INT(8),
     {-FXS_INT(32767), -FXS_INT(32767)}},
    {"largest speed and force",
     -FXS_INT(32000),
     FXS_INT(100),
     FXS_MAX,
     FXS_MAX,
     FXS_ONE,
     FXS_INT(8),
     {FXS_INT(32767), -FXS_INT(32767)}},
    {"tiny mass", 0, 0, FXS_INT(200), FXS_INT(100), 1, FXS_INT(8), {FXS_INT(5), FXS_INT(5)}},
    {"huge mass", 0, 0, FXS_INT(4), FXS_ONE, FXS_MAX, FXS_INT(8), {FXS_INT(500), 0}},
    {"huge bodies",
     FXS_INT(100),
     FXS_INT(100),
     FXS_INT(30000),
     FXS_INT(30000),
     FXS_ONE,
     FXS_MAX,
     {FXS_INT(100), FXS_INT(100)}},
    {"at rest on the target", FXS_INT(7), FXS_INT(7), 0, 0, FXS_ONE, 0, {FXS_INT(7), FXS_INT(7)}},
};

static void apply(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

// A world of AGENTS coincident agents with behavior `kind` (plus separation for company),
// extreme obstacles, a degenerate wall, a one-node path and a flow field of extreme cells.
static void build(const extreme *e, fxs_behavior kind) {
  fxs_world_def def = fxs_default_world_def();
  def.bounds_min = fxs_vec2_make(-FXS_INT(32767), -FXS_INT(32767));
  def.bounds_max = fxs_vec2_make(FXS_INT(32767), FXS_INT(32767));
  def.clamp_to_bounds = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  fxs_vec2 node = e->target;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_add_path(&world, &node, 1, FXS_PATH_PATROL, FXS_INT(10), 0));
  fxs_obstacle o1 = {{FXS_INT(32767), -FXS_INT(32767)}, FXS_MAX};
  fxs_obstacle o2 = {{e->x, e->y}, FXS_INT(3)};
  apply(fxs_command_add_obstacle(o1));
  apply(fxs_command_add_obstacle(o2));
  fxs_wall point = {{e->x, e->y}, {e->x, e->y}};
  fxs_wall edge = {{-FXS_INT(32767), FXS_INT(32767)}, {FXS_INT(32767), FXS_INT(32767)}};
  apply(fxs_command_add_wall(point));
  apply(fxs_command_add_wall(edge));
  // A 4 x 4 field of the largest cells from the far corner, swirling round the target.
  apply(fxs_command_set_field_grid(def.bounds_min, FXS_MAX, 4, 4));
  apply(fxs_command_fill_field_vortex(e->target, FXS_MAX, FXS_MIN));
  apply(fxs_command_set_field_cells(0, 0, 1, 1, fxs_vec2_make(FXS_MIN, FXS_MIN)));
  for (int i = 0; i < AGENTS; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make(e->x, e->y);
    s.velocity = fxs_vec2_make(e->max_speed, -e->max_speed);
    s.max_speed = e->max_speed, s.max_force = e->max_force, s.mass = e->mass, s.radius = e->radius;
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
    fxs_agent_limits_def l = fxs_default_agent_limits_def();
    l.max_speed = e->max_speed, l.max_force = e->max_force, l.mass = e->mass, l.radius = e->radius;
    l.max_rotation = FXS_PI, l.max_angular_acceleration = FXS_MAX, l.max_turn_rate = FXS_MAX;
    l.orientation = (fxs_orientation_mode)(i % 3);
    apply(fxs_command_set_limits(h, &l));
    apply(fxs_command_clear_behaviors(h, (fxs_combine_mode)(i % 3)));
    fxs_behavior_slot b = fxs_behavior_slot_default(kind);
    b.weight = i == 0 ? FXS_MAX : FXS_ONE;
    apply(fxs_command_add_behavior(h, &b));
    if (!fxs_behavior_is_kinematic(kind)) { // a kinematic behavior is a set of its own
      fxs_behavior_slot sep = fxs_behavior_slot_default(FXS_BEHAVIOR_SEPARATION);
      apply(fxs_command_add_behavior(h, &sep));
    }
    apply(fxs_command_set_target_point(h, e->target));
    apply(fxs_command_set_path(h, 0));
    if (i > 0) apply(fxs_command_set_target_agent(h, fxs_world_handle_at(&world, 0)));
    apply(fxs_command_apply_force(h, fxs_vec2_make(FXS_MAX, FXS_MIN)));
  }
}

// Invariants of every reachable state, and a snapshot of it restores to the same hash. (The
// speed limit is not among them here: the huge external forces applied at tick 0 may push
// agents past max_speed, which they leave at their max_force per tick.)
static void check_state(const char *what) {
  for (uint32_t i = 0; i < cap.agents; ++i) {
    const fxs_agent_slot *s = &world.agents[i];
    if (!s->alive) continue;
    TEST_ASSERT_TRUE_MESSAGE(s->body.orientation > -FXS_PI && s->body.orientation <= FXS_PI, what);
    TEST_ASSERT_TRUE_MESSAGE(s->wander_angle > -FXS_PI && s->wander_angle <= FXS_PI, what);
  }
  size_t n = 0;
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n), what);
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  size_t at = 0;
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_restore(&other, snap, n, &at), what);
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(fxs_world_hash(&world), fxs_world_hash(&other), what);
}

void test_every_behavior_survives_every_extreme_state(void) {
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    for (int k = FXS_BEHAVIOR_SEEK; k < FXS_BEHAVIOR_COUNT; ++k) {
      if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
      build(&cases[c], (fxs_behavior)k);
      for (int t = 0; t < 40; ++t) {
        fxs_world_step(&world, 0, 0, 0);
        if (t % 13 == 0) check_state(cases[c].name);
      }
      check_state(fxs_behavior_name((fxs_behavior)k));
    }
  }
}

void test_one_node_paths_and_empty_paths_are_followed_without_harm(void) {
  fxs_agent a = fxs_default_agent();
  fxs_vec2 node = fxs_vec2_make(FXS_INT(10), 0);
  for (int mode = FXS_PATH_STOP_AT_END; mode <= FXS_PATH_PATROL; ++mode) {
    fxs_path_def one = fxs_default_path_def(&node, 1, (fxs_path_mode)mode);
    fxs_path_state st = fxs_path_start();
    for (int t = 0; t < 300; ++t) {
      fxs_vec2 f = fxs_follow_path(&a, &one, &st);
      fxs_steering s = fxs_steering_linear(f);
      fxs_agent_integrate(&a, s, fxs_vec2_zero(), FXS_ONE);
      TEST_ASSERT_EQUAL_UINT16(0, st.current_node);
    }
    TEST_ASSERT_INT32_WITHIN(FXS_INT(10), FXS_INT(10), a.position.x);
    fxs_path_def none = fxs_default_path_def(&node, 0, (fxs_path_mode)mode);
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_follow_path(&a, &none, &st)));
  }
}
