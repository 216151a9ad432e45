#include "fixsteer/scalar.h"

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

uint32_t fxs_isqrt64(uint64_t n) {
  uint64_t root = 0;
  uint64_t bit = UINT64_C(1) << 62;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= root + bit) {
      n -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return (uint32_t)root;
}

uint64_t fxs_isqrt64_round(uint64_t n) {
  uint64_t r = fxs_isqrt64(n);
  // sqrt(n) >= r + 1/2  <=>  n >= r^2 + r + 1/4  <=>  n - r^2 > r (integers).
  return (n - r * r > r) ? r + 1 : r;
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
