// Routes on the navigation mesh (nav_mesh_route.h): exact routes on small maps, clearance for
// a radius, unreachable goals, the tie order, the budget, and, over seeded random rectangle
// maps and grid maps in the style of the MovingAI benchmarks (blocked cells as squares), route
// lengths against the exact Euclidean shortest path (visibility graph and Dijkstra, in
// doubles, here only) and the distance of every route segment to every wall. The digest of
// the routes over the pinned maps is the same on every target.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "avoidance.h"
#include "hash.h"
#include "nav_mesh.h"
#include "nav_mesh_route.h"
#include "nav_mesh_tree.h"
#include "nav_path.h"
#include "result.h"
#include "vec2.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define CAP_VERTICES 1024u
#define CAP_OPEN 512u
#define CAP_TRIANGLES (2u * CAP_VERTICES - 6u)
#define MAX_WALLS 512u
#define MAX_POINTS 256u

static uint64_t mesh_block[160000 / 8];
static uint64_t route_block[400000 / 8];
static fxs_nav_mesh mesh;
static fxs_mesh_route route;
static fxs_wall walls[MAX_WALLS];
static uint32_t wall_count;
static fxs_vec2 points[MAX_POINTS];

static fxs_vec2 U(double x, double y) {
  return fxs_vec2_make(fix16_from_dbl(x), fix16_from_dbl(y));
}
static double X(fix16_t v) { return v / 65536.0; }

static void build(double w, double h) {
  fxs_nav_mesh_capacity cap = {CAP_VERTICES, 0};
  TEST_ASSERT_TRUE(fxs_nav_mesh_memory_size(&cap) <= sizeof mesh_block);
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_nav_mesh_init(&mesh, &cap, U(0, 0), U(w, h), mesh_block, sizeof mesh_block));
  uint32_t failed = 0;
  fxs_result e = fxs_nav_mesh_build(&mesh, walls, wall_count, NULL, 0, &failed);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, e, fxs_result_message(e));
  TEST_ASSERT_TRUE(fxs_mesh_route_memory_size(CAP_TRIANGLES, CAP_OPEN) <= sizeof route_block);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_init(&route, route_block, sizeof route_block,
                                                CAP_TRIANGLES, CAP_OPEN));
}

static void add_wall(fxs_vec2 a, fxs_vec2 b) {
  TEST_ASSERT_TRUE(wall_count < MAX_WALLS);
  walls[wall_count].a = a;
  walls[wall_count].b = b;
  wall_count++;
}

// Runs a whole search with the given budget per call; returns the number of route points.
static uint32_t find(fxs_vec2 s, fxs_vec2 g, double radius, uint32_t budget) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_begin(&route, &mesh, s, g, fix16_from_dbl(radius)));
  uint32_t calls = 0;
  while (fxs_mesh_route_step(&route, &mesh, budget) == FXS_NAV_SEARCHING)
    TEST_ASSERT_TRUE(++calls < 100000u);
  uint32_t n = fxs_mesh_route_points(&route, &mesh, points, MAX_POINTS);
  TEST_ASSERT_TRUE(n >= 1 && n <= MAX_POINTS);
  return n;
}

static double length(uint32_t n) {
  double s = 0;
  for (uint32_t i = 1; i < n; i++)
    s += hypot(X(points[i].x) - X(points[i - 1].x), X(points[i].y) - X(points[i - 1].y));
  return s;
}

static double seg_point(double ax, double ay, double bx, double by, double px, double py) {
  double dx = bx - ax, dy = by - ay, l = dx * dx + dy * dy, t = 0;
  if (l > 0) t = ((px - ax) * dx + (py - ay) * dy) / l;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return hypot(ax + t * dx - px, ay + t * dy - py);
}

static int proper_cross(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                        double dy) {
  double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  double d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  double d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

// Distance between two segments (0 when they cross).
static double seg_seg(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                      double dy) {
  if (proper_cross(ax, ay, bx, by, cx, cy, dx, dy)) return 0;
  double m = seg_point(ax, ay, bx, by, cx, cy), v = seg_point(ax, ay, bx, by, dx, dy);
  m = v < m ? v : m;
  v = seg_point(cx, cy, dx, dy, ax, ay);
  m = v < m ? v : m;
  v = seg_point(cx, cy, dx, dy, bx, by);
  return v < m ? v : m;
}

// The least distance of the route's segments to any wall.
static double clearance(uint32_t n) {
  double best = 1e300;
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t w = 0; w < wall_count; w++) {
      double d = seg_seg(X(points[i - 1].x), X(points[i - 1].y), X(points[i].x), X(points[i].y),
                         X(walls[w].a.x), X(walls[w].a.y), X(walls[w].b.x), X(walls[w].b.y));
      best = d < best ? d : best;
    }
  return best;
}

void test_an_open_box_gives_the_straight_line(void) {
  wall_count = 0;
  build(10, 10);
  uint32_t n = find(U(1, 1), U(9, 8.5), 0.5, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_EQUAL_UINT32(2, n);
  TEST_ASSERT_EQUAL_INT32(fix16_from_int(9), points[1].x);
  TEST_ASSERT_EQUAL_INT32(fix16_from_dbl(8.5), points[1].y);
}

// What the straight way from a to b meets for a body of radius r (fxs_mesh_view_of).
static fxs_mesh_view view(fxs_vec2 a, fxs_vec2 b, double r) {
  return fxs_mesh_view_of(&mesh, fxs_nav_mesh_locate(&mesh, a), a, b, fxs_nav_mesh_locate(&mesh, b),
                          fix16_from_dbl(r));
}

// The sight test's three answers: a way across a wall is hidden, a clear way seen, and a way
// along a line through a vertex of the mesh (here the wall's end) decides nothing: it is not
// taken for a wall, and fxs_mesh_sight, which asks for a clear way, says no to both others.
void test_the_sight_test_tells_a_wall_from_a_way_through_a_vertex(void) {
  wall_count = 0;
  add_wall(U(100, 50), U(100, 150));
  add_wall(U(100, 170), U(100, 200)); // a door 20 wide
  build(200, 200);
  TEST_ASSERT_EQUAL(FXS_MESH_HIDDEN, view(U(50, 100), U(150, 100), 0));
  TEST_ASSERT_EQUAL(FXS_MESH_SEEN, view(U(50, 20), U(150, 30), 0));
  TEST_ASSERT_EQUAL(FXS_MESH_UNDECIDED, view(U(50, 150), U(150, 150), 0));
  TEST_ASSERT_EQUAL(FXS_MESH_UNDECIDED, view(U(40, 120), U(160, 180), 0)); // through (100, 150)
  // Through the door: seen by a point and a body of radius 9, hidden for one of radius 11.
  TEST_ASSERT_EQUAL(FXS_MESH_SEEN, view(U(50, 160), U(150, 160), 0));
  TEST_ASSERT_EQUAL(FXS_MESH_SEEN, view(U(50, 160), U(150, 160), 9));
  TEST_ASSERT_EQUAL(FXS_MESH_HIDDEN, view(U(50, 160), U(150, 160), 11));
  TEST_ASSERT_FALSE(fxs_mesh_sight(&mesh, fxs_nav_mesh_locate(&mesh, U(50, 150)), U(50, 150),
                                   U(150, 150), fxs_nav_mesh_locate(&mesh, U(150, 150)), 0));
}

void test_a_wall_is_passed_at_its_end_and_at_the_radius_from_it(void) {
  wall_count = 0;
  add_wall(U(10, 0), U(10, 15));
  build(20, 20);
  uint32_t n = find(U(5, 5), U(15, 5), 0, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_EQUAL_UINT32(3, n);
  TEST_ASSERT_EQUAL_INT32(fix16_from_int(10), points[1].x);
  TEST_ASSERT_EQUAL_INT32(fix16_from_int(15), points[1].y);
  // Exact: 2 * sqrt(5^2 + 10^2).
  TEST_ASSERT_DOUBLE_WITHIN(1e-4, 2 * sqrt(125.0), length(n));
  n = find(U(5, 5), U(15, 5), 1, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_TRUE(n >= 3);
  double c = clearance(n);
  FXS_TEST_REPORT("wall end, radius 1: %u points, length %.4f, clearance %.4f", (unsigned)n,
                  length(n), c);
  TEST_ASSERT_TRUE(c >= 1.0); // r and the margin (header)
  TEST_ASSERT_TRUE(length(n) > 2 * sqrt(125.0));
}

void test_a_point_route_wraps_a_box_exactly_whatever_the_budget(void) {
  wall_count = 0;
  add_wall(U(4, 3), U(6, 3));
  add_wall(U(6, 3), U(6, 7));
  add_wall(U(6, 7), U(4, 7));
  add_wall(U(4, 7), U(4, 3));
  build(10, 10);
  double best = 2 * sqrt(13.0) + 2; // (1, 5), a top or bottom side of the box, (9, 5)
  for (uint32_t budget = 1; budget <= 1001; budget += 500) {
    uint32_t n = find(U(1, 5), U(9, 5), 0, budget);
    TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
    TEST_ASSERT_EQUAL_UINT32(1, route.exact);
    TEST_ASSERT_EQUAL_UINT32(4, n);
    TEST_ASSERT_DOUBLE_WITHIN(1e-4, best, length(n));
    TEST_ASSERT_EQUAL_INT32(fix16_from_int(4), points[1].x);
    TEST_ASSERT_EQUAL_INT32(fix16_from_int(6), points[2].x);
    TEST_ASSERT_TRUE(points[1].y == points[2].y);
    TEST_ASSERT_TRUE(clearance(n) >= 0);
    // An exact route has no triangle corridor.
    TEST_ASSERT_EQUAL_UINT32(0, fxs_mesh_route_corridor(&route, NULL, 0));
  }
  // With a radius the triangle search and the funnel take over: no exact route.
  find(U(1, 5), U(9, 5), 0.25, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_EQUAL_UINT32(0, route.exact);
  TEST_ASSERT_TRUE(fxs_mesh_route_corridor(&route, NULL, 0) >= 2u);
}

void test_a_gap_narrower_than_the_body_is_not_passed(void) {
  wall_count = 0;
  add_wall(U(10, 0), U(10, 9.5));
  add_wall(U(10, 10.5), U(10, 20)); // a gap of 1 at y = 10
  build(20, 20);
  uint32_t n = find(U(5, 10), U(15, 10), 0.25, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_EQUAL_UINT32(2, n);
  n = find(U(5, 10), U(15, 10), 0.5, 1000); // exactly the width: passes (>=)
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  n = find(U(5, 10), U(15, 10), 0.5 + 1.0 / 65536, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, route.status);
  TEST_ASSERT_TRUE(X(points[n - 1].x) < 10);
}

void test_an_unreachable_goal_ends_at_the_nearest_reachable_place(void) {
  wall_count = 0;
  add_wall(U(10, 0), U(10, 20));
  build(20, 20);
  uint32_t n = find(U(2, 3), U(15, 12), 0, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, route.status);
  TEST_ASSERT_TRUE(n >= 1);
  // The end is an entry point on a side reaching the wall; nothing reachable is nearer.
  TEST_ASSERT_TRUE(X(points[n - 1].x) <= 10 && X(points[n - 1].x) > 5);
  TEST_ASSERT_TRUE(clearance(n) >= 0);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_mesh_route_begin(&route, &mesh, U(2, 3), U(25, 1), 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_mesh_route_begin(&route, &mesh, U(2, 3), U(5, 1), -1));
}

void test_symmetric_ties_are_broken_the_same_way_every_time(void) {
  wall_count = 0;
  add_wall(U(8, 10), U(12, 10)); // a bar across the straight line: left and right tie
  build(20, 20);
  uint32_t n = find(U(10, 5), U(10, 15), 0, 1000);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, route.status);
  TEST_ASSERT_EQUAL_UINT32(3, n);
  fxs_vec2 corner = points[1];
  TEST_ASSERT_EQUAL_INT32(fix16_from_int(10), corner.y);
  TEST_ASSERT_TRUE(corner.x == fix16_from_int(8) || corner.x == fix16_from_int(12));
  uint32_t expanded = route.expanded;
  for (int k = 0; k < 3; k++) {
    TEST_ASSERT_EQUAL_UINT32(3, find(U(10, 5), U(10, 15), 0, 1 + k));
    TEST_ASSERT_EQUAL_INT32(corner.x, points[1].x);
    TEST_ASSERT_EQUAL_UINT32(expanded, route.expanded);
  }
}

void test_bad_memory_and_capacities_are_refused(void) {
  TEST_ASSERT_EQUAL_size_t(0, fxs_mesh_route_memory_size(0, 1));
  TEST_ASSERT_EQUAL_size_t(0, fxs_mesh_route_memory_size(10, 11));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_mesh_route_init(&route, NULL, 100, 10, 10));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_mesh_route_init(&route, route_block, 16, 10, 10));
  wall_count = 0;
  build(10, 10);
  static uint64_t small[4096 / 8];
  fxs_mesh_route tiny;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_init(&tiny, small, sizeof small, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_mesh_route_begin(&tiny, &mesh, U(1, 1), U(2, 2), 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_mesh_route_points(&tiny, &mesh, points, MAX_POINTS));
}

// ---- Random maps ------------------------------------------------------------------------

static uint64_t rng_state;
static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return (uint32_t)(next_u64() % n); }

#define MAX_RECTS 300u
static double rect[MAX_RECTS][4];      // x0, y0, x1, y1
static int32_t rect_raw[MAX_RECTS][4]; // the same, raw Q16.16 (decisions on every target)
static uint32_t rect_count;
static uint32_t map_w, map_h;

static void add_rect(fxs_vec2 a, fxs_vec2 b) {
  rect[rect_count][0] = X(a.x);
  rect[rect_count][1] = X(a.y);
  rect[rect_count][2] = X(b.x);
  rect[rect_count][3] = X(b.y);
  rect_raw[rect_count][0] = a.x;
  rect_raw[rect_count][1] = a.y;
  rect_raw[rect_count][2] = b.x;
  rect_raw[rect_count][3] = b.y;
  rect_count++;
}

// A map of 4 to 12 random rectangles (overlaps allowed) in a 64 x 64 box.
static void random_rect_map(void) {
  wall_count = rect_count = 0;
  map_w = map_h = 64;
  uint32_t k = 4 + below(9);
  for (uint32_t i = 0; i < k; i++) {
    int32_t x0 = (int32_t)(2 * 65536 + below(46 * 65536)),
            y0 = (int32_t)(2 * 65536 + below(46 * 65536));
    int32_t x1 = x0 + (int32_t)(65536 + below(14 * 65536)),
            y1 = y0 + (int32_t)(65536 + below(14 * 65536));
    fxs_vec2 a = fxs_vec2_make(x0, y0), b = fxs_vec2_make(x1, y1);
    add_wall(a, fxs_vec2_make(x1, y0));
    add_wall(fxs_vec2_make(x1, y0), b);
    add_wall(b, fxs_vec2_make(x0, y1));
    add_wall(fxs_vec2_make(x0, y1), a);
    add_rect(a, b);
  }
}

// A grid map of 16 x 16 cells of 4 units, a quarter blocked, cells touching only at a corner
// joined (so no passage runs through a single point), walls between blocked and free cells.
#define GRID 16
static uint8_t blocked[GRID][GRID];
static void random_grid_map(void) {
  wall_count = rect_count = 0;
  map_w = map_h = GRID * 4;
  for (int y = 0; y < GRID; y++)
    for (int x = 0; x < GRID; x++) blocked[y][x] = below(4) == 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int y = 0; y + 1 < GRID; y++)
      for (int x = 0; x + 1 < GRID; x++) {
        if (blocked[y][x] && blocked[y + 1][x + 1] && !blocked[y][x + 1] && !blocked[y + 1][x])
          blocked[y][x + 1] = 1, changed = 1;
        if (blocked[y][x + 1] && blocked[y + 1][x] && !blocked[y][x] && !blocked[y + 1][x + 1])
          blocked[y][x] = 1, changed = 1;
      }
  }
  for (int y = 0; y < GRID; y++)
    for (int x = 0; x < GRID; x++) {
      if (!blocked[y][x]) continue;
      fxs_vec2 a = fxs_vec2_make(fix16_from_int(4 * x), fix16_from_int(4 * y));
      fxs_vec2 b = fxs_vec2_make(fix16_from_int(4 * x + 4), fix16_from_int(4 * y + 4));
      add_rect(a, b);
      if (x + 1 < GRID && !blocked[y][x + 1]) add_wall(fxs_vec2_make(b.x, a.y), b);
      if (x > 0 && !blocked[y][x - 1]) add_wall(a, fxs_vec2_make(a.x, b.y));
      if (y + 1 < GRID && !blocked[y + 1][x]) add_wall(fxs_vec2_make(a.x, b.y), b);
      if (y > 0 && !blocked[y - 1][x]) add_wall(a, fxs_vec2_make(b.x, a.y));
    }
}

// Is p (with margin m, raw units) clear of every rectangle? Integers only, so that the
// pinned maps' queries are the same on every target.
static int free_point(fxs_vec2 p, int32_t m) {
  int64_t w = (int64_t)map_w * 65536, h = (int64_t)map_h * 65536;
  if (p.x < m || p.y < m || p.x > w - m || p.y > h - m) return 0;
  for (uint32_t i = 0; i < rect_count; i++)
    if ((int64_t)p.x > (int64_t)rect_raw[i][0] - m && (int64_t)p.x < (int64_t)rect_raw[i][2] + m &&
        (int64_t)p.y > (int64_t)rect_raw[i][1] - m && (int64_t)p.y < (int64_t)rect_raw[i][3] + m)
      return 0;
  return 1;
}

static fxs_vec2 random_free_point(fix16_t m) {
  for (;;) {
    fix16_t x = (fix16_t)below(map_w * 65536u); // x first: arguments have no order
    fix16_t y = (fix16_t)below(map_h * 65536u);
    fxs_vec2 p = fxs_vec2_make(x, y);
    if (free_point(p, m)) return p;
  }
}

static int grid_map;

// On a grid map: is the point in no free closed cell (so on a side or corner shared by
// blocked cells only)?
static int grid_point_blocked(double px, double py) {
  int x0 = (int)floor(px / 4), y0 = (int)floor(py / 4);
  for (int y = y0 - 1; y <= y0; y++)
    for (int x = x0 - 1; x <= x0; x++) {
      if (x < 0 || y < 0 || x >= GRID || y >= GRID) continue;
      if (px < 4.0 * x || px > 4.0 * x + 4 || py < 4.0 * y || py > 4.0 * y + 4) continue;
      if (!blocked[y][x]) return 0;
    }
  return 1;
}

// Does the segment run through the open interior of a rectangle, or (grid maps) along a
// side between two blocked cells?
static int seg_blocked(double ax, double ay, double bx, double by) {
  if (grid_map) {
    int steps = (int)(hypot(bx - ax, by - ay) * 8) + 1;
    for (int i = 0; i < steps; i++) {
      double t = (i + 0.5) / steps;
      if (grid_point_blocked(ax + t * (bx - ax), ay + t * (by - ay))) return 1;
    }
  }
  for (uint32_t i = 0; i < rect_count; i++) {
    double t0 = 0, t1 = 1, d[2] = {bx - ax, by - ay}, o[2] = {ax, ay};
    int out = 0;
    for (int k = 0; k < 2 && !out; k++) {
      double lo = rect[i][k], hi = rect[i][k + 2];
      if (d[k] == 0) {
        if (o[k] <= lo || o[k] >= hi) out = 1;
        continue;
      }
      double u0 = (lo - o[k]) / d[k], u1 = (hi - o[k]) / d[k];
      if (u0 > u1) {
        double t = u0;
        u0 = u1;
        u1 = t;
      }
      t0 = u0 > t0 ? u0 : t0;
      t1 = u1 < t1 ? u1 : t1;
    }
    if (!out && t1 - t0 > 1e-9) {
      double t = (t0 + t1) / 2, px = ax + t * d[0], py = ay + t * d[1];
      if (px > rect[i][0] + 1e-9 && px < rect[i][2] - 1e-9 && py > rect[i][1] + 1e-9 &&
          py < rect[i][3] - 1e-9)
        return 1;
    }
  }
  return 0;
}

// The exact shortest path length (visibility graph over the rectangles' corners, Dijkstra),
// or -1 when the goal cannot be reached.
#define MAX_NODES (4u * MAX_RECTS + 2u)
static double node_x[MAX_NODES], node_y[MAX_NODES], dist[MAX_NODES];
static uint8_t done[MAX_NODES];
static double shortest(fxs_vec2 s, fxs_vec2 g) {
  uint32_t n = 0;
  node_x[n] = X(s.x), node_y[n++] = X(s.y);
  node_x[n] = X(g.x), node_y[n++] = X(g.y);
  for (uint32_t i = 0; i < rect_count; i++)
    for (int c = 0; c < 4; c++) {
      double x = rect[i][(c & 1) ? 2 : 0], y = rect[i][(c & 2) ? 3 : 1];
      if (x <= 0 || y <= 0 || x >= map_w || y >= map_h) continue;
      node_x[n] = x, node_y[n++] = y;
    }
  for (uint32_t i = 0; i < n; i++) dist[i] = 1e300, done[i] = 0;
  dist[0] = 0;
  for (;;) {
    uint32_t u = n;
    for (uint32_t i = 0; i < n; i++)
      if (!done[i] && dist[i] < 1e299 && (u == n || dist[i] < dist[u])) u = i;
    if (u == n) return -1;
    if (u == 1) return dist[1];
    done[u] = 1;
    for (uint32_t v = 0; v < n; v++) {
      if (done[v]) continue;
      double w = hypot(node_x[v] - node_x[u], node_y[v] - node_y[u]);
      if (dist[u] + w >= dist[v]) continue;
      if (seg_blocked(node_x[u], node_y[u], node_x[v], node_y[v])) continue;
      dist[v] = dist[u] + w;
    }
  }
}

// Pinned maps: the route digest is the same on every target. More on hosted targets, where
// the shortest paths are computed too.
#define PINNED_MAPS 40u
#if defined(__arm__) && !defined(__linux__)
#define COMPARED_MAPS 0u
#else
#define COMPARED_MAPS 200u
#endif
#define ROUTE_DIGEST UINT64_C(0xC59E5D2154CC9056)
#define QUERIES 4u

typedef struct stats {
  double worst_ratio, worst_clearance;
  uint32_t found, nearest, compared, within_1pc;
} stats;

static void run_map(uint32_t m, fxs_hasher *h, stats *st, int compare) {
  rng_state = UINT64_C(0x6D657368726F7574) + m;
  grid_map = (int)(m % 2u);
  if (grid_map) random_grid_map();
  else random_rect_map();
  build(map_w, map_h);
  for (uint32_t q = 0; q < QUERIES; q++) {
    fix16_t radius_raw = (q % 2u) ? (fix16_t)(16384u * (1u + below(4))) : 0;
    double radius = X(radius_raw);
    fxs_vec2 s = random_free_point(radius_raw), g = random_free_point(radius_raw);
    uint32_t n = find(s, g, radius, 1000000u);
    uint32_t n2 = find(s, g, radius, 1 + q); // budgeted: the same route
    TEST_ASSERT_EQUAL_UINT32(n, n2);
    fxs_hash_u32(h, route.status);
    fxs_hash_u32(h, route.expanded);
    fxs_hash_u32(h, n);
    for (uint32_t i = 0; i < n; i++) {
      fxs_hash_i32(h, points[i].x);
      fxs_hash_i32(h, points[i].y);
    }
    double c = clearance(n);
    if (route.status == FXS_NAV_FOUND) st->found++;
    else st->nearest++;
    if (radius > 0) { // found or nearest: every route keeps the radius
      double rel = c / radius;
      if (rel < 1.0) {
        printf("DIAG map %u q %u st %u r %.3f rel %.4f n %u:", (unsigned)m, (unsigned)q,
               (unsigned)route.status, radius, rel, (unsigned)n);
        for (uint32_t i = 0; i < n; i++) printf(" (%.4f,%.4f)", X(points[i].x), X(points[i].y));
        printf(" goal (%.4f,%.4f)\n", X(g.x), X(g.y));
      }
      if (rel < st->worst_clearance) st->worst_clearance = rel;
    } else {
      TEST_ASSERT_TRUE_MESSAGE(c >= 0, "a route crosses a wall");
    }
    if (!compare || radius > 0) continue;
    double best = shortest(s, g);
    if (best < 0) {
      TEST_ASSERT_EQUAL_MESSAGE(FXS_NAV_NEAREST, route.status, "unreachable goal found");
      continue;
    }
    if (route.status != FXS_NAV_FOUND) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "map %u query %u: reachable goal not found (%.5f, %.5f) -> (%.5f, %.5f), best %.4f",
               (unsigned)m, (unsigned)q, X(s.x), X(s.y), X(g.x), X(g.y), best);
      TEST_FAIL_MESSAGE(msg);
    }
    TEST_ASSERT_EQUAL_MESSAGE(1, route.exact, "a point route not from the exact search");
    st->compared++;
    double ratio = best > 0 ? length(n) / best : 1;
    if (ratio > st->worst_ratio) st->worst_ratio = ratio;
    if (ratio <= 1.01) st->within_1pc++;
  }
}

void test_routes_on_random_maps_are_short_clear_and_pinned(void) {
  fxs_hasher pinned = fxs_hasher_make(), more = fxs_hasher_make();
  stats st = {1, 1e300, 0, 0, 0, 0};
  for (uint32_t m = 0; m < PINNED_MAPS; m++) run_map(m, &pinned, &st, COMPARED_MAPS > 0);
  for (uint32_t m = PINNED_MAPS; m < PINNED_MAPS + COMPARED_MAPS; m++) run_map(m, &more, &st, 1);
  FXS_TEST_REPORT(
      "mesh routes: %u maps, %u found, %u nearest; r = 0: %u compared, %u within 1 %%,"
      " worst ratio %.7f",
      (unsigned)(PINNED_MAPS + COMPARED_MAPS), (unsigned)st.found, (unsigned)st.nearest,
      (unsigned)st.compared, (unsigned)st.within_1pc, st.worst_ratio);
  FXS_TEST_REPORT("mesh routes: r > 0: worst clearance %.6f r; digest %08lx%08lx",
                  st.worst_clearance, (unsigned long)(pinned.state >> 32),
                  (unsigned long)(pinned.state & 0xFFFFFFFFu));
  // Point routes are the exact shortest paths (the exact search; lengths rounded to raw
  // units per leg). Radius routes keep r from every wall: no tolerance (the corners are
  // offset by r and FXS_MESH_ROUTE_MARGIN raw units; the distances here are doubles of
  // Q16.16 values, far more precise than that margin).
  TEST_ASSERT_TRUE(st.worst_clearance >= 1.0);
  if (COMPARED_MAPS > 0) {
    TEST_ASSERT_EQUAL_UINT32(st.compared, st.within_1pc);
    TEST_ASSERT_TRUE(st.compared >= 400u);
    TEST_ASSERT_TRUE(st.worst_ratio <= 1.000001);
  }
  TEST_ASSERT_EQUAL_HEX64(ROUTE_DIGEST, pinned.state);
}
