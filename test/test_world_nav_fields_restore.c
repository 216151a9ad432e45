#include <stdio.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "world_nav_fields.h"
#include "world_nav_raster.h"
#include "snapshot.h"
#include "nav_field.h"
#include "nav_path.h"
#include "fxs_nav_test.h"
#include "fxs_test_tasks.h"

// Rollback without rebuilding (world_nav_fields.h): a restore keeps the group fields whose goal,
// map and count are those of the snapshot, builds on the ones behind it and rebuilds the others;
// every way the values equal those of a world restored from the same bytes into fresh memory,
// bit for bit, and a run with rollbacks equals the straight run tick for tick.

// 12 agents, 8 walls, up to 16 workers, a 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {12, 0, 0, 0, 8, 16, 0, 1600, 2, 400, 16, 2, 0, 0};
static uint64_t memory[80000];
static uint64_t memory2[80000];
static uint8_t snap[65536];
static uint8_t snap2[65536];
static fxs_world world, other;

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  nav_world_init(w, 5, &cap, mem, size);
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

// `count` navigators in a column from (x, y0) down by 30, all to (tx, ty).
static void group(fxs_world *w, int count, int x, int y0, int tx, int ty) {
  for (int i = 0; i < count; ++i) nav_navigator(w, x, y0 + 30 * i, tx, ty);
}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

static uint32_t cell(int x, int y) { return (uint32_t)(y / 10) * 40u + (uint32_t)(x / 10); }

static size_t save(const fxs_world *w, uint8_t *out) { return nav_save(w, out, sizeof snap); }

static uint8_t how(const fxs_world *w, uint32_t k) {
  return w->internal->nav.field_built[k].restored;
}

// `other` initialised over junk, then restored from the bytes: every field rebuilt.
static void restore_fresh(const uint8_t *bytes, size_t size) {
  memset(memory2, 0xA5, sizeof memory2);
  init(&other, memory2, sizeof memory2);
  memset(other.internal->nav.fields_memory, 0xA5,
         fxs_world_nav_fields_bytes(&cap) * fxs_world_nav_field_builds(&cap));
  memset(other.internal->nav.field_packed, 0x5A, (size_t)cap.nav_fields * cap.nav_cells);
  nav_restore(&other, bytes, size);
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    if (other.nav.field_slots[k].live)
      TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&other, k));
  }
}

// Field k of a and b: the same numbers and, held the same way, every entry of the grid and its
// border and every bucket (being built), or every cell's direction code (ready, packed).
static void assert_same_field(const fxs_world *a, const fxs_world *b, uint32_t k) {
  const fxs_nav_field *x = &a->nav.fields[k], *y = &b->nav.fields[k];
  TEST_ASSERT_EQUAL_UINT32(y->status, x->status);
  TEST_ASSERT_EQUAL_UINT32(y->width, x->width);
  TEST_ASSERT_EQUAL_UINT32(y->height, x->height);
  TEST_ASSERT_EQUAL_UINT32(y->current, x->current);
  TEST_ASSERT_EQUAL_UINT32(y->queued, x->queued);
  TEST_ASSERT_EQUAL_UINT32(y->settled, x->settled);
  TEST_ASSERT_EQUAL(y->packed != NULL, x->packed != NULL);
  TEST_ASSERT_EQUAL(x->status == FXS_NAV_FIELD_READY, x->packed != NULL); // ready: packed
  if (x->packed) {
    for (uint32_t i = 0; i < x->width * x->height; ++i)
      TEST_ASSERT_EQUAL_UINT8(y->packed[i] & 15u, x->packed[i] & 15u);
    return;
  }
  size_t entries = (size_t)(x->width + 2u) * (x->height + 2u);
  TEST_ASSERT_EQUAL_MEMORY(y->entry, x->entry, entries * sizeof *x->entry);
  TEST_ASSERT_EQUAL_MEMORY(y->bucket, x->bucket, FXS_NAV_BUCKETS * sizeof *x->bucket);
}

// Every live field of a equals b's (the slots are state: the hashes say they agree).
static void assert_same_fields(const fxs_world *a, const fxs_world *b) {
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(b), fxs_world_hash(a));
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    if (a->nav.field_slots[k].live) assert_same_field(a, b, k);
  }
}

// Where both worlds know an aim of field k, the same one.
static uint32_t assert_same_aims(const fxs_world *a, const fxs_world *b, uint32_t k) {
  const uint8_t *x = a->internal->nav.field_packed + (size_t)k * cap.nav_cells;
  const uint8_t *y = b->internal->nav.field_packed + (size_t)k * cap.nav_cells;
  uint32_t both = 0;
  for (uint32_t i = 0; i < cap.nav_cells; ++i) {
    if (x[i] >> 4 == 0 || y[i] >> 4 == 0) continue; // not computed in one of them
    TEST_ASSERT_EQUAL_UINT8(y[i] >> 4, x[i] >> 4);
    both++;
  }
  return both;
}

// Both worlds stepped on together: the same hash every tick.
static void assert_same_run(fxs_world *a, fxs_world *b, int ticks) {
  for (int t = 0; t < ticks; ++t) {
    step(a, 1);
    step(b, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(a), fxs_world_hash(b));
  }
}

// Two groups behind a wall, each on its own field.
static void two_groups(uint32_t budget) {
  nav_grid(&world, budget);
  nav_wall(&world, 200, 0, 200, 300);
  group(&world, 4, 100, 60, 300, 150);
  group(&world, 4, 60, 200, 380, 380);
}

// ------------------------------------------------------------------ kept

void test_a_rollback_of_an_unchanged_map_keeps_the_ready_fields_and_their_aims(void) {
  two_groups(400);
  step(&world, 12);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[1].ready);
  size_t size = save(&world, snap);
  uint64_t revision = world.internal->nav.raster->revision;
  step(&world, 9); // the agents move on, the map stays
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  TEST_ASSERT_EQUAL_UINT64(revision, world.internal->nav.raster->revision); // nothing changed
  restore_fresh(snap, size);
  assert_same_fields(&world, &other);
  // the kept aims (of 21 ticks of cells) agree with those the fresh world computes
  step(&world, 1);
  step(&other, 1);
  TEST_ASSERT_TRUE(assert_same_aims(&world, &other, 0) > 0);
  TEST_ASSERT_TRUE(assert_same_aims(&world, &other, 1) > 0);
  assert_same_run(&world, &other, 300);
  assert_same_fields(&world, &other);
}

// A wall added after the snapshot, and the fields rebuilt over it: the restore takes the
// wall out again, the revision moves, and the fields are rebuilt over the old map.
void test_a_restore_after_a_map_change_rebuilds_the_fields(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  nav_wall(&world, 100, 300, 300, 300);
  step(&world, 12);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready); // the same goals, the new map
  TEST_ASSERT_EQUAL_UINT32(world.nav.field_slots[0].goal_cell,
                           world.internal->nav.field_built[0].goal);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_fields(&world, &other);
  assert_same_run(&world, &other, 200);
}

// A cost block set and set back: the costs are as they were, but the fields were dropped and
// begun again in between; the restore rebuilds nothing it need not and equals a fresh one.
void test_a_cost_change_after_the_snapshot_rebuilds_and_one_undone_before_a_tick_keeps(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  // changed and restored before any tick: the fields were dropped but never begun again
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(5, 5, 10, 10, 7)));
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[0].live);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_fields(&world, &other);
  // changed and stepped: the fields are begun over the dearer cells, ready again
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(5, 5, 10, 10, 7)));
  step(&world, 12);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  assert_same_fields(&world, &other);
  assert_same_run(&world, &other, 100);
}

// The grid set again with a smaller radius: every shape rasterized afresh, the same goals
// begun again over the narrower walls; the restore rasterizes the old radius: rebuilt.
void test_a_restore_after_the_grid_was_set_again_rebuilds(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 40, 40, FXS_INT(4), 400);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
  step(&world, 12);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  TEST_ASSERT_EQUAL_UINT32(cell(300, 150), world.internal->nav.field_built[0].goal);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_fields(&world, &other);
  assert_same_run(&world, &other, 100);
}

// Restored into another world whose map differs in one wall only (same goals, same counts):
// its fields were built over its own map, so they are rebuilt.
void test_a_restore_into_a_world_with_another_map_rebuilds(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  init(&other, memory2, sizeof memory2);
  nav_grid(&other, 400);
  nav_wall(&other, 200, 0, 200, 310); // 10 units longer
  group(&other, 4, 100, 60, 300, 150);
  group(&other, 4, 60, 200, 380, 380);
  step(&other, 12);
  TEST_ASSERT_EQUAL_UINT8(1, other.nav.field_slots[0].ready);
  nav_restore(&other, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&other, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&other, 1));
  assert_same_fields(&world, &other);
  assert_same_run(&world, &other, 100);
}

// Restored into another world of the same map whose fields stand where the snapshot's do
// (ready, the same goals in the same slots): the map rasterizes to the same costs, so they are
// kept there too, and equal a fresh restore.
void test_a_restore_into_another_world_of_the_same_map_keeps(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  init(&other, memory2, sizeof memory2);
  nav_grid(&other, 400);
  nav_wall(&other, 200, 0, 200, 300);
  group(&other, 4, 100, 60, 300, 150);
  group(&other, 4, 60, 200, 380, 380);
  step(&other, 20); // further on: the agents elsewhere, the fields the same
  nav_restore(&other, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&other, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&other, 1));
  assert_same_fields(&other, &world);
  nav_restore(&world, snap, size);
  assert_same_run(&world, &other, 100);
}

// ------------------------------------------------------------------ half built

// Saved while both fields are half built. Restored after the build went further: rebuilt.
// Then a later snapshot, still in progress: built on from the restored count. The same one
// again: kept. A snapshot of them ready: built on to the end. Each equals a fresh restore.
void test_restores_of_half_built_fields_rebuild_continue_or_keep(void) {
  two_groups(37);
  step(&world, 9);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[0].status);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[1].status);
  size_t early = save(&world, snap);
  step(&world, 6);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[0].status);
  size_t later = save(&world, snap2);
  nav_restore(&world, snap, early); // further along now: rebuilt
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, early);
  assert_same_fields(&world, &other);
  nav_restore(&world, snap2, later); // behind: built on
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_CONTINUED, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_CONTINUED, how(&world, 1));
  restore_fresh(snap2, later);
  assert_same_fields(&world, &other);
  nav_restore(&world, snap2, later); // the same: kept
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  assert_same_fields(&world, &other);
  // a third world runs on to both fields ready; its snapshot restored here builds on
  static uint64_t memory3[60000];
  static fxs_world third;
  init(&third, memory3, sizeof memory3);
  nav_restore(&third, snap2, later);
  step(&third, 120);
  TEST_ASSERT_EQUAL_UINT8(1, third.nav.field_slots[0].ready);
  TEST_ASSERT_EQUAL_UINT8(1, third.nav.field_slots[1].ready);
  size_t ready = save(&third, snap);
  nav_restore(&world, snap, ready);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_CONTINUED, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_CONTINUED, how(&world, 1));
  assert_same_fields(&world, &third);
  assert_same_run(&world, &third, 100);
}

// A field whose slot now holds another goal is rebuilt; the other one is kept.
void test_a_field_of_another_goal_is_rebuilt(void) {
  two_groups(400);
  step(&world, 12);
  size_t size = save(&world, snap);
  for (uint32_t i = 0; i < 4; ++i) { // group A leaves for a third goal: it takes slot 0 or 1
    fxs_agent_handle h = {i + 1u};
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(&world, fxs_command_set_target_point(h, nav_point(30, 380))));
  }
  step(&world, 12);
  TEST_ASSERT_EQUAL_UINT32(cell(30, 380), world.nav.field_slots[0].goal_cell); // A's evicted
  TEST_ASSERT_EQUAL_UINT32(cell(30, 380), world.internal->nav.field_built[0].goal);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_fields(&world, &other);
  assert_same_run(&world, &other, 100);
}

// ------------------------------------------------------------------ rollback

// The commands of the scripted run before tick t: a wall, a group's new goal, a cost block,
// the wall removed.
static void script(fxs_world *w, uint32_t t) {
  if (t == 14) nav_wall(w, 100, 300, 300, 300);
  if (t == 31) {
    for (uint32_t i = 0; i < 4; ++i) {
      fxs_agent_handle h = {i + 1u};
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(h, nav_point(30, 380))));
    }
  }
  if (t == 47) TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_nav_costs(5, 5, 10, 10, 7)));
  if (t == 66) TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_remove_wall(1)));
}

static void scripted_step(fxs_world *w) {
  script(w, w->tick);
  step(w, 1);
}

// The straight run (inline) and a run on `workers` workers that, every 5 ticks, runs 3 ticks
// ahead, restores the snapshot taken before them and runs them again: after every tick the
// same hash and the same field values, bit for bit. Returns how often each way was taken.
static void rollback_run(uint32_t workers, uint32_t ways[4]) {
  init(&world, memory, sizeof memory);
  init(&other, memory2, sizeof memory2);
  odd_tasks t = {0, 0, workers};
  fxs_task_system tasks = {odd_enqueue, odd_finish, workers, &t};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&other, &tasks));
  fxs_world *both[2] = {&world, &other};
  for (int w = 0; w < 2; ++w) {
    nav_grid(both[w], 150);
    nav_wall(both[w], 200, 0, 200, 300);
    group(both[w], 4, 100, 60, 300, 150);
    group(both[w], 4, 60, 200, 380, 380);
  }
  for (uint32_t tick = 0; tick < 130; ++tick) {
    if (tick % 5u == 0) {
      size_t size = save(&other, snap);
      for (int ahead = 0; ahead < 3; ++ahead) scripted_step(&other);
      nav_restore(&other, snap, size);
      for (uint32_t k = 0; k < cap.nav_fields; ++k) ways[how(&other, k)]++;
    }
    scripted_step(&world);
    scripted_step(&other);
    assert_same_fields(&other, &world);
  }
  assert_same_run(&world, &other, 100);
}

void test_a_run_with_rollbacks_equals_the_straight_run_on_1_2_and_16_workers(void) {
  uint32_t ways[4] = {0, 0, 0, 0};
  rollback_run(1, ways);
  rollback_run(2, ways);
  rollback_run(16, ways);
  char line[96];
  snprintf(line, sizeof line, "restores of a live field: %u kept, %u built on, %u rebuilt",
           (unsigned)ways[FXS_NAV_FIELD_KEPT], (unsigned)ways[FXS_NAV_FIELD_CONTINUED],
           (unsigned)ways[FXS_NAV_FIELD_REBUILT]);
  TEST_MESSAGE(line);
  // restores of ready fields kept, of fields built on since, or over another map, rebuilt
  TEST_ASSERT_TRUE(ways[FXS_NAV_FIELD_KEPT] > 0);
  TEST_ASSERT_TRUE(ways[FXS_NAV_FIELD_REBUILT] > 0);
}

// ------------------------------------------------------------------ searches

// A restore lays out again the searches the snapshot does not hold: their cells are as a
// fresh init leaves them (all zero), bit for bit, whatever searches ran in them since.
void test_a_restore_leaves_every_free_search_as_init_does(void) {
  nav_grid(&world, 60);
  nav_wall(&world, 200, 0, 200, 300);
  nav_navigator(&world, 100, 60, 300, 150); // alone: A*
  nav_navigator(&world, 60, 300, 380, 380);
  size_t size = save(&world, snap); // no search yet
  step(&world, 3);
  nav_wall(&world, 100, 300, 300, 300); // a new map: both search again, over other cells
  step(&world, 3);
  uint32_t busy = 0;
  for (uint32_t k = 0; k < cap.nav_searches; ++k) busy += world.nav.searches[k].touched_count > 1u;
  TEST_ASSERT_EQUAL_UINT32(2, busy); // both searched cells, the start and more
  nav_restore(&world, snap, size);
  static uint8_t zero[1600 * 4];
  for (uint32_t k = 0; k < cap.nav_searches; ++k) {
    const fxs_nav_search *s = &world.nav.searches[k];
    TEST_ASSERT_EQUAL(FXS_NAV_IDLE, s->status);
    TEST_ASSERT_EQUAL_UINT32(0, s->touched_count);
    TEST_ASSERT_EQUAL_MEMORY(zero, s->state, cap.nav_cells);
    TEST_ASSERT_EQUAL_MEMORY(zero, s->open_at, cap.nav_cells * sizeof *s->open_at);
    TEST_ASSERT_EQUAL_MEMORY(zero, s->g, cap.nav_cells * sizeof *s->g);
  }
  restore_fresh(snap, size);
  assert_same_run(&world, &other, 200);
}
