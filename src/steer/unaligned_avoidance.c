#include "fixsteer/unaligned_avoidance.h"

#include "exact.h"
#include "fixsteer/behavior_params.h"
#include "wide.h"

fxs_unaligned_avoidance_def fxs_default_unaligned_avoidance_def(void) {
  fxs_unaligned_avoidance_def d;
  d.time_horizon = fxs_behavior_param_default(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 0);
  d.margin = fxs_behavior_param_default(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 1);
  d.neighbor_radius = fxs_behavior_param_default(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 2);
  d.max_avoid_force = fxs_behavior_param_default(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 3);
  return d;
}

bool fxs_closest_approach_ticks(fxs_vec2 offset, fxs_vec2 relative_velocity, fix16_t *ticks) {
  // Components are in [-(2^31 - 1), 2^31 - 1]: each product is below 2^62, each sum below
  // 2^63, so the dot product and the squared length are exact in 64 bits.
  int64_t approach =
      -((int64_t)offset.x * relative_velocity.x + (int64_t)offset.y * relative_velocity.y);
  uint64_t speed_sq = fxs_vec2_length_sq(relative_velocity);
  if (speed_sq == 0) {
    *ticks = 0;
    return true;
  }
  if (approach < 0) return false;
  uint64_t whole = (uint64_t)approach / speed_sq;
  if (whole >= 32768u) return false;
  // The 16 fraction bits by long division; the remainder stays below speed_sq < 2^63, so
  // doubling it never overflows.
  uint64_t rem = (uint64_t)approach % speed_sq;
  uint32_t t = (uint32_t)whole;
  for (int i = 0; i < 16; ++i) {
    rem <<= 1;
    t <<= 1;
    if (rem >= speed_sq) rem -= speed_sq, t |= 1u;
  }
  *ticks = (fix16_t)t;
  return true;
}

// b - a when both components fit in Q16.16.
static bool exact_difference(fxs_vec2 a, fxs_vec2 b, fxs_vec2 *out) {
  int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
  if (fxs_exact_magnitude(dx) > (uint64_t)FXS_MAX || fxs_exact_magnitude(dy) > (uint64_t)FXS_MAX) {
    return false;
  }
  *out = fxs_vec2_make((fix16_t)dx, (fix16_t)dy);
  return true;
}

// offset + v * t per component, exact then rounded once; false when it leaves the Q16.16
// range (then it is farther than any limit).
static bool separation_at(fxs_vec2 offset, fxs_vec2 v, fix16_t t, fxs_vec2 *out) {
  int64_t sx = offset.x + fxs_div_round_i64((int64_t)v.x * t, 65536); // |.| < 2^47
  int64_t sy = offset.y + fxs_div_round_i64((int64_t)v.y * t, 65536);
  if (fxs_exact_magnitude(sx) > (uint64_t)FXS_MAX || fxs_exact_magnitude(sy) > (uint64_t)FXS_MAX) {
    return false;
  }
  *out = fxs_vec2_make((fix16_t)sx, (fix16_t)sy);
  return true;
}

// |s| < limit, exactly.
static bool closer_than(fxs_vec2 s, fix16_t limit) {
  if (fxs_abs(s.x) >= limit || fxs_abs(s.y) >= limit) return false;
  return fxs_vec2_length_sq(s) < (uint64_t)limit * (uint64_t)limit;
}

fxs_threat fxs_most_imminent_threat(const fxs_agent *self, uint32_t self_id,
                                    const fxs_neighbor *neighbors, uint32_t count,
                                    const fxs_unaligned_avoidance_def *def) {
  fxs_threat best = {-1, 0, {0, 0}};
  uint32_t best_id = 0;
  fix16_t horizon = fxs_max(def->time_horizon, 0);
  fix16_t limit = fxs_add(fxs_add(fxs_max(self->radius, 0), fxs_max(def->neighbor_radius, 0)),
                          fxs_max(def->margin, 0));
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_neighbor *n = &neighbors[i];
    fxs_vec2 dp, dv, s;
    fix16_t t;
    if (n->id == self_id || !exact_difference(self->position, n->position, &dp) ||
        !exact_difference(self->velocity, n->velocity, &dv) ||
        !fxs_closest_approach_ticks(dp, dv, &t) || t > horizon || !separation_at(dp, dv, t, &s) ||
        !closer_than(s, limit)) {
      continue;
    }
    if (best.index >= 0 && (t > best.ticks || (t == best.ticks && n->id >= best_id))) continue;
    best.index = (int)i;
    best.ticks = t;
    best.separation = s;
    best_id = n->id;
  }
  return best;
}

// True when the headings of a and b are more than 135 degrees apart: a . b < 0 and
// 2 (a . b)^2 > |a|^2 |b|^2, compared exactly in 128 bits.
static bool head_on(fxs_vec2 a, fxs_vec2 b) {
  int64_t dot = fxs_vec2_dot(a, b); // exact: |.| < 2^63
  if (dot >= 0) return false;
  uint64_t m = (uint64_t)(-dot);
  fxs_u128 lhs = fxs_u128_mul(m, m);
  lhs = fxs_u128_add(lhs, lhs);
  return fxs_u128_compare(lhs, fxs_u128_mul(fxs_vec2_length_sq(a), fxs_vec2_length_sq(b))) > 0;
}

// The unit vector perpendicular to `heading` on the side away from `s` (the threat's
// predicted offset); the right-hand side (clockwise, y up) when s lies on the heading's line.
static fxs_vec2 sideways(fxs_vec2 heading, fxs_vec2 s) {
  fxs_vec2 h = fxs_vec2_normalize(heading);
  fxs_vec2 right = fxs_vec2_make(h.y, fxs_neg(h.x));
  return fxs_vec2_cross(heading, s) < 0 ? fxs_vec2_negate(right) : right;
}

static bool moving(fxs_vec2 v) {
  return fxs_vec2_length_sq(v) >= (uint64_t)FXS_HEADING_MIN_SPEED * (uint64_t)FXS_HEADING_MIN_SPEED;
}

fxs_vec2 fxs_unaligned_avoidance(const fxs_agent *self, uint32_t self_id,
                                 const fxs_neighbor *neighbors, uint32_t count,
                                 const fxs_unaligned_avoidance_def *def) {
  fxs_threat threat = fxs_most_imminent_threat(self, self_id, neighbors, count, def);
  if (threat.index < 0) return fxs_vec2_zero();
  const fxs_neighbor *n = &neighbors[threat.index];
  fxs_vec2 s = threat.separation, dir;
  fxs_vec2 relative = fxs_vec2_sub(self->velocity, n->velocity); // exact: checked in the search
  if (moving(self->velocity)) {
    dir = sideways(self->velocity, s);
    if (moving(n->velocity) && head_on(self->velocity, n->velocity)) {
      dir = fxs_vec2_sub(dir, fxs_vec2_normalize(self->velocity));
    }
  } else if (!fxs_vec2_is_zero(relative)) {
    dir = sideways(relative, s);
  } else if (!fxs_vec2_is_zero(s)) {
    dir = fxs_vec2_negate(s);
  } else {
    dir = fxs_vec2_make(self_id < n->id ? -FXS_ONE : FXS_ONE, 0);
  }
  fix16_t limit = fxs_max(def->max_avoid_force, 0);
  return fxs_vec2_truncate(fxs_vec2_set_length(dir, limit), limit);
}
