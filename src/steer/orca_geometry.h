// Internal: the exact arithmetic ORCA's half-planes share (orca.c for the neighbors',
// orca_static.c for walls and obstacles): clamping, products in Q32.32 and their rounding,
// unit directions, and the push out of a truncated velocity obstacle. Not part of the API.
#ifndef FIXSTEER_ORCA_GEOMETRY_H
#define FIXSTEER_ORCA_GEOMETRY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "exact.h"
#include "fixsteer/vec2.h"
#include "orca_sorted.h"
#include "vec2_measure.h"
#include "vec2_scale.h"
#include "wide.h"

// The per-neighbor routines are inlined into their one caller where the compiler allows it
// (a call per neighbor costs more than the code it would share).
#if defined(__GNUC__)
#define ORCA_INLINE static inline __attribute__((always_inline))
#else
#define ORCA_INLINE static inline
#endif

// Speeds, radii and distances are clamped to 1024 units (2^26 raw): then every point of a
// half-plane stays below 2^28.1 raw and every product below used stays within int64.
#define LIMIT FXS_ORCA_LIMIT

// v scaled down (direction kept) so that no component exceeds LIMIT. Inline: in the world no
// vector comes near the limit, and the test is all it costs.
static inline bool within_limit(int64_t c) {
  return (uint64_t)c + (uint64_t)LIMIT <= 2u * (uint64_t)LIMIT; // wraps below -LIMIT
}
static inline fxs_vec2 clamp_vec(fxs_vec2 v) {
  // Both components within +-LIMIT: the larger magnitude is too (the common case, two tests).
  if ((int)within_limit(v.x) & (int)within_limit(v.y)) return v; // no branch: both are cheap
  uint64_t m = fxs_exact_magnitude(v.x) > fxs_exact_magnitude(v.y) ? fxs_exact_magnitude(v.x)
                                                                   : fxs_exact_magnitude(v.y);
  if (m <= (uint64_t)LIMIT) return v;
  if (m > (uint64_t)FXS_MAX) m = FXS_MAX; // as fxs_abs saturates -2^31
  return fxs_vec2_make((fix16_t)((int64_t)v.x * LIMIT / (int64_t)m),
                       (fix16_t)((int64_t)v.y * LIMIT / (int64_t)m));
}

// a x b and a . b of Q16.16 vectors with components below 2^31: exact Q32.32 in int64.
static inline int64_t det(fxs_vec2 a, fxs_vec2 b) {
  return (int64_t)a.x * b.y - (int64_t)a.y * b.x;
}
static inline int64_t dot(fxs_vec2 a, fxs_vec2 b) {
  return (int64_t)a.x * b.x + (int64_t)a.y * b.y;
}
static inline uint64_t length_sq(fxs_vec2 v) { return fxs_length_sq_raw(v.x, v.y); }

// Q32.32 to Q16.16, rounded half away from zero (|q32| < 2^62): fxs_round_q16_i64's result
// without a branch on the sign, whose directions here are as often negative as positive.
// Moved up by 2^62 the value is never negative and its shift is a floor; the rounding is
// floor((q32 + 2^15) / 2^16) for q32 >= 0 and floor((q32 + 2^15 - 1) / 2^16) below.
// Where the compiler shifts a negative value arithmetically (C leaves it to the
// implementation; a constant, so the test folds away), that shift is the same floor.
#define ORCA_SHIFT_FLOORS ((INT64_C(-5) >> 1) == -3 && (INT64_C(-1) >> 16) == -1)
static inline int64_t to_q16(int64_t q32) {
  if (ORCA_SHIFT_FLOORS) return (q32 + 32768 - (int64_t)(q32 < 0)) >> 16;
  uint64_t up = (uint64_t)q32 + (UINT64_C(1) << 62) + 32768u - (uint64_t)(q32 < 0);
  return (int64_t)(up >> 16) - (INT64_C(1) << 46);
}

// Intersections along a line farther than this (raw Q16.16) are clamped (nearly parallel
// edges, only in the infeasible case).
#define FAR_T (INT64_C(1) << 31)

// num / den in raw Q16.16 (num, den in Q32.32, |den| > 2^15, |num| < 2^50),
// rounded half away from zero; +-FAR_T where its whole part passes FAR_T's. For |num| < 2^46
// (nearly always) num 2^16 fits: one division of the magnitudes, whose quotient holds the
// whole part in its top bits and whose remainder rounds it. Else the whole part first, so
// nothing overflows (the same result).
ORCA_INLINE int64_t q16_ratio(int64_t num, int64_t den) {
  uint64_t un = fxs_exact_magnitude(num);
  if (un < (UINT64_C(1) << 46)) {
    uint64_t n16 = un << 16, ud = fxs_exact_magnitude(den);
    uint64_t q = n16 / ud, rem = n16 % ud;
    // The whole part passes FAR_T >> 16 exactly when q >= ((FAR_T >> 16) + 1) 2^16.
    if (q >= (uint64_t)FAR_T + 65536u) q = (uint64_t)FAR_T;
    else q += rem >= ud - ud / 2; // floor((n16 + floor(ud / 2)) / ud)
    return (num < 0) != (den < 0) ? -(int64_t)q : (int64_t)q;
  }
  int64_t whole = num / den; // |.| < 2^35
  if (whole > (FAR_T >> 16)) return FAR_T;
  if (whole < -(FAR_T >> 16)) return -FAR_T;
  return whole * 65536 + fxs_div_round_i64_inline((num - whole * den) * 65536, den);
}

// round(sqrt(n)), as fxs_isqrt64_round, inline.
static inline int64_t root_round(uint64_t n) {
  uint32_t r = fxs_isqrt_estimate(n);
  return (int64_t)fxs_sqrt_round_from(r, n - fxs_mul32(r, r));
}

// fxs_vec2_normalize, inline.
static inline fxs_vec2 unit_of(fxs_vec2 v) { return fxs_vec2_scale_round(v, FXS_ONE); }

// Bits of m > 0 (its highest set bit's position plus one).
static inline unsigned bit_length(uint64_t m) {
#if defined(__GNUC__) && ULLONG_MAX == UINT64_MAX
  return 64u - (unsigned)__builtin_clzll(m);
#else
  unsigned n = 0;
  while (m != 0) m >>= 1, ++n;
  return n;
#endif
}

// The unit vector along (x, y) (any 64-bit components, |.| < 2^63): halved together (toward
// zero) until both fit in 30 bits, then normalized. k halvings toward zero are one shift of
// the magnitude by k, k the bits of the larger beyond 30.
static inline fxs_vec2 unit_wide(int64_t x, int64_t y) {
  uint64_t ax = fxs_exact_magnitude(x), ay = fxs_exact_magnitude(y);
  if ((ax | ay) >= (UINT64_C(1) << 30)) {
    unsigned k = bit_length(ax | ay) - 30u;
    ax >>= k, ay >>= k;
    x = x < 0 ? -(int64_t)ax : (int64_t)ax;
    y = y < 0 ? -(int64_t)ay : (int64_t)ay;
  }
  return unit_of(fxs_vec2_make((fix16_t)x, (fix16_t)y));
}

// What every half-plane of one agent shares: the combined radius r and its square, the time
// horizon tau (raw ticks, >= 1) and r / tau, rounded; for a horizon of whole ticks, the
// reciprocal that divides by it with a multiply (per_tau, see tau_round; 0: none, divide).
typedef struct cone_terms {
  fix16_t r, tau;
  uint64_t r_sq;
  int64_t r_tau;
  uint64_t per_tau;
  unsigned shift;
} cone_terms;

// The numerators tau_round takes are below 2^TAU_BITS.
#define TAU_BITS 29u

// For tau = T whole ticks: a * 2^16 / tau rounded half up (a >= 0), which is
// floor((a 2^16 + tau / 2) / tau) = floor((2a + T) / 2T), as floor(x * per_tau / 2^shift)
// with x = 2a + T < 2^29. per_tau = ceil(2^shift / D) for D = 2T and shift = 29 + l, 2^l the
// least power of two >= D: then per_tau D = 2^shift + e with e < D <= 2^l, so
// x per_tau / 2^shift = x / D + x e / (D 2^shift), the last term below 1 / D, and the floor
// is floor(x / D) for every x < 2^29 (test_orca checks every D against the division).
// x per_tau < 2^29 (2^30 + 1): within 64 bits.
static inline uint64_t tau_round(const cone_terms *c, uint64_t a) {
  return ((2u * a + ((uint32_t)c->tau >> 16)) * c->per_tau) >> c->shift;
}

// The reciprocal of a horizon of whole ticks into c (per_tau 0 for any other).
static inline void cone_set_reciprocal(cone_terms *c) {
  c->per_tau = 0, c->shift = 0;
  if (c->tau < 65536 || (c->tau & 0xFFFF) != 0) return;
  uint64_t d = 2u * ((uint32_t)c->tau >> 16); // in [2, 2^16)
  c->shift = TAU_BITS + bit_length(d - 1u);   // d - 1 >= 1: its bit length is l
  c->per_tau = ((UINT64_C(1) << c->shift) + d - 1u) / d;
}

// The terms without r / tau (its division), for what needs no line built: r_tau is 0.
static inline cone_terms cone_bound_terms_of(fix16_t r, fix16_t tau) {
  cone_terms c;
  c.r = r, c.tau = tau;
  c.r_sq = (uint64_t)r * (uint64_t)r;
  c.r_tau = 0;
  c.per_tau = 0, c.shift = 0;
  return c;
}

static inline cone_terms cone_terms_of(fix16_t r, fix16_t tau) {
  cone_terms c = cone_bound_terms_of(r, tau);
  c.r_tau = fxs_div_round_i64_inline((int64_t)r * 65536, tau);
  return c;
}

// The terms of a cone of radius r (cone_radius's: >= 0, below 2^27.1, so that 2r + T stays
// below 2^29) for an agent whose own are `like`: its horizon, and its reciprocal when it has
// one (r / tau then without a division).
static inline cone_terms cone_terms_like(fix16_t r, const cone_terms *like) {
  cone_terms c = cone_bound_terms_of(r, like->tau);
  c.per_tau = like->per_tau, c.shift = like->shift;
  c.r_tau = c.per_tau != 0 ? (int64_t)tau_round(&c, (uint64_t)r)
                           : fxs_div_round_i64_inline((int64_t)r * 65536, c.tau);
  return c;
}

// The terms of a cone of radius r (as cone_terms_like) with the reciprocal of a horizon of
// whole ticks: an agent's own, whose lines divide by tau for every neighbor.
static inline cone_terms cone_terms_with_reciprocal(fix16_t r, fix16_t tau) {
  cone_terms c = cone_bound_terms_of(r, tau);
  cone_set_reciprocal(&c);
  return cone_terms_like(r, &c);
}

// n / d rounded half away from zero for d > 0 and |n| < 2^62 (fxs_div_round_i64's result):
// the magnitude's quotient, its sign put back without a branch on it.
static inline int64_t div_round_pos(int64_t n, int64_t d) {
  int64_t q = (int64_t)((fxs_exact_magnitude(n) + ((uint64_t)d >> 1)) / (uint64_t)d);
  return n < 0 ? -q : q;
}

// A value of cone_push: for a neighbor (bounded) it is known to fit and is taken as it is;
// for a wall end or an obstacle, whose horizon may be below one tick, it saturates.
static inline fix16_t fit(bool bounded, int64_t v) {
  return bounded ? (fix16_t)v : fxs_saturate(v);
}

// The relative velocity change u for a pair apart (|p|^2 = p_sq > r^2): to the nearest point
// of the truncated velocity obstacle (the cone of the disc of radius r round p, cut off by the
// disc round p / tau). *direction is the half-plane's edge. `bounded`: a neighbor's line,
// where |p| <= 2^26 and |v| <= 2^27 per component, r <= 2^27 and tau >= 1 tick, so that
// |p / tau| <= |p|, |w| < 2^28, the cut-off push < 2^28.6 and the leg's push < 2^28.3: no
// value reaches 2^31 and none of the saturations could act.
ORCA_INLINE fxs_vec2 cone_push(fxs_vec2 v, fxs_vec2 p, uint64_t p_sq, const cone_terms *c,
                               bool bounded, fxs_vec2 *direction) {
  fxs_vec2 p_tau;
  if (bounded && c->per_tau != 0) { // |p.x|, |p.y| <= 2^26: within tau_round's range
    int64_t qx = (int64_t)tau_round(c, fxs_exact_magnitude(p.x));
    int64_t qy = (int64_t)tau_round(c, fxs_exact_magnitude(p.y));
    p_tau = fxs_vec2_make((fix16_t)(p.x < 0 ? -qx : qx), (fix16_t)(p.y < 0 ? -qy : qy));
  } else {
    p_tau = fxs_vec2_make(fit(bounded, div_round_pos((int64_t)p.x * 65536, c->tau)),
                          fit(bounded, div_round_pos((int64_t)p.y * 65536, c->tau)));
  }
  fxs_vec2 w =
      fxs_vec2_make(fit(bounded, (int64_t)v.x - p_tau.x), fit(bounded, (int64_t)v.y - p_tau.y));
  int64_t w_dot_p = dot(w, p); // |.| < 2^55
  uint64_t w_sq = length_sq(w);
  uint64_t m = fxs_exact_magnitude(w_dot_p);
  if (w_dot_p < 0 && fxs_u128_compare_products(m, m, c->r_sq, w_sq) > 0) {
    // Closest to the cut-off disc: push out of it along w (w != 0 here: w . p < 0). Its
    // direction and its length from one square root.
    fxs_vec2_measure wm = fxs_vec2_measure_inline(w);
    fxs_vec2 unit = fxs_vec2_set_length_measured_inline(w, &wm, FXS_ONE);
    *direction = fxs_vec2_make(unit.y, -unit.x); // |unit.x| <= 2^16
    int64_t gap = c->r_tau - wm.length;
    return fxs_vec2_make(fit(bounded, to_q16(gap * unit.x)), fit(bounded, to_q16(gap * unit.y)));
  }
  // Closest to a leg of the cone: the leg on w's side of p, at angle asin(r / |p|).
  int64_t leg = root_round(p_sq - c->r_sq), r = c->r;
  if (det(p, w) > 0) {
    *direction = unit_wide(p.x * leg - p.y * r, p.x * r + p.y * leg);
  } else {
    fxs_vec2 u = unit_wide(p.x * leg + p.y * r, p.y * leg - p.x * r);
    *direction = fxs_vec2_make(-u.x, -u.y); // |u.x| <= 2^16
  }
  int64_t along_edge = to_q16(dot(v, *direction)); // |.| < 2^28
  return fxs_vec2_make(fit(bounded, to_q16(along_edge * direction->x) - v.x),
                       fit(bounded, to_q16(along_edge * direction->y) - v.y));
}

#endif
