// Internal: the scaling behind fxs_vec2_normalize, fxs_vec2_set_length and fxs_vec2_truncate,
// inline, so that the hot callers (arrive and seek, the integrator's limits) run it without a
// call. Results are those of the public functions: one implementation, two ways in. Not part
// of the API.
#ifndef FIXSTEER_VEC2_SCALE_H
#define FIXSTEER_VEC2_SCALE_H

#include <stdint.h>

#include "fixsteer/vec2.h"
#include "isqrt.h"

// Inline even where the compiler would rather call: the hot callers' chains (seek, the
// integrator's limits) pay a call's argument packing and register saves otherwise.
#if defined(__GNUC__)
#define FXS_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define FXS_ALWAYS_INLINE static inline
#endif

/// |a| of a 32-bit value, in [0, 2^31]: without a branch on the sign (a direction's signs
/// are as often negative as positive, and a core mispredicts such a branch half the time).
static inline uint64_t fxs_magnitude32(int32_t a) {
  int64_t w = a;                     // 64-bit: 2^31 still fits
  return (uint64_t)(w < 0 ? -w : w); // a negation and a conditional move
}

/// v's component magnitudes, doubled until the larger one is in [2^30, 2^31] (an exact change
/// that leaves the direction alone but gives the length 30+ significant bits, so tiny vectors
/// scale as precisely as large ones), and their squared length, in [2^60, 2^63].
typedef struct fxs_widened {
  uint64_t ax, ay, sq;
  unsigned shift; ///< The doublings, [0, 30].
} fxs_widened;

/// v widened, all but the squared length (sq left 0 for the caller). v != 0.
static inline fxs_widened fxs_widen_components(fxs_vec2 v) {
  fxs_widened w;
  w.ax = fxs_magnitude32(v.x), w.ay = fxs_magnitude32(v.y);
  // The larger magnitude's leading zeros are those of both or-ed together: one instruction
  // instead of a comparison and a select. Of [1, 2^32).
  unsigned zeros = fxs_clz32_nz((uint32_t)(w.ax | w.ay));
  w.shift = zeros > 1 ? zeros - 1 : 0;
  w.ax <<= w.shift, w.ay <<= w.shift;
  w.sq = 0;
  return w;
}

/// (|c| target + half) / len for both widened components, with v's signs. Each quotient is at
/// most target + 1/2 (|c| <= len), so it fits in 32 bits and takes its sign without overflow.
static inline fxs_vec2 fxs_widened_quotients(fxs_vec2 v, fxs_widened w, fix16_t target,
                                             uint64_t half, uint32_t len) {
  uint32_t qx = fxs_udiv64_32_inline(w.ax * (uint64_t)target + half, len);
  uint32_t qy = fxs_udiv64_32_inline(w.ay * (uint64_t)target + half, len);
  return fxs_vec2_make(v.x < 0 ? -(fix16_t)qx : (fix16_t)qx, v.y < 0 ? -(fix16_t)qy : (fix16_t)qy);
}

/// v scaled to length `target`, the quotients rounded half away from zero against the rounded
/// length (normalize, set length). Zero for v == 0 or target <= 0.
FXS_ALWAYS_INLINE fxs_vec2 fxs_vec2_scale_round(fxs_vec2 v, fix16_t target) {
  if (fxs_vec2_is_zero(v) || target <= 0) return fxs_vec2_zero();
  fxs_widened w = fxs_widen_components(v);
  w.sq = w.ax * w.ax + w.ay * w.ay;
  uint32_t r = fxs_isqrt64_estimate_top(w.sq); // floor(sqrt(sq)) or one less
  uint64_t len = fxs_sqrt_round_from(r, w.sq - fxs_mul32(r, r));
  return fxs_widened_quotients(v, w, target, len / 2, (uint32_t)len);
}

/// v scaled to length `target` >= 0 with the length rounded up and the quotients truncated,
/// so the result never exceeds target (truncate). sq = |v|^2 > 0: widening by 2^shift
/// multiplies it by 4^shift, exactly, so the squares need not be taken again. A target of 0
/// gives 0 (the quotients of 0).
FXS_ALWAYS_INLINE fxs_vec2 fxs_vec2_scale_down(fxs_vec2 v, fix16_t target, uint64_t sq) {
  fxs_widened w = fxs_widen_components(v);
  w.sq = sq << (2 * w.shift); // in [2^60, 2^63]
  uint32_t r = fxs_isqrt64_estimate_top(w.sq);
  uint64_t e = w.sq - fxs_mul32(r, r);
  // ceil(sqrt(sq)): r when e == 0, r + 1 up to (r + 1)^2 = r^2 + 2r + 1, else r + 2.
  uint64_t len = (uint64_t)r + (e > 0) + (e > 2 * (uint64_t)r + 1);
  return fxs_widened_quotients(v, w, target, 0, (uint32_t)len);
}

/// fxs_vec2_set_length(v, length), inline.
static inline fxs_vec2 fxs_vec2_set_length_inline(fxs_vec2 v, fix16_t length) {
  FXS_ASSERT(length >= 0);
  return fxs_vec2_scale_round(v, length);
}

/// True when fxs_vec2_set_length(v, length) is v itself, for a v a little longer than length:
/// sq = |v|^2 > length^2, 0 <= length <= 2^26 (raw). False where it cannot tell cheaply. A
/// vector already scaled to a length (arrival's desired velocity, rounded) is most often
/// longer than it by less than a unit in its last place, and rescaling it returns it.
///
/// Why: with s the widening shift (max(|x|, |y|) 2^s in [2^30, 2^31]), R = length 2^s,
/// S = |v| 2^s > R and L = round(S), a component's quotient is
/// q = floor((a 2^s length + floor(L / 2)) / L) for its magnitude a. L >= R (R is a whole
/// number below S), so q <= a; and q >= a when a (L - R) <= floor(L / 2), which holds when
/// a (S - R) + a / 2 <= (R - 1) / 2. As S - R = 4^s D / (S + R) < 2^s D / (2 length) with
/// D = sq - length^2, it suffices that a 2^s D + length (a + 1) <= length R, for the larger
/// magnitude a (the test is monotone in a). D < 2 length bounds |v| below length + 1, so
/// a <= 2^26 and every product stays below 2^59.
static inline bool fxs_vec2_set_length_keeps(fxs_vec2 v, uint64_t sq, fix16_t length) {
  uint64_t r = (uint64_t)length, d = sq - r * r;
  if (d >= 2u * r) return false; // also length == 0
  uint64_t ax = fxs_magnitude32(v.x), ay = fxs_magnitude32(v.y), a = ax > ay ? ax : ay;
  unsigned zeros = fxs_clz32_nz((uint32_t)a), s = zeros - 1u; // a in [1, 2^26]: zeros >= 5
  return (a << s) * d + r * (a + 1u) <= r * (r << s);
}

/// True when fxs_vec2_truncate(v, length) takes one raw unit off each nonzero component of v
/// (toward zero): for a v longer than length (sq = |v|^2 > length^2, length >= 0), exactly
/// when |v| <= length + 1. A velocity rounded to a speed limit (arrival's, ORCA's preferred
/// one) is most often longer than it by less than a unit in its last place.
///
/// Why: with s the widening shift, L = ceil(|v| 2^s) and a component's quotient
/// q = floor(c 2^s length / L) for its magnitude c (fxs_vec2_scale_down), L > 2^s length
/// makes q < c; and |v| <= length + 1 gives L <= 2^s (length + 1) (a whole number at or
/// above |v| 2^s), so q >= floor(c length / (length + 1)) = c - 1, as c <= |v| <= length + 1.
static inline bool fxs_vec2_truncate_takes_one(uint64_t sq, fix16_t length) {
  uint64_t r = (uint64_t)length + 1u; // <= 2^31: r^2 <= 2^62
  return sq <= r * r;
}

/// v with each nonzero component one raw unit nearer zero (what fxs_vec2_truncate gives
/// where fxs_vec2_truncate_takes_one holds).
static inline fxs_vec2 fxs_vec2_one_toward_zero(fxs_vec2 v) {
  return fxs_vec2_make(v.x - (v.x > 0) + (v.x < 0), v.y - (v.y > 0) + (v.y < 0));
}

/// fxs_vec2_truncate(v, max_length) for a v known to be too long: max_length >= 0 and
/// length_sq = fxs_vec2_length_sq(v) > max_length^2 (the caller has just compared them).
/// A call (defined in vec2.c): the integrator inlines only its force limit, which most
/// steered agents reach; inlining the rarer speed limit too crowds its registers.
fxs_vec2 fxs_vec2_truncate_long(fxs_vec2 v, fix16_t max_length, uint64_t length_sq);

#endif
