#include "fixsteer/nav_grid.h"

#include <stddef.h>

#include "exact.h"
#include "nav_grid_cell.h"
#include "nav_grid_spans.h"

static const int8_t step_x[FXS_NAV_DIRECTIONS] = {1, 0, -1, 0, 1, -1, -1, 1};
static const int8_t step_y[FXS_NAV_DIRECTIONS] = {0, 1, 0, -1, 1, 1, -1, -1};

void fxs_nav_direction_step(uint32_t dir, int32_t *dx, int32_t *dy) {
  FXS_ASSERT(dir < FXS_NAV_DIRECTIONS);
  *dx = dir < FXS_NAV_DIRECTIONS ? step_x[dir] : 0;
  *dy = dir < FXS_NAV_DIRECTIONS ? step_y[dir] : 0;
}

fxs_result fxs_nav_grid_check(fxs_vec2 origin, fix16_t cell_size, uint32_t width, uint32_t height) {
  if (cell_size <= 0 || width < 1 || height < 1 || width > FXS_NAV_MAX_SIDE ||
      height > FXS_NAV_MAX_SIDE) {
    return FXS_ERR_BAD_VALUE;
  }
  // Every corner and centre must be a Q16.16 value, so cell geometry is exact.
  if ((int64_t)origin.x + (int64_t)width * cell_size > FXS_MAX ||
      (int64_t)origin.y + (int64_t)height * cell_size > FXS_MAX || origin.x < FXS_MIN ||
      origin.y < FXS_MIN) {
    return FXS_ERR_BAD_VALUE;
  }
  return (uint64_t)width * height > FXS_NAV_MAX_CELLS ? FXS_ERR_LIMIT : FXS_OK;
}

fxs_result fxs_nav_grid_init(fxs_nav_grid *grid, uint8_t *cost, uint32_t capacity, uint32_t width,
                             uint32_t height, fxs_vec2 origin, fix16_t cell_size, uint32_t fill) {
  fxs_result r = fxs_nav_grid_check(origin, cell_size, width, height);
  if (r != FXS_OK) return r;
  if (cost == NULL || fill > FXS_NAV_MAX_COST) return FXS_ERR_BAD_VALUE;
  if ((uint64_t)width * height > capacity) return FXS_ERR_BUFFER_TOO_SMALL;
  grid->origin = origin;
  grid->cell_size = cell_size;
  grid->width = width;
  grid->height = height;
  grid->cost = cost;
  for (uint32_t i = 0; i < width * height; ++i) cost[i] = (uint8_t)fill;
  return FXS_OK;
}

uint32_t fxs_nav_grid_cells(const fxs_nav_grid *grid) { return grid->width * grid->height; }

int64_t fxs_nav_floor_div_any(int64_t a, fix16_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// The column (row) of coordinate p, unclamped.
static int64_t index_of(fix16_t p, fix16_t origin, fix16_t size) {
  return fxs_nav_floor_div((int64_t)p - origin, size);
}

static int64_t clamp_index(int64_t i, uint32_t n) {
  return i < 0 ? 0 : i >= (int64_t)n ? (int64_t)n - 1 : i;
}

bool fxs_nav_grid_cell_of(const fxs_nav_grid *grid, fxs_vec2 position, uint32_t *cx, uint32_t *cy) {
  return fxs_nav_grid_cell_of_inline(grid, position, cx, cy);
}

fxs_vec2 fxs_nav_grid_cell_center(const fxs_nav_grid *grid, uint32_t cx, uint32_t cy) {
  int64_t half = grid->cell_size / 2;
  return fxs_vec2_make((fix16_t)((int64_t)grid->origin.x + (int64_t)cx * grid->cell_size + half),
                       (fix16_t)((int64_t)grid->origin.y + (int64_t)cy * grid->cell_size + half));
}

uint32_t fxs_nav_grid_cost(const fxs_nav_grid *grid, int64_t cx, int64_t cy) {
  if (cx < 0 || cy < 0 || cx >= (int64_t)grid->width || cy >= (int64_t)grid->height) {
    return FXS_NAV_BLOCKED;
  }
  return grid->cost[(size_t)cy * grid->width + (size_t)cx];
}

bool fxs_nav_grid_can_step(const fxs_nav_grid *grid, uint32_t cx, uint32_t cy, uint32_t dir) {
  if (dir >= FXS_NAV_DIRECTIONS) return false;
  int64_t nx = (int64_t)cx + step_x[dir], ny = (int64_t)cy + step_y[dir];
  if (fxs_nav_grid_cost(grid, nx, ny) == FXS_NAV_BLOCKED) return false;
  if (dir < 4) return true;
  return fxs_nav_grid_cost(grid, nx, cy) != FXS_NAV_BLOCKED &&
         fxs_nav_grid_cost(grid, cx, ny) != FXS_NAV_BLOCKED;
}

fxs_result fxs_nav_grid_set_block(fxs_nav_grid *grid, int64_t x, int64_t y, int64_t w, int64_t h,
                                  uint32_t cost) {
  if (cost > FXS_NAV_MAX_COST || w <= 0 || h <= 0) return FXS_ERR_BAD_VALUE;
  if (x < 0 || y < 0 || x >= (int64_t)grid->width || y >= (int64_t)grid->height ||
      w > (int64_t)grid->width - x || h > (int64_t)grid->height - y) {
    return FXS_ERR_OUTSIDE_GRID;
  }
  for (int64_t row = y; row < y + h; ++row) {
    uint8_t *line = grid->cost + (size_t)row * grid->width;
    for (int64_t col = x; col < x + w; ++col) line[col] = (uint8_t)cost;
  }
  return FXS_OK;
}

// [lo, lo + n) clipped to [0, side); false when nothing is left. n > 0; any lo (the sums
// below cannot overflow: begin + n is formed only with begin < 0 < n or begin, n in range).
static bool clip_range(int64_t *lo, int64_t *n, uint32_t side) {
  int64_t begin = *lo, count = *n;
  if (begin >= (int64_t)side) return false;
  if (begin < 0) {
    count += begin; // the cells below 0 are dropped
    if (count <= 0) return false;
    begin = 0;
  }
  if (count > (int64_t)side - begin) count = (int64_t)side - begin;
  *lo = begin;
  *n = count;
  return true;
}

fxs_result fxs_nav_grid_clip_block(const fxs_nav_grid *grid, int64_t *x, int64_t *y, int64_t *w,
                                   int64_t *h) {
  if (*w <= 0 || *h <= 0) return FXS_ERR_BAD_VALUE;
  int64_t cx = *x, cy = *y, cw = *w, ch = *h;
  if (!clip_range(&cx, &cw, grid->width) || !clip_range(&cy, &ch, grid->height)) {
    return FXS_ERR_OUTSIDE_GRID;
  }
  *x = cx, *y = cy, *w = cw, *h = ch;
  return FXS_OK;
}

// ---------------------------------------------------------------- exact geometry
// Coordinates are raw Q16.16 in int64; differences stay below 2^33, products below 2^66,
// kept exactly as a sign and a 128-bit magnitude.

typedef struct signed_wide {
  int sign; // -1, 0, 1
  fxs_u128 mag;
} signed_wide;

static signed_wide product(int64_t a, int64_t b) {
  signed_wide p;
  p.mag = fxs_u128_mul(fxs_exact_magnitude(a), fxs_exact_magnitude(b));
  p.sign = (p.mag.hi | p.mag.lo) == 0 ? 0 : ((a < 0) != (b < 0) ? -1 : 1);
  return p;
}

static fxs_u128 u128_sub(fxs_u128 a, fxs_u128 b) { // a >= b
  fxs_u128 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1u : 0u);
  return r;
}

// x - y, exact (magnitudes below 2^127).
static signed_wide wide_sub(signed_wide x, signed_wide y) {
  signed_wide r;
  if (y.sign == 0) return x;
  if (x.sign == 0) {
    y.sign = -y.sign;
    return y;
  }
  if (x.sign != y.sign) { // x - y = x + |y| sign(x)
    r.sign = x.sign;
    r.mag = fxs_u128_add(x.mag, y.mag);
    return r;
  }
  int c = fxs_u128_compare(x.mag, y.mag);
  if (c == 0) {
    r.sign = 0;
    r.mag.hi = r.mag.lo = 0;
  } else if (c > 0) {
    r.sign = x.sign;
    r.mag = u128_sub(x.mag, y.mag);
  } else {
    r.sign = -x.sign;
    r.mag = u128_sub(y.mag, x.mag);
  }
  return r;
}

// Sign of a * b - c * d. With every magnitude below 2^31 both products are below 2^62 and
// their difference below 2^63: plain int64 is exact (the usual case: a wall and a cell
// within 32,768 units of each other, all_small); otherwise 128 bits.
static bool all_small(int64_t a, int64_t b, int64_t c, int64_t d) {
  const int64_t small = (int64_t)1 << 31;
  return a > -small && a < small && b > -small && b < small && c > -small && c < small &&
         d > -small && d < small;
}

static int sign_of_difference(int64_t a, int64_t b, int64_t c, int64_t d) {
  if (all_small(a, b, c, d)) {
    int64_t v = a * b - c * d;
    return v > 0 ? 1 : v < 0 ? -1 : 0;
  }
  return wide_sub(product(a, b), product(c, d)).sign;
}

static fxs_u128 square_sum(uint64_t dx, uint64_t dy) {
  return fxs_u128_add(fxs_u128_mul(dx, dx), fxs_u128_mul(dy, dy));
}

// dx^2 + dy^2 <= r^2: in 64 bits when all three are below 2^31 (each square below 2^62),
// else in 128.
static bool squares_within(uint64_t dx, uint64_t dy, uint64_t r) {
  const uint64_t small = (uint64_t)1 << 31;
  if (dx < small && dy < small && r < small) return dx * dx + dy * dy <= r * r;
  return fxs_u128_compare(square_sum(dx, dy), fxs_u128_mul(r, r)) <= 0;
}

typedef struct box {
  int64_t x0, y0, x1, y1;
} box;

// |p - box|^2 <= r^2 (the closed box), r < 2^33.
static bool point_box_within(int64_t px, int64_t py, const box *b, uint64_t r) {
  uint64_t dx = px < b->x0 ? (uint64_t)(b->x0 - px) : px > b->x1 ? (uint64_t)(px - b->x1) : 0;
  uint64_t dy = py < b->y0 ? (uint64_t)(b->y0 - py) : py > b->y1 ? (uint64_t)(py - b->y1) : 0;
  return squares_within(dx, dy, r);
}

static bool point_point_within(int64_t px, int64_t py, int64_t qx, int64_t qy, uint64_t r) {
  return squares_within(fxs_exact_magnitude(px - qx), fxs_exact_magnitude(py - qy), r);
}

typedef struct segment {
  int64_t ax, ay, bx, by;
} segment;

// Distance from p to the segment <= r (r < 2^31).
static bool point_segment_within(int64_t px, int64_t py, const segment *s, uint64_t r) {
  int64_t dx = s->bx - s->ax, dy = s->by - s->ay;
  int64_t wx = px - s->ax, wy = py - s->ay;
  // (p - a) . d <= 0: a is the closest point; (p - b) . d >= 0: b is.
  if (sign_of_difference(wx, dx, -wy, dy) <= 0) return point_point_within(px, py, s->ax, s->ay, r);
  if (sign_of_difference(px - s->bx, dx, -(py - s->by), dy) >= 0) {
    return point_point_within(px, py, s->bx, s->by, r);
  }
  // Inside the span: cross(d, p - a)^2 <= r^2 |d|^2. |d|^2 < 2^65 and r^2 < 2^62, so the
  // right side is below 2^127; a cross product of 2^64 or more is farther than r.
  uint64_t cross_mag;
  if (all_small(dx, wy, dy, wx)) { // exact in int64, as in sign_of_difference
    int64_t v = dx * wy - dy * wx;
    cross_mag = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
  } else {
    signed_wide cross = wide_sub(product(dx, wy), product(dy, wx));
    if (cross.mag.hi != 0) return false;
    cross_mag = cross.mag.lo;
  }
  fxs_u128 left = fxs_u128_mul(cross_mag, cross_mag);
  fxs_u128 len_sq = square_sum(fxs_exact_magnitude(dx), fxs_exact_magnitude(dy));
  uint64_t r_sq = r * r;
  fxs_u128 right = fxs_u128_mul(r_sq, len_sq.lo);
  if (len_sq.hi != 0) right.hi += r_sq; // len_sq.hi is 0 or 1
  return fxs_u128_compare(left, right) <= 0;
}

// Whether the segment meets the closed box (separating axes: x, y and the segment's normal).
static bool segment_meets_box(const segment *s, const box *b) {
  int64_t minx = s->ax < s->bx ? s->ax : s->bx, maxx = s->ax < s->bx ? s->bx : s->ax;
  int64_t miny = s->ay < s->by ? s->ay : s->by, maxy = s->ay < s->by ? s->by : s->ay;
  if (maxx < b->x0 || minx > b->x1 || maxy < b->y0 || miny > b->y1) return false;
  int64_t dx = s->bx - s->ax, dy = s->by - s->ay;
  const int64_t cx[4] = {b->x0, b->x1, b->x1, b->x0}, cy[4] = {b->y0, b->y0, b->y1, b->y1};
  int positive = 0, negative = 0;
  for (int k = 0; k < 4; ++k) {
    int side = sign_of_difference(dx, cy[k] - s->ay, dy, cx[k] - s->ax);
    positive += side > 0;
    negative += side < 0;
  }
  return positive != 4 && negative != 4;
}

// Distance between the segment and the closed box <= r: they meet, or an end of the segment
// is within r of the box, or a corner of the box within r of the segment.
static bool segment_box_within(const segment *s, const box *b, uint64_t r) {
  if (segment_meets_box(s, b)) return true;
  if (point_box_within(s->ax, s->ay, b, r) || point_box_within(s->bx, s->by, b, r)) return true;
  const int64_t cx[4] = {b->x0, b->x1, b->x1, b->x0}, cy[4] = {b->y0, b->y0, b->y1, b->y1};
  for (int k = 0; k < 4; ++k) {
    if (point_segment_within(cx[k], cy[k], s, r)) return true;
  }
  return false;
}

static box cell_box(const fxs_nav_grid *grid, int64_t cx, int64_t cy) {
  box b;
  b.x0 = (int64_t)grid->origin.x + cx * grid->cell_size;
  b.y0 = (int64_t)grid->origin.y + cy * grid->cell_size;
  b.x1 = b.x0 + grid->cell_size;
  b.y1 = b.y0 + grid->cell_size;
  return b;
}

// Blocks cell (cx, cy) (inside the grid); counts a change.
static void block_cell(fxs_nav_grid *grid, int64_t cx, int64_t cy, uint32_t *changed) {
  uint8_t *c = &grid->cost[(size_t)cy * grid->width + (size_t)cx];
  if (*c != FXS_NAV_BLOCKED) {
    *c = FXS_NAV_BLOCKED;
    ++*changed;
  }
}

// The columns (rows) [i0, i1] whose closed bands meet [lo, hi], clipped to [0, n); false
// when none does. A coordinate on a line between two bands meets both: the lower index
// from floor() is one too high then, so one more is taken (the exact test decides).
static bool span(int64_t lo, int64_t hi, fix16_t origin, fix16_t size, uint32_t n, int64_t *i0,
                 int64_t *i1) {
  int64_t a = fxs_nav_floor_div(lo - origin, size) - 1, b = fxs_nav_floor_div(hi - origin, size);
  if (b < 0 || a >= (int64_t)n) return false;
  *i0 = clamp_index(a, n);
  *i1 = clamp_index(b, n);
  return true;
}

// x of the segment at height y (y within its y-range, dy != 0) to within err raw units.
static int64_t x_at(const segment *s, int64_t y, int64_t *err) {
  int64_t dx = s->bx - s->ax, dy = s->by - s->ay;
  int64_t t = ((y - s->ay) * 65536) / dy; // in [0, 65536], within 1 of the exact ratio
  *err = (int64_t)(fxs_exact_magnitude(dx) >> 16) + 2;
  return s->ax + (t * dx) / 65536;
}

// Columns [c0, c1] of row cy that can come within r of the segment, clipped; false if none.
static bool row_columns(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                        int64_t *c0, int64_t *c1) {
  int64_t miny = s->ay < s->by ? s->ay : s->by, maxy = s->ay < s->by ? s->by : s->ay;
  int64_t minx = s->ax < s->bx ? s->ax : s->bx, maxx = s->ax < s->bx ? s->bx : s->ax;
  box row = cell_box(grid, 0, cy);
  int64_t lo = row.y0 - r > miny ? row.y0 - r : miny;
  int64_t hi = row.y1 + r < maxy ? row.y1 + r : maxy;
  if (lo > hi) return false;
  int64_t x0 = minx, x1 = maxx;
  if (s->by != s->ay) {
    int64_t err;
    int64_t xa = x_at(s, lo, &err), xb = x_at(s, hi, &err);
    x0 = (xa < xb ? xa : xb) - err;
    x1 = (xa < xb ? xb : xa) + err;
    if (x0 < minx) x0 = minx;
    if (x1 > maxx) x1 = maxx;
  }
  return span(x0 - r, x1 + r, grid->origin.x, grid->cell_size, grid->width, c0, c1);
}

fxs_result fxs_nav_grid_block_wall(fxs_nav_grid *grid, const fxs_wall *wall, fix16_t radius,
                                   uint32_t *changed) {
  uint32_t count = 0;
  if (changed) *changed = 0;
  if (radius < 0) return FXS_ERR_BAD_VALUE;
  segment s = {wall->a.x, wall->a.y, wall->b.x, wall->b.y};
  int64_t r = radius;
  int64_t miny = s.ay < s.by ? s.ay : s.by, maxy = s.ay < s.by ? s.by : s.ay;
  int64_t r0, r1;
  if (!span(miny - r, maxy + r, grid->origin.y, grid->cell_size, grid->height, &r0, &r1)) {
    return FXS_OK;
  }
  for (int64_t cy = r0; cy <= r1; ++cy) {
    int64_t c0, c1;
    if (!row_columns(grid, &s, cy, r, &c0, &c1)) continue;
    for (int64_t cx = c0; cx <= c1; ++cx) {
      box b = cell_box(grid, cx, cy);
      if (segment_box_within(&s, &b, (uint64_t)r)) block_cell(grid, cx, cy, &count);
    }
  }
  if (changed) *changed = count;
  return FXS_OK;
}

fxs_result fxs_nav_grid_block_obstacle(fxs_nav_grid *grid, const fxs_obstacle *obstacle,
                                       fix16_t radius, uint32_t *changed) {
  uint32_t count = 0;
  if (changed) *changed = 0;
  if (radius < 0 || obstacle->radius < 0) return FXS_ERR_BAD_VALUE;
  int64_t r = (int64_t)obstacle->radius + radius; // < 2^32
  int64_t px = obstacle->center.x, py = obstacle->center.y;
  int64_t x0, x1, y0, y1;
  if (!span(px - r, px + r, grid->origin.x, grid->cell_size, grid->width, &x0, &x1) ||
      !span(py - r, py + r, grid->origin.y, grid->cell_size, grid->height, &y0, &y1)) {
    return FXS_OK;
  }
  for (int64_t cy = y0; cy <= y1; ++cy) {
    for (int64_t cx = x0; cx <= x1; ++cx) {
      box b = cell_box(grid, cx, cy);
      if (point_box_within(px, py, &b, (uint64_t)r)) block_cell(grid, cx, cy, &count);
    }
  }
  if (changed) *changed = count;
  return FXS_OK;
}

// ------------------------------------------------------------------ runs (nav_grid_spans.h)

static bool wall_cell(const fxs_nav_grid *grid, const segment *s, int64_t cx, int64_t cy,
                      int64_t r) {
  box b = cell_box(grid, cx, cy);
  return segment_box_within(s, &b, (uint64_t)r);
}

// Exact tests a run's end is looked for by walking in before bisection takes over.
#define WALK_TESTS 4

// Walks from column `from` toward `to` (step +1 or -1), at most WALK_TESTS tests: 1 and the
// first blocked column in *at, 0 when the whole range is free, -1 when the walk gave up (*at:
// the first column not tested).
static int walk(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r, int64_t from,
                int64_t to, int step, int64_t *at) {
  int64_t c = from;
  for (int k = 0; k < WALK_TESTS; ++k, c += step) {
    if ((step > 0 && c > to) || (step < 0 && c < to)) return 0;
    if (wall_cell(grid, s, c, cy, r)) {
      *at = c;
      return 1;
    }
  }
  *at = c;
  return (step > 0 && c > to) || (step < 0 && c < to) ? 0 : -1;
}

// The first blocked column of [lo, hi], hi blocked (the blocked columns are a run).
static int64_t first_blocked(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                             int64_t lo, int64_t hi) {
  while (lo < hi) {
    int64_t m = lo + (hi - lo) / 2;
    if (wall_cell(grid, s, m, cy, r)) hi = m;
    else lo = m + 1;
  }
  return hi;
}

// The last blocked column of [lo, hi], lo blocked.
static int64_t last_blocked(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                            int64_t lo, int64_t hi) {
  while (lo < hi) {
    int64_t m = hi - (hi - lo) / 2;
    if (wall_cell(grid, s, m, cy, r)) lo = m;
    else hi = m - 1;
  }
  return lo;
}

// A blocked column of row cy in [c0, c1]: 1 and *m, 0 when the row has none, -1 when not
// found (then walk). Off the segment's rows, the cell holding the end nearest the row is the
// nearest to it of the row (only the gap in y remains); clamped to [c0, c1] it still is
// within them (distance along a row is convex). Across them the cell holding the segment's
// point at a height of the row is at distance 0; that point's x is known to 2 units only,
// so it and its two neighbours are tried.
static int blocked_column(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                          int64_t c0, int64_t c1, int64_t *m) {
  box row = cell_box(grid, 0, cy);
  int64_t miny = s->ay < s->by ? s->ay : s->by, maxy = s->ay < s->by ? s->by : s->ay;
  int64_t x;
  bool exact = true;
  if (maxy < row.y0 || miny > row.y1) {
    int64_t ey = maxy < row.y0 ? maxy : miny;
    x = s->ay == ey ? s->ax : s->bx;
  } else if (s->ay == s->by) {
    x = s->ax;
  } else {
    int64_t err;
    x = x_at(s, miny > row.y0 ? miny : row.y0, &err);
    exact = false;
  }
  int64_t c = fxs_nav_floor_div(x - grid->origin.x, grid->cell_size);
  c = c < c0 ? c0 : c > c1 ? c1 : c;
  if (wall_cell(grid, s, c, cy, r)) {
    *m = c;
    return 1;
  }
  if (exact) return 0;
  for (int d = -1; d <= 1; d += 2) {
    if (c + d >= c0 && c + d <= c1 && wall_cell(grid, s, c + d, cy, r)) {
      *m = c + d;
      return 1;
    }
  }
  return -1;
}

// From a blocked column g, the run's first column in [lo, g]: steps of 1, 2, 4, ... down to a
// free column, then a bisection (the run's end is usually within a few columns of a
// neighbouring row's).
static int64_t gallop_first(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                            int64_t lo, int64_t g) {
  int64_t step = 1;
  while (g > lo) {
    int64_t probe = g - step < lo ? lo : g - step;
    if (!wall_cell(grid, s, probe, cy, r)) return first_blocked(grid, s, cy, r, probe + 1, g);
    g = probe;
    step *= 2;
  }
  return lo;
}

// The same for the run's last column in [g, hi].
static int64_t gallop_last(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                           int64_t g, int64_t hi) {
  int64_t step = 1;
  while (g < hi) {
    int64_t probe = g + step > hi ? hi : g + step;
    if (!wall_cell(grid, s, probe, cy, r)) return last_blocked(grid, s, cy, r, g, probe - 1);
    g = probe;
    step *= 2;
  }
  return hi;
}

// The previous row's run (set: it had one), where a row's run is looked for first.
typedef struct run_hint {
  bool set;
  int64_t first, last;
} run_hint;

static int64_t clamp_to(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

// The run of row cy from the previous row's: when the cell below its first or its last
// column is blocked, gallop out from it to both ends. False when neither is blocked.
static bool run_from_hint(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                          int64_t c0, int64_t c1, const run_hint *h, int64_t *first,
                          int64_t *last) {
  if (!h->set) return false;
  int64_t g = clamp_to(h->first, c0, c1);
  if (!wall_cell(grid, s, g, cy, r)) {
    g = clamp_to(h->last, c0, c1);
    if (!wall_cell(grid, s, g, cy, r)) return false;
  }
  *first = gallop_first(grid, s, cy, r, c0, g);
  *last = gallop_last(grid, s, cy, r, g, c1);
  return true;
}

// The run of row cy inside the candidate columns [c0, c1] in *first, *last (false: none):
// its ends walked to when near the candidates' ends (a thin wall), else bisected from a
// blocked column (a fat one).
static bool run_of_row(const fxs_nav_grid *grid, const segment *s, int64_t cy, int64_t r,
                       int64_t c0, int64_t c1, int64_t *first_out, int64_t *last_out) {
  int64_t first = c0, last = c1, m = c0;
  int a = walk(grid, s, cy, r, c0, c1, 1, &first);
  if (a == 0) return false;
  if (a < 0) {
    int found = blocked_column(grid, s, cy, r, c0, c1, &m);
    if (found == 0) return false;
    if (found < 0) { // walk on, one test a column
      while (first <= c1 && !wall_cell(grid, s, first, cy, r)) ++first;
      if (first > c1) return false;
      m = first;
    }
    first = first_blocked(grid, s, cy, r, first < m ? first : m, m);
  }
  int b = walk(grid, s, cy, r, c1, first, -1, &last);
  if (b < 0) last = last_blocked(grid, s, cy, r, first, last);
  *first_out = first, *last_out = last;
  return true;
}

void fxs_nav_grid_wall_spans(const fxs_nav_grid *grid, const fxs_wall *wall, fix16_t radius,
                             fxs_nav_span_fn *fn, void *context) {
  if (radius < 0) return;
  segment s = {wall->a.x, wall->a.y, wall->b.x, wall->b.y};
  int64_t r = radius;
  int64_t miny = s.ay < s.by ? s.ay : s.by, maxy = s.ay < s.by ? s.by : s.ay;
  int64_t r0, r1;
  if (!span(miny - r, maxy + r, grid->origin.y, grid->cell_size, grid->height, &r0, &r1)) return;
  run_hint hint = {false, 0, 0};
  for (int64_t cy = r0; cy <= r1; ++cy) {
    int64_t c0, c1, first, last;
    hint.set = row_columns(grid, &s, cy, r, &c0, &c1) &&
               (run_from_hint(grid, &s, cy, r, c0, c1, &hint, &first, &last) ||
                run_of_row(grid, &s, cy, r, c0, c1, &first, &last));
    if (!hint.set) continue;
    hint.first = first, hint.last = last;
    fn(context, (uint32_t)cy, (uint32_t)first, (uint32_t)last);
  }
}

void fxs_nav_grid_obstacle_spans(const fxs_nav_grid *grid, const fxs_obstacle *obstacle,
                                 fix16_t radius, fxs_nav_span_fn *fn, void *context) {
  if (radius < 0 || obstacle->radius < 0) return;
  int64_t r = (int64_t)obstacle->radius + radius; // < 2^32
  int64_t px = obstacle->center.x, py = obstacle->center.y;
  int64_t x0, x1, y0, y1;
  if (!span(px - r, px + r, grid->origin.x, grid->cell_size, grid->width, &x0, &x1) ||
      !span(py - r, py + r, grid->origin.y, grid->cell_size, grid->height, &y0, &y1)) {
    return;
  }
  // In a row the distance to the centre only falls up to the centre's column and only rises
  // after it: the nearest cell is that column (clamped), and each side is one bisection.
  int64_t mid = index_of(obstacle->center.x, grid->origin.x, grid->cell_size);
  mid = mid < x0 ? x0 : mid > x1 ? x1 : mid;
  for (int64_t cy = y0; cy <= y1; ++cy) {
    box b = cell_box(grid, mid, cy);
    if (!point_box_within(px, py, &b, (uint64_t)r)) continue;
    int64_t lo = x0, hi = mid; // first blocked column in [x0, mid]: hi is blocked
    while (lo < hi) {
      int64_t m = lo + (hi - lo) / 2;
      b = cell_box(grid, m, cy);
      if (point_box_within(px, py, &b, (uint64_t)r)) hi = m;
      else lo = m + 1;
    }
    int64_t first = lo;
    lo = mid, hi = x1; // last blocked column in [mid, x1]: lo is blocked
    while (lo < hi) {
      int64_t m = hi - (hi - lo) / 2;
      b = cell_box(grid, m, cy);
      if (point_box_within(px, py, &b, (uint64_t)r)) lo = m;
      else hi = m - 1;
    }
    fn(context, (uint32_t)cy, (uint32_t)first, (uint32_t)lo);
  }
}
