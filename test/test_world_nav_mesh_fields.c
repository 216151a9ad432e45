// Group fields on a mesh world (world_nav_mesh_fields.h): the tree over the triangles, the
// followers, the state in the hash and the snapshot, a restore mid-build into junk memory.
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "nav_mesh.h"
#include "nav_mesh_tree.h"
#include "world_nav_fields.h"
#include "world_nav_mesh.h"
#include "world_nav_mesh_fields.h"
#include "snapshot.h"
#include "fxs_nav_test.h"

// A mesh world (400 x 400): 8 agents, 2 obstacles, 6 walls (the default vertex capacity, 60:
// 114 triangles), 2 group fields, 2 searches of 100 open entries, routes of up to 16 points.
static const fxs_world_capacity cap = {8, 2, 0, 0, 6, 0, 0, 0, 2, 100, 16, 2, FXS_NAV_KIND_MESH, 0};
static uint64_t memory[60000];
static uint64_t memory2[60000];
static uint8_t snap[32768];
static fxs_world world, other;

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  nav_world_init(w, 11, &cap, mem, size);
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

// A wall across the world with a 60-unit door at y 170..230 and a baffle beyond it; six
// navigate agents on the left sent to one point on the right (a group), one alone; routing
// radius 8 and `budget` triangles a tick.
static void scene(fxs_world *w, uint32_t budget) {
  nav_wall(w, 200, 0, 200, 170);
  nav_wall(w, 200, 230, 200, 400);
  nav_wall(w, 260, 150, 260, 260);
  nav_wall(w, 60, 300, 140, 300);
  nav_grid(w, budget);
  for (int i = 0; i < 6; ++i) nav_navigator(w, 40 + 25 * (i % 2), 60 + 40 * i, 340, 200);
  nav_navigator(w, 100, 350, 300, 40);
}

static const fxs_mesh_tree *tree(const fxs_world *w, uint32_t k) {
  return fxs_world_mesh_field_tree(w, k);
}

// The slot of the group's field (the live one), after a step.
static uint32_t live_slot(const fxs_world *w) {
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k)
    if (w->nav.field_slots[k].live) return k;
  return UINT32_MAX;
}

void test_a_mesh_world_takes_group_fields_up_to_the_limit(void) {
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) > 0);
  fxs_world_capacity c = cap;
  c.nav_fields = FXS_NAV_MAX_FIELDS + 1u;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c.nav_fields = 0; // a mesh without fields: no trees
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) < fxs_world_memory_size(&cap));
  uint32_t triangles = fxs_world_mesh_triangles(&cap);
  TEST_ASSERT_EQUAL_UINT32(2u * fxs_world_mesh_vertices(&cap) - 6u, triangles);
  TEST_ASSERT_EQUAL(fxs_mesh_tree_memory_size(triangles), fxs_world_mesh_field_bytes(&cap));
  TEST_ASSERT_TRUE(fxs_world_mesh_field_bytes(&cap) <= 40u * triangles);
}

// Every settled triangle's chain of parents reaches the goal through unconstrained sides with
// decreasing cost; the goal's neighbours across open sides are settled.
void test_the_tree_leads_every_settled_triangle_to_the_goal_with_falling_cost(void) {
  scene(&world, 1000);
  step(&world, 1);
  uint32_t k = live_slot(&world);
  TEST_ASSERT_TRUE(k != UINT32_MAX);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[k].ready);
  const fxs_mesh_tree *t = tree(&world, k);
  const fxs_nav_mesh *m = &world.nav.mesh;
  TEST_ASSERT_EQUAL_UINT32(FXS_MESH_TREE_READY, t->status);
  TEST_ASSERT_EQUAL_UINT32(fxs_nav_mesh_locate(m, nav_point(340, 200)), t->goal);
  uint32_t settled = 0;
  for (uint32_t i = 0; i < m->triangle_count; ++i) {
    if (!fxs_mesh_tree_reaches(t, i)) continue;
    settled++;
    uint32_t at = i, steps = 0;
    while (at != t->goal) {
      uint32_t p = t->parent[at], s = 0;
      TEST_ASSERT_TRUE(fxs_mesh_tree_reaches(t, p));
      TEST_ASSERT_TRUE(t->cost[p] < t->cost[at]);
      while (s < 3u && m->triangles[at].n[s] != p) s++;
      TEST_ASSERT_TRUE(s < 3u); // neighbours
      TEST_ASSERT_EQUAL_UINT32(0, (m->triangles[at].constrained >> s) & 1u);
      at = p;
      TEST_ASSERT_TRUE(++steps <= m->triangle_count);
    }
  }
  TEST_ASSERT_EQUAL_UINT32(t->settled, settled);
  // Every agent's triangle is reached (the left half through the door).
  for (uint32_t i = 0; i < 7; ++i) {
    TEST_ASSERT_TRUE(
        fxs_mesh_tree_reaches(t, fxs_nav_mesh_locate(m, world.agents[i].body.position)));
  }
  // The tree stepped one triangle at a time equals the tree stepped at once.
  static uint64_t tm[1024];
  fxs_mesh_tree u;
  TEST_ASSERT_TRUE(fxs_mesh_tree_memory_size(m->triangle_count) <= sizeof tm);
  fxs_mesh_tree_init(&u, tm, m->triangle_count);
  fxs_mesh_tree_begin(&u, m, t->goal, world.nav.radius);
  while (u.status != FXS_MESH_TREE_READY) TEST_ASSERT_TRUE(fxs_mesh_tree_step(&u, m, 1) <= 1);
  TEST_ASSERT_EQUAL_UINT32(t->settled, u.settled);
  for (uint32_t i = 0; i < m->triangle_count; ++i) {
    TEST_ASSERT_EQUAL(fxs_mesh_tree_reaches(t, i), fxs_mesh_tree_reaches(&u, i));
    if (!fxs_mesh_tree_reaches(t, i)) continue;
    TEST_ASSERT_EQUAL_UINT64(t->cost[i], u.cost[i]);
    TEST_ASSERT_EQUAL_UINT32(t->parent[i], u.parent[i]);
  }
}

void test_a_narrow_door_cuts_the_tree_for_a_wide_body(void) {
  nav_wall(&world, 200, 0, 200, 190);
  nav_wall(&world, 200, 200, 200, 400); // a 10-unit door: radius 8 does not pass
  nav_grid(&world, 1000);
  for (int i = 0; i < 4; ++i) nav_navigator(&world, 50, 60 + 60 * i, 340, 200);
  step(&world, 2); // built in the first tick's plan, found cut off in the second's
  uint32_t k = live_slot(&world);
  TEST_ASSERT_TRUE(k != UINT32_MAX);
  const fxs_mesh_tree *t = tree(&world, k);
  for (uint32_t i = 0; i < 4; ++i) { // cut off: no field, the mesh A* (nearest place) instead
    fxs_vec2 p = world.agents[i].body.position;
    TEST_ASSERT_FALSE(fxs_mesh_tree_reaches(t, fxs_nav_mesh_locate(&world.nav.mesh, p)));
    TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_fields_follows(&world, i));
  }
}

void test_followers_cross_the_door_without_searches_and_pile_on_their_goal(void) {
  scene(&world, 1000);
  fxs_wall walls[3] = {{nav_point(200, 0), nav_point(200, 170)},
                       {nav_point(200, 230), nav_point(200, 400)},
                       {nav_point(260, 150), nav_point(260, 260)}};
  fxs_vec2 was[7];
  for (uint32_t i = 0; i < 7; ++i) was[i] = world.agents[i].body.position;
  uint32_t followed = 0;
  for (int t = 0; t < 1500; ++t) {
    step(&world, 1);
    for (uint32_t i = 0; i < 6; ++i) {
      followed += fxs_world_nav_fields_follows(&world, i) == 6u;
      TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[i].status); // no search, no route
    }
    for (uint32_t i = 0; i < 7; ++i) {
      fxs_vec2 p = world.agents[i].body.position;
      for (int w = 0; w < 3; ++w) TEST_ASSERT_FALSE(nav_crosses(was[i], p, walls[w]));
      was[i] = p;
    }
  }
  TEST_ASSERT_TRUE(followed > 6u * 1000u);
  // Six bodies of radius 8 round one point: each within the pile's compact cluster
  // (1.3 r sqrt(6) + r), at rest; the lone agent on its own target.
  for (uint32_t i = 0; i < 6; ++i) {
    TEST_ASSERT_TRUE(
        fxs_vec2_within(world.agents[i].body.position, nav_point(340, 200), FXS_INT(34)));
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(world.agents[i].body.velocity));
  }
  TEST_ASSERT_TRUE(fxs_vec2_within(world.agents[6].body.position, nav_point(300, 40), FXS_INT(2)));
}

void test_the_fields_state_is_in_the_hash_and_a_map_change_drops_it(void) {
  scene(&world, 3);
  step(&world, 2);
  uint32_t k = live_slot(&world);
  TEST_ASSERT_TRUE(k != UINT32_MAX);
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[k].ready); // half built
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS, snap[4] | snap[5] << 8);
  TEST_ASSERT_TRUE(size <= fxs_world_snapshot_bound(&cap));
  fxs_world_capacity read;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, size, &read));
  TEST_ASSERT_EQUAL_UINT32(2, read.nav_fields);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_KIND_MESH, read.nav_kind);
  uint64_t h = fxs_world_hash(&world);
  fxs_nav_field_slot *s = &world.nav.field_slots[k];
  s->settled ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  s->settled ^= 1u;
  s->goal_cell ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  s->goal_cell ^= 1u;
  s->used ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  s->used ^= 1u;
  s->ready ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  s->ready ^= 1u;
  s->live ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  s->live ^= 1u;
  TEST_ASSERT_EQUAL_HEX64(h, fxs_world_hash(&world));
  // A map change renumbers the triangles: every field dropped.
  fxs_obstacle o = {nav_point(100, 100), FXS_INT(10)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_obstacle(o)));
  TEST_ASSERT_EQUAL(UINT32_MAX, live_slot(&world));
  step(&world, 1); // and taken again over the new mesh
  TEST_ASSERT_TRUE(live_slot(&world) != UINT32_MAX);
}

// Snapshots at ticks where the field is half built (1 triangle a tick), and after, restored
// into junk memory: the same hash, the same tree bit for bit, the same run on.
void test_a_restore_into_junk_memory_mid_build_equals_the_straight_run(void) {
  scene(&world, 1);
  uint32_t half = 0;
  for (int t = 0; t < 300; ++t) {
    if (t == 150) {
      fxs_obstacle o = {nav_point(300, 330), FXS_INT(12)};
      TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_obstacle(o)));
    }
    if (t % 6 == 1) {
      uint32_t k = live_slot(&world);
      half += k != UINT32_MAX && !world.nav.field_slots[k].ready;
      size_t size = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
      memset(memory2, 0xA5, sizeof memory2);
      init(&other, memory2, sizeof memory2);
      size_t at = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
      TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
      for (uint32_t f = 0; f < cap.nav_fields; ++f) {
        if (!world.nav.field_slots[f].live) continue;
        const fxs_mesh_tree *a = tree(&world, f), *b = tree(&other, f);
        TEST_ASSERT_EQUAL_UINT32(a->status, b->status);
        TEST_ASSERT_EQUAL_UINT32(a->settled, b->settled);
        TEST_ASSERT_EQUAL_UINT32(a->open_count, b->open_count);
        for (uint32_t i = 0; i < world.nav.mesh.triangle_count; ++i) {
          TEST_ASSERT_EQUAL_UINT8(a->state[i], b->state[i]);
          if (!a->state[i]) continue;
          TEST_ASSERT_EQUAL_UINT64(a->cost[i], b->cost[i]);
          TEST_ASSERT_EQUAL_UINT32(a->parent[i], b->parent[i]);
        }
        if (a->open_count > 0)
          TEST_ASSERT_EQUAL_MEMORY(a->open, b->open, a->open_count * sizeof *a->open);
      }
      for (int k = 0; k < 5; ++k) {
        step(&world, 1), step(&other, 1);
        TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
      }
      t += 4;
      continue;
    }
    step(&world, 1);
  }
  TEST_ASSERT_TRUE_MESSAGE(half >= 2, "few snapshots with a field half built");
}

void test_a_snapshot_with_a_bad_field_record_is_refused(void) {
  scene(&world, 3);
  step(&world, 2);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, memory2, sizeof memory2);
  uint64_t before = fxs_world_hash(&other);
  // The fields section ends the snapshot: 2 slots, the live one first (17 bytes), then a free one.
  size_t rec = size - 1u - 17u;
  TEST_ASSERT_EQUAL_UINT8(1, snap[rec]);
  TEST_ASSERT_EQUAL_UINT8(0, snap[size - 1u]);
  uint32_t triangles = world.nav.mesh.triangle_count;
  snap[rec + 1] = (uint8_t)triangles, snap[rec + 2] = (uint8_t)(triangles >> 8); // goal
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL(rec, at);
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
  snap[rec + 1] = (uint8_t)(triangles - 1u), snap[rec + 2] = (uint8_t)((triangles - 1u) >> 8);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at)); // the last triangle
  TEST_ASSERT_EQUAL_UINT32(triangles - 1u,
                           other.nav.field_slots[world.nav.field_slots[0].live ? 0 : 1].goal_cell);
  init(&other, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_ERR_TRUNCATED, fxs_world_restore(&other, snap, size - 1u, &at));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
}
