/// @file scalar.h
/// Q16.16 scalar arithmetic with one overflow policy: every result saturates to
/// [FXS_MIN, FXS_MAX] and no function returns libfixmath's 0x80000000 sentinel.
/// Angles are radians in Q16.16; see the CONVENTIONS block in fixsteer.h.
#ifndef FIXSTEER_SCALAR_H
#define FIXSTEER_SCALAR_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Clamps a 64-bit raw value into [FXS_MIN, FXS_MAX].
static inline fix16_t fxs_saturate(int64_t raw) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  // 64-bit targets: one unsigned comparison for the common in-range case (raw + FXS_MAX
  // wraps modulo 2^64). On 32-bit ones two signed comparisons are cheaper. Same results.
  if ((uint64_t)raw + (uint64_t)FXS_MAX <= 2 * (uint64_t)FXS_MAX) return (fix16_t)raw;
  return raw > 0 ? FXS_MAX : FXS_MIN;
#else
  return raw > FXS_MAX ? FXS_MAX : (raw < FXS_MIN ? FXS_MIN : (fix16_t)raw);
#endif
}

#if UINTPTR_MAX <= 0xFFFFFFFFu && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
// 32-bit targets: the 32-bit sum and its overflow flag (an add and a branch on a Cortex-M)
// instead of a 64-bit sum and two comparisons. Past INT32_MAX or below INT32_MIN the sign of
// a tells which; an exact INT32_MIN is below FXS_MIN. The results of fxs_saturate on the
// exact sum. (On x86-64 the 64-bit way measured shorter in the world's step.)
/// a + b, saturating.
static inline fix16_t fxs_add(fix16_t a, fix16_t b) {
  int32_t r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? FXS_MAX : FXS_MIN;
  return r == INT32_MIN ? FXS_MIN : r;
}
/// a - b, saturating.
static inline fix16_t fxs_sub(fix16_t a, fix16_t b) {
  int32_t r;
  if (__builtin_sub_overflow(a, b, &r)) return a >= 0 ? FXS_MAX : FXS_MIN;
  return r == INT32_MIN ? FXS_MIN : r;
}
#else
/// a + b, saturating.
static inline fix16_t fxs_add(fix16_t a, fix16_t b) { return fxs_saturate((int64_t)a + b); }
/// a - b, saturating.
static inline fix16_t fxs_sub(fix16_t a, fix16_t b) { return fxs_saturate((int64_t)a - b); }
#endif
/// -a, saturating (so -0x80000000 gives FXS_MAX).
static inline fix16_t fxs_neg(fix16_t a) { return fxs_saturate(-(int64_t)a); }
/// |a|, saturating.
static inline fix16_t fxs_abs(fix16_t a) { return a < 0 ? fxs_neg(a) : a; }
/// The smaller of a and b.
static inline fix16_t fxs_min(fix16_t a, fix16_t b) { return a < b ? a : b; }
/// The larger of a and b.
static inline fix16_t fxs_max(fix16_t a, fix16_t b) { return a > b ? a : b; }
/// a limited to [lo, hi]; requires lo <= hi.
static inline fix16_t fxs_clamp(fix16_t a, fix16_t lo, fix16_t hi) {
  return a < lo ? lo : (a > hi ? hi : a);
}

/// a * b rounded half away from zero (as libfixmath's fix16_mul rounds), saturating on
/// overflow. Computed in 64-bit integers by fixsteer itself.
FXS_API fix16_t fxs_mul(fix16_t a, fix16_t b);

/// a / b through libfixmath's fix16_div (rounded), saturating on overflow.
/// b == 0 gives FXS_MAX, FXS_MIN or 0 by the sign of a (never the sentinel).
FXS_API fix16_t fxs_div(fix16_t a, fix16_t b);

/// a * b / c in exact 64-bit integer arithmetic, rounded half away from zero, saturating.
/// Any raw values; c == 0 saturates by the sign of a * b.
FXS_API fix16_t fxs_muldiv(fix16_t a, fix16_t b, fix16_t c);

/// a + (b - a) * t, exact in 64 bits then rounded half away from zero, saturating.
/// t is usually in [0, 1] but is not clamped.
FXS_API fix16_t fxs_lerp(fix16_t a, fix16_t b, fix16_t t);

/// floor(sqrt(n)) for any 64-bit n. Exact, without division: a 1/sqrt table seed, a Newton
/// step and two residual steps, ~60 instructions on x86-64 or a Cortex-M3.
FXS_API uint32_t fxs_isqrt64(uint64_t n);

/// sqrt(n) rounded to the nearest integer (ties cannot occur). Exact for any 64-bit n.
FXS_API uint64_t fxs_isqrt64_round(uint64_t n);

/// sqrt(x) correctly rounded to the nearest Q16.16 LSB, for x >= 0. x < 0 is a contract
/// violation and returns 0.
FXS_API fix16_t fxs_sqrt(fix16_t x);

/// Wraps an angle into (-FXS_PI, FXS_PI] by whole multiples of FXS_TWO_PI (exact).
FXS_API fix16_t fxs_angle_wrap(fix16_t angle);

/// sin(angle) for any Q16.16 angle. The argument is reduced with a 2^-44 rad precise pi
/// before libfixmath's fix16_sin runs on [-pi/2, pi/2]; error vs. the true sine of the
/// exact Q16.16 input <= 4 LSB over the whole range (measured: see test_scalar.c).
/// Result in [-FXS_ONE, FXS_ONE].
FXS_API fix16_t fxs_sin(fix16_t angle);

/// cos(angle), same method and error bound as fxs_sin.
FXS_API fix16_t fxs_cos(fix16_t angle);

/// atan2(y, x) in (-FXS_PI, FXS_PI], defined for every pair of raw inputs (no overflow):
/// inputs are prescaled to |x|, |y| < 2^13 units before libfixmath's cubic fix16_atan2.
/// fxs_atan2(0, 0) == 0; the four axis directions are exact (0, FXS_HALF_PI, FXS_PI,
/// -FXS_HALF_PI). Max error vs. the true atan2: FXS_ATAN2_MAX_ERROR.
FXS_API fix16_t fxs_atan2(fix16_t y, fix16_t x);

/// Bound on |error| of fxs_atan2, raw Q16.16 radians: 669 = 0.0102 rad = 0.58 deg. Measured
/// 0.010168 rad (666.4 LSB) over 8 scales from 1 LSB to 32767 units x 3600 directions.
#define FXS_ATAN2_MAX_ERROR ((fix16_t)669)

#ifdef __cplusplus
}
#endif

#endif
