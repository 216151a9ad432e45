// The exact wide arithmetic (exact.h): 64 x 64 -> 128-bit products against a schoolbook of
// 16-bit limbs written here, at the edges of the range and over seeded pairs. A build with a
// native 128-bit type takes one path of fxs_u128_mul, a 32-bit one (the MCU suites) the other:
// each must give these products.
#include <stdint.h>

#include "unity.h"

#include "exact.h"

void setUp(void) {}
void tearDown(void) {}

static uint64_t rng_state = 0x13198A2E03707344u;

static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// a * b by 16-bit limbs: eight result limbs, each column summed with its carry.
static fxs_u128 schoolbook(uint64_t a, uint64_t b) {
  uint32_t limb[8] = {0};
  for (int i = 0; i < 4; ++i) {
    uint64_t carry = 0;
    uint32_t ai = (uint32_t)(a >> (16 * i)) & 0xFFFFu;
    for (int j = 0; j < 4; ++j) {
      uint32_t bj = (uint32_t)(b >> (16 * j)) & 0xFFFFu;
      uint64_t t = (uint64_t)ai * bj + limb[i + j] + carry;
      limb[i + j] = (uint32_t)(t & 0xFFFFu);
      carry = t >> 16;
    }
    for (int k = i + 4; carry != 0 && k < 8; ++k) {
      uint64_t t = (uint64_t)limb[k] + carry;
      limb[k] = (uint32_t)(t & 0xFFFFu);
      carry = t >> 16;
    }
  }
  fxs_u128 r = {0, 0};
  for (int k = 3; k >= 0; --k) r.lo = (r.lo << 16) | limb[k];
  for (int k = 7; k >= 4; --k) r.hi = (r.hi << 16) | limb[k];
  return r;
}

static void check_product(uint64_t a, uint64_t b) {
  fxs_u128 want = schoolbook(a, b), got = fxs_u128_mul(a, b);
  TEST_ASSERT_EQUAL_HEX64(want.hi, got.hi);
  TEST_ASSERT_EQUAL_HEX64(want.lo, got.lo);
}

void test_products_at_the_edges_of_the_range(void) {
  const uint64_t max = UINT64_MAX;
  fxs_u128 top = fxs_u128_mul(max, max); // (2^64 - 1)^2 = 2^128 - 2^65 + 1
  TEST_ASSERT_EQUAL_HEX64(max - 1u, top.hi);
  TEST_ASSERT_EQUAL_HEX64(1u, top.lo);
  fxs_u128 carry = fxs_u128_mul(UINT64_C(1) << 32, UINT64_C(1) << 32); // exactly 2^64
  TEST_ASSERT_EQUAL_HEX64(1u, carry.hi);
  TEST_ASSERT_EQUAL_HEX64(0u, carry.lo);
  const uint64_t edges[] = {
      0u,       1u, 0xFFFFFFFFu, UINT64_C(1) << 32, (UINT64_C(1) << 63) - 1u, UINT64_C(1) << 63,
      max - 1u, max};
  for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; ++i)
    for (unsigned j = 0; j < sizeof edges / sizeof edges[0]; ++j) check_product(edges[i], edges[j]);
}

void test_seeded_products_and_their_comparison(void) {
  for (int n = 0; n < 20000; ++n) {
    // Both operands of every width: a seeded value shifted right by a seeded count.
    uint64_t a = next_u64() >> (next_u64() % 64u), b = next_u64() >> (next_u64() % 64u);
    check_product(a, b);
    uint64_t c = next_u64() >> (next_u64() % 64u), d = next_u64() >> (next_u64() % 64u);
    fxs_u128 ab = schoolbook(a, b), cd = schoolbook(c, d);
    int want =
        ab.hi != cd.hi ? (ab.hi < cd.hi ? -1 : 1) : (ab.lo != cd.lo ? (ab.lo < cd.lo ? -1 : 1) : 0);
    TEST_ASSERT_EQUAL_INT(want, fxs_u128_compare(fxs_u128_mul(a, b), fxs_u128_mul(c, d)));
    TEST_ASSERT_EQUAL_INT(want, fxs_u128_compare_products(a, b, c, d));
  }
}
