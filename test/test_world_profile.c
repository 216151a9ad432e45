#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "step_profile.h"
#include "snapshot.h"
#include "fxs_nav_test.h"

// The step's phase marks (step_profile.h): where they come, how they nest, and that a
// profiler changes no result, is kept out of the hash and the snapshot, and survives a restore.

// 12 agents, 8 walls, a 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {12, 0, 0, 0, 8, 0, 0, 1600, 2, 400, 16, 2, 0, 0};
static uint64_t memory[60000];
static uint64_t memory2[60000];
static uint8_t snap[65536], snap2[65536];
static fxs_world world, other;

// What a profiler saw: each mark as (phase, begins), in order.
#define MAX_MARKS 256
typedef struct recorder {
  uint32_t count;
  fxs_step_phase phase[MAX_MARKS];
  int begins[MAX_MARKS];
} recorder;
static recorder seen;

static void record(fxs_step_phase phase, int begins, void *user_context) {
  recorder *r = (recorder *)user_context;
  TEST_ASSERT_TRUE(r->count < MAX_MARKS);
  r->phase[r->count] = phase, r->begins[r->count] = begins;
  r->count++;
}

static void profile(fxs_world *w) {
  fxs_step_profiler p = {record, &seen};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_profiler(w, &p));
}

// Four navigators round a wall to one goal (a group field), and one going alone.
static void scene(fxs_world *w, uint64_t *mem, size_t size) {
  nav_world_init(w, 5, &cap, mem, size);
  nav_grid(w, 400);
  nav_wall(w, 200, 0, 200, 300);
  for (int i = 0; i < 4; ++i) nav_navigator(w, 100, 60 + 30 * i, 300, 150);
  nav_navigator(w, 60, 350, 350, 350);
}

void setUp(void) {
  memset(&seen, 0, sizeof seen);
  scene(&world, memory, sizeof memory);
}
void tearDown(void) {}

static bool marked(const recorder *r, fxs_step_phase phase) {
  for (uint32_t i = 0; i < r->count; ++i)
    if (r->phase[i] == phase) return true;
  return false;
}

// One tick's marks: STEP round everything, each end closing the phase begun last, the
// top-level phases once each in order, the planning phases inside PLAN in order.
static void check_one_tick(const recorder *r) {
  static const fxs_step_phase top[] = {FXS_PHASE_COMMANDS, FXS_PHASE_PLAN,  FXS_PHASE_SHARERS,
                                       FXS_PHASE_SENSE,    FXS_PHASE_STEER, FXS_PHASE_INTEGRATE};
  fxs_step_phase open[8];
  uint32_t depth = 0, next_top = 0;
  int last_plan = -1;
  TEST_ASSERT_TRUE(r->count >= 2);
  TEST_ASSERT_EQUAL(FXS_PHASE_STEP, r->phase[0]);
  TEST_ASSERT_EQUAL(1, r->begins[0]);
  for (uint32_t i = 0; i < r->count; ++i) {
    if (r->begins[i]) {
      TEST_ASSERT_TRUE(depth < 8);
      if (depth == 1) { // a top-level phase: the next in order
        TEST_ASSERT_TRUE(next_top < 6);
        TEST_ASSERT_EQUAL(top[next_top++], r->phase[i]);
      }
      if (depth == 2) { // inside PLAN: planning phases in enum order
        TEST_ASSERT_EQUAL(FXS_PHASE_PLAN, open[1]);
        TEST_ASSERT_TRUE(r->phase[i] >= FXS_PHASE_PLAN_MAP);
        TEST_ASSERT_TRUE(r->phase[i] <= FXS_PHASE_PLAN_FIELD_BUILDS);
        TEST_ASSERT_TRUE((int)r->phase[i] > last_plan);
        last_plan = (int)r->phase[i];
      }
      TEST_ASSERT_TRUE(depth != 0 || i == 0); // nothing outside STEP
      TEST_ASSERT_TRUE(depth <= 2);
      open[depth++] = r->phase[i];
    } else {
      TEST_ASSERT_TRUE(depth > 0);
      TEST_ASSERT_EQUAL(open[depth - 1], r->phase[i]);
      depth--;
    }
  }
  TEST_ASSERT_EQUAL(0, depth);
  TEST_ASSERT_EQUAL(6, next_top);
  TEST_ASSERT_EQUAL(FXS_PHASE_STEP, r->phase[r->count - 1]);
}

// `ticks` ticks of w, each checked (check_one_tick) and planned as a world with group fields
// plans every tick: progress, fields, routes, searches and builds, the aims (and the map) on a
// grid only.
static void check_planned_ticks(fxs_world *w, int ticks, bool grid) {
  for (int t = 0; t < ticks; ++t) {
    seen.count = 0;
    fxs_world_step(w, 0, 0, 0);
    check_one_tick(&seen);
    TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_PROGRESS));
    TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_FIELDS));
    TEST_ASSERT_EQUAL(grid, marked(&seen, FXS_PHASE_PLAN_AIMS));
    if (!grid) TEST_ASSERT_FALSE(marked(&seen, FXS_PHASE_PLAN_MAP)); // a mesh has no grid map
    TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_ROUTES));
    TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_SEARCHES));
    TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_FIELD_BUILDS));
  }
}

void test_a_tick_marks_every_phase_nested_and_in_order(void) {
  profile(&world);
  check_planned_ticks(&world, 30, true);
}

void test_the_map_phase_is_marked_in_the_tick_after_a_wall_changes(void) {
  profile(&world);
  fxs_world_step(&world, 0, 0, 0);
  seen.count = 0;
  fxs_world_step(&world, 0, 0, 0);
  TEST_ASSERT_FALSE(marked(&seen, FXS_PHASE_PLAN_MAP)); // nothing changed
  fxs_wall w = {nav_point(20, 380), nav_point(60, 380)};
  fxs_command c = fxs_command_add_wall(w);
  seen.count = 0;
  fxs_world_step(&world, &c, 1, 0);
  check_one_tick(&seen);
  TEST_ASSERT_TRUE(marked(&seen, FXS_PHASE_PLAN_MAP));
}

void test_a_world_without_navigation_marks_the_top_level_only(void) {
  static uint64_t small[4096];
  fxs_world_capacity c = {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof small);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&w, &def, &c, small, sizeof small));
  fxs_spawn_def s = fxs_default_spawn_def();
  fxs_command spawn = fxs_command_spawn(&s);
  profile(&w);
  fxs_world_step(&w, &spawn, 1, 0);
  check_one_tick(&seen);
  TEST_ASSERT_EQUAL(14, seen.count); // STEP and six phases, each begun and ended
}

// A mesh world (400 x 400, 8 agents, 6 walls, 2 group fields): its planning marks progress,
// fields, routes, searches and builds; it has no grid, so neither aims nor the grid's map.
void test_a_mesh_world_marks_its_own_planning_phases(void) {
  static uint64_t mesh_memory[60000];
  const fxs_world_capacity mesh = {8, 2, 0, 0, 6, 0, 0, 0, 2, 100, 16, 2, FXS_NAV_KIND_MESH, 0};
  fxs_world w;
  nav_world_init(&w, 11, &mesh, mesh_memory, sizeof mesh_memory);
  nav_wall(&w, 200, 0, 200, 170);
  nav_wall(&w, 200, 230, 200, 400);
  nav_grid(&w, 400);
  for (int i = 0; i < 6; ++i) nav_navigator(&w, 40 + 25 * (i % 2), 60 + 40 * i, 340, 200);
  profile(&w);
  check_planned_ticks(&w, 20, false);
}

// The same scene with and without a profiler: the same hash every tick and the same snapshot.
void test_a_profiled_world_steps_to_the_same_bits(void) {
  scene(&other, memory2, sizeof memory2);
  profile(&world);
  for (int t = 0; t < 300; ++t) {
    seen.count = 0;
    fxs_world_step(&world, 0, 0, 0);
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_UINT64(fxs_world_hash(&other), fxs_world_hash(&world));
  }
  size_t a = nav_save(&world, snap, sizeof snap), b = nav_save(&other, snap2, sizeof snap2);
  TEST_ASSERT_EQUAL(b, a);
  TEST_ASSERT_EQUAL_MEMORY(snap2, snap, a);
  // The agents moved: the comparison saw a running scene.
  TEST_ASSERT_TRUE(fxs_test_to_double(world.agents[0].body.position.x) > 110.0);
}

void test_a_restore_keeps_the_profiler(void) {
  profile(&world);
  for (int t = 0; t < 5; ++t) fxs_world_step(&world, 0, 0, 0);
  size_t size = nav_save(&world, snap, sizeof snap);
  fxs_world_step(&world, 0, 0, 0);
  nav_restore(&world, snap, size);
  seen.count = 0;
  fxs_world_step(&world, 0, 0, 0);
  check_one_tick(&seen);
}

void test_a_profiler_without_a_mark_is_refused_and_null_removes_it(void) {
  profile(&world);
  fxs_step_profiler none = {0, &seen};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_set_profiler(&world, &none));
  seen.count = 0;
  fxs_world_step(&world, 0, 0, 0);
  check_one_tick(&seen); // the refused call left the profiler as it was
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_profiler(&world, 0));
  seen.count = 0;
  fxs_world_step(&world, 0, 0, 0);
  TEST_ASSERT_EQUAL(0, seen.count);
}

void test_every_phase_has_its_own_name(void) {
  for (int i = 0; i < FXS_PHASE_COUNT; ++i) {
    const char *a = fxs_step_phase_name((fxs_step_phase)i);
    TEST_ASSERT_NOT_NULL(a);
    TEST_ASSERT_TRUE(strlen(a) > 0);
    // The planning phases, and only they, are named "plan." something.
    bool planning = i >= FXS_PHASE_PLAN_MAP && i <= FXS_PHASE_PLAN_FIELD_BUILDS;
    TEST_ASSERT_EQUAL(planning, strncmp(a, "plan.", 5) == 0);
    for (int j = 0; j < i; ++j)
      TEST_ASSERT_TRUE(strcmp(a, fxs_step_phase_name((fxs_step_phase)j)) != 0);
  }
  TEST_ASSERT_EQUAL_STRING("steer", fxs_step_phase_name(FXS_PHASE_STEER));
  TEST_ASSERT_NULL(fxs_step_phase_name(FXS_PHASE_COUNT));
  TEST_ASSERT_NULL(fxs_step_phase_name((fxs_step_phase)-1));
}
