#include "fixsteer/vec2.h"

#include "isqrt.h"
#include "vec2_measure.h"
#include "vec2_scale.h"
#include "vec2_within.h"
#include "wide.h"

static uint64_t magnitude(int64_t a) { return (uint64_t)(a < 0 ? -a : a); }

int64_t fxs_vec2_dot(fxs_vec2 a, fxs_vec2 b) {
  return fxs_add_sat_i64((int64_t)a.x * b.x, (int64_t)a.y * b.y);
}

int64_t fxs_vec2_cross(fxs_vec2 a, fxs_vec2 b) {
  // Each product is within +-2^62, so negating one cannot overflow.
  return fxs_add_sat_i64((int64_t)a.x * b.y, -((int64_t)a.y * b.x));
}

uint64_t fxs_vec2_length_sq(fxs_vec2 v) {
  // Each square is <= 2^62, the sum <= 2^63: fits in uint64.
  return (uint64_t)((int64_t)v.x * v.x) + (uint64_t)((int64_t)v.y * v.y);
}

fix16_t fxs_vec2_length(fxs_vec2 v) {
  // sqrt of the raw squares is the length in raw Q16.16 units.
  uint64_t len = fxs_isqrt64_round(fxs_vec2_length_sq(v));
  return len > (uint64_t)FXS_MAX ? FXS_MAX : (fix16_t)len;
}

fix16_t fxs_vec2_distance(fxs_vec2 a, fxs_vec2 b) {
  int64_t dx = (int64_t)a.x - b.x;
  int64_t dy = (int64_t)a.y - b.y;
  if (magnitude(dx) > (uint64_t)FXS_MAX || magnitude(dy) > (uint64_t)FXS_MAX) {
    return FXS_MAX; // one component alone already exceeds the largest length
  }
  return fxs_vec2_length(fxs_vec2_make((fix16_t)dx, (fix16_t)dy));
}

bool fxs_vec2_within(fxs_vec2 a, fxs_vec2 b, fix16_t radius) {
  return fxs_vec2_within_inline(a, b, radius);
}

fxs_vec2_measure fxs_vec2_measure_of(fxs_vec2 v) { return fxs_vec2_measure_inline(v); }

fxs_vec2 fxs_vec2_set_length_measured(fxs_vec2 v, const fxs_vec2_measure *m, fix16_t length) {
  return fxs_vec2_set_length_measured_inline(v, m, length);
}

fxs_vec2 fxs_vec2_normalize(fxs_vec2 v) { return fxs_vec2_scale_round(v, FXS_ONE); }

fxs_vec2 fxs_vec2_set_length(fxs_vec2 v, fix16_t length) {
  return fxs_vec2_set_length_inline(v, length);
}

fxs_vec2 fxs_vec2_truncate(fxs_vec2 v, fix16_t max_length) {
  FXS_ASSERT(max_length >= 0);
  if (max_length < 0) max_length = 0;
  uint64_t sq = fxs_vec2_length_sq(v);
  if (sq <= (uint64_t)max_length * (uint64_t)max_length) return v;
  return fxs_vec2_truncate_long(v, max_length, sq);
}

fxs_vec2 fxs_vec2_truncate_long(fxs_vec2 v, fix16_t max_length, uint64_t length_sq) {
  if (fxs_vec2_truncate_takes_one(length_sq, max_length)) return fxs_vec2_one_toward_zero(v);
  return fxs_vec2_scale_down(v, max_length, length_sq);
}

fxs_vec2 fxs_vec2_from_angle(fix16_t angle) {
  return fxs_vec2_make(fxs_cos(angle), fxs_sin(angle));
}

fxs_vec2 fxs_vec2_set_angle(fxs_vec2 v, fix16_t angle) {
  fix16_t len = fxs_vec2_length(v);
  return fxs_vec2_make(fxs_mul(fxs_cos(angle), len), fxs_mul(fxs_sin(angle), len));
}

fxs_vec2 fxs_vec2_rotate(fxs_vec2 v, fix16_t angle) {
  int64_t c = fxs_cos(angle), s = fxs_sin(angle);  // |c|, |s| <= 2^16
  int64_t x = (int64_t)v.x * c - (int64_t)v.y * s; // |x| <= 2^48
  int64_t y = (int64_t)v.x * s + (int64_t)v.y * c;
  return fxs_vec2_make(fxs_saturate(fxs_div_round_i64(x, 65536)),
                       fxs_saturate(fxs_div_round_i64(y, 65536)));
}

fix16_t fxs_vec2_angle(fxs_vec2 v) { return fxs_atan2(v.y, v.x); }

fxs_vec2 fxs_vec2_lerp(fxs_vec2 a, fxs_vec2 b, fix16_t t) {
  return fxs_vec2_make(fxs_lerp(a.x, b.x, t), fxs_lerp(a.y, b.y, t));
}

fxs_vec2 fxs_vec2_closest_on_segment(fxs_vec2 p, fxs_vec2 a, fxs_vec2 b) {
  int64_t ex = (int64_t)b.x - a.x, ey = (int64_t)b.y - a.y; // |e| <= 2^32 per component
  int64_t px = (int64_t)p.x - a.x, py = (int64_t)p.y - a.y;
  if (ex == 0 && ey == 0) return a;
  // Scale both down together until the products fit in 63 bits; the ratio t is unchanged
  // up to the dropped low bits.
  while (magnitude(ex) >= (INT64_C(1) << 31) || magnitude(ey) >= (INT64_C(1) << 31) ||
         magnitude(px) >= (INT64_C(1) << 31) || magnitude(py) >= (INT64_C(1) << 31)) {
    ex /= 2, ey /= 2, px /= 2, py /= 2;
  }
  int64_t dot = px * ex + py * ey;                           // |dot| < 2^63
  uint64_t len2 = (uint64_t)(ex * ex) + (uint64_t)(ey * ey); // < 2^63
  if (dot <= 0 || len2 == 0) return a;
  if ((uint64_t)dot >= len2) return b;
  // t = dot / len2 in Q16.16 by binary long division: the remainder stays below len2 < 2^63,
  // so doubling it never overflows.
  uint64_t rem = (uint64_t)dot;
  int64_t t = 0;
  for (int i = 0; i < 16; ++i) {
    rem <<= 1;
    t <<= 1;
    if (rem >= len2) rem -= len2, t |= 1;
  }
  int64_t qx = (int64_t)a.x + fxs_div_round_i64(((int64_t)b.x - a.x) * t, 65536);
  int64_t qy = (int64_t)a.y + fxs_div_round_i64(((int64_t)b.y - a.y) * t, 65536);
  return fxs_vec2_make(fxs_saturate(qx), fxs_saturate(qy));
}
