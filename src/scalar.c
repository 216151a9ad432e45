#include "fixsteer/scalar.h"

#include <limits.h>

#include "isqrt.h"
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

fix16_t fxs_mul(fix16_t a, fix16_t b) { return fxs_mul_inline(a, b); }

// Near and past the edges of the range: the rounded quotient where it lies strictly inside
// the int32 range, else the truncated quotient saturated (so FXS_MAX or FXS_MIN past the
// range, and never INT32_MIN, libfixmath's overflow flag).
fix16_t fxs_mul_large(int64_t product) {
  if (product >= -(INT64_C(1) << 47) && product < (INT64_C(1) << 47)) {
    int64_t rounded = fxs_mul_round(product);
    if (rounded > INT32_MIN && rounded <= INT32_MAX) return (fix16_t)rounded;
  }
  return fxs_saturate(product / 65536);
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

// The seed of fxs_rsqrt_q30 (isqrt.h): 2^15 / sqrt(f) for f in [i/128, (i+1)/128),
// i = 32..127, the harmonic mean of the interval's end values, which gives the same relative
// error (<= 0.78 %) at both ends.
const uint16_t fxs_rsqrt_seed[96] = {
    65032, 64054, 63119, 62223, 61365, 60541, 59749, 58988, 58255, 57549, 56868, 56211,
    55575, 54961, 54367, 53792, 53234, 52694, 52169, 51660, 51166, 50685, 50218, 49764,
    49321, 48891, 48471, 48062, 47663, 47274, 46894, 46523, 46161, 45808, 45462, 45124,
    44793, 44470, 44153, 43843, 43540, 43243, 42952, 42666, 42386, 42112, 41843, 41579,
    41320, 41066, 40816, 40571, 40330, 40093, 39861, 39633, 39408, 39187, 38970, 38757,
    38547, 38340, 38136, 37936, 37739, 37545, 37354, 37166, 36981, 36798, 36618, 36441,
    36266, 36094, 35924, 35756, 35591, 35428, 35268, 35109, 34953, 34798, 34646, 34496,
    34347, 34201, 34056, 33913, 33772, 33633, 33496, 33360, 33225, 33093, 32962, 32832,
};

unsigned fxs_clz32(uint32_t v) { return v ? fxs_clz32_nz(v) : 32u; }

// floor(n / d) by long division in base 2^16 with 32-bit divisions only: d is shifted so its
// top bit is set, each quotient digit is estimated from the divisor's top half and lowered
// while digit * d exceeds the partial numerator (compared exactly, digit * dh * 2^16 +
// digit * dl against r * 2^16 + next): at most twice, since the estimate is below 2^16 + 2.
uint32_t fxs_udiv64_32_digits(uint64_t n, uint32_t d) {
  unsigned s = fxs_clz32_nz(d);
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

uint32_t fxs_udiv64_32(uint64_t n, uint32_t d) { return fxs_udiv64_32_inline(n, d); }

uint32_t fxs_isqrt64(uint64_t n) {
  uint32_t r = fxs_isqrt_estimate(n);
  // r^2 <= n, and (r + 1)^2 <= n exactly when n - r^2 > 2r (no square of r + 1 to overflow).
  return (n - fxs_mul32(r, r) > 2 * (uint64_t)r) ? r + 1 : r;
}

uint64_t fxs_isqrt64_round(uint64_t n) {
  uint32_t r = fxs_isqrt_estimate(n);
  uint64_t e = n - fxs_mul32(r, r);
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
  // Bring the larger magnitude into [2^28, 2^29) (its top bit to bit 28) by one shift of
  // both: fix16_atan2 then never overflows (|x| + |y| < 2^30) and small vectors keep their
  // full angular resolution.
  unsigned zeros = fxs_clz32_nz(m); // m > 0: both axes are nonzero here
  if (zeros > 3u) {
    ax <<= zeros - 3u, ay <<= zeros - 3u;
  } else {
    ax >>= 3u - zeros, ay >>= 3u - zeros;
  }
  fix16_t sx = x < 0 ? -(fix16_t)ax : (fix16_t)ax;
  fix16_t sy = y < 0 ? -(fix16_t)ay : (fix16_t)ay;
  fix16_t a = fix16_atan2(sy, sx);
  // The approximation can land a hair outside (-pi, pi]; keep the documented range.
  return fxs_angle_wrap(a);
}
