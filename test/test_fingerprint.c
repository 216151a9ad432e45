#include "unity.h"

#include "fingerprint.h"

void setUp(void) {}
void tearDown(void) {}

void test_fingerprint_matches_the_pinned_libfixmath_build(void) {
  TEST_ASSERT_EQUAL_HEX64(FXS_MATH_FINGERPRINT_PINNED, fxs_math_fingerprint());
}

void test_fingerprint_has_no_hidden_state(void) {
  uint64_t first = fxs_math_fingerprint();
  TEST_ASSERT_EQUAL_HEX64(first, fxs_math_fingerprint());
}
