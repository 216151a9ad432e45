// Internal: the exact integer square root's core and the 64 / 32-bit division, inline, so
// that the vector code (normalize, truncate, set length) runs them without calls. Results are
// those of fxs_isqrt64, fxs_isqrt64_round and fxs_udiv64_32: one implementation, two ways in.
// Not part of the API.
#ifndef FIXSTEER_ISQRT_H
#define FIXSTEER_ISQRT_H

#include <limits.h>
#include <stdint.h>

#include "wide.h"

// Integer square root without division. A table gives y ~ 1/sqrt(m) from below, relative
// error e < 2^-17 (one line per interval: a product and a subtraction). For 64-bit inputs
// one residual step r += (m - r^2) y / 2 then takes r from d = sqrt(m) - r >= 0 to at most
// d^2 / (2 sqrt(m)) + e d plus its truncations, never past sqrt(m); 32-bit inputs need no
// step. The final correction only ever adds one. Only 32 x 32 -> 64-bit products and shifts:
// a few UMULLs on a Cortex-M3, no 64-bit multiply or divide routine anywhere.
// tools/isqrt-check.c computes the table from its definition, checks its bounds for every
// top word, and checks the results against the original bit-by-bit routine for every 32-bit
// input and 50 million 64-bit ones.

// Intervals of the 1/sqrt table: x in [2^30, 2^32) in steps of 2^23.
#define FXS_RSQRT_INTERVALS 384u

// Line i of the table, over x = 2^30 + i 2^23 + 128 t + u (t < 2^16, u < 128): the value at
// its start and the fall per t in units of 2^-8 (defined in scalar.c).
extern const uint32_t fxs_rsqrt_base[FXS_RSQRT_INTERVALS];
extern const uint16_t fxs_rsqrt_slope[FXS_RSQRT_INTERVALS];

// The portable helpers: the only code for compilers without the builtins, and elsewhere
// unused except by tools/isqrt-check.c, which checks the builtins against them.
#if defined(__GNUC__)
#define FXS_PORTABLE_HELPER static inline __attribute__((unused))
#else
#define FXS_PORTABLE_HELPER static inline
#endif

// Leading zero bits of v != 0 by binary search.
FXS_PORTABLE_HELPER unsigned fxs_clz32_search(uint32_t v) {
  unsigned n = 0;
  for (unsigned step = 16; step != 0; step /= 2) {
    if ((v >> (32 - step)) == 0) {
      n += step;
      v <<= step;
    }
  }
  return n;
}

// Leading zero bits of v != 0; one instruction where the target has one (same count).
static inline unsigned fxs_clz32_nz(uint32_t v) {
#if defined(__GNUC__) && UINT_MAX == 0xFFFFFFFFu
  return (unsigned)__builtin_clz(v);
#else
  return fxs_clz32_search(v);
#endif
}

// a * b, exact, by four 16-bit partial products.
FXS_PORTABLE_HELPER uint64_t fxs_mul32_halves(uint32_t a, uint32_t b) {
  uint32_t al = a & 0xFFFFu, ah = a >> 16, bl = b & 0xFFFFu, bh = b >> 16;
  uint32_t ll = al * bl, lh = al * bh, hl = ah * bl;
  uint32_t mid = (ll >> 16) + (lh & 0xFFFFu) + (hl & 0xFFFFu); // < 3 * 2^16
  uint32_t hi = ah * bh + (lh >> 16) + (hl >> 16) + (mid >> 16);
  return ((uint64_t)hi << 32) | (uint32_t)(mid << 16) | (ll & 0xFFFFu);
}

// a * b, exact. ARMv6-M and ARMv8-M Baseline (Cortex-M0/M0+/M23) have only a 32-bit MUL, and
// compilers call a 64 x 64-bit library routine for this; the partial products inline are
// about three times cheaper there. Elsewhere it is one instruction.
static inline uint64_t fxs_mul32(uint32_t a, uint32_t b) {
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
  return fxs_mul32_halves(a, b);
#else
  return (uint64_t)a * b;
#endif
}

// y ~ 2^46 / sqrt(x) for x in [2^30, 2^32), i.e. 1/sqrt(x / 2^32) in Q2.30, with
// (1 - 2^-17) 2^46 / sqrt(x) <= y and y^2 (x + 1) <= 2^92 (worst error 2^-17.41): the line
// of x's interval, which lies under the curve and touches it (slope * t < 2^32).
static inline uint32_t fxs_rsqrt_q30(uint32_t x) {
  uint32_t i = (x >> 23) - 128u, t = (x >> 7) & 0xFFFFu;
  return fxs_rsqrt_base[i] - (((uint32_t)fxs_rsqrt_slope[i] * t) >> 8);
}

// floor(sqrt(n)) or one less, for 0 < n < 2^32. With x = n 4^k in [2^30, 2^32), x y / 2^46
// lies in [(1 - 2^-17) sqrt(x), sqrt(x)), less than half a unit under sqrt(x) < 2^16, so its
// floor is floor(sqrt(x)) or one less, and shifted by k it is floor(sqrt(n)) or one less.
static inline uint32_t fxs_isqrt32_estimate(uint32_t n) {
  unsigned k = fxs_clz32_nz(n) / 2;
  uint32_t x = n << (2 * k);
  return (uint32_t)(fxs_mul32(x, fxs_rsqrt_q30(x)) >> 46) >> k;
}

// floor(sqrt(m)) or one less, for m in [2^62, 2^64); x is its top word, and
// m < (x + 1) 2^32 so y / 2^62 <= 1 / sqrt(m). Below s = sqrt(m), r0 = x y / 2^30 is at most
// 2^15 + 2; the residual m - r0^2 < 2 s (2^15 + 2) < 2^33 (2^15 + 2), so its top bits
// (>> 17) fit 32 bits, and the step leaves r under s by at most about 1/4 + 1/4 + 1 < 2
// (d^2 / 2s, e d and the truncations): floor(s) or one less.
static inline uint32_t fxs_isqrt64_normal(uint64_t m) {
  uint32_t x = (uint32_t)(m >> 32);
  uint32_t y = fxs_rsqrt_q30(x);
  uint32_t r = (uint32_t)(fxs_mul32(x, y) >> 30);
  r += (uint32_t)(fxs_mul32((uint32_t)((m - fxs_mul32(r, r)) >> 17), y) >> 46); // (m - r^2) / 2s
  return r;
}

// floor(sqrt(n)) or one less, for n >= 2^32: m = n 4^k is in [2^62, 2^64), and
// floor(sqrt(n)) = floor(sqrt(m)) >> k.
static inline uint32_t fxs_isqrt64_estimate(uint64_t n) {
  unsigned k = fxs_clz32_nz((uint32_t)(n >> 32)) / 2;
  return fxs_isqrt64_normal(n << (2 * k)) >> k;
}

// fxs_isqrt64_estimate(n) for n in [2^60, 2^64), the squared lengths of widened vectors: there
// the top word has 0 to 3 leading zeros, k is 1 exactly when n < 2^62, and no count is needed.
// The same k, so the same result (tools/isqrt-check.c compares the two).
// Two selects instead of shifts by a computed count: shorter, with no count register.
static inline uint32_t fxs_isqrt64_estimate_top(uint64_t n) {
  int low = (n >> 62) == 0;
  uint32_t r = fxs_isqrt64_normal(low ? n << 2 : n);
  return low ? r >> 1 : r;
}

// round(sqrt(n)) from r, floor(sqrt(n)) or one less, and e = n - r^2. With t the floor
// root, sqrt(n) >= t + 1/2 <=> n - t^2 > t. If t = r that is e > r; if t = r + 1 (e > 2r) it
// is e - 2r - 1 > r + 1, i.e. e > 3r + 2.
static inline uint64_t fxs_sqrt_round_from(uint32_t r, uint64_t e) {
  return (uint64_t)r + (e > r) + (e > 3 * (uint64_t)r + 2);
}

// floor(sqrt(n)) or one less, for any n.
static inline uint32_t fxs_isqrt_estimate(uint64_t n) {
  if ((n >> 32) != 0) return fxs_isqrt64_estimate(n);
  if (n == 0) return 0;
  return fxs_isqrt32_estimate((uint32_t)n);
}

/// floor(n / d) for d > 0 when the quotient is below 2^32 (as fxs_udiv64_32).
static inline uint32_t fxs_udiv64_32_inline(uint64_t n, uint32_t d) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  return (uint32_t)(n / d); // one instruction on 64-bit targets
#else
  return fxs_udiv64_32_digits(n, d); // 32-bit targets would call a generic 64 / 64 routine
#endif
}

#endif
