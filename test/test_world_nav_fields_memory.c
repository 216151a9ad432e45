#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "world_nav_fields.h"
#include "snapshot.h"
#include "nav_field.h"
#include "fxs_nav_test.h"

// The group fields' memory (world_nav_fields.h, "Memory"): a ready field is packed, a byte a
// cell; fields are built in a few build memories lent in turn. A world with fewer build
// memories than fields being built at once (2 for 4) runs exactly as one with a memory for
// every field (the same grid, agents and commands; only nav_cells, and so the count of build
// memories, differ): the same bodies every tick and the same values and directions in every
// field; a field whose memory was taken back is built again to its count when next stepped,
// a restore equals the straight run, and a memory given back is lent again.

// 16 agents, 8 walls, a 60 x 60 grid of 10-unit cells, 2 searches, 4 fields; nav_cells 6944
// (2 build memories) or 3600 (4).
static const fxs_world_capacity few = {16, 0, 0, 0, 8, 16, 0, 6944, 2, 400, 16, 4};
static const fxs_world_capacity many = {16, 0, 0, 0, 8, 16, 0, 3600, 2, 400, 16, 4};
static uint64_t memory_a[160000];
static uint64_t memory_b[160000];
static uint8_t snap[65536];
static fxs_world a, b;

void setUp(void) {}
void tearDown(void) {}

static void init(fxs_world *w, const fxs_world_capacity *c, uint64_t *mem, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 3;
  def.bounds_max = nav_point(600, 600);
  TEST_ASSERT_TRUE(fxs_world_memory_size(c) > 0 && fxs_world_memory_size(c) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, c, mem, size));
}

// Rooms split by two walls with gaps; four groups of four to four goals; `budget` cells a tick.
static void scene(fxs_world *w, uint32_t budget) {
  fxs_command c =
      fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 60, 60, FXS_INT(8), budget);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
  nav_wall(w, 300, 0, 300, 250);
  nav_wall(w, 300, 350, 300, 600);
  nav_wall(w, 0, 300, 250, 300);
  static const int goal[4][2] = {{450, 450}, {450, 150}, {150, 450}, {520, 300}};
  for (int g = 0; g < 4; ++g) {
    for (int i = 0; i < 4; ++i) nav_navigator(w, 60 + 30 * i, 40 + 60 * g, goal[g][0], goal[g][1]);
  }
}

static uint32_t held(const fxs_world *w) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) n += w->nav.fields[k].entry != NULL;
  return n;
}

// A building field of w that no build memory holds.
static bool one_not_held(const fxs_world *w) {
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) {
    const fxs_nav_field *f = &w->nav.fields[k];
    if (w->nav.field_slots[k].live && f->status == FXS_NAV_FIELD_BUILDING && !f->entry) {
      TEST_ASSERT_NULL(f->packed);
      TEST_ASSERT_EQUAL_UINT32(FXS_NAV_UNREACHED, fxs_nav_field_value(f, 0, 0));
      return true;
    }
  }
  return false;
}

// The same bodies, field slots and, where both hold them, the same values and directions.
static void assert_same(const fxs_world *x, const fxs_world *y) {
  for (uint32_t i = 0; i < x->capacity.agents; ++i) {
    TEST_ASSERT_TRUE(fxs_vec2_equal(x->agents[i].body.position, y->agents[i].body.position));
    TEST_ASSERT_TRUE(fxs_vec2_equal(x->agents[i].body.velocity, y->agents[i].body.velocity));
  }
  for (uint32_t k = 0; k < x->capacity.nav_fields; ++k) {
    const fxs_nav_field_slot *s = &x->nav.field_slots[k], *t = &y->nav.field_slots[k];
    TEST_ASSERT_EQUAL_MEMORY(t, s, sizeof *s);
    if (!s->live) continue;
    const fxs_nav_field *f = &x->nav.fields[k], *g = &y->nav.fields[k];
    TEST_ASSERT_EQUAL_UINT32(g->status, f->status);
    if (!f->packed && !f->entry) continue; // not held in x
    if (!g->packed && !g->entry) continue;
    TEST_ASSERT_EQUAL_UINT32(g->settled, f->settled);
    for (uint32_t cy = 0; cy < 60; ++cy) {
      for (uint32_t cx = 0; cx < 60; ++cx) {
        TEST_ASSERT_EQUAL_UINT32(fxs_nav_field_value(g, cx, cy), fxs_nav_field_value(f, cx, cy));
        TEST_ASSERT_EQUAL_UINT32(fxs_nav_field_direction(g, cx, cy),
                                 fxs_nav_field_direction(f, cx, cy));
      }
    }
  }
}

void test_two_build_memories_for_four_fields_run_as_one_for_each(void) {
  TEST_ASSERT_EQUAL_UINT32(2, fxs_world_nav_field_builds(&few));
  TEST_ASSERT_EQUAL_UINT32(4, fxs_world_nav_field_builds(&many));
  init(&a, &few, memory_a, sizeof memory_a);
  init(&b, &many, memory_b, sizeof memory_b);
  scene(&a, 300);
  scene(&b, 300);
  uint32_t short_of_memory = 0, most_held = 0, ready_ticks = 0;
  size_t size = 0;
  uint32_t saved_at = 0;
  for (uint32_t t = 0; t < 200; ++t) {
    fxs_world_step(&a, 0, 0, 0);
    fxs_world_step(&b, 0, 0, 0);
    assert_same(&a, &b);
    if (held(&a) > most_held) most_held = held(&a);
    if (one_not_held(&a)) {
      short_of_memory++;
      if (size == 0) { // a snapshot while a field waits for a memory
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&a, snap, sizeof snap, &size));
        saved_at = a.tick;
      }
    }
    TEST_ASSERT_FALSE(one_not_held(&b)); // a memory for every field: each one held
    bool all = true;
    for (uint32_t k = 0; k < 4; ++k) all = all && a.nav.field_slots[k].ready;
    ready_ticks += all;
  }
  TEST_ASSERT_TRUE(short_of_memory > 3); // fields waited for a memory, and were built again
  TEST_ASSERT_EQUAL_UINT32(2, most_held);
  TEST_ASSERT_TRUE(ready_ticks > 100); // then all four ready, packed,
  for (uint32_t j = 0; j < 2; ++j)     // and both memories given back
    TEST_ASSERT_EQUAL_UINT32(UINT32_MAX, a.internal->nav.build_owner[j]);
  TEST_ASSERT_EQUAL_UINT32(0, held(&a));

  // A new goal for group 0: the least recently used field is evicted, the new one begun in a
  // memory given back (lent again), built, packed; the run stays the same as b's.
  for (uint32_t i = 0; i < 4; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(&a, i);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&a, fxs_command_set_target_point(h, nav_point(50, 550))));
    h = fxs_world_handle_at(&b, i);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&b, fxs_command_set_target_point(h, nav_point(50, 550))));
  }
  fxs_world_step(&a, 0, 0, 0);
  fxs_world_step(&b, 0, 0, 0);
  assert_same(&a, &b);
  uint32_t lent = a.internal->nav.build_owner[0];
  TEST_ASSERT_TRUE(lent < 4);
  TEST_ASSERT_EQUAL_UINT32(55u * 60u + 5u, a.nav.field_slots[lent].goal_cell);
  TEST_ASSERT_NOT_NULL(a.nav.fields[lent].entry);
  for (uint32_t t = 0; t < 60; ++t) {
    fxs_world_step(&a, 0, 0, 0);
    fxs_world_step(&b, 0, 0, 0);
    assert_same(&a, &b);
  }
  TEST_ASSERT_NOT_NULL(a.nav.fields[lent].packed);

  // The snapshot taken while a field waited, restored over a (further along) and into fresh
  // junk-filled memory: both run on as one, tick for tick.
  TEST_ASSERT_TRUE(size > 0 && saved_at > 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&a, snap, size, 0));
  memset(memory_b, 0xA5, sizeof memory_b);
  init(&b, &few, memory_b, sizeof memory_b);
  memset(b.internal->nav.fields_memory, 0x5A,
         fxs_world_nav_fields_bytes(&few) * fxs_world_nav_field_builds(&few));
  memset(b.internal->nav.field_packed, 0xC3, (size_t)few.nav_fields * few.nav_cells);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&b, snap, size, 0));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&a), fxs_world_hash(&b));
  for (uint32_t t = 0; t < 150; ++t) {
    fxs_world_step(&a, 0, 0, 0);
    fxs_world_step(&b, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&a), fxs_world_hash(&b));
    assert_same(&a, &b);
  }
}
