// Internal exact wide arithmetic for comparisons that do not fit in 64 bits: squared
// distances between any two Q16.16 points, and products of two 64-bit magnitudes. Header-only
// (static inline) so every source that includes it links on its own. Not part of the API.
#ifndef FIXSTEER_EXACT_H
#define FIXSTEER_EXACT_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/vec2.h"

/// An unsigned 128-bit integer, hi * 2^64 + lo.
typedef struct fxs_u128 {
  uint64_t hi;
  uint64_t lo;
} fxs_u128;

/// a * b, exact: with a native 128-bit type (GCC and Clang on 64-bit targets) one
/// multiplication, elsewhere four 32 x 32 -> 64-bit products. Same answer.
static inline fxs_u128 fxs_u128_mul(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 wide;
  wide p = (wide)a * b;
  fxs_u128 product;
  product.hi = (uint64_t)(p >> 64), product.lo = (uint64_t)p;
  return product;
#else
  uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  // The middle column: at most 3 * (2^32 - 1) summed in 64 bits, no overflow.
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  fxs_u128 r;
  r.lo = (p00 & 0xFFFFFFFFu) | (mid << 32);
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return r;
#endif
}

/// a + b, exact while the sum stays below 2^128.
static inline fxs_u128 fxs_u128_add(fxs_u128 a, fxs_u128 b) {
  fxs_u128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo ? 1u : 0u);
  return r;
}

/// -1, 0 or 1 as a < b, a == b, a > b.
static inline int fxs_u128_compare(fxs_u128 a, fxs_u128 b) {
  if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
  if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
  return 0;
}

/// -1, 0 or 1 as a * b <, ==, > c * d, exact. With a native 128-bit type (GCC and Clang on
/// 64-bit targets) two multiplications; elsewhere the four-product fxs_u128_mul. Same answer.
static inline int fxs_u128_compare_products(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 wide;
  wide l = (wide)a * b, r = (wide)c * d;
  return (l > r) - (l < r);
#else
  return fxs_u128_compare(fxs_u128_mul(a, b), fxs_u128_mul(c, d));
#endif
}

/// |d| of a 64-bit difference of two Q16.16 values (|d| < 2^33).
static inline uint64_t fxs_exact_magnitude(int64_t d) { return (uint64_t)(d < 0 ? -d : d); }

/// |a - b|^2 in raw units (Q32.32), exact for any two points: each difference is below 2^32,
/// each square below 2^64, their sum below 2^65.
static inline fxs_u128 fxs_distance_sq_exact(fxs_vec2 a, fxs_vec2 b) {
  uint64_t dx = fxs_exact_magnitude((int64_t)a.x - b.x);
  uint64_t dy = fxs_exact_magnitude((int64_t)a.y - b.y);
  return fxs_u128_add(fxs_u128_mul(dx, dx), fxs_u128_mul(dy, dy));
}

/// The sign (-1, 0, 1) of (b - a) x (p - a) for any three points, exact: each difference is
/// below 2^32 in magnitude, each product below 2^64, compared in 128 bits.
static inline int fxs_exact_orientation(fxs_vec2 a, fxs_vec2 b, fxs_vec2 p) {
  int64_t bx = (int64_t)b.x - a.x, by = (int64_t)b.y - a.y;
  int64_t cx = (int64_t)p.x - a.x, cy = (int64_t)p.y - a.y;
  int sl = (bx < 0) != (cy < 0) ? -1 : 1, sr = (by < 0) != (cx < 0) ? -1 : 1;
  bool l0 = bx == 0 || cy == 0, r0 = by == 0 || cx == 0;
  if (l0 && r0) return 0;
  if (l0) return -sr;
  if (r0) return sl;
  if (sl != sr) return sl;
  int k = fxs_u128_compare_products(fxs_exact_magnitude(bx), fxs_exact_magnitude(cy),
                                    fxs_exact_magnitude(by), fxs_exact_magnitude(cx));
  return sl > 0 ? k : -k;
}

/// Whether segments [p, q] and [a, b] meet (touching counts), exact for any four points.
static inline bool fxs_exact_segments_meet(fxs_vec2 p, fxs_vec2 q, fxs_vec2 a, fxs_vec2 b) {
  return fxs_exact_orientation(a, b, p) * fxs_exact_orientation(a, b, q) <= 0 &&
         fxs_exact_orientation(p, q, a) * fxs_exact_orientation(p, q, b) <= 0;
}

/// A vector pointing from `from` to `to` for any two points: to - from, exact when it fits,
/// else both components halved toward zero (|to - from| <= 2^32 - 2 per component), which
/// keeps the direction to within 1 LSB in 2^31 and mirrored inputs mirrored. Zero only when
/// the points are equal.
static inline fxs_vec2 fxs_exact_direction(fxs_vec2 from, fxs_vec2 to) {
  int64_t dx = (int64_t)to.x - from.x, dy = (int64_t)to.y - from.y;
  if (fxs_exact_magnitude(dx) > (uint64_t)FXS_MAX || fxs_exact_magnitude(dy) > (uint64_t)FXS_MAX) {
    dx /= 2;
    dy /= 2;
  }
  return fxs_vec2_make((fix16_t)dx, (fix16_t)dy);
}

#endif
