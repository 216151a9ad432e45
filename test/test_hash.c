#include "unity.h"

#include <stdio.h>
#include <string.h>

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
  const uint8_t bytes[] = {0x04, 0x03, 0x02, 0x01, 0x0D, 0x0C, 0x0B, 0x0A, 0x08, 0x07,
                           0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF};
  fxs_hash_u32(&a, 0x01020304u);
  fxs_hash_u32(&a, 0x0A0B0C0Du);
  fxs_hash_u64(&a, UINT64_C(0x0102030405060708));
  fxs_hash_i32(&a, -1);
  fxs_hash_bytes(&b, bytes, sizeof bytes);
  TEST_ASSERT_EQUAL_HEX64(b.state, a.state);
}

// ------------------------------------------------------------------ state hash v2 and v3

static const uint32_t versions[] = {FXS_STATE_HASH_V2, FXS_STATE_HASH_V3};

static uint64_t state_hash_as(uint32_t version, const uint8_t *bytes, size_t size) {
  fxs_state_hasher h = fxs_state_hasher_of(version);
  fxs_state_hash_bytes(&h, bytes, size);
  return fxs_state_hash_value(&h);
}

// xorshift64 for test inputs only.
static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static uint64_t reference_fold(uint64_t h, uint64_t w) {
  uint64_t m = w * FXS_STATE_HASH_K1;
  m ^= m >> 31;
  h ^= m;
  return ((h << 27) | (h >> 37)) * FXS_STATE_HASH_K2;
}

// The documented formula (hash.h), written out plainly: words of 8 little-endian bytes, the
// last one zero-padded, each folded into lane 0 (v2) or lane k mod 4 (v3), the lanes
// combined (v3), then the byte count and the final mix.
static uint64_t reference_state_hash(uint32_t version, const uint8_t *bytes, size_t size) {
  uint64_t lane[4];
  for (int i = 0; i < 4; ++i) lane[i] = FXS_STATE_HASH_SEED + (uint64_t)i * FXS_STATE_HASH_K1;
  size_t k = 0;
  for (size_t at = 0; at < size; at += 8, ++k) {
    uint64_t w = 0;
    for (size_t i = 0; i < 8 && at + i < size; ++i) w |= (uint64_t)bytes[at + i] << (8 * i);
    if (version == FXS_STATE_HASH_V2) {
      lane[0] = reference_fold(lane[0], w);
    } else {
      uint64_t x = (lane[k % 4] ^ w) * FXS_STATE_HASH_K1;
      lane[k % 4] = (x << 31) | (x >> 33);
    }
  }
  uint64_t h = lane[0];
  if (version == FXS_STATE_HASH_V3) {
    for (int i = 1; i < 4; ++i) h = reference_fold(h, lane[i]);
  }
  h ^= (uint64_t)size;
  h ^= h >> 33;
  h *= FXS_STATE_HASH_K3;
  h ^= h >> 29;
  h *= FXS_STATE_HASH_K4;
  h ^= h >> 32;
  return h;
}

void test_the_state_hash_follows_its_documented_formula(void) {
  for (int v = 0; v < 2; ++v) {
    uint64_t seed = 777;
    uint8_t bytes[100];
    for (size_t size = 0; size <= sizeof bytes; ++size) {
      for (size_t i = 0; i < size; ++i) bytes[i] = (uint8_t)next_random(&seed);
      TEST_ASSERT_EQUAL_HEX64(reference_state_hash(versions[v], bytes, size),
                              state_hash_as(versions[v], bytes, size));
    }
  }
  // Pinned: a change here changes every hash recorded with that version.
  const uint8_t *abc = (const uint8_t *)"abc";
  const uint8_t *long_text = (const uint8_t *)"four lanes, one hash.";
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x25783510f932ef98), state_hash_as(FXS_STATE_HASH_V2, abc, 3));
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x29438939d00bcfe9), state_hash_as(FXS_STATE_HASH_V3, abc, 3));
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xdde590e02c6bc59d),
                          state_hash_as(FXS_STATE_HASH_V3, long_text, 21));
}

void test_new_hashers_are_v3_and_an_unknown_version_is_v3(void) {
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, FXS_STATE_HASH_VERSION);
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, fxs_state_hasher_make().version);
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V2, fxs_state_hasher_of(2).version);
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, fxs_state_hasher_of(7).version);
}

void test_v2_and_v3_differ_and_v3_tells_words_of_different_lanes_apart(void) {
  uint8_t a[64], b[64];
  uint64_t seed = 31337;
  for (size_t i = 0; i < sizeof a; ++i) a[i] = (uint8_t)next_random(&seed);
  uint64_t v3 = state_hash_as(FXS_STATE_HASH_V3, a, 64);
  TEST_ASSERT_NOT_EQUAL(state_hash_as(FXS_STATE_HASH_V2, a, 64), v3);
  // Swapping word 0 with word j (j = 1..7): another lane (j = 1..3) or the same lane at
  // another place in its chain (j = 4); either changes the hash.
  for (size_t j = 1; j < 8; ++j) {
    memcpy(b, a, sizeof a);
    memcpy(b, a + 8 * j, 8);
    memcpy(b + 8 * j, a, 8);
    TEST_ASSERT_NOT_EQUAL(v3, state_hash_as(FXS_STATE_HASH_V3, b, 64));
  }
}

void test_fields_of_any_width_hash_like_their_little_endian_bytes(void) {
  for (int ver = 0; ver < 2; ++ver) {
    uint64_t seed = 12345;
    for (int round = 0; round < 200; ++round) {
      uint8_t bytes[80];
      fxs_state_hasher by_field = fxs_state_hasher_of(versions[ver]);
      size_t n = 0;
      while (n < 64) {
        uint32_t width = 1u + (uint32_t)(next_random(&seed) % 8u);
        uint64_t v = next_random(&seed);
        if (width < 8) v &= (UINT64_C(1) << (8 * width)) - 1u;
        fxs_state_hash_put(&by_field, v, width);
        for (uint32_t i = 0; i < width; ++i) bytes[n++] = (uint8_t)(v >> (8 * i));
      }
      TEST_ASSERT_EQUAL_HEX64(state_hash_as(versions[ver], bytes, n),
                              fxs_state_hash_value(&by_field));
    }
  }
}

void test_trailing_zero_bytes_and_order_change_the_state_hash(void) {
  const uint8_t a[] = {1, 2, 3, 0};
  const uint8_t b[] = {2, 1, 3, 0};
  uint8_t zeros[40] = {0};
  for (int v = 0; v < 2; ++v) {
    uint32_t ver = versions[v];
    TEST_ASSERT_NOT_EQUAL(state_hash_as(ver, a, 3), state_hash_as(ver, a, 4));
    TEST_ASSERT_NOT_EQUAL(state_hash_as(ver, a, 4), state_hash_as(ver, b, 4));
    TEST_ASSERT_NOT_EQUAL(state_hash_as(ver, zeros, 8), state_hash_as(ver, zeros, 16));
    TEST_ASSERT_NOT_EQUAL(state_hash_as(ver, zeros, 32), state_hash_as(ver, zeros, 40));
  }
}

// One flipped input bit flips each output bit with probability close to 1/2: measured over
// 300 random 40-byte messages and all 320 single-bit flips of each.
static void check_avalanche(uint32_t version) {
  uint64_t seed = 987654321;
  uint32_t per_bit[64] = {0};
  uint64_t total = 0, trials = 0;
  for (int m = 0; m < 300; ++m) {
    uint8_t msg[40];
    for (size_t i = 0; i < sizeof msg; ++i) msg[i] = (uint8_t)next_random(&seed);
    uint64_t base = state_hash_as(version, msg, sizeof msg);
    for (int bit = 0; bit < 320; ++bit) {
      msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      uint64_t diff = base ^ state_hash_as(version, msg, sizeof msg);
      msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      for (int o = 0; o < 64; ++o) per_bit[o] += (uint32_t)((diff >> o) & 1u);
      ++trials;
    }
  }
  for (int o = 0; o < 64; ++o) {
    total += per_bit[o];
    double p = (double)per_bit[o] / (double)trials;
    TEST_ASSERT_TRUE_MESSAGE(p > 0.48 && p < 0.52, "an output bit is biased");
  }
  double mean = (double)total / (double)trials;
  char msg[80];
  snprintf(msg, sizeof msg, "state hash v%u: %.3f of 64 output bits flip per input bit",
           (unsigned)version, mean);
  TEST_MESSAGE(msg);
  TEST_ASSERT_TRUE(mean > 31.5 && mean < 32.5);
}

void test_the_state_hash_v2_avalanches(void) { check_avalanche(FXS_STATE_HASH_V2); }
void test_the_state_hash_v3_avalanches(void) { check_avalanche(FXS_STATE_HASH_V3); }

// Leads of 0 to 40 bytes start a block at every byte of a word and at every lane.
void test_blocks_hash_like_their_bytes_at_every_alignment(void) {
  uint64_t seed = 4242;
  uint8_t bytes[160];
  for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = (uint8_t)next_random(&seed);
  for (int v = 0; v < 2; ++v) {
    for (size_t lead = 0; lead <= 40; ++lead) {
      for (size_t size = 0; size + lead + 11 <= sizeof bytes; ++size) {
        fxs_state_hasher a = fxs_state_hasher_of(versions[v]), b = fxs_state_hasher_of(versions[v]);
        fxs_state_hash_bytes(&a, bytes, lead + size);
        fxs_state_hash_bytes(&b, bytes, lead);
        fxs_state_hash_block(&b, bytes + lead, size);
        TEST_ASSERT_EQUAL_HEX64(fxs_state_hash_value(&a), fxs_state_hash_value(&b));
        // A second block continues from the bytes the first one left pending.
        fxs_state_hash_bytes(&a, bytes + lead + size, 11);
        fxs_state_hash_block(&b, bytes + lead + size, 11);
        TEST_ASSERT_EQUAL_HEX64(fxs_state_hash_value(&a), fxs_state_hash_value(&b));
      }
    }
  }
}
