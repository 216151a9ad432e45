// The float twin of ORCA on the Circle (bench.h), for the benchmark only (never part of the
// library): what a float programmer writes for the same scene. The world loop is the
// library's (a start-of-tick view sorted into the grid cells, agents steered in cell order,
// then integrated); ORCA follows the paper and RVO2's formulas in float: the nearest 10
// within the neighbor distance by a range that shrinks once the list is full, a half-plane
// per neighbor, the side rule of orca.h, the incremental 2D program and the 3D one.
#include <math.h>
#include <string.h>

#include "bench.h"

#define EPSILON 0.00001f
#define MAX_NEIGHBORS CIRCLE_MAX_NEIGHBORS

typedef struct fv2 {
  float x, y;
} fv2;

static fv2 v2(float x, float y) {
  fv2 v;
  v.x = x, v.y = y;
  return v;
}
static fv2 add(fv2 a, fv2 b) { return v2(a.x + b.x, a.y + b.y); }
static fv2 sub(fv2 a, fv2 b) { return v2(a.x - b.x, a.y - b.y); }
static fv2 scale(fv2 a, float s) { return v2(a.x * s, a.y * s); }
static float dot(fv2 a, fv2 b) { return a.x * b.x + a.y * b.y; }
static float det(fv2 a, fv2 b) { return a.x * b.y - a.y * b.x; }
static float from_raw(fix16_t raw) { return (float)raw / 65536.0f; }

typedef struct line {
  fv2 point, direction;
} line;

// ------------------------------------------------------------------ the linear programs

// Optimum on line i subject to lines 0..i-1 and the disc; 0 when there is none.
static int program1(const line *lines, uint32_t i, float radius, fv2 opt, int direction_opt,
                    fv2 *result) {
  const line *l = &lines[i];
  float pd = dot(l->point, l->direction);
  float discriminant = pd * pd + radius * radius - dot(l->point, l->point);
  if (discriminant < 0.0f) return 0;
  float root = sqrtf(discriminant);
  float t_left = -pd - root, t_right = -pd + root;
  for (uint32_t j = 0; j < i; ++j) {
    float den = det(l->direction, lines[j].direction);
    float num = det(lines[j].direction, sub(l->point, lines[j].point));
    if (fabsf(den) <= EPSILON) {
      if (num < 0.0f) return 0;
      continue;
    }
    float t = num / den;
    if (den >= 0.0f) t_right = t < t_right ? t : t_right;
    else t_left = t > t_left ? t : t_left;
    if (t_left > t_right) return 0;
  }
  float t;
  if (direction_opt) {
    t = dot(opt, l->direction) > 0.0f ? t_right : t_left;
  } else {
    t = dot(l->direction, sub(opt, l->point));
    t = t < t_left ? t_left : t > t_right ? t_right : t;
  }
  *result = add(l->point, scale(l->direction, t));
  return 1;
}

// The incremental 2D program; returns count, or the first line it could not satisfy.
static uint32_t program2(const line *lines, uint32_t count, float radius, fv2 opt,
                         int direction_opt, fv2 *result) {
  if (direction_opt) {
    *result = scale(opt, radius);
  } else if (dot(opt, opt) > radius * radius) {
    *result = scale(opt, radius / sqrtf(dot(opt, opt)));
  } else {
    *result = opt;
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (det(lines[i].direction, sub(lines[i].point, *result)) > 0.0f) {
      fv2 kept = *result;
      if (!program1(lines, i, radius, opt, direction_opt, result)) {
        *result = kept;
        return i;
      }
    }
  }
  return count;
}

// Infeasible: the velocity that violates the worst line least.
static void program3(const line *lines, uint32_t count, uint32_t begin, float radius, fv2 *result) {
  line projected[MAX_NEIGHBORS];
  float distance = 0.0f;
  for (uint32_t i = begin; i < count; ++i) {
    const line *l = &lines[i];
    if (det(l->direction, sub(l->point, *result)) <= distance) continue;
    uint32_t m = 0;
    for (uint32_t j = 0; j < i; ++j) {
      line q;
      float d = det(l->direction, lines[j].direction);
      if (fabsf(d) <= EPSILON) {
        if (dot(l->direction, lines[j].direction) > 0.0f) continue;
        q.point = scale(add(l->point, lines[j].point), 0.5f);
      } else {
        float t = det(lines[j].direction, sub(l->point, lines[j].point)) / d;
        q.point = add(l->point, scale(l->direction, t));
      }
      fv2 dd = sub(lines[j].direction, l->direction);
      q.direction = scale(dd, 1.0f / sqrtf(dot(dd, dd)));
      projected[m++] = q;
    }
    fv2 kept = *result;
    if (program2(projected, m, radius, v2(-l->direction.y, l->direction.x), 1, result) < m) {
      *result = kept;
    }
    distance = det(l->direction, sub(l->point, *result));
  }
}

// ------------------------------------------------------------------ the world loop

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }
int bench_twin_library_grid = 0;

// The twin's cell budget: 2 cells an agent (its own grid) or the library's 8
// (fxs_grid_max_cells); at least 64.
static uint32_t max_cells_of(uint32_t n, uint32_t per_agent) {
  return per_agent * n < 64u ? 64u : per_agent * n;
}
static uint32_t max_cells(uint32_t n) { return max_cells_of(n, bench_twin_library_grid ? 8u : 2u); }

size_t bench_forca_memory_size(uint32_t n) {
  return 14u * align8(sizeof(float) * n) + 2u * align8(sizeof(uint32_t) * n) +
         align8(sizeof(uint32_t) * (max_cells_of(n, 8u) + 1u)); // room for either grid
}

void bench_forca_init(bench_forca *w, uint32_t n, void *memory) {
  uint8_t *at = (uint8_t *)memory;
  float **floats[] = {&w->px,  &w->py,  &w->vx,     &w->vy,     &w->gx,      &w->gy,
                      &w->nvx, &w->nvy, &w->view_x, &w->view_y, &w->view_vx, &w->view_vy};
  for (size_t k = 0; k < sizeof floats / sizeof floats[0]; ++k) {
    *floats[k] = (float *)(void *)at;
    at += align8(sizeof(float) * n);
  }
  at += 2u * align8(sizeof(float) * n); // spare
  w->view_slot = (uint32_t *)(void *)at, at += align8(sizeof(uint32_t) * n);
  w->slot_cell = (uint32_t *)(void *)at, at += align8(sizeof(uint32_t) * n);
  w->cell_start = (uint32_t *)(void *)at;
  w->n = n, w->tick = 0;
  fxs_world_def d = bench_circle_def(n);
  float width = from_raw(d.bounds_max.x) - from_raw(d.bounds_min.x);
  float height = from_raw(d.bounds_max.y) - from_raw(d.bounds_min.y);
  w->min_x = from_raw(d.bounds_min.x), w->min_y = from_raw(d.bounds_min.y);
  float half = from_raw(CIRCLE_NEIGHBOR_DISTANCE) / 2.0f, cw, ch;
  w->wraps = 0;
  if (!bench_twin_library_grid) {
    // The twin's own grid, a float programmer's: cells of half the neighbor radius, doubled
    // until they number at most 2 an agent over the bounds.
    w->cell_size = half;
    for (;;) {
      cw = ceilf(width / w->cell_size), ch = ceilf(height / w->cell_size);
      if (cw * ch <= (float)max_cells(n)) break;
      w->cell_size *= 2.0f;
    }
  } else {
    // The library's grid (fxs_grid_of): square cells of the power of two nearest half the
    // neighbor radius, doubled at most twice while they number more than 8 an agent; where
    // they still do, the grid wraps round on sides of powers of two.
    w->cell_size = 1.0f;
    while (2.0f * w->cell_size <= half) w->cell_size *= 2.0f;
    if (half - w->cell_size > 2.0f * w->cell_size - half) w->cell_size *= 2.0f;
    cw = ceilf(width / w->cell_size), ch = ceilf(height / w->cell_size);
    for (int doubled = 0; doubled < 2 && cw * ch > (float)max_cells(n); ++doubled) {
      w->cell_size *= 2.0f;
      cw = ceilf(width / w->cell_size), ch = ceilf(height / w->cell_size);
    }
    w->wraps = cw * ch > (float)max_cells(n);
    if (w->wraps) {
      uint32_t pw = 8u, ph = 8u; // FXS_GRID_MIN_SIDE
      while ((float)pw < cw) pw *= 2u;
      while ((float)ph < ch) ph *= 2u;
      while (pw * ph > max_cells(n)) {
        uint32_t *side = pw >= ph ? &pw : &ph;
        *side = *side / 2u < 8u ? 8u : *side / 2u;
      }
      cw = (float)pw, ch = (float)ph;
    }
  }
  w->cells_w = (uint32_t)cw, w->cells_h = (uint32_t)ch;
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 start, goal;
    bench_circle_start(n, i, &start, &goal);
    w->px[i] = from_raw(start.x), w->py[i] = from_raw(start.y);
    w->gx[i] = from_raw(goal.x), w->gy[i] = from_raw(goal.y);
    w->vx[i] = 0.0f, w->vy[i] = 0.0f;
  }
}

static uint32_t coord(float v, float min, float inv_size, uint32_t cells) {
  float c = v < min ? 0.0f : (v - min) * inv_size;
  return c >= (float)cells ? cells - 1u : (uint32_t)c;
}

// The cell of the plane that holds v on a grid that wraps (before the wrap).
static int32_t plane_coord(float v, float min, float inv_size) {
  float c = (v - min) * inv_size;
  int32_t i = (int32_t)c; // toward zero; floor below 0 is one less
  return i - (c < (float)i);
}

// The cell of point (x, y) on a grid that wraps round.
static uint32_t cell_wrapped(const bench_forca *w, float x, float y, float inv) {
  uint32_t cx = (uint32_t)plane_coord(x, w->min_x, inv) & (w->cells_w - 1u);
  uint32_t cy = (uint32_t)plane_coord(y, w->min_y, inv) & (w->cells_h - 1u);
  return cy * w->cells_w + cx;
}

// The start-of-tick view in cell order (a stable counting sort, as the library's).
static void sense(bench_forca *w) {
  uint32_t cells = w->cells_w * w->cells_h, n = w->n;
  float inv = 1.0f / w->cell_size;
  memset(w->cell_start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t c = w->wraps ? cell_wrapped(w, w->px[i], w->py[i], inv)
                          : coord(w->py[i], w->min_y, inv, w->cells_h) * w->cells_w +
                                coord(w->px[i], w->min_x, inv, w->cells_w);
    w->slot_cell[i] = c;
    w->cell_start[c + 1u]++;
  }
  for (uint32_t c = 0; c < cells; ++c) w->cell_start[c + 1u] += w->cell_start[c];
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = w->cell_start[w->slot_cell[i]]++;
    w->view_slot[v] = i;
    w->view_x[v] = w->px[i], w->view_y[v] = w->py[i];
    w->view_vx[v] = w->vx[i], w->view_vy[v] = w->vy[i];
  }
  for (uint32_t c = cells; c > 0; --c) w->cell_start[c] = w->cell_start[c - 1u];
  w->cell_start[0] = 0;
}

#if defined(__GNUC__)
#define TWIN_INLINE static inline __attribute__((always_inline))
#else
#define TWIN_INLINE static inline
#endif

// The nearest MAX_NEIGHBORS within the neighbor distance of view entry v, nearest first.
// `wraps` (a constant in each caller): the grid wraps round, its cells those of the plane
// wrapped, so that a row's columns past the last are a second run.
TWIN_INLINE uint32_t neighbors_of(const bench_forca *w, uint32_t v, uint32_t *out, int wraps) {
  float range = from_raw(CIRCLE_NEIGHBOR_DISTANCE), range_sq = range * range;
  float inv = 1.0f / w->cell_size, x = w->view_x[v], y = w->view_y[v];
  float key[MAX_NEIGHBORS];
  uint32_t n = 0;
  const uint32_t *start = w->cell_start;
  int32_t x0, x1, y0, y1;
  if (wraps) {
    x0 = plane_coord(x - range, w->min_x, inv), x1 = plane_coord(x + range, w->min_x, inv);
    y0 = plane_coord(y - range, w->min_y, inv), y1 = plane_coord(y + range, w->min_y, inv);
  } else {
    x0 = (int32_t)coord(x - range, w->min_x, inv, w->cells_w);
    x1 = (int32_t)coord(x + range, w->min_x, inv, w->cells_w);
    y0 = (int32_t)coord(y - range, w->min_y, inv, w->cells_h);
    y1 = (int32_t)coord(y + range, w->min_y, inv, w->cells_h);
  }
  for (int32_t cy = y0; cy <= y1; ++cy) {
    uint32_t begin[2], end[2], runs = 1;
    if (!wraps) {
      uint32_t row = (uint32_t)cy * w->cells_w;
      begin[0] = start[row + (uint32_t)x0], end[0] = start[row + (uint32_t)x1 + 1u];
    } else {
      uint32_t row = ((uint32_t)cy & (w->cells_h - 1u)) * w->cells_w;
      uint32_t c0 = (uint32_t)x0 & (w->cells_w - 1u), c1 = c0 + (uint32_t)(x1 - x0);
      bool split = c1 >= w->cells_w; // past the row's last column: a second run from its first
      begin[0] = start[row + c0], end[0] = start[row + (split ? w->cells_w : c1 + 1u)];
      if (split) begin[1] = start[row], end[1] = start[row + c1 - w->cells_w + 1u], runs = 2;
    }
    for (uint32_t r = 0; r < runs; ++r) {
      for (uint32_t j = begin[r]; j < end[r]; ++j) {
        float dx = w->view_x[j] - x, dy = w->view_y[j] - y, d = dx * dx + dy * dy;
        if (d >= range_sq || j == v) continue;
        uint32_t at = n < MAX_NEIGHBORS ? n++ : MAX_NEIGHBORS - 1u;
        while (at > 0 && d < key[at - 1u]) {
          key[at] = key[at - 1u], out[at] = out[at - 1u];
          --at;
        }
        key[at] = d, out[at] = j;
        if (n == MAX_NEIGHBORS) range_sq = key[MAX_NEIGHBORS - 1u];
      }
    }
  }
  return n;
}

// ORCA's new velocity for view entry v; `wraps` a constant in each caller below, so that
// the twin's own grid keeps its loop as it is.
TWIN_INLINE fv2 orca_velocity_on(const bench_forca *w, uint32_t v, int wraps) {
  uint32_t slot = w->view_slot[v], nb[MAX_NEIGHBORS];
  float max_speed = from_raw(CIRCLE_MAX_SPEED), r = 2.0f * from_raw(CIRCLE_RADIUS);
  float inv_tau = 1.0f / from_raw(CIRCLE_TIME_HORIZON), slowing = from_raw(CIRCLE_SLOWING_RADIUS);
  fv2 pos = v2(w->view_x[v], w->view_y[v]), vel = v2(w->view_vx[v], w->view_vy[v]);
  // The preferred velocity: arrival's toward the goal.
  fv2 offset = sub(v2(w->gx[slot], w->gy[slot]), pos), pref = v2(0.0f, 0.0f);
  float distance = sqrtf(dot(offset, offset));
  if (distance > 0.0f) {
    float speed = distance < slowing ? max_speed * distance / slowing : max_speed;
    pref = scale(offset, speed / distance);
  }
  uint32_t count = neighbors_of(w, v, nb, wraps);
  line lines[MAX_NEIGHBORS];
  lines[0].point = lines[0].direction = v2(0.0f, 0.0f); // (only for the compiler's warning)
  int turn = 0;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t j = nb[k];
    fv2 p = v2(w->view_x[j] - pos.x, w->view_y[j] - pos.y);
    fv2 other = v2(w->view_vx[j], w->view_vy[j]);
    fv2 rel = sub(vel, other), u;
    float dist_sq = dot(p, p), r_sq = r * r;
    line *l = &lines[k];
    if (dist_sq > r_sq) {
      fv2 cut = sub(rel, scale(p, inv_tau));
      float cut_sq = dot(cut, cut), cut_dot_p = dot(cut, p);
      if (cut_dot_p < 0.0f && cut_dot_p * cut_dot_p > r_sq * cut_sq) {
        float cut_len = sqrtf(cut_sq);
        fv2 unit = scale(cut, 1.0f / cut_len);
        l->direction = v2(unit.y, -unit.x);
        u = scale(unit, r * inv_tau - cut_len);
      } else {
        float leg = sqrtf(dist_sq - r_sq);
        if (det(p, cut) > 0.0f) {
          l->direction = scale(v2(p.x * leg - p.y * r, p.x * r + p.y * leg), 1.0f / dist_sq);
        } else {
          l->direction = scale(v2(p.x * leg + p.y * r, -p.x * r + p.y * leg), -1.0f / dist_sq);
        }
        u = sub(scale(l->direction, dot(rel, l->direction)), rel);
      }
    } else { // overlapping: apart within one tick
      fv2 cut = sub(rel, p);
      float cut_len = sqrtf(dot(cut, cut));
      fv2 unit = cut_len > 0.0f ? scale(cut, 1.0f / cut_len) : v2(1.0f, 0.0f);
      l->direction = v2(unit.y, -unit.x);
      u = scale(unit, r - cut_len);
    }
    l->point = add(vel, scale(u, 0.5f));
    // The side rule: a neighbor ahead on the preferred course that does not move along it.
    float side = det(pref, p);
    turn |= dot(p, pref) > 0.0f && dot(other, pref) <= 0.0f && side * side < r_sq * dot(pref, pref);
  }
  if (turn) {
    const float c = 0.99219766f, s = 0.12467473f; // cos and sin of 1/8 rad, clockwise
    pref = v2(pref.x * c + pref.y * s, pref.y * c - pref.x * s);
  }
  fv2 result;
  uint32_t failed = program2(lines, count, max_speed, pref, 0, &result);
  if (failed < count) program3(lines, count, failed, max_speed, &result);
  return result;
}

static fv2 orca_velocity(const bench_forca *w, uint32_t v) { return orca_velocity_on(w, v, 0); }
static fv2 orca_velocity_wrapping(const bench_forca *w, uint32_t v) {
  return orca_velocity_on(w, v, 1);
}

void bench_forca_step(bench_forca *w) {
  sense(w);
  for (uint32_t v = 0; v < w->n; ++v) {
    fv2 nv = w->wraps ? orca_velocity_wrapping(w, v) : orca_velocity(w, v);
    uint32_t slot = w->view_slot[v];
    w->nvx[slot] = nv.x, w->nvy[slot] = nv.y;
  }
  for (uint32_t i = 0; i < w->n; ++i) {
    w->vx[i] = w->nvx[i], w->vy[i] = w->nvy[i];
    w->px[i] += w->vx[i], w->py[i] += w->vy[i];
  }
  w->tick++;
}
