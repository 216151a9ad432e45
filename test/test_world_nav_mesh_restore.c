// Rollback without rebuilding on a mesh (world_nav_mesh_fields.h): a restore keeps the group
// fields' trees whose mesh, goal, radius and count are those of the snapshot, builds on the
// ones behind it and rebuilds the others; every way the trees equal those of a world restored
// from the same bytes into junk memory, byte for byte, and the run after it equals the straight
// run tick for tick.
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "nav_mesh.h"
#include "nav_mesh_tree.h"
#include "world_nav_fields.h"
#include "world_nav_mesh_fields.h"
#include "snapshot.h"
#include "fxs_nav_test.h"

// A mesh world (400 x 400): 8 agents, 2 obstacles, 6 walls (60 vertices: 114 triangles),
// 2 group fields, 2 searches of 100 open entries, routes of up to 16 points.
static const fxs_world_capacity cap = {8, 2, 0, 0, 6, 0, 0, 0, 2, 100, 16, 2, FXS_NAV_KIND_MESH, 0};
static uint64_t memory[16384];
static uint64_t memory2[16384];
static uint64_t memory3[16384];
static uint8_t snap[32768];
static uint8_t snap2[32768];
static fxs_world world, other, straight;

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  nav_world_init(w, 11, &cap, mem, size);
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

static size_t save(const fxs_world *w, uint8_t *out) { return nav_save(w, out, sizeof snap); }

static uint8_t how(const fxs_world *w, uint32_t k) {
  return w->internal->nav.field_built[k].restored;
}

static const fxs_mesh_tree *tree(const fxs_world *w, uint32_t k) {
  return fxs_world_mesh_field_tree(w, k);
}

// A wall across the world with a door at y 170..230, a baffle beyond it and a short wall on
// the left; two groups of four navigators on the left, each sent to one point on the right;
// routing radius 8 and `budget` triangles a tick. The short wall at height `y`.
static void scene_at(fxs_world *w, uint32_t budget, int y) {
  nav_wall(w, 200, 0, 200, 170);
  nav_wall(w, 200, 230, 200, 400);
  nav_wall(w, 260, 150, 260, 260);
  nav_wall(w, 60, y, 140, y);
  nav_grid(w, budget);
  for (int i = 0; i < 4; ++i) nav_navigator(w, 40 + 25 * (i % 2), 60 + 40 * i, 340, 200);
  for (int i = 0; i < 4; ++i) nav_navigator(w, 50 + 25 * (i % 2), 230 + 40 * i, 330, 60);
}

static void scene(fxs_world *w, uint32_t budget) { scene_at(w, budget, 300); }

// `other` laid out over junk (its trees' memory too), then restored from the bytes: every
// live tree rebuilt.
static void restore_fresh(const uint8_t *bytes, size_t size) {
  memset(memory2, 0xA5, sizeof memory2);
  init(&other, memory2, sizeof memory2);
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    const fxs_mesh_tree *t = tree(&other, k);
    memset(t->state, 0x5A, t->capacity);
    memset(t->cost, 0xA5, (size_t)t->capacity * sizeof *t->cost);
    memset(t->parent, 0xA5, (size_t)t->capacity * sizeof *t->parent);
    memset(t->open_at, 0x5A, (size_t)t->capacity * sizeof *t->open_at);
  }
  nav_restore(&other, bytes, size);
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    if (other.nav.field_slots[k].live)
      TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&other, k));
  }
}

// Tree k of a and b, byte for byte where it means anything: its record, each triangle's state
// and heap position, each touched triangle's cost and parent, and the heap.
static void assert_same_tree(const fxs_world *a, const fxs_world *b, uint32_t k) {
  const fxs_mesh_tree *x = tree(a, k), *y = tree(b, k);
  TEST_ASSERT_EQUAL_UINT32(y->status, x->status);
  TEST_ASSERT_EQUAL_UINT32(y->goal, x->goal);
  TEST_ASSERT_EQUAL_UINT32(y->triangle_count, x->triangle_count);
  TEST_ASSERT_EQUAL_INT64(y->diameter, x->diameter);
  TEST_ASSERT_EQUAL_UINT32(y->settled, x->settled);
  TEST_ASSERT_EQUAL_UINT32(y->open_count, x->open_count);
  TEST_ASSERT_EQUAL_UINT32(a->nav.mesh.triangle_count, x->triangle_count);
  TEST_ASSERT_EQUAL_MEMORY(y->state, x->state, x->triangle_count);
  TEST_ASSERT_EQUAL_MEMORY(y->open_at, x->open_at, x->triangle_count * sizeof *x->open_at);
  for (uint32_t i = 0; i < x->triangle_count; ++i) {
    if (!x->state[i]) continue;
    TEST_ASSERT_EQUAL_UINT64(y->cost[i], x->cost[i]);
    TEST_ASSERT_EQUAL_UINT32(y->parent[i], x->parent[i]);
  }
  if (x->open_count > 0)
    TEST_ASSERT_EQUAL_MEMORY(y->open, x->open, x->open_count * sizeof *x->open);
}

// The same hash and mesh, and every live tree of a equals b's.
static void assert_same_trees(const fxs_world *a, const fxs_world *b) {
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(b), fxs_world_hash(a));
  TEST_ASSERT_EQUAL_HEX64(fxs_nav_mesh_digest(&b->nav.mesh), fxs_nav_mesh_digest(&a->nav.mesh));
  uint32_t live = 0;
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    if (!a->nav.field_slots[k].live) continue;
    assert_same_tree(a, b, k);
    live++;
  }
  TEST_ASSERT_TRUE(live > 0);
}

// Both worlds stepped on together: the same hash every tick.
static void assert_same_run(fxs_world *a, fxs_world *b, int ticks) {
  for (int t = 0; t < ticks; ++t) {
    step(a, 1);
    step(b, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(b), fxs_world_hash(a));
  }
}

// `straight` built as `world` was and stepped to its tick without a snapshot: the straight run.
static void straight_to(uint32_t budget, uint32_t tick) {
  init(&straight, memory3, sizeof memory3);
  scene(&straight, budget);
  step(&straight, (int)tick);
}

// ------------------------------------------------------------------ kept

void test_a_rollback_of_an_unchanged_mesh_keeps_the_ready_trees(void) {
  scene(&world, 1000);
  step(&world, 3);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[1].ready);
  size_t size = save(&world, snap);
  step(&world, 9); // the agents move on, the mesh stays
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  straight_to(1000, 3);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  for (int t = 0; t < 300; ++t) {
    step(&world, 1), step(&other, 1), step(&straight, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&other));
  }
  assert_same_trees(&world, &other);
}

// The same restore with the records cleared first (as a map change does): rebuilt in place,
// the same bytes as kept.
void test_a_forced_rebuild_in_place_equals_the_kept_trees(void) {
  scene(&world, 1000);
  step(&world, 3);
  size_t size = save(&world, snap);
  step(&world, 6);
  init(&other, memory2, sizeof memory2);
  scene(&other, 1000);
  step(&other, 9);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  nav_restore(&world, snap, size);
  fxs_world_mesh_fields_forget(&other);
  nav_restore(&other, snap, size);
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, k));
    TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&other, k));
  }
  assert_same_trees(&world, &other);
  assert_same_run(&world, &other, 200);
  assert_same_trees(&world, &other);
}

// Trees half built (3 triangles a tick): a snapshot restored at once keeps them; one behind
// the trees rebuilds them; one ahead of them builds them on.
void test_half_built_trees_are_kept_rebuilt_or_built_on_to_the_slots_count(void) {
  scene(&world, 3);
  step(&world, 4);
  uint32_t k = world.nav.field_slots[0].live ? 0u : 1u;
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[k].live);
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[k].ready);
  TEST_ASSERT_TRUE(world.nav.field_slots[k].settled > 0);
  size_t size = save(&world, snap);
  nav_restore(&world, snap, size); // the same count: kept
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, k));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  step(&world, 2);
  size_t size2 = save(&world, snap2);
  TEST_ASSERT_TRUE(world.nav.field_slots[k].settled > tree(&other, k)->settled);
  nav_restore(&world, snap, size); // behind the trees: begun again
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, k));
  assert_same_trees(&world, &other);
  nav_restore(&world, snap2, size2); // ahead of them: built on
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_CONTINUED, how(&world, k));
  restore_fresh(snap2, size2);
  assert_same_trees(&world, &other);
  assert_same_run(&world, &other, 200);
  assert_same_trees(&world, &other);
}

// ------------------------------------------------------------------ rebuilt

// A wall added after the snapshot, the trees taken again over the new mesh toward the same
// goals: keeping them would be wrong; the restore takes the wall out and rebuilds, and the run
// equals the straight run (which never had the wall).
void test_a_restore_after_a_wall_was_added_rebuilds_and_equals_the_straight_run(void) {
  scene(&world, 1000);
  step(&world, 3);
  size_t size = save(&world, snap);
  uint64_t digest = fxs_nav_mesh_digest(&world.nav.mesh);
  nav_wall(&world, 300, 120, 380, 120);
  step(&world, 3);
  TEST_ASSERT_TRUE(digest != fxs_nav_mesh_digest(&world.nav.mesh));
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[k].ready); // the new mesh
    TEST_ASSERT_EQUAL_UINT8(1, world.internal->nav.field_built[k].valid);
  }
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_HEX64(digest, fxs_nav_mesh_digest(&world.nav.mesh));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  straight_to(1000, 3);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  for (int t = 0; t < 300; ++t) {
    step(&world, 1), step(&straight, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  }
}

// A snapshot taken after a wall was removed, restored into a world that still has it (the
// triangles are renumbered, the goals may keep their numbers): rebuilt.
void test_a_restore_of_a_snapshot_without_a_wall_the_world_has_rebuilds(void) {
  scene(&world, 1000);
  step(&world, 3);
  init(&straight, memory3, sizeof memory3);
  scene(&straight, 1000);
  step(&straight, 3);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&straight, fxs_command_remove_wall(3))); // the short one
  step(&straight, 3);
  size_t size = save(&straight, snap);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  for (int t = 0; t < 200; ++t) {
    step(&world, 1), step(&straight, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  }
}

// A snapshot of a world whose short wall stands 4 units lower: the same triangles, the same
// goal triangles, other vertices. Keeping the trees would keep the other mesh's costs; the
// restore sees the vertices differ and rebuilds.
void test_a_restore_of_a_mesh_with_the_same_triangles_elsewhere_rebuilds(void) {
  scene(&world, 1000);
  step(&world, 3);
  init(&straight, memory3, sizeof memory3);
  scene_at(&straight, 1000, 304);
  step(&straight, 3);
  TEST_ASSERT_EQUAL_UINT32(world.nav.mesh.triangle_count, straight.nav.mesh.triangle_count);
  TEST_ASSERT_EQUAL_MEMORY(world.nav.mesh.triangles, straight.nav.mesh.triangles,
                           world.nav.mesh.triangle_count * sizeof *world.nav.mesh.triangles);
  TEST_ASSERT_TRUE(fxs_nav_mesh_digest(&world.nav.mesh) != fxs_nav_mesh_digest(&straight.nav.mesh));
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    TEST_ASSERT_EQUAL_UINT32(world.nav.field_slots[k].goal_cell,
                             straight.nav.field_slots[k].goal_cell);
    TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[k].ready);
  }
  size_t size = save(&straight, snap);
  nav_restore(&world, snap, size);
  restore_fresh(snap, size);
  assert_same_trees(&world, &other); // (kept, the costs near the wall would differ)
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  for (int t = 0; t < 200; ++t) {
    step(&world, 1), step(&straight, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  }
}

// A wall added and removed again before any tick: the mesh may be the snapshot's again, but it
// was changed in between, so the trees are rebuilt (the same bytes).
void test_a_map_changed_and_changed_back_rebuilds(void) {
  scene(&world, 1000);
  step(&world, 3);
  size_t size = save(&world, snap);
  nav_wall(&world, 300, 120, 380, 120);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_wall(4)));
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  assert_same_run(&world, &other, 100);
}

// Another routing radius after the snapshot (set_nav_grid drops the slots, the trees are taken
// again for the new radius over the same mesh): rebuilt for the snapshot's radius. The same
// radius set again keeps them.
void test_a_restore_after_the_radius_changed_rebuilds_and_after_the_same_radius_keeps(void) {
  scene(&world, 1000);
  step(&world, 3);
  size_t size = save(&world, snap);
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 40, 40, FXS_INT(6), 1000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
  step(&world, 3);
  TEST_ASSERT_EQUAL_INT64(2 * FXS_INT(6), tree(&world, 0)->diameter);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_REBUILT, how(&world, 1));
  restore_fresh(snap, size);
  assert_same_trees(&world, &other);
  nav_grid(&world, 1000); // radius 8 again: dropped and taken again, the same trees
  step(&world, 3);
  nav_restore(&world, snap, size);
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_NAV_FIELD_KEPT, how(&world, 1));
  assert_same_trees(&world, &other);
  assert_same_run(&world, &other, 100);
}

// Rollbacks every 5 ticks over 2 ticks (half-built trees, a wall added and removed on the way)
// equal the straight run tick for tick, and most restores keep or build on.
void test_a_run_with_rollbacks_equals_the_straight_run(void) {
  scene(&world, 2);
  straight_to(2, 0);
  uint32_t kept = 0, rebuilt = 0;
  for (int t = 0; t < 240; ++t) {
    fxs_command add = fxs_command_add_wall((fxs_wall){nav_point(300, 300), nav_point(360, 300)});
    bool change = t == 60 || t == 150;
    if (change) {
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&straight, add));
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, add));
    }
    if (t == 100 || t == 190) {
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&straight, fxs_command_remove_wall(4)));
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_wall(4)));
    }
    if (t % 5 == 0 && !change) {
      size_t size = save(&world, snap);
      step(&world, 2);
      nav_restore(&world, snap, size);
      for (uint32_t k = 0; k < cap.nav_fields; ++k) {
        uint8_t h = how(&world, k);
        kept += h == FXS_NAV_FIELD_KEPT || h == FXS_NAV_FIELD_CONTINUED;
        rebuilt += h == FXS_NAV_FIELD_REBUILT;
      }
    }
    step(&world, 1), step(&straight, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&world));
  }
  TEST_ASSERT_TRUE_MESSAGE(kept > rebuilt, "most restores keep");
  TEST_ASSERT_TRUE_MESSAGE(rebuilt > 0, "some restores rebuild (trees built past the snapshot)");
}
