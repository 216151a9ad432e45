#include "orca_static.h"

#include "exact.h"
#include "orca_geometry.h"

// The half-plane of the velocities with no component toward -n beyond `closing` (raw units
// per tick, >= 0): x . n >= -closing, n a unit vector.
static fxs_orca_line keep_off(fxs_vec2 n, int64_t closing) {
  fxs_orca_line l;
  l.point =
      fxs_vec2_make(fxs_saturate(to_q16(-closing * n.x)), fxs_saturate(to_q16(-closing * n.y)));
  l.direction = fxs_vec2_make(n.y, fxs_neg(n.x));
  return l;
}

// Obstacle time horizon and reach (how far beyond the radius a static obstacle counts):
// obstacle_time_horizon * max_speed, raw, at most LIMIT.
static fix16_t static_horizon(const fxs_orca_def *def) {
  return fxs_max(def->obstacle_time_horizon, FXS_ONE);
}
static int64_t static_reach(const fxs_agent *self, const fxs_orca_def *def) {
  int64_t reach = to_q16((int64_t)static_horizon(def) * fxs_clamp(self->max_speed, 0, LIMIT));
  return reach < LIMIT ? reach : LIMIT;
}

// The line of a static disc of radius r (the agent's and the obstacle's) whose centre is
// (dx, dy) raw from the agent, within reach. Static: the agent takes all of the change u.
// Offsets beyond LIMIT are halved with r and the horizon, which leaves the velocity obstacle
// unchanged (v t in the disc round p  <=>  v t/2 in the disc round p/2).
static fxs_orca_line disc_line(const fxs_agent *self, int64_t dx, int64_t dy, int64_t r,
                               fix16_t tau) {
  int64_t t = tau;
  while (fxs_exact_magnitude(dx) > (uint64_t)LIMIT || fxs_exact_magnitude(dy) > (uint64_t)LIMIT ||
         r > LIMIT) {
    dx /= 2, dy /= 2, r /= 2, t = t > 1 ? t / 2 : 1;
  }
  fxs_vec2 p = fxs_vec2_make((fix16_t)dx, (fix16_t)dy);
  if (fxs_vec2_length_sq(p) <= (uint64_t)(r * r)) { // touching: no velocity toward the centre
    fxs_vec2 n =
        fxs_vec2_is_zero(p) ? fxs_vec2_make(FXS_ONE, 0) : fxs_vec2_normalize(fxs_vec2_negate(p));
    return keep_off(n, 0);
  }
  fxs_vec2 v = clamp_vec(self->velocity), direction;
  cone_terms c = cone_terms_of((fix16_t)r, (fix16_t)t);
  fxs_vec2 u = cone_push(v, p, length_sq(p), &c, false, &direction);
  fxs_orca_line l;
  l.point = fxs_vec2_add(v, u);
  l.direction = direction;
  return l;
}

// True when (dx, dy) lies within `box` on both axes; then, for box < 2^29, its length is
// exact from the 64-bit squares.
static bool within_box(int64_t dx, int64_t dy, int64_t box) {
  return fxs_exact_magnitude(dx) <= (uint64_t)box && fxs_exact_magnitude(dy) <= (uint64_t)box;
}

static int64_t length_of(int64_t dx, int64_t dy) {
  return (int64_t)fxs_isqrt64_round((uint64_t)(dx * dx + dy * dy));
}

bool fxs_orca_obstacle_line(const fxs_agent *self, const fxs_obstacle *obstacle,
                            const fxs_orca_def *def, fxs_orca_line *out) {
  int64_t reach = static_reach(self, def);
  int64_t dx = (int64_t)obstacle->center.x - self->position.x;
  int64_t dy = (int64_t)obstacle->center.y - self->position.y;
  int64_t r = (int64_t)fxs_clamp(self->radius, 0, LIMIT) + fxs_clamp(obstacle->radius, 0, LIMIT);
  if (!within_box(dx, dy, reach + r) || length_of(dx, dy) - r > reach) return false;
  *out = disc_line(self, dx, dy, r, static_horizon(def));
  return true;
}

// True when `at` lies within `margin` (raw) of the bounding box of the wall on both axes.
static bool near_box(fxs_vec2 at, const fxs_wall *w, int64_t margin) {
  int64_t lo_x = w->a.x < w->b.x ? w->a.x : w->b.x, hi_x = w->a.x < w->b.x ? w->b.x : w->a.x;
  int64_t lo_y = w->a.y < w->b.y ? w->a.y : w->b.y, hi_y = w->a.y < w->b.y ? w->b.y : w->a.y;
  return at.x >= lo_x - margin && at.x <= hi_x + margin && at.y >= lo_y - margin &&
         at.y <= hi_y + margin;
}

// The unit normal of the wall a-b, scaled to 32 bits first (either sign).
static fxs_vec2 wall_normal(const fxs_wall *w) {
  int64_t ex = (int64_t)w->b.x - w->a.x, ey = (int64_t)w->b.y - w->a.y;
  while (fxs_exact_magnitude(ex) >= (UINT64_C(1) << 31) ||
         fxs_exact_magnitude(ey) >= (UINT64_C(1) << 31)) {
    ex /= 2, ey /= 2;
  }
  return fxs_vec2_normalize(fxs_vec2_make((fix16_t)-ey, (fix16_t)ex));
}

bool fxs_orca_wall_line(const fxs_agent *self, const fxs_wall *wall, const fxs_orca_def *def,
                        fxs_orca_line *out) {
  int64_t reach = static_reach(self, def);
  int64_t radius = fxs_clamp(self->radius, 0, LIMIT);
  // The closest point lies in the wall's bounding box: an agent farther than reach + radius
  // from the box on either axis is farther from the point, which within_box refuses below;
  // it is refused here first, without the closest point's division.
  if (!near_box(self->position, wall, reach + radius)) return false;
  fxs_vec2 q = fxs_vec2_closest_on_segment(self->position, wall->a, wall->b);
  int64_t dx = (int64_t)q.x - self->position.x, dy = (int64_t)q.y - self->position.y;
  if (!within_box(dx, dy, reach + radius)) return false;
  fix16_t tau = static_horizon(def);
  if (fxs_vec2_equal(q, wall->a) || fxs_vec2_equal(q, wall->b)) { // an end: pass round it
    if (length_of(dx, dy) - radius > reach) return false;
    *out = disc_line(self, dx, dy, radius, tau);
    return true;
  }
  // Inside: the distance along the wall's own normal, exact to a few LSB however long the
  // wall is; the normal turned toward the agent (on the line: against its velocity).
  fxs_vec2 n = wall_normal(wall);
  int64_t s = to_q16(-dx * n.x - dy * n.y);
  if (s < 0 || (s == 0 && dot(self->velocity, n) > 0)) n = fxs_vec2_negate(n), s = -s;
  int64_t gap = s - radius;
  if (gap > reach) return false;
  *out = keep_off(n, gap > 0 ? fxs_div_round_i64(gap * 65536, tau) : 0);
  return true;
}

// The nearest static lines (scratch->nearest), by clearance, then walls before obstacles,
// then index: the key is clearance (raw) * 2^33 + kind * 2^32 + index. The clearance of the
// agent to a line's source, for ordering: the line's offset from the velocity 0 is not it,
// so the caller passes it.
static void keep_nearest(fxs_orca_scratch *set, const fxs_orca_line *l, int64_t key) {
  uint32_t at = set->nearest_count;
  if (at == FXS_ORCA_MAX_STATIC_LINES) {
    if (key >= set->nearest_key[at - 1]) return;
    at--;
  } else {
    set->nearest_count++;
  }
  while (at > 0 && set->nearest_key[at - 1] > key) {
    set->nearest[at] = set->nearest[at - 1];
    set->nearest_key[at] = set->nearest_key[at - 1];
    at--;
  }
  set->nearest[at] = *l;
  set->nearest_key[at] = key;
}

// Clearance (raw, clamped to +-2^28) of the agent to a wall or an obstacle disc of radius r
// round c, for ordering only.
static int64_t order_key(int64_t clearance, uint32_t kind, uint32_t index) {
  if (clearance > (INT64_C(1) << 28)) clearance = INT64_C(1) << 28;
  if (clearance < -(INT64_C(1) << 28)) clearance = -(INT64_C(1) << 28);
  return clearance * (INT64_C(1) << 33) + (int64_t)kind * (INT64_C(1) << 32) + index;
}

static int64_t clearance_to(const fxs_agent *self, fxs_vec2 point, int64_t extra) {
  int64_t dx = (int64_t)point.x - self->position.x, dy = (int64_t)point.y - self->position.y;
  if (!within_box(dx, dy, INT64_C(1) << 28)) return INT64_C(1) << 28;
  return length_of(dx, dy) - extra - fxs_clamp(self->radius, 0, LIMIT);
}

// The static lines of the walls and obstacles within reach, nearest first, into
// scratch->lines.
uint32_t fxs_orca_static_lines(const fxs_agent *self, const fxs_orca_statics *st,
                               const fxs_orca_def *def, fxs_orca_scratch *set) {
  set->nearest_count = 0;
  if (!st) return 0;
  fxs_orca_line l;
  for (uint32_t i = 0; st->walls && i < st->wall_count; ++i) {
    const fxs_wall *w = &st->walls[i];
    if (!fxs_orca_wall_line(self, w, def, &l)) continue;
    fxs_vec2 q = fxs_vec2_closest_on_segment(self->position, w->a, w->b);
    keep_nearest(set, &l, order_key(clearance_to(self, q, 0), 0, i));
  }
  for (uint32_t k = 0; st->obstacles && k < st->obstacle_count; ++k) {
    uint32_t i = st->obstacle_subset ? st->obstacle_subset[k] : k;
    const fxs_obstacle *o = &st->obstacles[i];
    if (!fxs_orca_obstacle_line(self, o, def, &l)) continue;
    int64_t extra = fxs_clamp(o->radius, 0, LIMIT);
    keep_nearest(set, &l, order_key(clearance_to(self, o->center, extra), 1, i));
  }
  for (uint32_t i = 0; i < set->nearest_count; ++i) set->lines[i] = set->nearest[i];
  return set->nearest_count;
}

// The sign of ax by - ay bx for components below 2^62 in magnitude, in 128 bits.
static int det_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  int sl = (ax < 0) != (by < 0) ? -1 : 1, sr = (ay < 0) != (bx < 0) ? -1 : 1;
  fxs_u128 l = fxs_u128_mul(fxs_exact_magnitude(ax), fxs_exact_magnitude(by));
  fxs_u128 r = fxs_u128_mul(fxs_exact_magnitude(ay), fxs_exact_magnitude(bx));
  bool l_zero = (ax == 0 || by == 0), r_zero = (ay == 0 || bx == 0);
  if (l_zero && r_zero) return 0;
  if (l_zero) return -sr;
  if (r_zero) return sl;
  if (sl != sr) return sl;
  int c = fxs_u128_compare(l, r);
  return sl > 0 ? c : -c;
}

// True when a wall crosses the segment from the agent to (px, py) raw away.
bool fxs_orca_wall_between(const fxs_agent *self, int64_t px, int64_t py,
                           const fxs_orca_statics *st) {
  for (uint32_t i = 0; st && st->walls && i < st->wall_count; ++i) {
    const fxs_wall *w = &st->walls[i];
    int64_t ax = (int64_t)w->a.x - self->position.x, ay = (int64_t)w->a.y - self->position.y;
    int64_t bx = (int64_t)w->b.x - self->position.x, by = (int64_t)w->b.y - self->position.y;
    if (det_sign(px, py, ax, ay) * det_sign(px, py, bx, by) > 0) continue;
    int64_t ex = bx - ax, ey = by - ay;
    if (det_sign(ex, ey, -ax, -ay) * det_sign(ex, ey, px - ax, py - ay) > 0) continue;
    return true;
  }
  return false;
}
