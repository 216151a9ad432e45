#include "fixsteer/vec2.h"

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
  if (radius < 0) return false;
  uint64_t dx = magnitude((int64_t)a.x - b.x);
  uint64_t dy = magnitude((int64_t)a.y - b.y);
  if (dx > (uint64_t)radius || dy > (uint64_t)radius) return false;
  return dx * dx + dy * dy <= (uint64_t)radius * (uint64_t)radius;
}

// |a * b| / d rounded as asked, with the sign of a * b. |a| < 2^31, 0 < b < 2^31, and
// 2^30 <= d < 2^32 with |a| <= d: the quotient stays below 2^32.
static fix16_t scaled(int64_t a, fix16_t b, uint64_t d, bool round_half_up) {
  uint64_t n = magnitude(a) * (uint64_t)b;
  if (round_half_up) n += d / 2;
  int64_t q = (int64_t)fxs_udiv64_32(n, (uint32_t)d);
  return fxs_saturate(a < 0 ? -q : q);
}

// Scales v to length `target`. The components are first doubled until the larger one is in
// [2^30, 2^31): an exact change that leaves the direction alone but gives the length 30+
// significant bits, so tiny vectors normalize as precisely as large ones. With toward_zero
// the length is rounded up and the quotients truncated, so the result never exceeds target;
// otherwise the quotients are rounded half away from zero.
static fxs_vec2 scale_to(fxs_vec2 v, fix16_t target, bool toward_zero) {
  if (fxs_vec2_is_zero(v) || target <= 0) return fxs_vec2_zero();
  uint64_t m = magnitude(v.x) > magnitude(v.y) ? magnitude(v.x) : magnitude(v.y);
  unsigned zeros = fxs_clz32((uint32_t)m); // m < 2^31: at least one leading zero
  int64_t twice = zeros > 1 ? INT64_C(1) << (zeros - 1) : 1;
  int64_t x = (int64_t)v.x * twice, y = (int64_t)v.y * twice;
  uint64_t sq = magnitude(x) * magnitude(x) + magnitude(y) * magnitude(y); // <= 2^63
  uint64_t len;
  if (toward_zero) {
    uint64_t r = fxs_isqrt64(sq);
    len = r * r < sq ? r + 1 : r;
  } else {
    len = fxs_isqrt64_round(sq);
  }
  return fxs_vec2_make(scaled(x, target, len, !toward_zero), scaled(y, target, len, !toward_zero));
}

fxs_vec2 fxs_vec2_normalize(fxs_vec2 v) { return scale_to(v, FXS_ONE, false); }

fxs_vec2 fxs_vec2_set_length(fxs_vec2 v, fix16_t length) {
  FXS_ASSERT(length >= 0);
  return scale_to(v, length, false);
}

fxs_vec2 fxs_vec2_truncate(fxs_vec2 v, fix16_t max_length) {
  FXS_ASSERT(max_length >= 0);
  if (max_length < 0) max_length = 0;
  if (fxs_vec2_length_sq(v) <= (uint64_t)max_length * (uint64_t)max_length) return v;
  return scale_to(v, max_length, true);
}

fxs_vec2 fxs_vec2_from_angle(fix16_t angle) {
  return fxs_vec2_make(fxs_cos(angle), fxs_sin(angle));
}

fxs_vec2 fxs_vec2_set_angle(fxs_vec2 v, fix16_t angle) {
  fix16_t len = fxs_vec2_length(v);
  return fxs_vec2_make(fxs_mul(fxs_cos(angle), len), fxs_mul(fxs_sin(angle), len));
}

fxs_vec2 fxs_vec2_rotate(fxs_vec2 v, fix16_t angle) {
  int64_t c = fxs_cos(angle), s = fxs_sin(angle); // |c|, |s| <= 2^16
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
  int64_t dot = px * ex + py * ey;                       // |dot| < 2^63
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
