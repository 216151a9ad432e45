#include "fixsteer/scalar.h"

#include <limits.h>

#include "wide.h"

// pi in Q20.44: the 1.4e-14 rad precision keeps range reduction exact enough over the whole
// Q16.16 range (5,000+ turns), where the raw Q16.16 pi would drift by 0.8 LSB per turn.
#define Q44_PI INT64_C(55267482437722)
#define Q44_TWO_PI INT64_C(110534964875444)
#define Q44_HALF_PI INT64_C(27633741218861)
#define Q44_FROM_Q16 INT64_C(268435456) // 2^28

// Saturation by sign, used where a quotient's divisor is zero.
static fix16_t saturate_by_sign(int64_t numerator) {
  return numerator > 0 ? FXS_MAX : (numerator < 0 ? FXS_MIN : 0);
}

fix16_t fxs_mul(fix16_t a, fix16_t b) {
  fix16_t r = fix16_mul(a, b);
  if (r == fix16_overflow) {
    // The sentinel is also the exact product -32768.0; 64 bits tell the two apart.
    return fxs_saturate((int64_t)a * b / 65536);
  }
  return r;
}

fix16_t fxs_div(fix16_t a, fix16_t b) {
  if (b == 0) {
    return saturate_by_sign(a);
  }
  // Dividing by 1.0 is exact: fix16_div(a, 1.0) == a for every a but INT32_MIN (checked over
  // all 2^32 inputs), and a unit mass is the common case of the integrator.
  if (b == FXS_ONE && a != INT32_MIN) return a;
  fix16_t r = fix16_div(a, b);
  if (r == fix16_overflow) {
    return saturate_by_sign(((a < 0) == (b < 0)) ? 1 : -1);
  }
  return r;
}

int64_t fxs_div_round_i64(int64_t n, int64_t d) {
  int64_t half = (d < 0 ? -d : d) / 2;
  return ((n < 0) != (d < 0)) ? (n - (d < 0 ? -half : half)) / d
                              : (n + (d < 0 ? -half : half)) / d;
}

int64_t fxs_add_sat_i64(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

fix16_t fxs_muldiv(fix16_t a, fix16_t b, fix16_t c) {
  int64_t n = (int64_t)a * b; // |n| <= 2^62
  if (c == 0) {
    return saturate_by_sign(n);
  }
  return fxs_saturate(fxs_div_round_i64(n, c));
}

fix16_t fxs_lerp(fix16_t a, fix16_t b, fix16_t t) {
  int64_t d = (int64_t)b - a; // |d| <= 2^32
  // |d * t| <= 2^63 only when both are extreme; clamp t so the product stays in range, the
  // result saturates anyway.
  if (t > INT32_C(0x3FFFFFFF)) t = INT32_C(0x3FFFFFFF);
  if (t < -INT32_C(0x3FFFFFFF)) t = -INT32_C(0x3FFFFFFF);
  return fxs_saturate((int64_t)a + fxs_div_round_i64(d * t, 65536));
}

// Integer square root without division. A table seed and one Newton step give y ~ 1/sqrt(m)
// from below, relative error e < 2^-12; each residual step r += (m - r^2) y / 2 then takes r
// from d = sqrt(m) - r >= 0 to at most e d + d^2 / (2 sqrt(m)) plus its truncations, never
// past sqrt(m), so the final correction only ever adds one. Only 32 x 32 -> 64-bit products
// and shifts: a few UMULLs on a Cortex-M3, no 64-bit multiply or divide routine anywhere.
// tools/isqrt-check.c checks the seed's bounds for every top word, and the results against
// the original bit-by-bit routine for every 32-bit input and 50 million 64-bit ones.

// 2^15 / sqrt(f) for f in [i/128, (i+1)/128), i = 32..127: the harmonic mean of the
// interval's end values, which gives the same relative error (<= 0.78 %) at both ends.
static const uint16_t rsqrt_seed[96] = {
    65032, 64054, 63119, 62223, 61365, 60541, 59749, 58988, 58255, 57549, 56868, 56211,
    55575, 54961, 54367, 53792, 53234, 52694, 52169, 51660, 51166, 50685, 50218, 49764,
    49321, 48891, 48471, 48062, 47663, 47274, 46894, 46523, 46161, 45808, 45462, 45124,
    44793, 44470, 44153, 43843, 43540, 43243, 42952, 42666, 42386, 42112, 41843, 41579,
    41320, 41066, 40816, 40571, 40330, 40093, 39861, 39633, 39408, 39187, 38970, 38757,
    38547, 38340, 38136, 37936, 37739, 37545, 37354, 37166, 36981, 36798, 36618, 36441,
    36266, 36094, 35924, 35756, 35591, 35428, 35268, 35109, 34953, 34798, 34646, 34496,
    34347, 34201, 34056, 33913, 33772, 33633, 33496, 33360, 33225, 33093, 32962, 32832,
};

// The portable helpers: the only code for compilers without the builtins, and elsewhere
// unused except by tools/isqrt-check.c, which checks the builtins against them.
#if defined(__GNUC__)
#define FXS_PORTABLE_HELPER static inline __attribute__((unused))
#else
#define FXS_PORTABLE_HELPER static inline
#endif

// Leading zero bits of v != 0 by binary search.
FXS_PORTABLE_HELPER unsigned clz32_search(uint32_t v) {
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
static inline unsigned clz32(uint32_t v) {
#if defined(__GNUC__) && UINT_MAX == 0xFFFFFFFFu
  return (unsigned)__builtin_clz(v);
#else
  return clz32_search(v);
#endif
}

unsigned fxs_clz32(uint32_t v) { return v ? clz32(v) : 32u; }

// floor(n / d) by long division in base 2^16 with 32-bit divisions only: d is shifted so its
// top bit is set, each quotient digit is estimated from the divisor's top half and lowered
// while digit * d exceeds the partial numerator (compared exactly, digit * dh * 2^16 +
// digit * dl against r * 2^16 + next): at most twice, since the estimate is below 2^16 + 2.
uint32_t fxs_udiv64_32_digits(uint64_t n, uint32_t d) {
  unsigned s = clz32(d);
  d <<= s;
  uint32_t hi = (uint32_t)(n >> 32), lo = (uint32_t)n;
  if (s) hi = (hi << s) | (lo >> (32u - s)), lo <<= s; // hi < d: the quotient fits 32 bits
  uint32_t dh = d >> 16, dl = d & 0xFFFFu;
  uint32_t q[2];
  uint32_t rem = hi;
  for (int digit = 0; digit < 2; ++digit) {
    uint32_t next = digit == 0 ? lo >> 16 : lo & 0xFFFFu;
    uint32_t qd = rem / dh, r = rem - qd * dh;
    while (qd > 0xFFFFu || (uint64_t)qd * dl > (((uint64_t)r << 16) | next)) {
      --qd;
      r += dh;
    }
    rem = ((rem << 16) | next) - qd * d; // exact modulo 2^32: the true remainder is below d
    q[digit] = qd;
  }
  return (q[0] << 16) | q[1];
}

uint32_t fxs_udiv64_32(uint64_t n, uint32_t d) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  return (uint32_t)(n / d); // one instruction on 64-bit targets
#else
  return fxs_udiv64_32_digits(n, d); // 32-bit targets would call a generic 64 / 64 routine
#endif
}

// a * b, exact, by four 16-bit partial products.
FXS_PORTABLE_HELPER uint64_t mul32_halves(uint32_t a, uint32_t b) {
  uint32_t al = a & 0xFFFFu, ah = a >> 16, bl = b & 0xFFFFu, bh = b >> 16;
  uint32_t ll = al * bl, lh = al * bh, hl = ah * bl;
  uint32_t mid = (ll >> 16) + (lh & 0xFFFFu) + (hl & 0xFFFFu); // < 3 * 2^16
  uint32_t hi = ah * bh + (lh >> 16) + (hl >> 16) + (mid >> 16);
  return ((uint64_t)hi << 32) | (uint32_t)(mid << 16) | (ll & 0xFFFFu);
}

// a * b, exact. ARMv6-M and ARMv8-M Baseline (Cortex-M0/M0+/M23) have only a 32-bit MUL, and
// compilers call a 64 x 64-bit library routine for this; the partial products inline are
// about three times cheaper there. Elsewhere it is one instruction.
static inline uint64_t mul32(uint32_t a, uint32_t b) {
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
  return mul32_halves(a, b);
#else
  return (uint64_t)a * b;
#endif
}

// y ~ 2^46 / sqrt(x) for x in [2^30, 2^32), i.e. 1/sqrt(x / 2^32) in Q2.30, with
// (1 - 2^-12) 2^46 / sqrt(x) <= y and y^2 (x + 1) <= 2^92 (worst error 2^-13.46). Newton's
// step y (3 - x y^2) / 2 never overshoots in exact arithmetic; the floors in x y^2 can lift
// it by < 5 units, so 6 come off.
static uint32_t rsqrt_q30(uint32_t x) {
  uint32_t y = (uint32_t)rsqrt_seed[(x >> 25) - 32] << 15;          // < 2^31
  uint32_t yy = (uint32_t)(mul32(y, y) >> 32);                       // < 2^30
  uint32_t p = (uint32_t)(mul32(x, yy) >> 30);                       // x y^2, 1.0 = 2^30
  return (uint32_t)(mul32(y, (UINT32_C(3) << 30) - p) >> 31) - 6;
}

// floor(sqrt(n)) or one less, for 0 < n < 2^32. With x = n 4^k in [2^30, 2^32),
// r0 = x y / 2^46 is at most 17 below sqrt(x); one residual step leaves it < 1.01 below.
static uint32_t isqrt32_estimate(uint32_t n) {
  unsigned k = clz32(n) / 2;
  uint32_t x = n << (2 * k);
  uint32_t y = rsqrt_q30(x);
  uint32_t r = (uint32_t)(mul32(x, y) >> 46);
  r += (uint32_t)(mul32(x - r * r, y) >> 47);
  return r >> k; // floor(sqrt(n)) = floor(sqrt(x)) >> k
}

// floor(sqrt(n)) or one less, for n >= 2^32. m = n 4^k is in [2^62, 2^64), x its top word;
// m < (x + 1) 2^32 so y / 2^62 <= 1 / sqrt(m). Below sqrt(m), r0 is at most 2^20 + 2, the
// first step leaves <= 515 and the second < 1.13 (hence the residuals < 2^53, then < 2^43).
static uint32_t isqrt64_estimate(uint64_t n) {
  unsigned k = clz32((uint32_t)(n >> 32)) / 2;
  uint64_t m = n << (2 * k);
  uint32_t x = (uint32_t)(m >> 32);
  uint32_t y = rsqrt_q30(x);
  uint32_t r = (uint32_t)(mul32(x, y) >> 30);
  r += (uint32_t)(mul32((uint32_t)((m - mul32(r, r)) >> 32), y) >> 31); // residual < 2^53
  r += (uint32_t)(mul32((uint32_t)((m - mul32(r, r)) >> 16), y) >> 47); // residual < 2^43
  return r >> k;
}

// floor(sqrt(n)) or one less, for any n.
static uint32_t isqrt_estimate(uint64_t n) {
  if ((n >> 32) != 0) return isqrt64_estimate(n);
  if (n == 0) return 0;
  return isqrt32_estimate((uint32_t)n);
}

uint32_t fxs_isqrt64(uint64_t n) {
  uint32_t r = isqrt_estimate(n);
  // r^2 <= n, and (r + 1)^2 <= n exactly when n - r^2 > 2r (no square of r + 1 to overflow).
  return (n - mul32(r, r) > 2 * (uint64_t)r) ? r + 1 : r;
}

uint64_t fxs_isqrt64_round(uint64_t n) {
  uint32_t r = isqrt_estimate(n);
  uint64_t e = n - mul32(r, r);
  // With t the floor root, sqrt(n) >= t + 1/2 <=> n - t^2 > t. If t = r that is e > r; if
  // t = r + 1 (e > 2r) it is e - 2r - 1 > r + 1, i.e. e > 3r + 2.
  return (uint64_t)r + (e > r) + (e > 3 * (uint64_t)r + 2);
}

fix16_t fxs_sqrt(fix16_t x) {
  FXS_ASSERT(x >= 0);
  if (x <= 0) return 0;
  return (fix16_t)fxs_isqrt64_round((uint64_t)x << 16);
}

fix16_t fxs_angle_wrap(fix16_t angle) {
  fix16_t r = angle % FXS_TWO_PI;
  if (r > FXS_PI) r -= FXS_TWO_PI;
  else if (r <= -FXS_PI) r += FXS_TWO_PI;
  return r;
}

// Sine of a Q20.44 angle of any size: reduce to [-pi/2, pi/2], round to Q16.16 and let
// libfixmath's Taylor series run where it is accurate (<= 3 LSB for |x| <= 2.5).
static fix16_t sin_q44(int64_t a) {
  int64_t r = a % Q44_TWO_PI;
  if (r > Q44_PI) r -= Q44_TWO_PI;
  else if (r <= -Q44_PI) r += Q44_TWO_PI;
  if (r > Q44_HALF_PI) r = Q44_PI - r;
  else if (r < -Q44_HALF_PI) r = -Q44_PI - r;
  int64_t half = Q44_FROM_Q16 / 2;
  fix16_t x = (fix16_t)(r >= 0 ? (r + half) / Q44_FROM_Q16 : (r - half) / Q44_FROM_Q16);
  return fxs_clamp(fix16_sin(x), -FXS_ONE, FXS_ONE);
}

fix16_t fxs_sin(fix16_t angle) { return sin_q44((int64_t)angle * Q44_FROM_Q16); }

fix16_t fxs_cos(fix16_t angle) { return sin_q44((int64_t)angle * Q44_FROM_Q16 + Q44_HALF_PI); }

fix16_t fxs_atan2(fix16_t y, fix16_t x) {
  // The axes are exact, so headings along them (common in games) have exact orientations;
  // the cubic approximation alone is off by an LSB there.
  if (y == 0) return x < 0 ? FXS_PI : 0;
  if (x == 0) return y < 0 ? -FXS_HALF_PI : FXS_HALF_PI;
  // Magnitudes in unsigned arithmetic: |0x80000000| does not fit in a fix16_t.
  uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
  uint32_t ay = y < 0 ? 0u - (uint32_t)y : (uint32_t)y;
  uint32_t m = ax > ay ? ax : ay;
  // Bring the larger magnitude into [2^28, 2^29): fix16_atan2 then never overflows
  // (|x| + |y| < 2^30) and small vectors keep their full angular resolution.
  while (m >= (UINT32_C(1) << 29)) {
    ax >>= 1;
    ay >>= 1;
    m >>= 1;
  }
  while (m < (UINT32_C(1) << 28)) {
    ax <<= 1;
    ay <<= 1;
    m <<= 1;
  }
  fix16_t sx = x < 0 ? -(fix16_t)ax : (fix16_t)ax;
  fix16_t sy = y < 0 ? -(fix16_t)ay : (fix16_t)ay;
  fix16_t a = fix16_atan2(sy, sx);
  // The approximation can land a hair outside (-pi, pi]; keep the documented range.
  return fxs_angle_wrap(a);
}
