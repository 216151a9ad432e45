// The step's view of a world no agent of which searches the neighbor grid: the live slots in
// slot order, no grid built, and every agent steered as in a world whose grid is built.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "behavior.h"
#include "manager.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "fxs_test_world.h"

#define AGENTS 40u

static uint64_t memory_a[32768], memory_b[32768];
static fxs_world world_a, world_b;

void setUp(void) {}
void tearDown(void) {}

static void make(fxs_world *w, uint64_t *memory, size_t bytes) {
  fxs_world_capacity c = {AGENTS + 1u, 4, 0, 0, 2, 2};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(800), FXS_INT(800));
  def.clamp_to_bounds = true;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= bytes);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &c, memory, bytes));
}

static void apply(fxs_world *w, fxs_command c) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, 0));
}

// Two obstacles and a wall across the middle of the world.
static void add_statics(fxs_world *w) {
  fxs_obstacle o1 = {{FXS_INT(200), FXS_INT(300)}, FXS_INT(30)};
  fxs_obstacle o2 = {{FXS_INT(450), FXS_INT(150)}, FXS_INT(20)};
  fxs_wall wall = {{FXS_INT(300), FXS_INT(400)}, {FXS_INT(500), FXS_INT(420)}};
  apply(w, fxs_command_add_obstacle(o1));
  apply(w, fxs_command_add_obstacle(o2));
  apply(w, fxs_command_add_wall(wall));
}

// AGENTS agents scattered among the obstacles and the wall, none of which searches: seeking,
// arriving, fleeing, wandering (some with two behaviors), pursuing, evading or hiding from
// the agent before them, avoiding obstacles, wandering kinematically; and in slot AGENTS, far
// from all, an agent with `last` (a searcher or not) and nothing else; then slot 7 despawned.
static void populate(fxs_world *w, fxs_behavior last) {
  static const fxs_behavior kinds[] = {
      FXS_BEHAVIOR_SEEK, FXS_BEHAVIOR_ARRIVE,  FXS_BEHAVIOR_WANDER,
      FXS_BEHAVIOR_FLEE, FXS_BEHAVIOR_PURSUIT, FXS_BEHAVIOR_EVADE,
      FXS_BEHAVIOR_HIDE, FXS_BEHAVIOR_AVOID,   FXS_BEHAVIOR_KINEMATIC_WANDER};
  const uint32_t count = sizeof kinds / sizeof kinds[0];
  add_statics(w);
  fxs_agent_handle before = {0};
  uint32_t s = 12345u;
  for (uint32_t i = 0; i < AGENTS; ++i) {
    s = s * 1103515245u + 12345u;
    fix16_t x = FXS_INT(20) + (fix16_t)(s >> 8) % FXS_INT(560);
    s = s * 1103515245u + 12345u;
    fix16_t y = FXS_INT(20) + (fix16_t)(s >> 8) % FXS_INT(560);
    fxs_agent_handle h = fxs_test_spawn_raw(w, x, y);
    apply(w, fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(600) - x, y / 2)));
    if (i > 0) apply(w, fxs_command_set_target_agent(h, before));
    fxs_behavior kind = kinds[i % count];
    fxs_test_add_behavior(w, h, kind, 0);
    if (i % 5u == 0 && !fxs_behavior_is_kinematic(kind)) {
      fxs_test_add_behavior(w, h, FXS_BEHAVIOR_WANDER, 0); // two contributions
    }
    before = h;
  }
  fxs_agent_handle far = fxs_test_spawn_raw(w, FXS_INT(790), FXS_INT(790));
  fxs_test_add_behavior(w, far, last, 0);
  apply(w, fxs_command_despawn(fxs_world_handle_at(w, 7)));
}

// Every body field and the wander state of slot i are the same in both worlds.
static void assert_same_agent(uint32_t i) {
  const fxs_agent_slot *a = &world_a.agents[i], *b = &world_b.agents[i];
  TEST_ASSERT_EQUAL(a->alive, b->alive);
  TEST_ASSERT_EQUAL_INT32(a->body.position.x, b->body.position.x);
  TEST_ASSERT_EQUAL_INT32(a->body.position.y, b->body.position.y);
  TEST_ASSERT_EQUAL_INT32(a->body.velocity.x, b->body.velocity.x);
  TEST_ASSERT_EQUAL_INT32(a->body.velocity.y, b->body.velocity.y);
  TEST_ASSERT_EQUAL_INT32(a->body.orientation, b->body.orientation);
  TEST_ASSERT_EQUAL_INT32(a->body.rotation, b->body.rotation);
  TEST_ASSERT_EQUAL_INT32(a->wander_angle, b->wander_angle);
}

static bool in_slot_order(const fxs_world *w) {
  for (uint32_t v = 1; v < w->internal->view_count; ++v) {
    if (w->internal->view_slot[v - 1u] >= w->internal->view_slot[v]) return false;
  }
  return true;
}

// Without a searcher the step's view holds the live slots in slot order, and nothing else.
void test_a_world_no_agent_of_which_searches_views_its_live_slots_in_slot_order(void) {
  make(&world_a, memory_a, sizeof memory_a);
  populate(&world_a, FXS_BEHAVIOR_SEEK);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_a, 0, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(AGENTS,
                           world_a.internal->view_count); // AGENTS + 1 spawned, one despawned
  TEST_ASSERT_TRUE(in_slot_order(&world_a));
  for (uint32_t v = 0; v < world_a.internal->view_count; ++v)
    TEST_ASSERT_NOT_EQUAL(7, world_a.internal->view_slot[v]);
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
    for (uint32_t i = 0; i < AGENTS; ++i) assert_same_agent(i);
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
  for (uint32_t i = 0; i < AGENTS; ++i) assert_same_agent(i);
}

// Every behavior kind, alone on three agents in a row (each the next one's target): the step
// builds the grid (the view in cell order) exactly for the kinds that read the neighbor list,
// and no other kind searches (search asserts that the grid is built).
void test_every_kind_that_searches_gets_the_grid_and_no_other_does(void) {
  for (uint32_t k = 0; k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind(k)) continue;
    make(&world_a, memory_a, sizeof memory_a);
    add_statics(&world_a);
    fxs_agent_handle h[3];
    // Right to left: in cell order (a grid built) the view is not in slot order.
    for (int i = 0; i < 3; ++i)
      h[i] = fxs_test_spawn_raw(&world_a, FXS_INT(150 - 25 * i), FXS_INT(100));
    bool added = true;
    for (int i = 0; i < 3; ++i) {
      apply(&world_a, fxs_command_set_target_agent(h[i], h[(i + 1) % 3]));
      fxs_behavior_slot b = fxs_behavior_slot_default((fxs_behavior)k);
      fxs_command c = fxs_command_add_behavior(h[i], &b);
      added = added && fxs_world_apply(&world_a, &c, 0) == FXS_OK;
    }
    if (!added) continue; // a kind the world refuses alone (its own tests cover it)
    // A formation member reads no neighbors, but its solid body searches them (contact).
    bool searches = k == FXS_BEHAVIOR_FORMATION || (fxs_behavior_reads_neighbors((fxs_behavior)k) &&
                                                    !fxs_behavior_is_kinematic((fxs_behavior)k));
    for (int t = 0; t < 5; ++t) {
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world_a, 0, 0, 0));
      TEST_ASSERT_EQUAL_UINT32(3, world_a.internal->view_count);
      TEST_ASSERT_EQUAL_MESSAGE(!searches, in_slot_order(&world_a),
                                fxs_behavior_name((fxs_behavior)k));
    }
  }
}
