// Run-time changes of the navigation mesh: seeded random sets of walls added, then removed
// and added again in random order, checked with exact arithmetic after the changes (a
// triangulation, constrained Delaunay, every remaining item a chain) and compared with a
// fresh build of what remains: the canonical digest is equal. The history-dependent
// digests of the first cases are pinned: the same bytes on every target.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "avoidance.h"
#include "hash.h"
#include "nav_mesh.h"
#include "result.h"
#include "vec2.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define CAP_VERTICES 1024u
#define MAX_WALLS 24u
#define MAX_OBSTACLES 3u
#define MESH_BLOCK_BYTES 160000u
#include "fxs_nav_mesh_check.h"

#define SEED UINT64_C(0x6D657368656469)
#define PINNED_CASES 150u
#if defined(__arm__) && !defined(__linux__)
#define MORE_CASES 0u
#define DEGENERATE_CASES 80u
#else
#define MORE_CASES 2850u
#define DEGENERATE_CASES 1300u
#endif
// Digests (fxs_nav_mesh_digest, history-dependent) of the PINNED_CASES edited lattice meshes.
#define PINNED_DIGEST UINT64_C(0x90B49CEEE6F7B971)

// Maps narrower than this (raw units) are left out of the degenerate removals: a chain is
// told from its neighbours within 4 raw units, and on a map 16 raw units across every
// constraint is that close to the others (docs/navigation-mesh.md).
#define TINY_SPAN 256

static uint64_t fresh_block[MESH_BLOCK_BYTES / 8];
static fxs_nav_mesh fresh;

// A fresh build of walls/obstacles in the same bounds as `mesh`: its canonical digest.
static uint64_t fresh_canonical(const fxs_wall *walls, uint32_t nw, const fxs_obstacle *obs,
                                uint32_t no, uint32_t *vertices, uint32_t *triangles) {
  fxs_nav_mesh_capacity cap = {CAP_VERTICES, 0};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&fresh, &cap, mesh.bounds_min, mesh.bounds_max,
                                              fresh_block, sizeof fresh_block));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&fresh, walls, nw, obs, no, NULL));
  *vertices = fresh.vertex_count;
  *triangles = fresh.triangle_count;
  return fxs_nav_mesh_canonical_digest(&fresh);
}

// Walls on a 41 x 41 lattice, axis-aligned or of slope 1, so every crossing is on the grid.
static uint32_t lattice_walls(fxs_wall *walls, uint32_t n) {
  int32_t unit = n % 3 == 0 ? 1 : n % 3 == 1 ? FXS_ONE : 1 << 24;
  make_mesh(fxs_vec2_make(-20 * unit, -20 * unit), fxs_vec2_make(20 * unit, 20 * unit));
  uint32_t count = 1 + below(MAX_WALLS);
  for (uint32_t k = 0; k < count; k++) {
    int32_t x = (int32_t)below(41) - 20, y = (int32_t)below(41) - 20, len = (int32_t)below(21);
    uint32_t kind = below(3);
    int32_t x2 = kind == 1 ? x : x + len, y2 = kind == 0 ? y : y + len;
    if (x2 > 20 || y2 > 20) x2 = x, y2 = y;
    walls[k].a = fxs_vec2_make(x * unit, y * unit);
    walls[k].b = fxs_vec2_make(x2 * unit, y2 * unit);
  }
  return count;
}

static void remove_at(fxs_wall *walls, uint32_t *count, uint32_t k) {
  memmove(&walls[k], &walls[k + 1], sizeof walls[0] * (*count - k - 1));
  --*count;
}

// Builds a lattice case, then 2N random changes: remove a live wall (two in three) or add
// back a removed one; checks the result and compares it with a fresh build.
static void run_edit_case(uint32_t n, fxs_hasher *digests) {
  static fxs_wall live[MAX_WALLS], gone[MAX_WALLS];
  rng_state = SEED + n;
  snprintf(where, sizeof where, "edit case %lu", (unsigned long)n);
  uint32_t live_count = lattice_walls(live, n), gone_count = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, live, live_count, NULL, 0, NULL));
  for (uint32_t op = 0; op < 2 * live_count + 2; op++) {
    if ((below(3) == 0 || live_count == 0) && gone_count > 0) {
      uint32_t k = below(gone_count);
      live[live_count++] = gone[k];
      TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_add_wall(&mesh, &gone[k]));
      remove_at(gone, &gone_count, k);
    } else if (live_count > 0) {
      uint32_t k = below(live_count);
      fxs_wall w = live[k];
      remove_at(live, &live_count, k);
      gone[gone_count++] = w;
      fxs_result r = fxs_nav_mesh_remove_wall(&mesh, &w, live, live_count, NULL, 0);
      TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, where);
    }
  }
  check_triangulation();
  check_delaunay();
  check_constraints(live, live_count, NULL, 0, 0);
  uint32_t v, t;
  uint64_t want = fresh_canonical(live, live_count, NULL, 0, &v, &t);
  TEST_ASSERT_EQUAL_UINT32_MESSAGE(v, mesh.vertex_count, where);
  TEST_ASSERT_EQUAL_UINT32_MESSAGE(t, mesh.triangle_count, where);
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(want, fxs_nav_mesh_canonical_digest(&mesh), where);
  if (digests) fxs_hash_u64(digests, fxs_nav_mesh_digest(&mesh));
}

void test_removing_and_adding_walls_equals_a_fresh_build_of_what_remains(void) {
  fxs_hasher pinned = fxs_hasher_make();
  for (uint32_t n = 0; n < PINNED_CASES; n++) run_edit_case(n, &pinned);
  for (uint32_t n = 0; n < MORE_CASES; n++) run_edit_case(PINNED_CASES + n, NULL);
  FXS_TEST_REPORT("nav mesh edit: %lu + %lu lattice cases, digest %08lx%08lx",
                  (unsigned long)PINNED_CASES, (unsigned long)MORE_CASES,
                  (unsigned long)(pinned.state >> 32), (unsigned long)(pinned.state & 0xFFFFFFFFu));
  TEST_ASSERT_EQUAL_HEX64(PINNED_DIGEST, pinned.state);
}

// Every vertex but the corners is a wall's end, an obstacle's vertex, or on a constrained
// edge inside the bounds (a crossing): a removal leaves no vertex behind.
static void check_no_unused_vertex(const random_case *c) {
  for (uint32_t q = FXS_NAV_MESH_MIN_VERTICES; q < mesh.vertex_count; q++) {
    int used = 0;
    fxs_vec2 p = at(q);
    for (uint32_t w = 0; w < c->wall_count; w++)
      used |= (c->walls[w].a.x == p.x && c->walls[w].a.y == p.y) ||
              (c->walls[w].b.x == p.x && c->walls[w].b.y == p.y);
    for (uint32_t w = 0; w < c->obstacle_count; w++) {
      fxs_vec2 poly[8];
      TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_obstacle_polygon(&mesh, &c->obstacles[w], poly));
      for (int z = 0; z < 8; z++) used |= poly[z].x == p.x && poly[z].y == p.y;
    }
    for (uint32_t t = 0; t < mesh.triangle_count && !used; t++) {
      const fxs_nav_triangle *T = &mesh.triangles[t];
      for (unsigned i = 0; i < 3; i++)
        used |= ((T->constrained >> i) & 1u) && T->n[i] != FXS_NAV_MESH_NONE &&
                (T->v[(i + 1) % 3] == q || T->v[(i + 2) % 3] == q);
    }
    TEST_ASSERT_TRUE_MESSAGE(used, where);
  }
}

// The degenerate random sets of test_nav_mesh.c (rounded crossings, obstacles, points on the
// bounds): removing items in random order leaves a valid constrained Delaunay triangulation
// of the rest, and removing all of them gives back the empty bounds.
void test_removing_walls_and_obstacles_of_degenerate_sets_leaves_a_valid_mesh(void) {
  static random_case c;
  uint32_t cases = DEGENERATE_CASES, equal = 0, removals = 0, run = 0;
  for (uint32_t n = 0; n < cases; n++) {
    rng_state = SEED * 7 + n;
    snprintf(where, sizeof where, "degenerate case %lu", (unsigned long)n);
    random_walls(&c);
    if ((int64_t)c.hi.x - c.lo.x < TINY_SPAN) continue; // see TINY_SPAN
    make_mesh(c.lo, c.hi);
    run++;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, c.walls, c.wall_count, c.obstacles,
                                                 c.obstacle_count, NULL));
    while (c.wall_count + c.obstacle_count > 0) {
      uint32_t k = below(c.wall_count + c.obstacle_count);
      fxs_result r;
      if (k < c.wall_count) {
        fxs_wall w = c.walls[k];
        remove_at(c.walls, &c.wall_count, k);
        r = fxs_nav_mesh_remove_wall(&mesh, &w, c.walls, c.wall_count, c.obstacles,
                                     c.obstacle_count);
      } else {
        k -= c.wall_count;
        fxs_obstacle o = c.obstacles[k];
        memmove(&c.obstacles[k], &c.obstacles[k + 1], sizeof o * (c.obstacle_count - k - 1));
        c.obstacle_count--;
        r = fxs_nav_mesh_remove_obstacle(&mesh, &o, c.walls, c.wall_count, c.obstacles,
                                         c.obstacle_count);
      }
      TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, where);
      removals++;
      check_no_unused_vertex(&c);
      check_triangulation();
      check_delaunay();
      check_constraints(c.walls, c.wall_count, c.obstacles, c.obstacle_count, 4);
      uint32_t v, t;
      if (fresh_canonical(c.walls, c.wall_count, c.obstacles, c.obstacle_count, &v, &t) ==
          fxs_nav_mesh_canonical_digest(&mesh))
        equal++;
    }
    TEST_ASSERT_EQUAL_UINT32_MESSAGE(4, mesh.vertex_count, where);
    TEST_ASSERT_EQUAL_UINT32_MESSAGE(2, mesh.triangle_count, where);
  }
  FXS_TEST_REPORT("nav mesh edit: %lu degenerate cases, %lu of %lu removals equal a fresh build",
                  (unsigned long)run, (unsigned long)equal, (unsigned long)removals);
}

void test_an_unknown_wall_or_bad_input_is_refused_and_changes_nothing(void) {
  make_mesh(fxs_vec2_make(0, 0), fxs_vec2_make(FXS_INT(10), FXS_INT(10)));
  fxs_wall walls[2] = {
      {fxs_vec2_make(FXS_INT(1), FXS_INT(1)), fxs_vec2_make(FXS_INT(5), FXS_INT(1))},
      {fxs_vec2_make(FXS_INT(1), FXS_INT(3)), fxs_vec2_make(FXS_INT(5), FXS_INT(6))}};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, walls, 2, NULL, 0, NULL));
  uint64_t before = fxs_nav_mesh_digest(&mesh);
  // Ends that are vertices but no chain between them; an end that is no vertex; outside.
  fxs_wall across = {walls[0].a, walls[1].b};
  fxs_wall off = {walls[0].a, fxs_vec2_make(FXS_INT(4), FXS_INT(1))};
  fxs_wall outside = {walls[0].a, fxs_vec2_make(FXS_INT(11), FXS_INT(1))};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_remove_wall(&mesh, &across, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_remove_wall(&mesh, &off, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_mesh_remove_wall(&mesh, &outside, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_remove_wall(&mesh, NULL, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_mesh_remove_wall(&mesh, &walls[0], NULL, 1, NULL, 0));
  fxs_obstacle never = {fxs_vec2_make(FXS_INT(8), FXS_INT(8)), FXS_ONE};
  fxs_obstacle negative = {fxs_vec2_make(FXS_INT(8), FXS_INT(8)), -1};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_mesh_remove_obstacle(&mesh, &never, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_mesh_remove_obstacle(&mesh, &negative, walls, 2, NULL, 0));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_nav_mesh_digest(&mesh));
  // The real wall goes: its ends and its edge with it.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_remove_wall(&mesh, &walls[0], &walls[1], 1, NULL, 0));
  TEST_ASSERT_EQUAL_UINT32(6, mesh.vertex_count);
  check_triangulation();
  check_delaunay();
  check_constraints(&walls[1], 1, NULL, 0, 0);
}

void test_the_canonical_digest_ignores_insertion_order_but_sees_every_change(void) {
  // Four cocircular points: the two orders leave different diagonals (a tie).
  fxs_wall w[2] = {{fxs_vec2_make(FXS_INT(2), FXS_INT(2)), fxs_vec2_make(FXS_INT(2), FXS_INT(2))},
                   {fxs_vec2_make(FXS_INT(6), FXS_INT(6)), fxs_vec2_make(FXS_INT(6), FXS_INT(6))}};
  fxs_wall w2[2] = {w[1], w[0]};
  make_mesh(fxs_vec2_make(0, 0), fxs_vec2_make(FXS_INT(8), FXS_INT(8)));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, w, 2, NULL, 0, NULL));
  uint64_t d1 = fxs_nav_mesh_canonical_digest(&mesh), raw1 = fxs_nav_mesh_digest(&mesh);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, w2, 2, NULL, 0, NULL));
  TEST_ASSERT_EQUAL_HEX64(d1, fxs_nav_mesh_canonical_digest(&mesh));
  TEST_ASSERT_TRUE(raw1 != fxs_nav_mesh_digest(&mesh));
  // A vertex moved by one raw unit, or a constraint flag, changes it.
  mesh.vertices[5].x += 1;
  TEST_ASSERT_TRUE(d1 != fxs_nav_mesh_canonical_digest(&mesh));
  mesh.vertices[5].x -= 1;
  TEST_ASSERT_EQUAL_HEX64(d1, fxs_nav_mesh_canonical_digest(&mesh));
  for (uint32_t t = 0; t < mesh.triangle_count; t++) {
    for (unsigned i = 0; i < 3; i++) {
      if (mesh.triangles[t].n[i] != FXS_NAV_MESH_NONE) continue;
      mesh.triangles[t].constrained ^= 1u << i;
      TEST_ASSERT_TRUE(d1 != fxs_nav_mesh_canonical_digest(&mesh));
      mesh.triangles[t].constrained ^= 1u << i;
    }
  }
}
