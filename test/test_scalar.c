#include <math.h>
#include <stdio.h>

#include "unity.h"

#include "scalar.h"
#include "wide.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

void test_constant_macros_round_half_away_from_zero(void) {
  TEST_ASSERT_EQUAL_INT32(196608, FXS_INT(3));
  TEST_ASSERT_EQUAL_INT32(-196608, FXS_INT(-3));
  TEST_ASSERT_EQUAL_INT32(21845, FXS_RATIO(1, 3)); // 21845.33
  TEST_ASSERT_EQUAL_INT32(43691, FXS_RATIO(2, 3)); // 43690.67
  TEST_ASSERT_EQUAL_INT32(-43691, FXS_RATIO(-2, 3));
  TEST_ASSERT_EQUAL_INT32(-43691, FXS_RATIO(2, -3));
  TEST_ASSERT_EQUAL_INT32(43691, FXS_RATIO(-2, -3));
  TEST_ASSERT_EQUAL_INT32(1, FXS_RATIO(1, 131072)); // exactly half an LSB rounds up
  TEST_ASSERT_EQUAL_INT32(-1, FXS_RATIO(-1, 131072));
}

void test_saturate_keeps_the_range_and_clamps_everything_past_it(void) {
  TEST_ASSERT_EQUAL_INT32(0, fxs_saturate(0));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_saturate(FXS_MAX));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_saturate(FXS_MIN));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_saturate((int64_t)FXS_MAX + 1));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_saturate((int64_t)FXS_MIN - 1)); // 0x80000000
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_saturate(INT64_C(1) << 32));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_saturate(-(INT64_C(1) << 32)));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_saturate(INT64_MAX));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_saturate(INT64_MIN));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_saturate(INT64_MAX - FXS_MAX + 1)); // wraps past 2^63
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_sub(-1, FXS_MAX)); // exactly INT32_MIN, no overflow
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_add(FXS_MIN, -1));
}

// fxs_add and fxs_sub (on 32-bit targets a 32-bit sum and its overflow flag) give
// fxs_saturate of the exact 64-bit sum and difference: every pair of edge values (the
// sentinel INT32_MIN among the inputs) and a million seeded pairs.
void test_add_and_sub_saturate_the_exact_result(void) {
  const fix16_t edges[] = {
      INT32_MIN,   FXS_MIN, FXS_MIN + 1,   -FXS_INT(1),    -2, -1, 0, 1, 2, FXS_INT(1),
      FXS_MAX - 1, FXS_MAX, INT32_MIN / 2, FXS_MAX / 2 + 1};
  const size_t count = sizeof edges / sizeof edges[0];
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = 0; j < count; ++j) {
      fix16_t a = edges[i], b = edges[j];
      TEST_ASSERT_EQUAL_INT32(fxs_saturate((int64_t)a + b), fxs_add(a, b));
      TEST_ASSERT_EQUAL_INT32(fxs_saturate((int64_t)a - b), fxs_sub(a, b));
    }
  }
  uint64_t s = 0x2545F4914F6CDD1Du;
  for (int i = 0; i < 1000000; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    // Half of the pairs near the ends of the range, where the sums overflow.
    fix16_t a = (fix16_t)(uint32_t)s, b = (fix16_t)(uint32_t)(s >> 32);
    if (i % 2) b = (fix16_t)((uint32_t)b >> 8) + (a < 0 ? INT32_MIN + 1 : FXS_MAX - 0xFFFFFF);
    TEST_ASSERT_EQUAL_INT32(fxs_saturate((int64_t)a + b), fxs_add(a, b));
    TEST_ASSERT_EQUAL_INT32(fxs_saturate((int64_t)a - b), fxs_sub(a, b));
  }
}

void test_mul_is_correctly_rounded(void) {
  TEST_ASSERT_EQUAL_INT32(98304, fxs_mul(FXS_INT(3), FXS_RATIO(1, 2)));
  TEST_ASSERT_EQUAL_INT32(1, fxs_mul(1, 0x8000));   // 0.5 LSB rounds up
  TEST_ASSERT_EQUAL_INT32(-1, fxs_mul(-1, 0x8000)); // and -0.5 LSB away from zero
  TEST_ASSERT_EQUAL_INT32(0, fxs_mul(1, 0x7FFF));
}

void test_mul_saturates_and_never_returns_the_sentinel(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_mul(FXS_INT(300), FXS_INT(300)));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_mul(FXS_INT(-300), FXS_INT(300)));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_mul(FXS_INT(-300), FXS_INT(-300)));
  // -32768.0 is what libfixmath returns as its overflow flag; fixsteer saturates it.
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_mul(FXS_INT(-16384), FXS_INT(2)));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_mul((fix16_t)0x80000000, FXS_ONE));
}

void test_div_by_zero_saturates_by_sign(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_div(FXS_ONE, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_div(-FXS_ONE, 0));
  TEST_ASSERT_EQUAL_INT32(0, fxs_div(0, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_div(FXS_INT(20000), FXS_RATIO(1, 2)));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_div(FXS_INT(-20000), FXS_RATIO(1, 2)));
  TEST_ASSERT_EQUAL_INT32(21845, fxs_div(FXS_ONE, FXS_INT(3)));
}

void test_muldiv_is_exact_in_64_bits(void) {
  // 30000 * 30000 / 30000 would overflow any 32-bit intermediate.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30000),
                          fxs_muldiv(FXS_INT(30000), FXS_INT(30000), FXS_INT(30000)));
  TEST_ASSERT_EQUAL_INT32(2, fxs_muldiv(3, 1, 2)); // 1.5 raw rounds to 2
  TEST_ASSERT_EQUAL_INT32(-2, fxs_muldiv(-3, 1, 2));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_muldiv(FXS_INT(2), FXS_INT(3), 0));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_muldiv(FXS_MAX, FXS_MAX, 1));
}

void test_lerp_hits_both_ends_and_the_middle(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_INT(-30000), fxs_lerp(FXS_INT(-30000), FXS_INT(30000), 0));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30000), fxs_lerp(FXS_INT(-30000), FXS_INT(30000), FXS_ONE));
  TEST_ASSERT_EQUAL_INT32(0, fxs_lerp(FXS_INT(-30000), FXS_INT(30000), FXS_RATIO(1, 2)));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_lerp(0, FXS_INT(30000), FXS_INT(2)));
}

void test_isqrt64_is_exact_at_the_extremes(void) {
  TEST_ASSERT_EQUAL_UINT32(0, fxs_isqrt64(0));
  TEST_ASSERT_EQUAL_UINT32(1, fxs_isqrt64(3));
  TEST_ASSERT_EQUAL_UINT32(2, fxs_isqrt64(4));
  TEST_ASSERT_EQUAL_UINT32(0xFFFFFFFFu, fxs_isqrt64(UINT64_MAX));
  TEST_ASSERT_EQUAL_UINT32(0xFFFFFFFEu, fxs_isqrt64(UINT64_C(0xFFFFFFFE00000001) - 1));
  TEST_ASSERT_EQUAL_UINT64(UINT64_C(0x100000000), fxs_isqrt64_round(UINT64_MAX));
}

void test_isqrt64_round_splits_at_the_half(void) {
  // sqrt(k^2 + k) < k + 1/2 < sqrt(k^2 + k + 1) for every k.
  const uint64_t ks[] = {1, 2, 3, 1000, 65535, 3037000499u, 4294967294u};
  for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    uint64_t k = ks[i];
    TEST_ASSERT_EQUAL_UINT64(k, fxs_isqrt64_round(k * k + k));
    TEST_ASSERT_EQUAL_UINT64(k + 1, fxs_isqrt64_round(k * k + k + 1));
    TEST_ASSERT_EQUAL_UINT64(k, fxs_isqrt64_round(k * k));
  }
}

// The original bit-by-bit routine, the reference the fast one must match bit for bit.
static uint32_t isqrt64_bitwise(uint64_t n) {
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

// Both routines against the reference; fxs_isqrt64_round as the original computed it.
static void assert_isqrt64_matches_reference(uint64_t n) {
  uint64_t r = isqrt64_bitwise(n);
  uint64_t rounded = (n - r * r > r) ? r + 1 : r;
  if (fxs_isqrt64(n) != r || fxs_isqrt64_round(n) != rounded) {
    char msg[64];
    snprintf(msg, sizeof msg, "isqrt64 differs from the reference at n = 0x%08lx%08lx",
             (unsigned long)(n >> 32), (unsigned long)(n & 0xFFFFFFFFu));
    TEST_FAIL_MESSAGE(msg);
  }
}

static uint64_t xorshift64(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

// What fxs_mul is specified to compute, in plain 64-bit arithmetic: a * b / 2^16 rounded
// half away from zero (libfixmath's rounding), clamped into [FXS_MIN, FXS_MAX]. libfixmath's
// fix16_mul cannot serve as the reference: its rounding overflows a signed int for products
// just below 2^47, which the sanitizers report.
static fix16_t mul_reference(fix16_t a, fix16_t b) {
  int64_t p = (int64_t)a * b;
  uint64_t magnitude = p < 0 ? 0u - (uint64_t)p : (uint64_t)p;
  int64_t rounded = (int64_t)((magnitude + 32768u) >> 16);
  return fxs_saturate(p < 0 ? -rounded : rounded);
}

void test_mul_rounds_half_away_and_saturates_on_random_and_edge_products(void) {
  // Random operands of every magnitude, and pairs whose product lies next to the shortcut's
  // bounds (+-2^46) and to the saturation bounds (+-2^47), where a rounding slip would show.
  uint64_t seed = 0x9E3779B97F4A7C15u;
  for (uint32_t i = 0; i < 400000u; ++i) {
    uint64_t r = xorshift64(&seed);
    fix16_t a = (fix16_t)(uint32_t)r, b = (fix16_t)(uint32_t)(r >> 32);
    a >>= i % 31u, b >>= (i / 31u) % 31u;
    TEST_ASSERT_EQUAL_INT32(mul_reference(a, b), fxs_mul(a, b));
  }
  const int64_t bounds[] = {INT64_C(1) << 46, INT64_C(1) << 47};
  for (uint32_t k = 0; k < 2u; ++k) {
    for (int32_t a = 1 << 16; a < (1 << 16) + 2000; ++a) {
      for (int64_t b = bounds[k] / a - 2; b <= bounds[k] / a + 2; ++b) {
        if (b > INT32_MAX) continue; // 2^47 / 2^16 exceeds an int32
        TEST_ASSERT_EQUAL_INT32(mul_reference(a, (fix16_t)b), fxs_mul(a, (fix16_t)b));
        TEST_ASSERT_EQUAL_INT32(mul_reference(-a, (fix16_t)b), fxs_mul(-a, (fix16_t)b));
      }
    }
  }
  const fix16_t edges[] = {0,         1,          -1,          0x7FFF,    0x8000,
                           -0x8000,   FXS_ONE,    -FXS_ONE,    FXS_MAX,   FXS_MIN,
                           INT32_MIN, 0x40000000, -0x40000000, 0x3FFFFFFF};
  for (uint32_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
    for (uint32_t j = 0; j < sizeof edges / sizeof edges[0]; ++j) {
      TEST_ASSERT_EQUAL_INT32(mul_reference(edges[i], edges[j]), fxs_mul(edges[i], edges[j]));
    }
  }
}

void test_isqrt64_matches_the_bitwise_reference_at_the_edges(void) {
  const uint64_t edges[] = {0,
                            1,
                            2,
                            3,
                            4,
                            UINT64_C(0xFFFFFFFF),
                            UINT64_C(0x100000000),
                            UINT64_C(1) << 62,
                            UINT64_MAX,
                            UINT64_C(0xFFFFFFFE00000001), // (2^32 - 1)^2
                            UINT64_C(0xFFFFFFFE00000000),
                            UINT64_C(0xFFFFFFFE00000002)};
  for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
    assert_isqrt64_matches_reference(edges[i]);
  }
  TEST_ASSERT_EQUAL_UINT32(0xFFFFFFFEu, fxs_isqrt64(UINT64_C(0xFFFFFFFE00000000)));
  TEST_ASSERT_EQUAL_UINT32(0xFFFFFFFFu, fxs_isqrt64(UINT64_C(0xFFFFFFFE00000001)));
  TEST_ASSERT_EQUAL_UINT32(65536u, fxs_isqrt64(UINT64_C(0x100000000)));
  TEST_ASSERT_EQUAL_UINT32(65535u, fxs_isqrt64(UINT64_C(0xFFFFFFFF)));
  TEST_ASSERT_EQUAL_UINT32(UINT32_C(1) << 31, fxs_isqrt64(UINT64_C(1) << 62));
}

void test_isqrt64_matches_the_bitwise_reference_around_powers_of_two_and_their_squares(void) {
  for (unsigned j = 0; j < 64; ++j) {
    uint64_t p = UINT64_C(1) << j;
    assert_isqrt64_matches_reference(p - 1);
    assert_isqrt64_matches_reference(p);
    assert_isqrt64_matches_reference(p + 1);
    if (j >= 32) continue;
    for (uint64_t s = p - 1; s <= p + 1; ++s) { // squares of 2^j - 1, 2^j, 2^j + 1
      assert_isqrt64_matches_reference(s * s - 1);
      assert_isqrt64_matches_reference(s * s);
      assert_isqrt64_matches_reference(s * s + 1);
    }
  }
}

void test_isqrt64_matches_the_bitwise_reference_on_a_strided_32_bit_sweep(void) {
  // Every 65521st 32-bit input; tools/isqrt-check.c (make isqrt-check) tries all of them.
  uint32_t n = 0;
  do {
    assert_isqrt64_matches_reference(n);
    n += 65521u;
  } while (n >= 65521u);
  assert_isqrt64_matches_reference(UINT32_MAX);
}

void test_isqrt64_matches_the_bitwise_reference_on_random_inputs(void) {
  // 100,000 inputs of four kinds: uniform 64-bit, uniform in a random power-of-two range,
  // perfect squares with their neighbours, and values up to a root above a square
  // (tools/isqrt-check.c tries 50 million).
  uint64_t s = UINT64_C(0x2545F4914F6CDD1D);
  for (int i = 0; i < 25000; ++i) assert_isqrt64_matches_reference(xorshift64(&s));
  for (int i = 0; i < 25000; ++i) {
    uint64_t top = UINT64_C(1) << (i % 64);
    assert_isqrt64_matches_reference(top | (xorshift64(&s) & (top - 1)));
  }
  for (int i = 0; i < 25000; i += 3) {
    uint64_t r = xorshift64(&s) >> (32 + i % 32), q = r * r;
    assert_isqrt64_matches_reference(q - 1);
    assert_isqrt64_matches_reference(q);
    assert_isqrt64_matches_reference(q + 1);
  }
  for (int i = 0; i < 25000; ++i) {
    uint64_t r = xorshift64(&s) >> 32;
    assert_isqrt64_matches_reference(r * r + (xorshift64(&s) & 0xFF) * (r >> 8));
  }
}

void test_sqrt_is_correctly_rounded_over_the_range(void) {
  TEST_ASSERT_EQUAL_INT32(92682, fxs_sqrt(FXS_INT(2))); // 92681.90
  TEST_ASSERT_EQUAL_INT32(FXS_INT(181), fxs_sqrt(FXS_INT(32761)));
  TEST_ASSERT_EQUAL_INT32(0, fxs_sqrt(0));
  uint32_t x = 1;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1664525u + 1013904223u;
    fix16_t v = (fix16_t)(x >> 1);
    // x * 2^16 < 2^47 is exact in a double and sqrt is correctly rounded there.
    double exact = sqrt((double)v * 65536.0);
    double got = (double)fxs_sqrt(v);
    TEST_ASSERT_TRUE_MESSAGE(fabs(got - exact) <= 0.5, "sqrt not within half an LSB");
  }
}

void test_angle_wrap_maps_into_the_half_open_interval(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_PI, fxs_angle_wrap(FXS_PI));
  TEST_ASSERT_EQUAL_INT32(FXS_PI, fxs_angle_wrap(-FXS_PI));
  TEST_ASSERT_EQUAL_INT32(-FXS_PI + 1, fxs_angle_wrap(FXS_PI + 1));
  TEST_ASSERT_EQUAL_INT32(0, fxs_angle_wrap(FXS_TWO_PI * 3));
  uint32_t x = 7;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1664525u + 1013904223u;
    fix16_t a = (fix16_t)x;
    fix16_t w = fxs_angle_wrap(a);
    TEST_ASSERT_TRUE(w > -FXS_PI && w <= FXS_PI);
    TEST_ASSERT_EQUAL_INT64(0, ((int64_t)a - w) % FXS_TWO_PI);
  }
}

// Largest |error| in LSB of f against the true function over a sweep of the whole range.
static double sweep_error(fix16_t (*f)(fix16_t), double (*ref)(double), uint32_t step) {
  double worst = 0;
  uint32_t u = 0;
  do {
    fix16_t x = (fix16_t)u;
    double err = fabs((double)f(x) - ref(fxs_test_to_double(x)) * 65536.0);
    if (err > worst) worst = err;
    u += step;
  } while (u >= step); // stops when the sweep wraps around 2^32
  return worst;
}

void test_sin_error_is_at_most_4_lsb_over_the_whole_range(void) {
  double worst = sweep_error(fxs_sin, sin, 40009u); // 107,350 points
  FXS_TEST_REPORT("fxs_sin max error over the Q16.16 range: %.3f LSB", worst);
  TEST_ASSERT_TRUE(worst <= 4.0);
}

void test_cos_error_is_at_most_4_lsb_over_the_whole_range(void) {
  double worst = sweep_error(fxs_cos, cos, 40009u);
  FXS_TEST_REPORT("fxs_cos max error over the Q16.16 range: %.3f LSB", worst);
  TEST_ASSERT_TRUE(worst <= 4.0);
}

void test_sin_is_dense_and_exact_near_the_worst_case_of_libfixmath(void) {
  // libfixmath alone is off by up to 508 LSB near +-pi; fxs_sin reduces first.
  double worst = 0;
  for (fix16_t x = FXS_PI - 20000; x <= FXS_PI + 20000; x += 7) {
    double e1 = fabs((double)fxs_sin(x) - sin(fxs_test_to_double(x)) * 65536.0);
    double e2 = fabs((double)fxs_sin(-x) - sin(fxs_test_to_double(-x)) * 65536.0);
    if (e1 > worst) worst = e1;
    if (e2 > worst) worst = e2;
  }
  FXS_TEST_REPORT("fxs_sin max error near +-pi: %.3f LSB", worst);
  TEST_ASSERT_TRUE(worst <= 4.0);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, fxs_sin(FXS_HALF_PI));
  TEST_ASSERT_EQUAL_INT32(0, fxs_sin(0));
}

void test_atan2_of_zero_is_zero_and_extremes_are_defined(void) {
  TEST_ASSERT_EQUAL_INT32(0, fxs_atan2(0, 0));
  TEST_ASSERT_EQUAL_INT32(0, fxs_atan2(0, FXS_INT(5)));
  TEST_ASSERT_EQUAL_INT32(FXS_PI, fxs_atan2(0, -1));
  TEST_ASSERT_EQUAL_INT32(FXS_HALF_PI, fxs_atan2(FXS_INT(7), 0));
  TEST_ASSERT_EQUAL_INT32(-FXS_HALF_PI, fxs_atan2((fix16_t)0x80000000, 0));
  // Inputs that overflow libfixmath's own atan2 (|x| + |y| >= 32768 units).
  fix16_t a = fxs_atan2(FXS_MAX, FXS_MAX);
  TEST_ASSERT_INT32_WITHIN(FXS_ATAN2_MAX_ERROR, FXS_RATIO(785398, 1000000), a);
  fix16_t b = fxs_atan2((fix16_t)0x80000000, (fix16_t)0x80000000);
  TEST_ASSERT_INT32_WITHIN(FXS_ATAN2_MAX_ERROR, -FXS_RATIO(2356194, 1000000), b);
  fix16_t c = fxs_atan2(0, -FXS_INT(3));
  TEST_ASSERT_TRUE(c > -FXS_PI && c <= FXS_PI);
}

// fxs_atan2 as it first normalised its input: the larger magnitude doubled or halved one
// bit at a time into [2^28, 2^29), the axes handled before.
static fix16_t atan2_by_steps(fix16_t y, fix16_t x) {
  if (y == 0 || x == 0) return fxs_atan2(y, x);
  uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
  uint32_t ay = y < 0 ? 0u - (uint32_t)y : (uint32_t)y;
  uint32_t m = ax > ay ? ax : ay;
  while (m >= (UINT32_C(1) << 29)) ax >>= 1, ay >>= 1, m >>= 1;
  while (m < (UINT32_C(1) << 28)) ax <<= 1, ay <<= 1, m <<= 1;
  fix16_t sx = x < 0 ? -(fix16_t)ax : (fix16_t)ax;
  fix16_t sy = y < 0 ? -(fix16_t)ay : (fix16_t)ay;
  return fxs_angle_wrap(fix16_atan2(sy, sx));
}

void test_atan2_normalises_by_one_shift_as_it_did_bit_by_bit(void) {
  uint64_t seed = 77;
  for (int i = 0; i < 400000; ++i) {
    uint64_t r = xorshift64(&seed);
    // Magnitudes from 1 LSB to the full range: a random value shifted right 0..31 bits.
    fix16_t x = (fix16_t)((uint32_t)r >> (r >> 59)),
            y = (fix16_t)((uint32_t)(r >> 32) >> ((r >> 54) & 31u));
    TEST_ASSERT_EQUAL_INT32(atan2_by_steps(y, x), fxs_atan2(y, x));
  }
  const fix16_t edges[] = {1,           -1,         2,       0x0FFFFFFF,          0x10000000,
                           0x1FFFFFFF,  0x20000000, FXS_MAX, (fix16_t)0x80000000, -0x10000000,
                           -0x20000000, 3,          -3};
  for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
    for (unsigned j = 0; j < sizeof edges / sizeof edges[0]; ++j) {
      TEST_ASSERT_EQUAL_INT32(atan2_by_steps(edges[i], edges[j]), fxs_atan2(edges[i], edges[j]));
    }
  }
}

void test_atan2_error_bound_holds_at_every_scale(void) {
  double worst = 0;
  const fix16_t radii[] = {1, 3, 100, 0x8000, FXS_ONE, FXS_INT(181), FXS_INT(3000), FXS_INT(32767)};
  for (unsigned r = 0; r < sizeof radii / sizeof radii[0]; ++r) {
    for (int k = 0; k < 3600; ++k) {
      double t = (k - 1800) * (3.14159265358979 / 1800.0);
      fix16_t x = (fix16_t)lround(cos(t) * radii[r]);
      fix16_t y = (fix16_t)lround(sin(t) * radii[r]);
      if (x == 0 && y == 0) continue;
      double exact = atan2((double)y, (double)x);
      double got = fxs_test_to_double(fxs_atan2(y, x));
      double err = fabs(got - exact);
      if (err > 3.14159265358979) err = 2 * 3.14159265358979 - err; // +-pi are one angle
      if (err > worst) worst = err;
    }
  }
  FXS_TEST_REPORT("fxs_atan2 max error: %.6f rad (%.1f LSB)", worst, worst * 65536.0);
  TEST_ASSERT_TRUE(worst * 65536.0 <= FXS_ATAN2_MAX_ERROR);
}

// The 32-bit long division behind fxs_udiv64_32 on 32-bit targets, against the native
// 64-bit division of this build, with quotients anywhere below 2^32.
void test_the_32_bit_long_division_is_exact(void) {
  uint64_t s = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 100000; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    uint32_t d = (uint32_t)(s >> (s % 32u));
    if (d == 0) d = 1;
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    uint64_t q = (uint32_t)s >> (uint32_t)(s >> 59);
    uint64_t n = q * d + (s >> 32) % d;
    TEST_ASSERT_EQUAL_UINT32((uint32_t)(n / d), fxs_udiv64_32_digits(n, d));
    TEST_ASSERT_EQUAL_UINT32((uint32_t)(n / d), fxs_udiv64_32(n, d));
  }
  const uint32_t edges[] = {1,       2,          3,           0xFFFF,     0x10000,
                            0x10001, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
    uint64_t d = edges[i];
    TEST_ASSERT_EQUAL_UINT32(0xFFFFFFFFu,
                             fxs_udiv64_32_digits(d * 0xFFFFFFFFu + (d - 1), (uint32_t)d));
    TEST_ASSERT_EQUAL_UINT32(0, fxs_udiv64_32_digits(d - 1, (uint32_t)d));
  }
}

void test_dividing_by_one_is_the_identity_as_in_libfixmath(void) {
  for (int64_t a = INT32_MIN + 1; a <= INT32_MAX; a += 65521) {
    TEST_ASSERT_EQUAL_INT32(fix16_div((fix16_t)a, FXS_ONE), fxs_div((fix16_t)a, FXS_ONE));
  }
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_div(FXS_MAX, FXS_ONE));
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, fxs_div(FXS_MIN, FXS_ONE));
}
