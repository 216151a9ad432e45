#include "unity.h"

#include "hash.h"

void setUp(void) {}
void tearDown(void) {}

void test_fnv1a64_matches_the_reference_values(void) {
  fxs_hasher h = fxs_hasher_make();
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xcbf29ce484222325), h.state);
  fxs_hash_bytes(&h, "a", 1);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xaf63dc4c8601ec8c), h.state);
  h = fxs_hasher_make();
  fxs_hash_bytes(&h, "foobar", 6);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x85944171f73967e8), h.state);
}

void test_integers_are_hashed_little_endian(void) {
  fxs_hasher a = fxs_hasher_make(), b = fxs_hasher_make();
  const uint8_t bytes[] = {0x04, 0x03, 0x02, 0x01, 0x0D, 0x0C, 0x0B, 0x0A,
                           0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF};
  fxs_hash_u32(&a, 0x01020304u);
  fxs_hash_u32(&a, 0x0A0B0C0Du);
  fxs_hash_u64(&a, UINT64_C(0x0102030405060708));
  fxs_hash_i32(&a, -1);
  fxs_hash_bytes(&b, bytes, sizeof bytes);
  TEST_ASSERT_EQUAL_HEX64(b.state, a.state);
}
