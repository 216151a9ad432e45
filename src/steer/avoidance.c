#include "fixsteer/avoidance.h"

#include "avoidance_near.h"
#include "fixsteer/behavior_params.h"
#include "wide.h"

fxs_avoidance_def fxs_default_avoidance_def(void) {
  fxs_avoidance_def d;
  d.max_see_ahead = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 0);
  d.max_avoid_force = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 1);
  d.margin = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 2);
  d.braking = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 3);
  d.mode = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 4);
  return d;
}

// ------------------------------------------------------------------ exact 128-bit integers
// Two's complement 128-bit values from portable 64-bit halves (32-bit MCUs have no __int128).
// Squared distances of raw Q16.16 coordinates need up to 128 bits; see segment_within.
typedef struct u128 {
  uint64_t hi, lo;
} u128;

static u128 u128_mul(uint64_t a, uint64_t b) {
  uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  u128 r;
  r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return r;
}

static u128 u128_add(u128 a, u128 b) {
  u128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo);
  return r;
}

static u128 u128_neg(u128 a) {
  u128 r;
  r.lo = ~a.lo + 1u;
  r.hi = ~a.hi + (r.lo == 0);
  return r;
}

static bool i128_negative(u128 a) { return (a.hi >> 63) != 0; }

// Unsigned comparison: -1, 0 or 1.
static int u128_cmp(u128 a, u128 b) {
  if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
  return a.lo < b.lo ? -1 : (a.lo > b.lo);
}

// Signed comparison: flipping the sign bits turns it into the unsigned one.
static int i128_cmp(u128 a, u128 b) {
  a.hi ^= UINT64_C(1) << 63;
  b.hi ^= UINT64_C(1) << 63;
  return u128_cmp(a, b);
}

static int i128_sign(u128 a) { return i128_negative(a) ? -1 : ((a.hi | a.lo) != 0); }

static uint64_t magnitude(int64_t v) { return v < 0 ? 0u - (uint64_t)v : (uint64_t)v; }

// a * b, exact for any int64 operands.
static u128 i128_mul(int64_t a, int64_t b) {
  u128 m = u128_mul(magnitude(a), magnitude(b));
  return (a < 0) != (b < 0) ? u128_neg(m) : m;
}

static u128 dot_wide(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return u128_add(i128_mul(ax, bx), i128_mul(ay, by));
}

static u128 cross_wide(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return u128_add(i128_mul(ax, by), u128_neg(i128_mul(ay, bx)));
}

// True when the point q lies within `radius` of the segment from s to s + e, decided from the
// exact squared distance. Inputs are raw Q16.16 held in int64: |q - s| and |e| below 2^34 per
// component. Requires radius * |e| < 2^64, true for every caller (an obstacle's radius plus
// the agent's is below 2^32 and a path's |e| below 2^31.5; a wall's |e| is below 2^32.5 and
// the agent's radius below 2^31). Then a cross product of 2^64 or more means a distance above
// the radius, and the squares left fit in 128 bits.
static bool segment_within(int64_t qx, int64_t qy, int64_t sx, int64_t sy, int64_t ex, int64_t ey,
                           uint64_t radius) {
  int64_t wx = qx - sx, wy = qy - sy;
  u128 r2 = u128_mul(radius, radius);
  u128 we = dot_wide(wx, wy, ex, ey);
  if (i128_sign(we) <= 0) return u128_cmp(dot_wide(wx, wy, wx, wy), r2) <= 0;
  u128 ee = dot_wide(ex, ey, ex, ey);
  if (i128_cmp(we, ee) >= 0) {
    return u128_cmp(dot_wide(wx - ex, wy - ey, wx - ex, wy - ey), r2) <= 0;
  }
  u128 c = cross_wide(ex, ey, wx, wy);
  if (i128_negative(c)) c = u128_neg(c);
  if (c.hi != 0) return false;
  // distance^2 = c^2 / |e|^2 <= r^2  <=>  c^2 <= r^2 |e|^2 (r^2 < 2^64, so r2.hi == 0).
  u128 bound = u128_mul(ee.lo, r2.lo);
  bound.hi += ee.hi * r2.lo;
  return u128_cmp(u128_mul(c.lo, c.lo), bound) <= 0;
}

// ------------------------------------------------------------------ the swept path
// The segment the agent's centre covers before `ahead`, in raw int64 so that it extends past
// the edge of the Q16.16 range without saturating.
typedef struct sweep {
  int64_t px, py; // the agent's position
  int64_t dx, dy; // ahead - position, |d| <= FXS_MAX per component
  fxs_vec2 dir;   // unit heading, zero when the agent stands still
  fix16_t length; // |d|, world units
  fix16_t body;   // the agent's radius, >= 0
  fix16_t margin; // margin * speed, >= 0: added to the capsule's radius, not to the body's
} sweep;

// The look-ahead MAX_SEE_AHEAD scaled by speed / max_speed (at most 1).
static fix16_t reach(const fxs_agent *self, const fxs_avoidance_def *def, fix16_t speed) {
  fix16_t dynamic_length =
      self->max_speed > 0 ? fxs_min(fxs_div(speed, self->max_speed), FXS_ONE) : 0;
  return fxs_mul(fxs_max(def->max_see_ahead, 0), dynamic_length);
}

static sweep make_sweep(const fxs_agent *self, const fxs_avoidance_def *def) {
  fix16_t speed = fxs_vec2_length(self->velocity);
  fxs_vec2 d = fxs_vec2_set_length(self->velocity, reach(self, def, speed));
  sweep s;
  s.px = self->position.x, s.py = self->position.y;
  s.dx = d.x, s.dy = d.y;
  s.dir = fxs_vec2_normalize(self->velocity);
  s.length = fxs_vec2_length(d);
  s.body = fxs_max(self->radius, 0);
  s.margin = fxs_max(fxs_mul(speed, def->margin), 0);
  return s;
}

// The capsule's radius against an obstacle of radius r, and against a wall; capped so that
// segment_within's bound radius * |e| < 2^64 holds (the caps lie far beyond the Q16.16 world).
static uint64_t detect_obstacle(const sweep *s, fix16_t r) {
  int64_t sum = (int64_t)fxs_max(r, 0) + s->body + s->margin;
  return sum > INT64_C(0xFFFFFFFF) ? UINT64_C(0xFFFFFFFF) : (uint64_t)sum;
}
static uint64_t detect_wall(const sweep *s) { return (uint64_t)fxs_add(s->body, s->margin); }

// The distance along the path at which a body whose centre follows it first comes within r
// of the point c: along - sqrt(r^2 - side^2), clamped to [0, length], where along and side
// are c's coordinates along and across the heading (rounded to the LSB).
static fix16_t first_contact(const sweep *s, int64_t cx, int64_t cy, uint64_t r) {
  int64_t wx = cx - s->px, wy = cy - s->py; // |w| < 2^33, |dir| <= 2^16: products < 2^50
  int64_t along = fxs_div_round_i64(wx * s->dir.x + wy * s->dir.y, FXS_ONE);
  uint64_t side = magnitude(fxs_div_round_i64(wx * s->dir.y - wy * s->dir.x, FXS_ONE));
  int64_t half = side < r ? (int64_t)fxs_isqrt64(r * r - side * side) : 0; // r < 2^32
  int64_t at = along - half;
  return at < 0 ? 0 : (at > s->length ? s->length : (fix16_t)at);
}

// The sideways direction away from point c: to the right of the heading when c lies to its
// left, else to the left (also when c lies exactly on the path line: a fixed choice).
static fxs_vec2 sideways_from(const sweep *s, int64_t cx, int64_t cy) {
  fxs_vec2 left = fxs_vec2_make(fxs_neg(s->dir.y), s->dir.x);
  bool c_on_left = i128_sign(cross_wide(s->dx, s->dy, cx - s->px, cy - s->py)) > 0;
  return c_on_left ? fxs_vec2_negate(left) : left;
}

// max_avoid_force scaled by (length - at) / length, never below FXS_AVOIDANCE_MIN_SHARE.
static fix16_t ramped_force(const sweep *s, const fxs_avoidance_def *def, fix16_t at) {
  fix16_t share = s->length > 0 ? fxs_div(fxs_sub(s->length, at), s->length) : FXS_ONE;
  return fxs_mul(def->max_avoid_force, fxs_max(share, FXS_AVOIDANCE_MIN_SHARE));
}

// A push of the ramped length along `away`, leaning back by `braking` (backward : sideways).
static fxs_vec2 swept_push(const sweep *s, const fxs_avoidance_def *def, fxs_vec2 away,
                           fix16_t at) {
  fxs_vec2 back = fxs_vec2_scale(fxs_vec2_negate(s->dir), fxs_max(def->braking, 0));
  return fxs_vec2_set_length(fxs_vec2_add(away, back), ramped_force(s, def, at));
}

// The push for a body touching something at `contact`: straight out from it plus sideways
// (perpendicular to the velocity, away from it). ahead - contact alone lets an agent graze
// in beside it, or stall against it once it has slowed down.
static fxs_vec2 slide_away(const fxs_agent *self, fxs_vec2 contact) {
  fxs_vec2 out = fxs_vec2_normalize(fxs_vec2_sub(self->position, contact));
  fxs_vec2 left = fxs_vec2_normalize(fxs_vec2_make(fxs_neg(self->velocity.y), self->velocity.x));
  bool contact_on_left = fxs_vec2_dot(left, fxs_vec2_sub(contact, self->position)) > 0;
  fxs_vec2 push = fxs_vec2_add(out, contact_on_left ? fxs_vec2_negate(left) : left);
  if (fxs_vec2_is_zero(push)) push = out;
  // Standing still exactly on the centre or the wall: a fixed way out (+y).
  return fxs_vec2_is_zero(push) ? fxs_vec2_make(0, FXS_ONE) : push;
}

// ------------------------------------------------------------------ obstacles, swept
// True when the body overlaps obstacle o (exact; the margin does not count).
static bool touches(const sweep *s, const fxs_obstacle *o) {
  int64_t r = (int64_t)fxs_max(o->radius, 0) + s->body;
  return segment_within(o->center.x, o->center.y, s->px, s->py, 0, 0, (uint64_t)r);
}

// Whether the capsule reaches obstacle o; if so *at is its first-contact distance.
static bool obstacle_threat(const sweep *s, const fxs_obstacle *o, fix16_t *at) {
  int64_t r = (int64_t)detect_obstacle(s, o->radius);
  int64_t cx = o->center.x, cy = o->center.y;
  // Bounding box of the capsule first: most obstacles of a large field end here.
  int64_t lo_x = s->px + (s->dx < 0 ? s->dx : 0) - r, hi_x = s->px + (s->dx > 0 ? s->dx : 0) + r;
  int64_t lo_y = s->py + (s->dy < 0 ? s->dy : 0) - r, hi_y = s->py + (s->dy > 0 ? s->dy : 0) + r;
  if (cx < lo_x || cx > hi_x || cy < lo_y || cy > hi_y) return false;
  if (!segment_within(cx, cy, s->px, s->py, s->dx, s->dy, (uint64_t)r)) return false;
  if (touches(s, o)) {
    *at = 0;
    return true;
  }
  // Inside the margin with the centre abreast or behind: moving away, but still too close.
  bool ahead = i128_sign(dot_wide(cx - s->px, cy - s->py, s->dx, s->dy)) > 0;
  *at = ahead ? first_contact(s, cx, cy, (uint64_t)r) : s->length;
  return true;
}

// The obstacle with the nearest first contact, the lowest index among equals; over
// obstacles[among[k]] for k < count when among is given (ascending), else over all count.
static int swept_obstacle(const fxs_obstacle *obstacles, const uint32_t *among, uint32_t count,
                          const sweep *s, fix16_t *best) {
  int most = -1;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t i = among ? among[k] : k;
    fix16_t at;
    if (obstacle_threat(s, &obstacles[i], &at) && (most < 0 || at < *best)) {
      most = (int)i;
      *best = at;
    }
  }
  return most;
}

// The box of obstacle_threat's first test for an obstacle of radius max_radius: it holds the
// centre of every obstacle of radius <= max_radius that the capsule reaches.
static fxs_box swept_box(const sweep *s, fix16_t max_radius) {
  int64_t r = (int64_t)detect_obstacle(s, max_radius);
  fxs_box b;
  b.lo_x = s->px + (s->dx < 0 ? s->dx : 0) - r, b.hi_x = s->px + (s->dx > 0 ? s->dx : 0) + r;
  b.lo_y = s->py + (s->dy < 0 ? s->dy : 0) - r, b.hi_y = s->py + (s->dy > 0 ? s->dy : 0) + r;
  return b;
}

static fxs_vec2 swept_avoid_obstacle(const fxs_agent *self, const fxs_obstacle *o, const sweep *s,
                                     fix16_t at, const fxs_avoidance_def *def) {
  if (touches(s, o)) {
    return fxs_vec2_set_length(slide_away(self, o->center), def->max_avoid_force);
  }
  return swept_push(s, def, sideways_from(s, o->center.x, o->center.y), at);
}

// ------------------------------------------------------------------ walls, swept
// True when segments [p, p + d] and [a, b] properly cross (touching ends do not count: they
// are within any radius >= 0 and found by the distance tests).
static bool wall_crosses(const sweep *s, const fxs_wall *w) {
  int64_t ex = (int64_t)w->b.x - w->a.x, ey = (int64_t)w->b.y - w->a.y;
  int64_t ax = w->a.x, ay = w->a.y;
  int d1 = i128_sign(cross_wide(ex, ey, s->px - ax, s->py - ay));
  int d2 = i128_sign(cross_wide(ex, ey, s->px + s->dx - ax, s->py + s->dy - ay));
  int d3 = i128_sign(cross_wide(s->dx, s->dy, ax - s->px, ay - s->py));
  int d4 = i128_sign(cross_wide(s->dx, s->dy, (int64_t)w->b.x - s->px, (int64_t)w->b.y - s->py));
  return d1 * d2 < 0 && d3 * d4 < 0;
}

static bool wall_within(const fxs_wall *w, int64_t qx, int64_t qy, uint64_t radius) {
  return segment_within(qx, qy, w->a.x, w->a.y, (int64_t)w->b.x - w->a.x, (int64_t)w->b.y - w->a.y,
                        radius);
}

// Exact: the two segments cross, or their distance (the least of the four end-to-segment
// distances when they do not cross) is at most `radius`.
static bool wall_hit(const sweep *s, const fxs_wall *w, uint64_t radius) {
  return wall_crosses(s, w) || segment_within(w->a.x, w->a.y, s->px, s->py, s->dx, s->dy, radius) ||
         segment_within(w->b.x, w->b.y, s->px, s->py, s->dx, s->dy, radius) ||
         wall_within(w, s->px, s->py, radius) ||
         wall_within(w, s->px + s->dx, s->py + s->dy, radius);
}

// The wall's unit direction and its unit normal on the agent's side.
static void wall_frame(const sweep *s, const fxs_wall *w, fxs_vec2 *along, fxs_vec2 *normal) {
  int64_t ex = (int64_t)w->b.x - w->a.x, ey = (int64_t)w->b.y - w->a.y;
  while (magnitude(ex) > (uint64_t)FXS_MAX || magnitude(ey) > (uint64_t)FXS_MAX) ex /= 2, ey /= 2;
  *along = fxs_vec2_normalize(fxs_vec2_make((fix16_t)ex, (fix16_t)ey));
  *normal = fxs_vec2_make(fxs_neg(along->y), along->x);
  if (i128_sign(cross_wide(ex, ey, s->px - w->a.x, s->py - w->a.y)) < 0)
    *normal = fxs_vec2_negate(*normal);
}

// Where the centre, closing in on the wall's line, first comes within `radius` of it, if that
// point lies within reach and its foot on the line lies on the wall; else -1.
static int64_t wall_line_contact(const sweep *s, const fxs_wall *w, uint64_t radius) {
  fxs_vec2 along, normal;
  wall_frame(s, w, &along, &normal);
  int64_t rx = s->px - w->a.x, ry = s->py - w->a.y; // < 2^33 per component
  int64_t height = fxs_div_round_i64(rx * normal.x + ry * normal.y, FXS_ONE);
  int64_t closing = -((int64_t)s->dir.x * normal.x + (int64_t)s->dir.y * normal.y) / FXS_ONE;
  if (closing <= 0) return -1;
  int64_t at = (height - (int64_t)radius) * FXS_ONE / closing; // |height| < 2^34: < 2^50
  if (at < 0) at = 0;
  if (at > s->length) return -1;
  int64_t qx = rx + fxs_div_round_i64(at * s->dir.x, FXS_ONE);
  int64_t qy = ry + fxs_div_round_i64(at * s->dir.y, FXS_ONE);
  int64_t foot = fxs_div_round_i64(qx * along.x + qy * along.y, FXS_ONE);
  int64_t ex = (int64_t)w->b.x - w->a.x, ey = (int64_t)w->b.y - w->a.y;
  int64_t wall_length = fxs_div_round_i64(ex * along.x + ey * along.y, FXS_ONE);
  return foot >= 0 && foot <= wall_length ? at : -1;
}

// True when point c projects ahead of the agent onto its path.
static bool ahead_of(const sweep *s, int64_t cx, int64_t cy) {
  return i128_sign(dot_wide(cx - s->px, cy - s->py, s->dx, s->dy)) > 0;
}

// First-contact distance of a wall: 0 when the body touches it, else the least of the
// contacts with its ends ahead (as points) and with its line between them, or -1 when none
// is found. *part is 0 or 1 for the end a or b, -1 for the line.
static int64_t wall_contact(const sweep *s, const fxs_wall *w, int *part) {
  uint64_t radius = detect_wall(s);
  *part = -1;
  if (wall_within(w, s->px, s->py, (uint64_t)s->body)) return 0;
  int64_t best = -1;
  const fxs_vec2 ends[2] = {w->a, w->b};
  for (int k = 0; k < 2; ++k) {
    if (!ahead_of(s, ends[k].x, ends[k].y) ||
        !segment_within(ends[k].x, ends[k].y, s->px, s->py, s->dx, s->dy, radius)) {
      continue;
    }
    int64_t at = first_contact(s, ends[k].x, ends[k].y, radius);
    if (best < 0 || at < best) best = at, *part = k;
  }
  int64_t line = wall_line_contact(s, w, radius);
  if (line >= 0 && (best < 0 || line < best)) best = line, *part = -1;
  return best;
}

// The nearest wall by contact distance. A hit without a contact ahead (a body inside the
// margin that is not closing in, or a graze the rounded geometry misses at the edge of
// reach) counts at the edge of reach, on the line: the least share.
static int swept_wall(const fxs_wall *walls, uint32_t count, const sweep *s, fix16_t *best,
                      int *best_part) {
  uint64_t radius = detect_wall(s);
  int most = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!wall_hit(s, &walls[i], radius)) continue;
    int part;
    int64_t at = wall_contact(s, &walls[i], &part);
    if (at < 0) at = s->length;
    if (most < 0 || at < *best) most = (int)i, *best = (fix16_t)at, *best_part = part;
  }
  return most;
}

// Against a wall's line, the push along the wall's normal is at most the speed the agent
// closes in on the wall with: it can stop the approach within a tick, never throw the agent
// back off the wall. A body moving along the wall (or away from it) gets none and slides; in
// the world walls are also solid (world_contact.h), so a steady pull into the wall (a goal
// beyond it) ends at the wall, at rest or sliding. The full ramped force every tick the
// capsule touched the wall threw a sliding agent off it, and its goal pulled it back in,
// every other tick: its heading swung by more than a radian each tick.
static fix16_t wall_brake(const fxs_agent *self, fxs_vec2 normal, fix16_t most) {
  int64_t closing = -fxs_div_round_i64(
      (int64_t)self->velocity.x * normal.x + (int64_t)self->velocity.y * normal.y, FXS_ONE);
  if (closing <= 0) return 0;
  return closing < most ? (fix16_t)closing : most;
}

static fxs_vec2 swept_avoid_wall(const fxs_agent *self, const fxs_wall *w, const sweep *s,
                                 fix16_t at, int part, const fxs_avoidance_def *def) {
  if (wall_within(w, s->px, s->py, (uint64_t)s->body)) {
    fxs_vec2 contact = fxs_vec2_closest_on_segment(self->position, w->a, w->b);
    return fxs_vec2_set_length(slide_away(self, contact), def->max_avoid_force);
  }
  if (part >= 0) {
    // First contact at an end: sideways away from it, as from a point obstacle.
    fxs_vec2 end = part == 0 ? w->a : w->b;
    return swept_push(s, def, sideways_from(s, end.x, end.y), at);
  }
  fxs_vec2 along, normal;
  wall_frame(s, w, &along, &normal);
  return fxs_vec2_scale(normal, wall_brake(self, normal, ramped_force(s, def, at)));
}

// ------------------------------------------------------------------ the tutorial's probes
// FXS_AVOID_PROBES: the agent's position, ahead2 (half the look-ahead) and ahead are tested.

static fxs_vec2 probe(const fxs_agent *self, const fxs_avoidance_def *def, fix16_t fraction) {
  fix16_t length = fxs_mul(reach(self, def, fxs_vec2_length(self->velocity)), fraction);
  return fxs_vec2_add(self->position, fxs_vec2_set_length(self->velocity, length));
}

// The two probes' ends.
typedef struct probes {
  fxs_vec2 ahead, ahead2;
} probes;

static probes probes_of(const fxs_agent *self, const fxs_avoidance_def *def) {
  probes p;
  p.ahead = probe(self, def, FXS_ONE);
  p.ahead2 = probe(self, def, FXS_RATIO(1, 2));
  return p;
}

// The box around the agent and its probes' ends, max_radius + the agent's radius wider: it
// holds the centre of every obstacle of radius <= max_radius that probe_obstacle can pick.
static fxs_box probe_box(const fxs_agent *self, const probes *p, fix16_t max_radius) {
  int64_t r = fxs_add(max_radius, self->radius);
  const fxs_vec2 points[3] = {self->position, p->ahead, p->ahead2};
  fxs_box b;
  b.lo_x = b.hi_x = points[0].x, b.lo_y = b.hi_y = points[0].y;
  for (int i = 1; i < 3; ++i) {
    if (points[i].x < b.lo_x) b.lo_x = points[i].x;
    if (points[i].x > b.hi_x) b.hi_x = points[i].x;
    if (points[i].y < b.lo_y) b.lo_y = points[i].y;
    if (points[i].y > b.hi_y) b.hi_y = points[i].y;
  }
  b.lo_x -= r, b.lo_y -= r, b.hi_x += r, b.hi_y += r;
  return b;
}

// The nearest obstacle that a probe's end or the agent's centre is within, the lowest index
// among equals; over obstacles[among[k]] when among is given (ascending), else over all.
static int probe_obstacle(const fxs_agent *self, const probes *p, const fxs_obstacle *obstacles,
                          const uint32_t *among, uint32_t count) {
  fxs_vec2 ahead = p->ahead, ahead2 = p->ahead2;
  int most = -1;
  fix16_t best = 0;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t i = among ? among[k] : k;
    fix16_t r = fxs_add(obstacles[i].radius, self->radius);
    fxs_vec2 c = obstacles[i].center;
    if (!fxs_vec2_within(c, ahead, r) && !fxs_vec2_within(c, ahead2, r) &&
        !fxs_vec2_within(c, self->position, r)) {
      continue;
    }
    fix16_t d = fxs_vec2_distance(self->position, c);
    if (most < 0 || d < best) most = (int)i, best = d;
  }
  return most;
}

static fxs_vec2 probe_avoid_obstacle(const fxs_agent *self, const fxs_obstacle *o,
                                     const fxs_avoidance_def *def) {
  fxs_vec2 avoidance;
  if (fxs_vec2_within(o->center, self->position, fxs_add(o->radius, self->radius))) {
    avoidance = slide_away(self, o->center);
  } else {
    avoidance = fxs_vec2_sub(probe(self, def, FXS_ONE), o->center);
  }
  if (fxs_vec2_is_zero(avoidance)) {
    // Probe exactly on the centre: sidestep to the left of the heading (deterministic).
    avoidance = fxs_vec2_make(fxs_neg(self->velocity.y), self->velocity.x);
    if (fxs_vec2_is_zero(avoidance)) avoidance = fxs_vec2_make(0, FXS_ONE);
  }
  return fxs_vec2_set_length(avoidance, def->max_avoid_force);
}

static bool near_wall(const fxs_wall *w, fxs_vec2 point, fix16_t radius) {
  return fxs_vec2_within(fxs_vec2_closest_on_segment(point, w->a, w->b), point, radius);
}

static int probe_wall(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                      const fxs_avoidance_def *def) {
  fxs_vec2 ahead = probe(self, def, FXS_ONE);
  fxs_vec2 ahead2 = probe(self, def, FXS_RATIO(1, 2));
  sweep s = make_sweep(self, def);
  int most = -1;
  fix16_t best = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_wall *w = &walls[i];
    if (!wall_crosses(&s, w) && !near_wall(w, ahead, self->radius) &&
        !near_wall(w, ahead2, self->radius) && !near_wall(w, self->position, self->radius)) {
      continue;
    }
    fix16_t d =
        fxs_vec2_distance(self->position, fxs_vec2_closest_on_segment(self->position, w->a, w->b));
    if (most < 0 || d < best) most = (int)i, best = d;
  }
  return most;
}

static fxs_vec2 probe_avoid_wall(const fxs_agent *self, const fxs_wall *w,
                                 const fxs_avoidance_def *def) {
  fxs_vec2 contact = fxs_vec2_closest_on_segment(self->position, w->a, w->b);
  fxs_vec2 avoidance;
  if (fxs_vec2_within(contact, self->position, self->radius)) {
    avoidance = slide_away(self, contact);
  } else {
    fxs_vec2 along = fxs_vec2_sub(w->b, w->a); // the wall's normal, turned to the agent's side
    avoidance = fxs_vec2_make(fxs_neg(along.y), along.x);
    if (fxs_vec2_cross(along, fxs_vec2_sub(self->position, w->a)) < 0)
      avoidance = fxs_vec2_negate(avoidance);
  }
  if (fxs_vec2_is_zero(avoidance)) avoidance = fxs_vec2_sub(self->position, contact);
  return fxs_vec2_set_length(avoidance, def->max_avoid_force);
}

// ------------------------------------------------------------------ public entry points

static bool uses_probes(const fxs_avoidance_def *def) { return def->mode == FXS_AVOID_PROBES; }

int fxs_most_threatening_obstacle(const fxs_agent *self, const fxs_obstacle *obstacles,
                                  uint32_t count, const fxs_avoidance_def *def) {
  if (uses_probes(def)) {
    probes p = probes_of(self, def);
    return probe_obstacle(self, &p, obstacles, 0, count);
  }
  sweep s = make_sweep(self, def);
  fix16_t at = 0;
  return swept_obstacle(obstacles, 0, count, &s, &at);
}

// Asks the lookup (if any) for the obstacles in `box`; *among stays NULL (all of them) else.
static uint32_t candidates(fxs_obstacle_lookup *lookup, void *context, const fxs_box *box,
                           uint32_t count, const uint32_t **among) {
  *among = 0;
  if (!lookup) return count;
  uint32_t n = lookup(context, box, among);
  if (n == FXS_ALL_OBSTACLES) *among = 0, n = count;
  return n;
}

fxs_vec2 fxs_avoid_obstacles_near(const fxs_agent *self, const fxs_obstacle *obstacles,
                                  uint32_t count, fix16_t max_radius, fxs_obstacle_lookup *lookup,
                                  void *context, const fxs_avoidance_def *def) {
  const uint32_t *among;
  if (uses_probes(def)) {
    probes p = probes_of(self, def);
    fxs_box box = probe_box(self, &p, max_radius);
    uint32_t n = candidates(lookup, context, &box, count, &among);
    int most = probe_obstacle(self, &p, obstacles, among, n);
    return most < 0 ? fxs_vec2_zero() : probe_avoid_obstacle(self, &obstacles[most], def);
  }
  sweep s = make_sweep(self, def);
  fxs_box box = swept_box(&s, max_radius);
  uint32_t n = candidates(lookup, context, &box, count, &among);
  fix16_t at = 0;
  int most = swept_obstacle(obstacles, among, n, &s, &at);
  return most < 0 ? fxs_vec2_zero() : swept_avoid_obstacle(self, &obstacles[most], &s, at, def);
}

fxs_vec2 fxs_avoid_obstacles(const fxs_agent *self, const fxs_obstacle *obstacles, uint32_t count,
                             const fxs_avoidance_def *def) {
  return fxs_avoid_obstacles_near(self, obstacles, count, 0, 0, 0, def);
}

int fxs_most_threatening_wall(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                              const fxs_avoidance_def *def) {
  if (uses_probes(def)) return probe_wall(self, walls, count, def);
  sweep s = make_sweep(self, def);
  fix16_t at = 0;
  int part = -1;
  return swept_wall(walls, count, &s, &at, &part);
}

fxs_vec2 fxs_avoid_walls(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                         const fxs_avoidance_def *def) {
  if (uses_probes(def)) {
    int most = probe_wall(self, walls, count, def);
    return most < 0 ? fxs_vec2_zero() : probe_avoid_wall(self, &walls[most], def);
  }
  sweep s = make_sweep(self, def);
  fix16_t at = 0;
  int part = -1;
  int most = swept_wall(walls, count, &s, &at, &part);
  return most < 0 ? fxs_vec2_zero() : swept_avoid_wall(self, &walls[most], &s, at, part, def);
}
