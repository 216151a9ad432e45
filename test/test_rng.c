#include "unity.h"

#include "rng.h"

void setUp(void) {}
void tearDown(void) {}

void test_splitmix64_matches_its_published_outputs_for_seed_1234567(void) {
  const uint64_t expected[] = {UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
                               UINT64_C(9817491932198370423), UINT64_C(4593380528125082431),
                               UINT64_C(16408922859458223821)};
  uint64_t state = 1234567;
  for (int i = 0; i < 5; ++i) TEST_ASSERT_EQUAL_UINT64(expected[i], fxs_splitmix64_next(&state));
}

void test_xoshiro128starstar_matches_the_reference_from_state_1_2_3_4(void) {
  // xoshiro128** 1.1 (the output multiplies s[1]; version 1.0 used s[0]).
  const uint32_t expected[] = {11520u,      0u,          5927040u,    70819200u,   2031721883u,
                               1637235492u, 1287239034u, 3734860849u, 3729100597u, 4258142804u};
  fxs_rng rng = {{1, 2, 3, 4}};
  for (int i = 0; i < 10; ++i) TEST_ASSERT_EQUAL_UINT32(expected[i], fxs_rng_next(&rng));
  const uint32_t state_after_10[] = {939045227u, 1864939416u, 1451579149u, 2199351389u};
  TEST_ASSERT_EQUAL_UINT32_ARRAY(state_after_10, rng.s, 4);
}

void test_xoshiro128starstar_matches_the_reference_states_and_outputs(void) {
  fxs_rng rng = {{0x964D4A0Cu, 0xD40AB895u, 0xAD7FDECBu, 0x3006F0F0u}};
  const uint32_t outputs[] = {0xF1391922u, 0x6FE53806u, 0xA5BE2840u, 0xF510EE70u};
  for (int i = 0; i < 4; ++i) TEST_ASSERT_EQUAL_HEX32(outputs[i], fxs_rng_next(&rng));
  fxs_rng after1 = {{0x964D4A0Cu, 0xD40AB895u, 0xAD7FDECBu, 0x3006F0F0u}};
  fxs_rng_next(&after1);
  const uint32_t state1[] = {0x72410269u, 0xEF382C52u, 0x2E43BEC7u, 0x62432F20u};
  TEST_ASSERT_EQUAL_HEX32_ARRAY(state1, after1.s, 4);
}

void test_seed_fills_the_state_from_two_splitmix64_outputs(void) {
  fxs_rng rng;
  fxs_rng_seed(&rng, 1234567);
  TEST_ASSERT_EQUAL_HEX32((uint32_t)UINT64_C(6457827717110365317), rng.s[0]);
  TEST_ASSERT_EQUAL_HEX32((uint32_t)(UINT64_C(6457827717110365317) >> 32), rng.s[1]);
  TEST_ASSERT_EQUAL_HEX32((uint32_t)UINT64_C(3203168211198807973), rng.s[2]);
  TEST_ASSERT_EQUAL_HEX32((uint32_t)(UINT64_C(3203168211198807973) >> 32), rng.s[3]);
}

void test_streams_repeat_for_the_same_id_and_differ_between_ids(void) {
  fxs_rng a, b, c;
  fxs_rng_seed_stream(&a, 42, 7);
  fxs_rng_seed_stream(&b, 42, 7);
  fxs_rng_seed_stream(&c, 42, 8);
  int same_ac = 0;
  for (int i = 0; i < 100; ++i) {
    uint32_t va = fxs_rng_next(&a);
    TEST_ASSERT_EQUAL_UINT32(va, fxs_rng_next(&b));
    same_ac += va == fxs_rng_next(&c);
  }
  TEST_ASSERT_LESS_THAN(2, same_ac);
  fxs_rng d;
  fxs_rng_seed_stream(&d, 43, 7);
  fxs_rng_seed_stream(&a, 42, 7);
  TEST_ASSERT_NOT_EQUAL(fxs_rng_next(&a), fxs_rng_next(&d));
}

void test_below_stays_in_range_and_is_unbiased(void) {
  fxs_rng rng;
  fxs_rng_seed(&rng, 99);
  uint32_t counts[6] = {0};
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) {
    uint32_t v = fxs_rng_below(&rng, 6);
    TEST_ASSERT_LESS_THAN_UINT32(6, v);
    counts[v]++;
  }
  // Chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
  double chi = 0;
  for (int k = 0; k < 6; ++k) {
    double d = (double)counts[k] - draws / 6.0;
    chi += d * d / (draws / 6.0);
  }
  TEST_ASSERT_TRUE(chi < 20.5);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_rng_below(&rng, 1));
}

void test_below_with_a_bound_just_over_half_the_range_rejects_correctly(void) {
  // bound = 2^31 + 1 rejects almost half of the raw draws; a biased method would favour
  // the low half about 2:1.
  fxs_rng rng;
  fxs_rng_seed(&rng, 5);
  const uint32_t bound = 0x80000001u;
  int low = 0;
  for (int i = 0; i < 20000; ++i) {
    uint32_t v = fxs_rng_below(&rng, bound);
    TEST_ASSERT_TRUE(v < bound);
    low += v < 0x40000000u;
  }
  TEST_ASSERT_INT_WITHIN(400, 10000, low);
}

void test_fix16_draws_cover_the_half_open_range(void) {
  fxs_rng rng;
  fxs_rng_seed(&rng, 3);
  fix16_t lo = FXS_INT(-2), hi = FXS_INT(3);
  fix16_t seen_min = hi, seen_max = lo;
  for (int i = 0; i < 20000; ++i) {
    fix16_t v = fxs_rng_fix16(&rng, lo, hi);
    TEST_ASSERT_TRUE(v >= lo && v < hi);
    if (v < seen_min) seen_min = v;
    if (v > seen_max) seen_max = v;
  }
  TEST_ASSERT_TRUE(seen_min < lo + FXS_RATIO(1, 100));
  TEST_ASSERT_TRUE(seen_max > hi - FXS_RATIO(1, 100));
  TEST_ASSERT_EQUAL_INT32(lo, fxs_rng_fix16(&rng, lo, lo));
  fix16_t wide = fxs_rng_fix16(&rng, FXS_MIN, FXS_MAX);
  TEST_ASSERT_TRUE(wide >= FXS_MIN && wide < FXS_MAX);
}
