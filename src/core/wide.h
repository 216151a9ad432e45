// Internal 64-bit helpers shared by the math sources. Not part of the public API.
#ifndef FIXSTEER_WIDE_H
#define FIXSTEER_WIDE_H

#include <stdint.h>

#include "fixsteer/scalar.h"

/// n / d rounded half away from zero. d != 0; the quotient must fit in int64.
int64_t fxs_div_round_i64(int64_t n, int64_t d);

/// fxs_div_round_i64, inline for hot callers: one implementation, two ways in.
static inline int64_t fxs_div_round_i64_inline(int64_t n, int64_t d) {
  int64_t half = (d < 0 ? -d : d) / 2;
  return ((n < 0) != (d < 0)) ? (n - (d < 0 ? -half : half)) / d : (n + (d < 0 ? -half : half)) / d;
}

/// n / 2^16 rounded half away from zero, for |n| < 2^62: fxs_div_round_i64(n, 65536) by
/// shifts (a shift of the magnitude, then its sign back: no right shift of a negative value).
static inline int64_t fxs_round_q16_i64(int64_t n) {
  return n < 0 ? -((-n + 32768) >> 16) : (n + 32768) >> 16;
}

/// a + b for int64, saturating at INT64_MIN / INT64_MAX.
int64_t fxs_add_sat_i64(int64_t a, int64_t b);

/// Leading zero bits of v (32 for 0).
unsigned fxs_clz32(uint32_t v);

/// floor(n / d) for d > 0 when the quotient is below 2^32. Exact; uses only 32-bit division
/// on 32-bit targets (where a 64-bit division is a long library call).
uint32_t fxs_udiv64_32(uint64_t n, uint32_t d);

/// The 32-bit long division behind fxs_udiv64_32 on 32-bit targets (tests compare it with
/// the native one everywhere).
uint32_t fxs_udiv64_32_digits(uint64_t n, uint32_t d);

/// |(x, y)|^2 of raw components, exact in Q32.32 (as fxs_vec2_length_sq), inline for the
/// integrator's and the truncation's quick "already short enough" tests.
static inline uint64_t fxs_length_sq_raw(int32_t x, int32_t y) {
  return (uint64_t)((int64_t)x * x) + (uint64_t)((int64_t)y * y);
}

/// A product a * b of Q16.16 values (exact, Q32.32) whose rounded quotient by 2^16 is below
/// 2^30 in magnitude (|p| < 2^46): fxs_mul's common case, with no saturation to test.
static inline int fxs_mul_product_is_small(int64_t p) {
  return (uint64_t)(p + (INT64_C(1) << 46)) < (UINT64_C(1) << 47);
}

/// p / 2^16 rounded half away from zero, for p in [-2^47, 2^47): the result lies in
/// [-2^31, 2^31]. It is floor((p + 2^15 - [p < 0]) / 2^16), the rounding of libfixmath's
/// fix16_mul; the floor is taken of a non-negative offset (t + 2^47), so no negative value
/// is shifted.
static inline int64_t fxs_mul_round(int64_t p) {
  int64_t t = p + 32768 - (p < 0);
  return (int64_t)((uint64_t)(t + (INT64_C(1) << 47)) >> 16) - (INT64_C(1) << 31);
}

/// fxs_mul of a product that is not small (defined in scalar.c).
fix16_t fxs_mul_large(int64_t product);

/// fxs_mul(a, b): the one implementation, inline so that hot callers skip the call in the
/// common case.
static inline fix16_t fxs_mul_inline(fix16_t a, fix16_t b) {
  int64_t product = (int64_t)a * b; // |product| <= 2^62
  if (fxs_mul_product_is_small(product)) return (fix16_t)fxs_mul_round(product);
  return fxs_mul_large(product);
}

#endif
