#include "fixsteer/orca.h"

#include "exact.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/neighbors.h"
#include "wide.h"

// Speeds, radii and distances are clamped to 1024 units (2^26 raw): then every point of a
// half-plane stays below 2^28.1 raw and every product below used stays within int64.
#define LIMIT ((fix16_t)(INT32_C(1) << 26))
// Two unit directions whose determinant is at most 1e-5 (raw Q32.32) count as parallel.
#define PARALLEL_EPSILON INT64_C(42950)
// Intersections along a line farther than this (raw Q16.16) are clamped (nearly parallel
// edges, only in the infeasible case).
#define FAR_T (INT64_C(1) << 31)

fxs_orca_def fxs_default_orca_def(void) {
  fxs_orca_def d;
  d.time_horizon = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 0);
  d.neighbor_distance = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 1);
  d.neighbor_radius = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 2);
  d.max_neighbors = (uint32_t)(fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 3) / FXS_ONE);
  return d;
}

// v scaled down (direction kept) so that no component exceeds LIMIT.
static fxs_vec2 clamp_vec(fxs_vec2 v) {
  int64_t m = fxs_max(fxs_abs(v.x), fxs_abs(v.y));
  if (m <= LIMIT) return v;
  return fxs_vec2_make((fix16_t)((int64_t)v.x * LIMIT / m), (fix16_t)((int64_t)v.y * LIMIT / m));
}

// a x b and a . b of Q16.16 vectors with components below 2^31: exact Q32.32 in int64.
static int64_t det(fxs_vec2 a, fxs_vec2 b) { return (int64_t)a.x * b.y - (int64_t)a.y * b.x; }
static int64_t dot(fxs_vec2 a, fxs_vec2 b) { return (int64_t)a.x * b.x + (int64_t)a.y * b.y; }

// Q32.32 to Q16.16, rounded half away from zero.
static int64_t to_q16(int64_t q32) { return fxs_div_round_i64(q32, 65536); }

// The unit vector along (x, y) (any 64-bit components): halved together (toward zero) until
// both fit in 30 bits, then normalized.
static fxs_vec2 unit_wide(int64_t x, int64_t y) {
  while (fxs_exact_magnitude(x) >= (UINT64_C(1) << 30) || fxs_exact_magnitude(y) >= (UINT64_C(1) << 30)) {
    x /= 2;
    y /= 2;
  }
  return fxs_vec2_normalize(fxs_vec2_make((fix16_t)x, (fix16_t)y));
}

// point + t * direction, t in raw Q16.16, saturating to Q16.16 (t is clamped to +-2^40
// first, far beyond any reachable velocity, so the product fits in 64 bits).
static fxs_vec2 along(fxs_vec2 point, int64_t t, fxs_vec2 direction) {
  const int64_t far = INT64_C(1) << 40;
  if (t > far) t = far;
  if (t < -far) t = -far;
  return fxs_vec2_make(fxs_saturate(point.x + to_q16(t * direction.x)),
                       fxs_saturate(point.y + to_q16(t * direction.y)));
}

// The relative velocity change u for a pair already overlapping: out of the disc of radius
// r round p (the velocity that would close the gap within one tick), along w = v - p.
static fxs_vec2 overlap_push(fxs_vec2 v, fxs_vec2 p, fix16_t r, bool lower_id, fxs_vec2 *unit) {
  fxs_vec2 w = fxs_vec2_sub(v, p); // |.| < 2^28: exact
  if (!fxs_vec2_is_zero(w)) *unit = fxs_vec2_normalize(w);
  else if (!fxs_vec2_is_zero(p)) *unit = fxs_vec2_normalize(fxs_vec2_negate(p));
  else *unit = fxs_vec2_make(lower_id ? -FXS_ONE : FXS_ONE, 0);
  int64_t gap = (int64_t)r - fxs_vec2_length(w);
  return fxs_vec2_make(fxs_saturate(to_q16(gap * unit->x)), fxs_saturate(to_q16(gap * unit->y)));
}

// The relative velocity change u for a pair apart (|p| > r): to the nearest point of the
// truncated velocity obstacle (the cone of the disc of radius r round p, cut off by the disc
// round p / tau). *direction is the half-plane's edge.
static fxs_vec2 cone_push(fxs_vec2 v, fxs_vec2 p, fix16_t r, fix16_t tau, fxs_vec2 *direction) {
  fxs_vec2 p_tau = fxs_vec2_make(fxs_saturate(fxs_div_round_i64((int64_t)p.x * 65536, tau)),
                                 fxs_saturate(fxs_div_round_i64((int64_t)p.y * 65536, tau)));
  fxs_vec2 w = fxs_vec2_sub(v, p_tau); // |.| < 2^28
  int64_t w_dot_p = dot(w, p);          // |.| < 2^55
  uint64_t w_sq = fxs_vec2_length_sq(w), r_sq = (uint64_t)r * (uint64_t)r;
  uint64_t m = fxs_exact_magnitude(w_dot_p);
  if (w_dot_p < 0 && fxs_u128_compare(fxs_u128_mul(m, m), fxs_u128_mul(r_sq, w_sq)) > 0) {
    // Closest to the cut-off disc: push out of it along w.
    fxs_vec2 unit = fxs_vec2_normalize(w);
    *direction = fxs_vec2_make(unit.y, fxs_neg(unit.x));
    int64_t gap = fxs_div_round_i64((int64_t)r * 65536, tau) - fxs_vec2_length(w);
    return fxs_vec2_make(fxs_saturate(to_q16(gap * unit.x)), fxs_saturate(to_q16(gap * unit.y)));
  }
  // Closest to a leg of the cone: the leg on w's side of p, at angle asin(r / |p|).
  int64_t leg = (int64_t)fxs_isqrt64_round(fxs_vec2_length_sq(p) - r_sq);
  if (det(p, w) > 0) {
    *direction = unit_wide(p.x * leg - p.y * (int64_t)r, p.x * (int64_t)r + p.y * leg);
  } else {
    *direction = fxs_vec2_negate(unit_wide(p.x * leg + p.y * (int64_t)r, p.y * leg - p.x * (int64_t)r));
  }
  int64_t along_edge = to_q16(dot(v, *direction)); // |.| < 2^28
  return fxs_vec2_make(fxs_saturate(to_q16(along_edge * direction->x) - v.x),
                       fxs_saturate(to_q16(along_edge * direction->y) - v.y));
}

fxs_orca_line fxs_orca_half_plane(const fxs_agent *self, uint32_t self_id,
                                  const fxs_neighbor *neighbor, const fxs_orca_def *def) {
  fxs_vec2 p = clamp_vec(fxs_exact_direction(self->position, neighbor->position));
  fxs_vec2 v = fxs_vec2_sub(clamp_vec(self->velocity), clamp_vec(neighbor->velocity));
  fix16_t r = fxs_add(fxs_clamp(self->radius, 0, LIMIT), fxs_clamp(def->neighbor_radius, 0, LIMIT));
  fix16_t tau = fxs_max(def->time_horizon, FXS_ONE);
  fxs_vec2 u, direction;
  if (fxs_vec2_length_sq(p) > (uint64_t)r * (uint64_t)r) {
    u = cone_push(v, p, r, tau, &direction);
  } else {
    fxs_vec2 unit;
    u = overlap_push(v, p, r, self_id < neighbor->id, &unit);
    direction = fxs_vec2_make(unit.y, fxs_neg(unit.x));
  }
  // Each agent takes half of the change.
  fxs_orca_line line;
  line.point = fxs_vec2_add(clamp_vec(self->velocity),
                            fxs_vec2_make(fxs_saturate(fxs_div_round_i64(u.x, 2)),
                                          fxs_saturate(fxs_div_round_i64(u.y, 2))));
  line.direction = direction;
  return line;
}

// The linear program: velocities x with det(d_i, x - p_i) >= 0 for every line i, inside
// the disc |x| <= radius. `opt` is the preferred velocity, or with `direction_opt` a unit
// direction to go as far as possible along.
typedef struct program {
  const fxs_orca_line *lines;
  fix16_t radius;
  fxs_vec2 opt;
  bool direction_opt;
} program;

// num / den in raw Q16.16 (num, den in Q32.32, |den| > PARALLEL_EPSILON, |num| < 2^50),
// rounded, clamped to +-FAR_T: the integer part first, so nothing overflows.
static int64_t ratio(int64_t num, int64_t den) {
  int64_t whole = num / den; // |.| < 2^35
  if (whole > (FAR_T >> 16)) return FAR_T;
  if (whole < -(FAR_T >> 16)) return -FAR_T;
  return whole * 65536 + fxs_div_round_i64((num - whole * den) * 65536, den);
}

// Optimum on line i, subject to lines 0..i-1 and the disc. False when line i has no
// feasible point.
static bool solve_on_line(const program *lp, uint32_t i, fxs_vec2 *result) {
  fxs_vec2 p = lp->lines[i].point, d = lp->lines[i].direction;
  // The line's distance from the origin decides whether it crosses the disc; the chord is
  // then -(p . d) -+ sqrt(radius^2 - distance^2) along d.
  int64_t off = to_q16(det(d, p)); // |.| < 2^33
  if (fxs_exact_magnitude(off) > (uint64_t)lp->radius) return false;
  int64_t root = (int64_t)fxs_isqrt64_round((uint64_t)((int64_t)lp->radius * lp->radius - off * off));
  int64_t pd = to_q16(dot(p, d));
  int64_t t_left = -pd - root, t_right = -pd + root;
  for (uint32_t j = 0; j < i; ++j) {
    const fxs_orca_line *o = &lp->lines[j];
    int64_t den = det(d, o->direction);
    int64_t num = det(o->direction, fxs_vec2_sub(p, o->point)); // |.| < 2^47
    if (fxs_exact_magnitude(den) <= (uint64_t)PARALLEL_EPSILON) {
      if (num < 0) return false; // parallel, and line i lies on j's forbidden side
      continue;
    }
    int64_t t = ratio(num, den);
    if (den > 0) t_right = t < t_right ? t : t_right;
    else t_left = t > t_left ? t : t_left;
    if (t_left > t_right) return false;
  }
  int64_t t;
  if (lp->direction_opt) {
    t = dot(lp->opt, d) > 0 ? t_right : t_left;
  } else {
    t = to_q16(dot(d, fxs_vec2_sub(lp->opt, p)));
    t = t < t_left ? t_left : (t > t_right ? t_right : t);
  }
  *result = along(p, t, d);
  return true;
}

// Incremental 2D program over lines 0..count-1 in order. Returns count on success, else the
// index of the first line it could not satisfy (*result then satisfies the lines before).
static uint32_t solve(const program *lp, uint32_t count, fxs_vec2 *result) {
  if (lp->direction_opt) {
    *result = fxs_vec2_make(fxs_saturate(to_q16((int64_t)lp->opt.x * lp->radius)),
                            fxs_saturate(to_q16((int64_t)lp->opt.y * lp->radius)));
  } else if (fxs_vec2_length_sq(lp->opt) > (uint64_t)lp->radius * (uint64_t)lp->radius) {
    *result = fxs_vec2_set_length(lp->opt, lp->radius);
  } else {
    *result = lp->opt;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_orca_line *l = &lp->lines[i];
    if (det(l->direction, fxs_vec2_sub(l->point, *result)) <= 0) continue; // satisfied
    fxs_vec2 kept = *result;
    if (!solve_on_line(lp, i, result)) {
      *result = kept;
      return i;
    }
  }
  return count;
}

// No velocity satisfies every line: minimize the largest violation instead. For each line
// violated by more than the current worst, the lines before it are projected onto it (their
// bisectors with it) and the 2D program pushes as far as possible into it.
static void least_violation(const fxs_orca_line *lines, uint32_t count, uint32_t first,
                            fix16_t radius, fxs_vec2 *result) {
  fxs_orca_line projected[FXS_NEIGHBORS_MAX_K];
  int64_t worst = 0; // Q32.32
  for (uint32_t i = first; i < count; ++i) {
    const fxs_orca_line *l = &lines[i];
    if (det(l->direction, fxs_vec2_sub(l->point, *result)) <= worst) continue;
    uint32_t m = 0;
    for (uint32_t j = 0; j < i; ++j) {
      const fxs_orca_line *o = &lines[j];
      int64_t den = det(l->direction, o->direction);
      fxs_orca_line q;
      if (fxs_exact_magnitude(den) <= (uint64_t)PARALLEL_EPSILON) {
        if (dot(l->direction, o->direction) > 0) continue; // same way: no new constraint
        q.point = fxs_vec2_make(fxs_saturate(fxs_div_round_i64((int64_t)l->point.x + o->point.x, 2)),
                                fxs_saturate(fxs_div_round_i64((int64_t)l->point.y + o->point.y, 2)));
      } else {
        int64_t num = det(o->direction, fxs_vec2_sub(l->point, o->point));
        q.point = along(l->point, ratio(num, den), l->direction);
      }
      q.direction = fxs_vec2_normalize(fxs_vec2_sub(o->direction, l->direction));
      projected[m++] = q;
    }
    program lp = {projected, radius, fxs_vec2_make(fxs_neg(l->direction.y), l->direction.x), true};
    fxs_vec2 kept = *result;
    if (solve(&lp, m, result) < m) *result = kept; // only by rounding: keep the last good one
    worst = det(l->direction, fxs_vec2_sub(l->point, *result));
  }
}

fxs_vec2 fxs_orca_velocity(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                           const fxs_neighbor *neighbors, uint32_t count,
                           const fxs_orca_def *def) {
  fxs_neighbor_query_def query;
  query.radius = fxs_clamp(def->neighbor_distance, 0, LIMIT);
  query.cos_half_fov = -FXS_ONE;
  query.k = def->max_neighbors;
  uint32_t chosen[FXS_NEIGHBORS_MAX_K];
  uint32_t n = fxs_query_neighbors(self, self_id, neighbors, count, &query, chosen);
  fxs_orca_line lines[FXS_NEIGHBORS_MAX_K];
  for (uint32_t i = 0; i < n; ++i) {
    lines[i] = fxs_orca_half_plane(self, self_id, &neighbors[chosen[i]], def);
  }
  fix16_t radius = fxs_clamp(self->max_speed, 0, LIMIT);
  program lp = {lines, radius, clamp_vec(preferred), false};
  fxs_vec2 result;
  uint32_t failed = solve(&lp, n, &result);
  if (failed < n) least_violation(lines, n, failed, radius, &result);
  return fxs_vec2_truncate(result, radius);
}

fxs_vec2 fxs_orca(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                  const fxs_neighbor *neighbors, uint32_t count, const fxs_orca_def *def) {
  return fxs_steer_toward(self, fxs_orca_velocity(self, self_id, preferred, neighbors, count, def));
}
