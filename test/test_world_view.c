// The step's view of a world no agent of which searches the neighbor grid: the live slots in
// slot order, no grid built, and every agent steered as in a world whose grid is built.
#include <string.h>

#include "unity.h"

#include "scalar.h"
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
#include "unaligned_avoidance.h"
#include "interpose.h"
#include "hide.h"
#include "neighbors.h"
#include "orca.h"
#include "orca_static.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "behavior_params.h"
#include "world.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_move.h"
#include "nav_field.h"
#include "flow_field.h"
#include "world_field.h"
#include "world_grid.h"
#include "world_obstacles.h"
#include "world_slots.h"
#include "world_step.h"
#include "world_bounds.h"
#include "world_contact.h"
#include "escape.h"
#include "formation.h"
#include "world_formation.h"
#include "snapshot.h"
#include "bytes.h"
#include "fxs_test_world.h"

#define AGENTS 40u

static uint64_t memory_a[32768], memory_b[32768];
static fxs_world world_a, world_b;

void setUp(void) {}
void tearDown(void) {}

static void make(fxs_world *w, uint64_t *memory, size_t bytes) {
  fxs_world_capacity c = {AGENTS + 1u, 0, 0, 0, 0, 2};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(800), FXS_INT(800));
  def.clamp_to_bounds = true;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= bytes);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &c, memory, bytes));
}

static void apply(fxs_world *w, fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, 0)); }

// AGENTS agents scattered over the world, each seeking, arriving at, fleeing or wandering
// toward a point of its own (none of which searches), and in slot AGENTS, far from all, an
// agent with `last` (a searcher or not) and nothing else; then slot 7 despawned.
static void populate(fxs_world *w, fxs_behavior last) {
  static const fxs_behavior kinds[] = {FXS_BEHAVIOR_SEEK, FXS_BEHAVIOR_ARRIVE, FXS_BEHAVIOR_WANDER,
                                       FXS_BEHAVIOR_FLEE};
  uint32_t s = 12345u;
  for (uint32_t i = 0; i < AGENTS; ++i) {
    s = s * 1103515245u + 12345u;
    fix16_t x = FXS_INT(20) + (fix16_t)(s >> 8) % FXS_INT(560);
    s = s * 1103515245u + 12345u;
    fix16_t y = FXS_INT(20) + (fix16_t)(s >> 8) % FXS_INT(560);
    fxs_agent_handle h = fxs_test_spawn_raw(w, x, y);
    apply(w, fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(600) - x, y / 2)));
    fxs_test_add_behavior(w, h, kinds[i % 4u], 0);
    if (i % 5u == 0) fxs_test_add_behavior(w, h, FXS_BEHAVIOR_WANDER, 0); // two contributions
  }
  fxs_agent_handle far = fxs_test_spawn_raw(w, FXS_INT(790), FXS_INT(790));
  fxs_test_add_behavior(w, far, last, 0);
  apply(w, fxs_command_despawn(fxs_world_handle_at(w, 7)));
}

static bool in_slot_order(const fxs_world *w) {
  for (uint32_t v = 1; v < w->view_count; ++v) {
    if (w->view_slot[v - 1u] >= w->view_slot[v]) return false;
  }
  return true;
}

// Without a searcher the step's view holds the live slots in slot order, and nothing else.
void test_a_world_no_agent_of_which_searches_views_its_live_slots_in_slot_order(void) {
  make(&world_a, memory_a, sizeof memory_a);
  populate(&world_a, FXS_BEHAVIOR_SEEK);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_a, 0, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(AGENTS, world_a.view_count); // AGENTS + 1 spawned, one despawned
  TEST_ASSERT_TRUE(in_slot_order(&world_a));
  for (uint32_t v = 0; v < world_a.view_count; ++v) TEST_ASSERT_NOT_EQUAL(7, world_a.view_slot[v]);
}

// The same agents, the last one a separating agent alone in its corner: the grid is built (the
// view is in cell order), and every other agent moves exactly as without it, tick after tick.
void test_agents_steer_the_same_whether_or_not_another_agent_searches(void) {
  make(&world_a, memory_a, sizeof memory_a);
  make(&world_b, memory_b, sizeof memory_b);
  populate(&world_a, FXS_BEHAVIOR_SEEK);
  populate(&world_b, FXS_BEHAVIOR_SEPARATION);
  for (int t = 0; t < 120; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_a, 0, 0, 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_b, 0, 0, 0));
    TEST_ASSERT_TRUE(in_slot_order(&world_a));
    TEST_ASSERT_FALSE(in_slot_order(&world_b));
    for (uint32_t i = 0; i < AGENTS; ++i) {
      const fxs_agent_slot *a = &world_a.agents[i], *b = &world_b.agents[i];
      TEST_ASSERT_EQUAL(a->alive, b->alive);
      TEST_ASSERT_EQUAL_INT32(a->body.position.x, b->body.position.x);
      TEST_ASSERT_EQUAL_INT32(a->body.position.y, b->body.position.y);
      TEST_ASSERT_EQUAL_INT32(a->body.velocity.x, b->body.velocity.x);
      TEST_ASSERT_EQUAL_INT32(a->body.velocity.y, b->body.velocity.y);
      TEST_ASSERT_EQUAL_INT32(a->body.orientation, b->body.orientation);
      TEST_ASSERT_EQUAL_INT32(a->wander_angle, b->wander_angle);
    }
  }
}

// A searcher that comes and goes: the grid is built on the ticks it is there, and the world
// ends where one that searched every tick ends.
void test_a_searcher_added_and_removed_leaves_the_others_as_a_world_that_always_searched(void) {
  make(&world_a, memory_a, sizeof memory_a);
  make(&world_b, memory_b, sizeof memory_b);
  populate(&world_a, FXS_BEHAVIOR_SEEK);
  populate(&world_b, FXS_BEHAVIOR_SEPARATION);
  fxs_agent_handle last = fxs_world_handle_at(&world_a, AGENTS);
  for (int t = 0; t < 60; ++t) {
    if (t == 20) {
      apply(&world_a, fxs_command_clear_behaviors(last, FXS_COMBINE_WEIGHTED_SUM));
      fxs_test_add_behavior(&world_a, last, FXS_BEHAVIOR_COHESION, 0);
    }
    if (t == 40) {
      apply(&world_a, fxs_command_clear_behaviors(last, FXS_COMBINE_WEIGHTED_SUM));
      fxs_test_add_behavior(&world_a, last, FXS_BEHAVIOR_SEEK, 0);
    }
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_a, 0, 0, 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_b, 0, 0, 0));
    TEST_ASSERT_EQUAL(t >= 20 && t < 40, !in_slot_order(&world_a));
  }
  for (uint32_t i = 0; i < AGENTS; ++i) {
    TEST_ASSERT_EQUAL_INT32(world_a.agents[i].body.position.x, world_b.agents[i].body.position.x);
    TEST_ASSERT_EQUAL_INT32(world_a.agents[i].body.position.y, world_b.agents[i].body.position.y);
    TEST_ASSERT_EQUAL_INT32(world_a.agents[i].body.velocity.x, world_b.agents[i].body.velocity.x);
    TEST_ASSERT_EQUAL_INT32(world_a.agents[i].body.velocity.y, world_b.agents[i].body.velocity.y);
  }
}
