// The navigation mesh's constrained Delaunay triangulation: properties over thousands of
// seeded random wall and obstacle sets full of degenerate cases (duplicate and collinear
// points, walls crossing, touching at ends, overlapping along a line, lying on the bounds,
// obstacles overlapping walls and the bounds), each checked with exact arithmetic
// (fxs_nav_mesh_check.h): orientation and adjacency, the area sum, every constraint a chain
// of constrained edges, and the empty circumcircle across every unconstrained edge. The
// digest of the first 400 meshes is pinned: the same bytes on every target.
#include <stdint.h>
#include <stdio.h>

#include "unity.h"

#include "avoidance.h"
#include "hash.h"
#include "nav_mesh.h"
#include "result.h"
#include "vec2.h"
#include "nav_mesh_exact.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define CAP_VERTICES 1024u
#define MAX_WALLS 24u
#define MAX_OBSTACLES 3u
#define MESH_BLOCK_BYTES 160000u
#include "fxs_nav_mesh_check.h"

// The digest of the PINNED_CASES meshes, bytes as fxs_nav_mesh_digest serialises them.
#define PINNED_DIGEST UINT64_C(0x011C384F43FF4800)

void test_init_lays_out_the_bounds_as_two_constrained_triangles(void) {
  make_mesh(fxs_vec2_make(-5, -7), fxs_vec2_make(11, 3));
  TEST_ASSERT_EQUAL_UINT32(4, mesh.vertex_count);
  TEST_ASSERT_EQUAL_UINT32(2, mesh.triangle_count);
  check_triangulation();
  check_delaunay();
  TEST_ASSERT_EQUAL_UINT32(0, mesh.triangles[0].v[0]);
  TEST_ASSERT_EQUAL_UINT32(1u, mesh.triangles[0].n[1]);
}

// Cases every target runs (their digest is pinned), and more on hosted targets.
#define PINNED_CASES 400u
#if defined(__arm__) && !defined(__linux__)
#define MORE_CASES 0u
#else
#define MORE_CASES 2600u
#endif
#define SEED UINT64_C(0x6E61766D657368)

void test_random_wall_sets_give_valid_constrained_delaunay_triangulations(void) {
  fxs_hasher pinned = fxs_hasher_make(), more = fxs_hasher_make();
  uint32_t most = run_random_cases(SEED, PINNED_CASES, &pinned);
  uint32_t most2 = run_random_cases(SEED + PINNED_CASES, MORE_CASES, &more);
  FXS_TEST_REPORT("nav mesh: %lu + %lu random cases, at most %lu vertices, digest %08lx%08lx",
                  (unsigned long)PINNED_CASES, (unsigned long)MORE_CASES,
                  (unsigned long)(most > most2 ? most : most2), (unsigned long)(pinned.state >> 32),
                  (unsigned long)(pinned.state & 0xFFFFFFFFu));
  TEST_ASSERT_EQUAL_HEX64(PINNED_DIGEST, pinned.state);
}

// Axis-aligned walls and diagonals of slope 1 on integer coordinates cross on the grid:
// every chain is then exactly its wall (no vertex off it).
void test_walls_crossing_on_the_grid_are_exact_chains(void) {
  static fxs_wall walls[MAX_WALLS];
  for (uint32_t n = 0; n < 300; n++) {
    rng_state = SEED ^ (UINT64_C(0xABCDEF) * (n + 1));
    snprintf(where, sizeof where, "lattice case %lu", (unsigned long)n);
    int32_t unit = n % 3 == 0 ? 1 : n % 3 == 1 ? FXS_ONE : 1 << 24;
    fxs_vec2 lo = fxs_vec2_make(-20 * unit, -20 * unit), hi = fxs_vec2_make(20 * unit, 20 * unit);
    make_mesh(lo, hi);
    uint32_t count = 1 + below(MAX_WALLS);
    for (uint32_t k = 0; k < count; k++) {
      int32_t x = (int32_t)below(41) - 20, y = (int32_t)below(41) - 20, len = (int32_t)below(21);
      uint32_t kind = below(3);
      int32_t x2 = kind == 1 ? x : x + len, y2 = kind == 0 ? y : kind == 1 ? y + len : y + len;
      if (x2 > 20 || y2 > 20) x2 = x, y2 = y;
      walls[k].a = fxs_vec2_make(x * unit, y * unit);
      walls[k].b = fxs_vec2_make(x2 * unit, y2 * unit);
    }
    uint32_t failed;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, walls, count, NULL, 0, &failed));
    check_triangulation();
    check_delaunay();
    check_constraints(walls, count, NULL, 0, 0);
  }
}

void test_an_obstacle_is_the_documented_octagon_clamped_into_the_bounds(void) {
  make_mesh(fxs_vec2_make(0, 0), fxs_vec2_make(FXS_INT(100), FXS_INT(100)));
  fxs_obstacle o = {fxs_vec2_make(FXS_INT(10), FXS_INT(20)), FXS_INT(2)};
  fxs_vec2 poly[8];
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_obstacle_polygon(&mesh, &o, poly));
  // R = ceil(2 * 65536 * 70936 / 65536) + 1 = 141873, R' = ceil(141873 * 46341 / 65536) = 100320.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10) + 141873, poly[0].x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(20), poly[0].y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10) + 100320, poly[1].x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(20) + 100320, poly[1].y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(20) - 141873, poly[6].y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10) - 100320, poly[5].x);
  // Every side is farther than the radius from the centre: the octagon holds the circle.
  for (int i = 0; i < 8; i++) {
    fxs_vec2 a = poly[i], b = poly[(i + 1) % 8];
    fxs_mesh_int c = fxs_mesh_cross(a, b, o.center); // |c| = distance * |b - a|
    fxs_mesh_int dx = fxs_mesh_int_from_i64((int64_t)b.x - a.x);
    fxs_mesh_int dy = fxs_mesh_int_from_i64((int64_t)b.y - a.y);
    fxs_mesh_int len2 = fxs_mesh_int_add(fxs_mesh_int_mul(dx, dx), fxs_mesh_int_mul(dy, dy));
    fxs_mesh_int r2 = fxs_mesh_int_from_i64((int64_t)o.radius * o.radius);
    TEST_ASSERT_EQUAL_INT(1,
                          fxs_mesh_int_compare(fxs_mesh_int_mul(c, c), fxs_mesh_int_mul(r2, len2)));
  }
  // Near a corner the octagon is clamped into the bounds and still inserted.
  fxs_obstacle corner = {fxs_vec2_make(FXS_ONE, FXS_ONE), FXS_INT(3)};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_obstacle_polygon(&mesh, &corner, poly));
  TEST_ASSERT_EQUAL_INT32(0, poly[4].x);
  TEST_ASSERT_EQUAL_INT32(0, poly[6].y);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_add_obstacle(&mesh, &corner));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_add_obstacle(&mesh, &o));
  check_triangulation();
  check_delaunay();
  fxs_obstacle both[2] = {corner, o};
  check_constraints(NULL, 0, both, 2, 0);
}

void test_bad_input_is_refused_and_changes_nothing(void) {
  make_mesh(fxs_vec2_make(0, 0), fxs_vec2_make(FXS_INT(10), FXS_INT(10)));
  uint64_t before = fxs_nav_mesh_digest(&mesh);
  fxs_wall out = {fxs_vec2_make(FXS_INT(1), FXS_INT(1)), fxs_vec2_make(FXS_INT(11), FXS_INT(1))};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_add_wall(&mesh, &out));
  fxs_obstacle negative = {fxs_vec2_make(FXS_INT(5), FXS_INT(5)), -1};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_add_obstacle(&mesh, &negative));
  fxs_obstacle outside = {fxs_vec2_make(FXS_INT(-1), FXS_INT(5)), FXS_ONE};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_add_obstacle(&mesh, &outside));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_nav_mesh_digest(&mesh));
  uint32_t failed = 0;
  fxs_wall walls[2] = {
      {fxs_vec2_make(FXS_INT(1), FXS_INT(1)), fxs_vec2_make(FXS_INT(2), FXS_INT(2))}, out};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_build(&mesh, walls, 2, NULL, 0, &failed));
  TEST_ASSERT_EQUAL_UINT32(1, failed);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_build(&mesh, NULL, 1, NULL, 0, &failed));
  // Bounds, capacities and memory.
  fxs_nav_mesh_capacity cap = {3, 0};
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_mesh_memory_size(&cap));
  cap.vertices = FXS_NAV_MESH_MAX_VERTICES + 1;
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_mesh_memory_size(&cap));
  cap.vertices = 16;
  cap.steps = (1u << 30) + 1;
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_mesh_memory_size(&cap));
  cap.steps = 0;
  fxs_nav_mesh m2;
  size_t need = fxs_nav_mesh_memory_size(&cap);
  fxs_vec2 lo = fxs_vec2_make(0, 0), hi = fxs_vec2_make(FXS_ONE, FXS_ONE);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_nav_mesh_init(&m2, &cap, lo, hi, block, need - 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_init(&m2, &cap, hi, lo, block, need));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_mesh_init(&m2, &cap, lo, fxs_vec2_make(FXS_ONE, 0), block, need));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_mesh_init(&m2, &cap, lo, hi, NULL, need));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&m2, &cap, lo, hi, block, need));
}

void test_running_out_of_vertices_or_steps_is_reported_and_leaves_a_valid_mesh(void) {
  fxs_nav_mesh_capacity cap = {12, 0};
  fxs_vec2 lo = fxs_vec2_make(0, 0), hi = fxs_vec2_make(FXS_INT(10), FXS_INT(10));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&mesh, &cap, lo, hi, block, sizeof block));
  fxs_wall walls[5];
  for (int k = 0; k < 5; k++) { // five walls crossing at (5, 5): 10 ends and 1 crossing
    walls[k].a = fxs_vec2_make(FXS_INT(1), FXS_INT(1 + 2 * k));
    walls[k].b = fxs_vec2_make(FXS_INT(9), FXS_INT(9 - 2 * k));
  }
  uint32_t failed;
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_nav_mesh_build(&mesh, walls, 5, NULL, 0, &failed));
  TEST_ASSERT_TRUE(failed < 5);
  TEST_ASSERT_TRUE(mesh.vertex_count <= 12);
  check_triangulation();
  check_delaunay();
  cap.vertices = 64;
  cap.steps = 6;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&mesh, &cap, lo, hi, block, sizeof block));
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_nav_mesh_build(&mesh, walls, 5, NULL, 0, &failed));
  check_triangulation(); // a triangulation still, maybe not Delaunay (nav_mesh.h)
  cap.steps = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&mesh, &cap, lo, hi, block, sizeof block));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, walls, 5, NULL, 0, &failed));
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_MESH_NONE, failed);
  TEST_ASSERT_EQUAL_UINT32(4 + 10 + 1, mesh.vertex_count);
  check_triangulation();
  check_delaunay();
  check_constraints(walls, 5, NULL, 0, 0);
}

void test_locate_finds_the_triangle_holding_a_point(void) {
  static random_case c;
  for (uint32_t n = 0; n < 100; n++) {
    rng_state = SEED * 3 + n;
    random_walls(&c);
    make_mesh(c.lo, c.hi);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&mesh, c.walls, c.wall_count, c.obstacles,
                                                 c.obstacle_count, NULL));
    for (int k = 0; k < 50; k++) {
      fxs_vec2 p = random_point(&c, c.wall_count);
      uint32_t t = fxs_nav_mesh_locate(&mesh, p);
      TEST_ASSERT_TRUE(t < mesh.triangle_count);
      const fxs_nav_triangle *T = &mesh.triangles[t];
      for (int i = 0; i < 3; i++)
        TEST_ASSERT_TRUE(fxs_mesh_orient(at(T->v[i]), at(T->v[(i + 1) % 3]), p) >= 0);
    }
    if (c.lo.x > INT32_MIN)
      TEST_ASSERT_EQUAL_UINT32(FXS_NAV_MESH_NONE,
                               fxs_nav_mesh_locate(&mesh, fxs_vec2_make(c.lo.x - 1, c.lo.y)));
  }
}
