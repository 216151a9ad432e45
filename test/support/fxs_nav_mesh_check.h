// Checks of a navigation mesh with exact arithmetic and the seeded random wall sets of the
// navigation mesh tests (test_nav_mesh.c, test_nav_mesh_small.c). Define CAP_VERTICES,
// MAX_WALLS, MAX_OBSTACLES and MESH_BLOCK_BYTES before including it, once per test (the
// test runner Ceedling generates includes it too, without them: it then declares nothing).
#ifndef FXS_NAV_MESH_CHECK_H
#define FXS_NAV_MESH_CHECK_H
#ifdef CAP_VERTICES

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "fixsteer/avoidance.h"
#include "fixsteer/hash.h"
#include "fixsteer/nav_mesh.h"
#include "fixsteer/result.h"
#include "fixsteer/vec2.h"
#include "nav_mesh_exact.h"

#define MAX_EDGES (3u * CAP_VERTICES)

static uint64_t block[MESH_BLOCK_BYTES / 8];
static fxs_nav_mesh mesh;
static uint32_t edge_a[MAX_EDGES], edge_b[MAX_EDGES];
static uint32_t edge_count;
static uint8_t seen[CAP_VERTICES];
static uint32_t todo[CAP_VERTICES];

static uint64_t rng_state;
static char where[32]; // the case being checked, for failure messages

static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return (uint32_t)(next_u64() % n); }

static void make_mesh(fxs_vec2 lo, fxs_vec2 hi) {
  fxs_nav_mesh_capacity cap = {CAP_VERTICES, 0};
  size_t need = fxs_nav_mesh_memory_size(&cap);
  TEST_ASSERT_TRUE(need > 0 && need <= sizeof block);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&mesh, &cap, lo, hi, block, sizeof block));
}

static fxs_vec2 at(uint32_t v) { return mesh.vertices[v]; }

// Triangles counter-clockwise, neighbors mutual over the same side with the same flag,
// bounds sides constrained and on the bounds, areas summing to the rectangle's.
static void check_triangulation(void) {
  const fxs_vec2 lo = mesh.bounds_min, hi = mesh.bounds_max;
  fxs_mesh_int sum = fxs_mesh_int_from_i64(0);
  TEST_ASSERT_TRUE(mesh.triangle_count <= mesh.triangle_capacity);
  for (uint32_t t = 0; t < mesh.triangle_count; t++) {
    const fxs_nav_triangle *T = &mesh.triangles[t];
    for (int i = 0; i < 3; i++) TEST_ASSERT_TRUE(T->v[i] < mesh.vertex_count);
    TEST_ASSERT_EQUAL_INT(1, fxs_mesh_orient(at(T->v[0]), at(T->v[1]), at(T->v[2])));
    sum = fxs_mesh_int_add(sum, fxs_mesh_cross(at(T->v[0]), at(T->v[1]), at(T->v[2])));
    TEST_ASSERT_EQUAL_UINT32(0, T->constrained & ~7u);
    for (int i = 0; i < 3; i++) {
      uint32_t p = T->v[(i + 1) % 3], q = T->v[(i + 2) % 3], u = T->n[i];
      if (u == FXS_NAV_MESH_NONE) {
        fxs_vec2 P = at(p), Q = at(q);
        int on = (P.x == Q.x && (P.x == lo.x || P.x == hi.x)) ||
                 (P.y == Q.y && (P.y == lo.y || P.y == hi.y));
        TEST_ASSERT_TRUE_MESSAGE(on, "a side without neighbor is not on the bounds");
        TEST_ASSERT_TRUE((T->constrained >> i) & 1u);
        continue;
      }
      TEST_ASSERT_TRUE(u < mesh.triangle_count);
      const fxs_nav_triangle *U = &mesh.triangles[u];
      int j = U->n[0] == t ? 0 : U->n[1] == t ? 1 : U->n[2] == t ? 2 : -1;
      TEST_ASSERT_TRUE_MESSAGE(j >= 0, "neighbor does not point back");
      TEST_ASSERT_EQUAL_UINT32(q, U->v[(j + 1) % 3]);
      TEST_ASSERT_EQUAL_UINT32(p, U->v[(j + 2) % 3]);
      TEST_ASSERT_EQUAL_UINT32((T->constrained >> i) & 1u, (U->constrained >> j) & 1u);
    }
  }
  fxs_mesh_int w = fxs_mesh_int_from_i64((int64_t)hi.x - lo.x);
  fxs_mesh_int h = fxs_mesh_int_from_i64((int64_t)hi.y - lo.y);
  fxs_mesh_int twice = fxs_mesh_int_mul(fxs_mesh_int_from_i64(2), fxs_mesh_int_mul(w, h));
  TEST_ASSERT_EQUAL_INT_MESSAGE(0, fxs_mesh_int_compare(sum, twice), "areas do not sum up");
  // Every vertex is in the bounds and distinct (a duplicate would be a zero-length edge or
  // an unused vertex: check the corners of triangles use every vertex).
  memset(seen, 0, sizeof seen);
  for (uint32_t t = 0; t < mesh.triangle_count; t++)
    for (int i = 0; i < 3; i++) seen[mesh.triangles[t].v[i]] = 1;
  for (uint32_t v = 0; v < mesh.vertex_count; v++) {
    TEST_ASSERT_TRUE_MESSAGE(seen[v], "a vertex is in no triangle");
    fxs_vec2 p = at(v);
    TEST_ASSERT_TRUE(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y);
  }
}

// No vertex across an unconstrained side lies strictly inside the circumcircle.
static void check_delaunay(void) {
  for (uint32_t t = 0; t < mesh.triangle_count; t++) {
    const fxs_nav_triangle *T = &mesh.triangles[t];
    for (int i = 0; i < 3; i++) {
      uint32_t u = T->n[i];
      if (u == FXS_NAV_MESH_NONE || ((T->constrained >> i) & 1u)) continue;
      const fxs_nav_triangle *U = &mesh.triangles[u];
      int j = U->n[0] == t ? 0 : U->n[1] == t ? 1 : 2;
      if (fxs_mesh_in_circle(at(T->v[0]), at(T->v[1]), at(T->v[2]), at(U->v[j])) > 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: edge %lu-%lu of triangle %lu is not Delaunay", where,
                 (unsigned long)T->v[(i + 1) % 3], (unsigned long)T->v[(i + 2) % 3],
                 (unsigned long)t);
        TEST_FAIL_MESSAGE(msg);
      }
    }
  }
}

static void collect_constrained_edges(void) {
  edge_count = 0;
  for (uint32_t t = 0; t < mesh.triangle_count; t++) {
    const fxs_nav_triangle *T = &mesh.triangles[t];
    for (int i = 0; i < 3; i++) {
      uint32_t p = T->v[(i + 1) % 3], q = T->v[(i + 2) % 3];
      if (!((T->constrained >> i) & 1u) || (T->n[i] != FXS_NAV_MESH_NONE && p > q)) continue;
      TEST_ASSERT_TRUE(edge_count < MAX_EDGES);
      edge_a[edge_count] = p;
      edge_b[edge_count++] = q;
    }
  }
}

static int find_vertex(fxs_vec2 p) {
  for (uint32_t v = 0; v < mesh.vertex_count; v++)
    if (at(v).x == p.x && at(v).y == p.y) return (int)v;
  return -1;
}

// v within `slack` raw units of segment a-b: |cross| <= slack * |b - a| and inside the
// segment's box grown by slack (exact).
static int near_segment(fxs_vec2 a, fxs_vec2 b, fxs_vec2 v, int32_t slack) {
  int64_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
  int64_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
  if (v.x < x0 - slack || v.x > x1 + slack || v.y < y0 - slack || v.y > y1 + slack) return 0;
  fxs_mesh_int c = fxs_mesh_cross(a, b, v);
  fxs_mesh_int dx = fxs_mesh_int_from_i64((int64_t)b.x - a.x);
  fxs_mesh_int dy = fxs_mesh_int_from_i64((int64_t)b.y - a.y);
  fxs_mesh_int len2 = fxs_mesh_int_add(fxs_mesh_int_mul(dx, dx), fxs_mesh_int_mul(dy, dy));
  fxs_mesh_int s2 = fxs_mesh_int_from_i64((int64_t)slack * slack);
  return fxs_mesh_int_compare(fxs_mesh_int_mul(c, c), fxs_mesh_int_mul(s2, len2)) <= 0;
}

// A path of constrained edges from a to b through vertices within slack of the segment.
static void check_chain(fxs_vec2 a, fxs_vec2 b, int32_t slack) {
  int ia = find_vertex(a), ib = find_vertex(b);
  TEST_ASSERT_TRUE_MESSAGE(ia >= 0 && ib >= 0, "a constraint's end is not a vertex");
  if (ia == ib) return;
  memset(seen, 0, sizeof seen);
  uint32_t top = 0;
  todo[top++] = (uint32_t)ia;
  seen[ia] = 1;
  while (top > 0) {
    uint32_t v = todo[--top];
    if (v == (uint32_t)ib) return;
    for (uint32_t e = 0; e < edge_count; e++) {
      uint32_t w = edge_a[e] == v ? edge_b[e] : edge_b[e] == v ? edge_a[e] : v;
      if (w == v || seen[w] || !near_segment(a, b, at(w), slack)) continue;
      seen[w] = 1;
      todo[top++] = w;
    }
  }
  char msg[160];
  snprintf(msg, sizeof msg, "%s: no chain of constrained edges for (%ld,%ld)-(%ld,%ld)", where,
           (long)a.x, (long)a.y, (long)b.x, (long)b.y);
  TEST_FAIL_MESSAGE(msg);
}

static void check_constraints(const fxs_wall *walls, uint32_t nw, const fxs_obstacle *obs,
                              uint32_t no, int32_t slack) {
  collect_constrained_edges();
  for (uint32_t k = 0; k < nw; k++) check_chain(walls[k].a, walls[k].b, slack);
  for (uint32_t k = 0; k < no; k++) {
    fxs_vec2 poly[8];
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_obstacle_polygon(&mesh, &obs[k], poly));
    for (int i = 0; i < 8; i++) check_chain(poly[i], poly[(i + 1) % 8], slack);
  }
}

// A random case: bounds of a tiny, middling or full-range scale; points drawn uniformly, on
// a coarse lattice (collinear and axis-aligned walls, crossings on the grid), on the bounds,
// or reused (duplicates, walls touching at ends); walls extending the previous one along its
// line (overlaps), zero-length walls; obstacles on wall ends, overlapping walls and bounds.
typedef struct random_case {
  fxs_vec2 lo, hi;
  fxs_wall walls[MAX_WALLS];
  fxs_obstacle obstacles[MAX_OBSTACLES];
  uint32_t wall_count, obstacle_count;
} random_case;

static fxs_vec2 random_point(const random_case *c, uint32_t used) {
  uint64_t w = (uint64_t)((int64_t)c->hi.x - c->lo.x), h = (uint64_t)((int64_t)c->hi.y - c->lo.y);
  uint32_t kind = below(10);
  if (kind < 2 && used > 0) {
    const fxs_wall *wl = &c->walls[below(used)];
    return below(2) ? wl->a : wl->b;
  }
  int64_t x = c->lo.x + (int64_t)(next_u64() % (w + 1)),
          y = c->lo.y + (int64_t)(next_u64() % (h + 1));
  if (kind < 5) { // a lattice of 8 x 8 steps
    x = c->lo.x + (int64_t)(w / 8) * below(9);
    y = c->lo.y + (int64_t)(h / 8) * below(9);
  } else if (kind == 5) {
    x = below(2) ? c->lo.x : c->hi.x;
  } else if (kind == 6) {
    y = below(2) ? c->lo.y : c->hi.y;
  }
  return fxs_vec2_make((fix16_t)x, (fix16_t)y);
}

static int in_bounds(const random_case *c, int64_t x, int64_t y) {
  return x >= c->lo.x && x <= c->hi.x && y >= c->lo.y && y <= c->hi.y;
}

static void random_walls(random_case *c) {
  uint32_t scale = below(3);
  if (scale == 0) {
    // One draw a statement: the order of a call's arguments differs between compilers.
    c->lo.x = -(int32_t)below(8);
    c->lo.y = -(int32_t)below(8);
    c->hi.x = c->lo.x + 1 + (int32_t)below(16);
    c->hi.y = c->lo.y + 1 + (int32_t)below(16);
  } else if (scale == 1) {
    c->lo = fxs_vec2_make(FXS_INT(-50), FXS_INT(-20));
    c->hi = fxs_vec2_make(FXS_INT(78), FXS_INT(44));
  } else {
    c->lo.x = INT32_MIN + (int32_t)below(3);
    c->lo.y = INT32_MIN + (int32_t)below(3);
    c->hi.x = INT32_MAX - (int32_t)below(3);
    c->hi.y = INT32_MAX - (int32_t)below(3);
  }
  c->wall_count = below(MAX_WALLS + 1);
  for (uint32_t k = 0; k < c->wall_count; k++) {
    fxs_wall *wl = &c->walls[k];
    wl->a = random_point(c, k);
    wl->b = random_point(c, k);
    uint32_t kind = below(10);
    if (kind == 0) wl->b = wl->a;
    if (kind == 1 && k > 0) { // along the previous wall's line, overlapping or extending it
      const fxs_wall *p = &c->walls[k - 1];
      int64_t dx = (int64_t)p->b.x - p->a.x, dy = (int64_t)p->b.y - p->a.y;
      int64_t bx = p->a.x + dx / 2 + dx, by = p->a.y + dy / 2 + dy;
      if (dx % 2 == 0 && dy % 2 == 0 && in_bounds(c, bx, by)) {
        wl->a = fxs_vec2_make((fix16_t)(p->a.x + dx / 2), (fix16_t)(p->a.y + dy / 2));
        wl->b = fxs_vec2_make((fix16_t)bx, (fix16_t)by);
      }
    }
  }
  c->obstacle_count = below(MAX_OBSTACLES + 1);
  for (uint32_t k = 0; k < c->obstacle_count; k++) {
    fxs_obstacle *o = &c->obstacles[k];
    o->center = random_point(c, c->wall_count);
    int64_t span = ((int64_t)c->hi.x - c->lo.x) / 4;
    o->radius = (fix16_t)(below(4) == 0 ? 0 : (int64_t)(next_u64() % (uint64_t)(span + 1)));
  }
}

static uint32_t run_random_cases(uint64_t seed, uint32_t cases, fxs_hasher *all) {
  static random_case c;
  uint32_t max_vertices = 0;
  for (uint32_t n = 0; n < cases; n++) {
    rng_state = seed + n;
    snprintf(where, sizeof where, "case %lu", (unsigned long)n);
    random_walls(&c);
    make_mesh(c.lo, c.hi);
    uint32_t failed;
    fxs_result r =
        fxs_nav_mesh_build(&mesh, c.walls, c.wall_count, c.obstacles, c.obstacle_count, &failed);
    if (r != FXS_OK) {
      char msg[120];
      snprintf(msg, sizeof msg, "case %lu: %s at item %lu", (unsigned long)n, fxs_result_message(r),
               (unsigned long)failed);
      TEST_FAIL_MESSAGE(msg);
    }
    check_triangulation();
    check_delaunay();
    check_constraints(c.walls, c.wall_count, c.obstacles, c.obstacle_count, 4);
    fxs_hash_u64(all, fxs_nav_mesh_digest(&mesh));
    if (mesh.vertex_count > max_vertices) max_vertices = mesh.vertex_count;
  }
  return max_vertices;
}

#endif
#endif
