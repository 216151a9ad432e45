#include <math.h>
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "nav_grid.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define SIDE 32u
static uint8_t costs[SIDE * SIDE];

static fxs_nav_grid make_grid(int ox, int oy, int size, uint32_t w, uint32_t h, uint32_t fill) {
  fxs_nav_grid g;
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_nav_grid_init(&g, costs, SIDE * SIDE, w, h,
                                fxs_vec2_make(FXS_INT(ox), FXS_INT(oy)), FXS_INT(size), fill));
  return g;
}

static uint32_t at(const fxs_nav_grid *g, uint32_t cx, uint32_t cy) {
  return g->cost[cy * g->width + cx];
}

static uint32_t blocked_count(const fxs_nav_grid *g) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->width * g->height; ++i) n += g->cost[i] == 0;
  return n;
}

void test_init_refuses_bad_shapes_and_changes_nothing(void) {
  fxs_nav_grid g;
  memset(&g, 0x5A, sizeof g);
  fxs_nav_grid before = g;
  fxs_vec2 o = fxs_vec2_zero();
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, costs, 1024, 0, 3, o, FXS_ONE, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, costs, 1024, 3, 0, o, FXS_ONE, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, costs, 1024, 3, 3, o, 0, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, costs, 1024, 3, 3, o, -FXS_ONE, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, NULL, 1024, 3, 3, o, FXS_ONE, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_init(&g, costs, 1024, 3, 3, o, FXS_ONE, 255));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_nav_grid_init(&g, costs, 1024, FXS_NAV_MAX_SIDE + 1u, 1, o, FXS_ONE, 1));
  // 100 cells of 10 units from x = 32000 end beyond the Q16.16 range.
  TEST_ASSERT_EQUAL(
      FXS_ERR_BAD_VALUE,
      fxs_nav_grid_init(&g, costs, 1024, 100, 1, fxs_vec2_make(FXS_INT(32000), 0), FXS_INT(10), 1));
  // The raw value 0x80000000 is no Q16.16 value of the library.
  TEST_ASSERT_EQUAL(
      FXS_ERR_BAD_VALUE,
      fxs_nav_grid_init(&g, costs, 1024, 2, 2, fxs_vec2_make(0, (fix16_t)INT32_MIN), FXS_ONE, 1));
  // 2048 x 1024 cells: beyond FXS_NAV_MAX_CELLS, whatever the capacity.
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_nav_grid_init(&g, costs, UINT32_MAX, 2048, 1024, o, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_nav_grid_init(&g, costs, UINT32_MAX, FXS_NAV_MAX_SIDE,
                                                     FXS_NAV_MAX_SIDE, o, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_nav_grid_init(&g, costs, 8, 3, 3, o, FXS_ONE, 1));
  TEST_ASSERT_EQUAL_MEMORY(&before, &g, sizeof g);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_init(&g, costs, 9, 3, 3, o, FXS_ONE, 7));
  for (uint32_t i = 0; i < 9; ++i) TEST_ASSERT_EQUAL_UINT8(7, costs[i]);
}

// floor(a / b), b > 0, by division: what a cell's index is.
static int64_t reference_floor(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// A cell of a power-of-two size (a shift) and of any other (a division) give the same cell
// as floor division, on both sides of every line between cells and outside the grid, where
// the offset from the origin is negative.
void test_cells_of_power_of_two_and_other_sizes_are_floor_divisions(void) {
  static const fix16_t sizes[] = {1, 2, 65536, FXS_INT(8), 1 << 20, FXS_INT(3), 65537, FXS_INT(5)};
  const fxs_vec2 origin = fxs_vec2_make(FXS_INT(-37) + 12345, FXS_INT(21) - 777);
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    fxs_nav_grid g;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_init(&g, costs, SIDE * SIDE, 6, 5, origin, sizes[k], 1));
    static const int64_t nudges[] = {-1, 0, 1};
    for (int64_t j = -3; j <= 8; ++j) {
      for (size_t n = 0; n < 3; ++n) {
        int64_t off = j * sizes[k] + nudges[n];
        fxs_vec2 p = fxs_vec2_make((fix16_t)(origin.x + off), (fix16_t)(origin.y + off / 2));
        int64_t ix = reference_floor(off, sizes[k]), iy = reference_floor(off / 2, sizes[k]);
        uint32_t cx, cy;
        bool inside = fxs_nav_grid_cell_of(&g, p, &cx, &cy);
        TEST_ASSERT_EQUAL_UINT32(ix < 0 ? 0 : ix > 5 ? 5 : ix, cx);
        TEST_ASSERT_EQUAL_UINT32(iy < 0 ? 0 : iy > 4 ? 4 : iy, cy);
        TEST_ASSERT_EQUAL(ix >= 0 && ix <= 5 && iy >= 0 && iy <= 4, inside);
      }
    }
  }
}

void test_cells_and_centres_follow_the_flow_field_geometry(void) {
  fxs_nav_grid g = make_grid(-40, 20, 10, 8, 4, 1);
  uint32_t cx, cy;
  TEST_ASSERT_TRUE(fxs_nav_grid_cell_of(&g, fxs_vec2_make(FXS_INT(-40), FXS_INT(20)), &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(0, cx);
  TEST_ASSERT_EQUAL_UINT32(0, cy);
  // An edge shared by two cells belongs to the higher one.
  TEST_ASSERT_TRUE(fxs_nav_grid_cell_of(&g, fxs_vec2_make(FXS_INT(-30), FXS_INT(39)), &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(1, cx);
  TEST_ASSERT_EQUAL_UINT32(1, cy);
  TEST_ASSERT_TRUE(
      fxs_nav_grid_cell_of(&g, fxs_vec2_make(FXS_INT(-30) - 1, FXS_INT(60) - 1), &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(0, cx);
  TEST_ASSERT_EQUAL_UINT32(3, cy);
  // Outside: clamped and false.
  TEST_ASSERT_FALSE(fxs_nav_grid_cell_of(&g, fxs_vec2_make(FXS_MIN, FXS_MAX), &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(0, cx);
  TEST_ASSERT_EQUAL_UINT32(3, cy);
  TEST_ASSERT_FALSE(fxs_nav_grid_cell_of(&g, fxs_vec2_make(FXS_INT(40), FXS_INT(30)), &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(7, cx);
  fxs_vec2 c = fxs_nav_grid_cell_center(&g, 7, 3);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(35), c.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(55), c.y);
  // An odd raw size: half a cell rounded down.
  fxs_nav_grid odd;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_init(&odd, costs, 1024, 2, 2, fxs_vec2_zero(), 3, 1));
  c = fxs_nav_grid_cell_center(&odd, 1, 1);
  TEST_ASSERT_EQUAL_INT32(4, c.x);
  TEST_ASSERT_EQUAL_INT32(4, c.y);
}

void test_cost_outside_the_grid_is_blocked_and_corner_cutting_is_refused(void) {
  fxs_nav_grid g = make_grid(0, 0, 1, 3, 3, 1);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_grid_cost(&g, -1, 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_grid_cost(&g, 0, 3));
  TEST_ASSERT_EQUAL_UINT32(1, fxs_nav_grid_cost(&g, 2, 2));
  TEST_ASSERT_TRUE(fxs_nav_grid_can_step(&g, 0, 0, 4)); // NE into (1, 1)
  g.cost[1] = 0;                                        // (1, 0) blocked
  TEST_ASSERT_FALSE(fxs_nav_grid_can_step(&g, 0, 0, 4));
  TEST_ASSERT_FALSE(fxs_nav_grid_can_step(&g, 0, 0, 0)); // E into the blocked cell
  TEST_ASSERT_TRUE(fxs_nav_grid_can_step(&g, 0, 0, 1));
  TEST_ASSERT_FALSE(fxs_nav_grid_can_step(&g, 0, 0, 2)); // W: outside
  TEST_ASSERT_FALSE(fxs_nav_grid_can_step(&g, 0, 0, 6)); // SW: outside
  TEST_ASSERT_TRUE(fxs_nav_grid_can_step(&g, 1, 0, 1));  // a blocked cell may be left
  TEST_ASSERT_FALSE(fxs_nav_grid_can_step(&g, 1, 1, 8)); // no such direction
  int32_t dx, dy;
  fxs_nav_direction_step(5, &dx, &dy);
  TEST_ASSERT_EQUAL_INT32(-1, dx);
  TEST_ASSERT_EQUAL_INT32(1, dy);
}

void test_set_block_sets_exactly_the_block(void) {
  fxs_nav_grid g = make_grid(0, 0, 1, 6, 5, 1);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_set_block(&g, 1, 2, 3, 2, 9));
  for (uint32_t y = 0; y < 5; ++y) {
    for (uint32_t x = 0; x < 6; ++x) {
      uint32_t want = (x >= 1 && x <= 3 && y >= 2 && y <= 3) ? 9u : 1u;
      TEST_ASSERT_EQUAL_UINT32(want, at(&g, x, y));
    }
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_set_block(&g, 0, 0, 6, 5, 254));
  TEST_ASSERT_EQUAL_UINT32(254, at(&g, 5, 4));
}

void test_set_block_refuses_blocks_outside_the_grid_and_bad_costs(void) {
  fxs_nav_grid g = make_grid(0, 0, 1, 6, 5, 3);
  uint8_t before[30];
  memcpy(before, costs, 30);
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, -1, 0, 2, 2, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, 5, 0, 2, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, 0, 4, 1, 2, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, 6, 0, 1, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, 0, 0, INT64_MAX, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID,
                    fxs_nav_grid_set_block(&g, INT64_MIN, INT64_MIN, INT64_MAX, INT64_MAX, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_set_block(&g, INT64_MAX, 0, 1, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_set_block(&g, 0, 0, 0, 1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_set_block(&g, 0, 0, 1, -1, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_set_block(&g, 0, 0, 1, 1, 255));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_set_block(&g, 0, 0, 1, 1, UINT32_MAX));
  TEST_ASSERT_EQUAL_MEMORY(before, costs, 30);
}

void test_clip_block_keeps_the_part_inside(void) {
  fxs_nav_grid g = make_grid(0, 0, 1, 6, 5, 1);
  int64_t x = -3, y = 2, w = 5, h = INT64_MAX;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_clip_block(&g, &x, &y, &w, &h));
  TEST_ASSERT_EQUAL_INT64(0, x);
  TEST_ASSERT_EQUAL_INT64(2, y);
  TEST_ASSERT_EQUAL_INT64(2, w);
  TEST_ASSERT_EQUAL_INT64(3, h);
  x = INT64_MIN, y = INT64_MIN, w = INT64_MAX, h = INT64_MAX;
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_clip_block(&g, &x, &y, &w, &h));
  TEST_ASSERT_EQUAL_INT64(INT64_MIN, x); // unchanged on failure
  x = -3, y = 0, w = 3, h = 1;           // ends just before column 0
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_grid_clip_block(&g, &x, &y, &w, &h));
  x = 5, y = 4, w = 9, h = 9;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_clip_block(&g, &x, &y, &w, &h));
  TEST_ASSERT_EQUAL_INT64(1, w);
  TEST_ASSERT_EQUAL_INT64(1, h);
  w = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_clip_block(&g, &x, &y, &w, &h));
}

static fxs_wall wall_of(int ax, int ay, int bx, int by) {
  fxs_wall w = {fxs_vec2_make(FXS_INT(ax), FXS_INT(ay)), fxs_vec2_make(FXS_INT(bx), FXS_INT(by))};
  return w;
}

// A horizontal wall y = 50, x in [20, 80] on 10-unit cells: a cell's square is within r of
// it when its rows' band [10 cy, 10 cy + 10] comes within r of y = 50 and its columns' band
// within r of [20, 80], corners measured as points.
void test_a_wall_blocks_the_cells_within_the_radius_distance_ties_included(void) {
  fxs_nav_grid g = make_grid(0, 0, 10, 10, 10, 1);
  fxs_wall w = wall_of(20, 50, 80, 50);
  uint32_t changed;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, FXS_INT(5), &changed));
  TEST_ASSERT_EQUAL_UINT32(16, changed);
  for (uint32_t y = 0; y < 10; ++y) {
    for (uint32_t x = 0; x < 10; ++x) {
      bool want = (y == 4 || y == 5) && x >= 1 && x <= 8;
      TEST_ASSERT_EQUAL_UINT32(want ? 0u : 1u, at(&g, x, y));
    }
  }
  // Radius 10: rows 3 and 6 are exactly 10 away (blocked), columns 0 and 9 of rows 4-5 too;
  // the square of (0, 3) is sqrt(200) away from the end (20, 50).
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, FXS_INT(10), &changed));
  TEST_ASSERT_EQUAL_UINT32(20, changed);
  TEST_ASSERT_EQUAL_UINT32(36, blocked_count(&g));
  TEST_ASSERT_EQUAL_UINT32(0, at(&g, 0, 4));
  TEST_ASSERT_EQUAL_UINT32(0, at(&g, 9, 5));
  TEST_ASSERT_EQUAL_UINT32(0, at(&g, 1, 3));
  TEST_ASSERT_EQUAL_UINT32(1, at(&g, 0, 3));
  TEST_ASSERT_EQUAL_UINT32(1, at(&g, 1, 2));
  // One LSB less than 10: rows 3 and 6 and columns 0 and 9 stay walkable.
  g = make_grid(0, 0, 10, 10, 10, 1);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, FXS_INT(10) - 1, &changed));
  TEST_ASSERT_EQUAL_UINT32(16, changed);
}

// Distance from point (px, py) to the segment, in doubles (reference only).
static double point_segment(double px, double py, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy;
  double t = len > 0 ? ((px - ax) * dx + (py - ay) * dy) / len : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double qx = ax + t * dx - px, qy = ay + t * dy - py;
  return sqrt(qx * qx + qy * qy);
}

static bool segments_cross(double ax, double ay, double bx, double by, double cx, double cy,
                           double ex, double ey) {
  double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  double d2 = (bx - ax) * (ey - ay) - (by - ay) * (ex - ax);
  double d3 = (ex - cx) * (ay - cy) - (ey - cy) * (ax - cx);
  double d4 = (ex - cx) * (by - cy) - (ey - cy) * (bx - cx);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

// Distance from the segment to the square [x0, x1] x [y0, y1], in doubles.
static double segment_square(double ax, double ay, double bx, double by, double x0, double y0,
                             double x1, double y1) {
  if (ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1) return 0;
  const double cx[4] = {x0, x1, x1, x0}, cy[4] = {y0, y0, y1, y1};
  double best = 1e300;
  for (int k = 0; k < 4; ++k) {
    if (segments_cross(ax, ay, bx, by, cx[k], cy[k], cx[(k + 1) % 4], cy[(k + 1) % 4])) return 0;
    double d = point_segment(cx[k], cy[k], ax, ay, bx, by);
    if (d < best) best = d;
    d = point_segment(ax, ay, cx[k], cy[k], cx[(k + 1) % 4], cy[(k + 1) % 4]);
    if (d < best) best = d;
    d = point_segment(bx, by, cx[k], cy[k], cx[(k + 1) % 4], cy[(k + 1) % 4]);
    if (d < best) best = d;
  }
  return best;
}

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// Seeded walls of every slope, some beyond the grid: every cell whose distance to the wall
// differs from the radius by more than 1e-6 units is blocked exactly when a double-precision
// reference says it is within the radius.
void test_walls_of_any_slope_match_a_reference_distance(void) {
  uint32_t seed = 12345u, checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    fxs_nav_grid g = make_grid(-40, -30, 7, 20, 16, 1);
    fix16_t coords[4];
    for (int k = 0; k < 4; ++k) coords[k] = (fix16_t)(lcg(&seed) % (200u << 16)) - FXS_INT(80);
    if (trial % 10 == 0) coords[2] = coords[0];                        // vertical
    if (trial % 10 == 1) coords[3] = coords[1];                        // horizontal
    if (trial % 10 == 2) coords[2] = coords[0], coords[3] = coords[1]; // a point
    fxs_wall w = {fxs_vec2_make(coords[0], coords[1]), fxs_vec2_make(coords[2], coords[3])};
    fix16_t r = (fix16_t)(lcg(&seed) % (12u << 16));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, r, NULL));
    double ax = fxs_test_to_double(coords[0]), ay = fxs_test_to_double(coords[1]);
    double bx = fxs_test_to_double(coords[2]), by = fxs_test_to_double(coords[3]);
    double rr = fxs_test_to_double(r);
    for (uint32_t cy = 0; cy < g.height; ++cy) {
      for (uint32_t cx = 0; cx < g.width; ++cx) {
        double x0 = -40 + 7.0 * cx, y0 = -30 + 7.0 * cy;
        double d = segment_square(ax, ay, bx, by, x0, y0, x0 + 7, y0 + 7);
        if (fabs(d - rr) < 1e-6) continue;
        TEST_ASSERT_EQUAL_UINT32_MESSAGE(d <= rr ? 0u : 1u, at(&g, cx, cy), "wall cell");
        checked++;
      }
    }
  }
  TEST_ASSERT_GREATER_THAN_UINT32(90000, checked);
}

// An obstacle of radius 10 at (50, 50), agents of radius 5: squares within 15 of the centre.
// A square beside the centre's cells is 10 away on one axis (or sqrt(200) diagonally), the
// next ones 20: the 4 x 4 cells [3, 6]^2.
void test_an_obstacle_blocks_the_squares_within_both_radii(void) {
  fxs_nav_grid g = make_grid(0, 0, 10, 10, 10, 2);
  fxs_obstacle o = {fxs_vec2_make(FXS_INT(50), FXS_INT(50)), FXS_INT(10)};
  uint32_t changed;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_obstacle(&g, &o, FXS_INT(5), &changed));
  TEST_ASSERT_EQUAL_UINT32(16, changed);
  for (uint32_t y = 0; y < 10; ++y) {
    for (uint32_t x = 0; x < 10; ++x) {
      bool want = x >= 3 && x <= 6 && y >= 3 && y <= 6;
      TEST_ASSERT_EQUAL_UINT32(want ? 0u : 2u, at(&g, x, y));
    }
  }
  // Again: nothing changes.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_obstacle(&g, &o, FXS_INT(5), &changed));
  TEST_ASSERT_EQUAL_UINT32(0, changed);
  // sqrt(200) = 14.142...: with both radii at 14.14 the diagonal squares stay walkable.
  g = make_grid(0, 0, 10, 10, 10, 2);
  o.radius = FXS_INT(9);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_obstacle(&g, &o, FXS_RATIO(514, 100), &changed));
  TEST_ASSERT_EQUAL_UINT32(12, changed);
  TEST_ASSERT_EQUAL_UINT32(2, at(&g, 3, 3));
  TEST_ASSERT_EQUAL_UINT32(0, at(&g, 3, 4));
}

void test_rasterization_refuses_negative_radii_and_bounds_hostile_sizes(void) {
  fxs_nav_grid g = make_grid(0, 0, 10, 10, 10, 1);
  fxs_wall w = wall_of(0, 0, 10, 10);
  fxs_obstacle o = {fxs_vec2_make(FXS_INT(50), FXS_INT(50)), FXS_INT(10)};
  uint32_t changed = 77;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_block_wall(&g, &w, -1, &changed));
  TEST_ASSERT_EQUAL_UINT32(0, changed);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_block_obstacle(&g, &o, -1, NULL));
  o.radius = -1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_grid_block_obstacle(&g, &o, 0, NULL));
  TEST_ASSERT_EQUAL_UINT32(0, blocked_count(&g));
  // Walls and obstacles far outside: nothing; across the whole range: only what they touch.
  // x = FXS_MIN is FXS_MAX raw units left of column 0: a tie at radius FXS_MAX blocks it.
  w.a = fxs_vec2_make(FXS_MIN, FXS_MIN), w.b = fxs_vec2_make(FXS_MIN, FXS_MAX);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, FXS_MAX - 1, &changed));
  TEST_ASSERT_EQUAL_UINT32(0, changed);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, FXS_MAX, &changed));
  TEST_ASSERT_EQUAL_UINT32(10, changed);
  TEST_ASSERT_EQUAL_UINT32(0, at(&g, 0, 9));
  g = make_grid(0, 0, 10, 10, 10, 1);
  w.a = fxs_vec2_make(FXS_MIN, FXS_INT(55)), w.b = fxs_vec2_make(FXS_MAX, FXS_INT(55));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, 0, &changed));
  TEST_ASSERT_EQUAL_UINT32(10, changed);
  w.a = fxs_vec2_make(FXS_MIN, FXS_MIN), w.b = fxs_vec2_make(FXS_MAX, FXS_MAX);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&g, &w, 0, &changed));
  // The diagonal y = x through the grid touches the 10 diagonal squares and the 18 beside
  // them at their corners; (4, 5), (5, 5) and (6, 5) are in row 5, blocked already.
  TEST_ASSERT_EQUAL_UINT32(10 + 18 - 3, changed);
  o.center = fxs_vec2_make(FXS_MAX, FXS_MIN), o.radius = FXS_MAX;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_obstacle(&g, &o, FXS_MAX, &changed));
  TEST_ASSERT_EQUAL_UINT32(100, blocked_count(&g));
}
