// Input commands: the little-endian encoding, the canonical order (source, sequence, then the
// encoded bytes) and the sort every tick applies before the world runs its commands.
#include <string.h>

#include "unity.h"

#include "rng.h"
#include "result.h"
#include "command.h"

// Small enough for the 16 KiB Cortex-M0 board.
#define MANY 96

static fxs_command commands[MANY];
static fxs_command expected[MANY];
static uint64_t draws;

void setUp(void) { draws = UINT64_C(0xC0FFEE0DDBA11); }
void tearDown(void) {}

static uint32_t draw(void) { return (uint32_t)fxs_splitmix64_next(&draws); }

// A command whose fields come from few distinct values, so that pairs often share a key
// and differ only in a late byte.
static fxs_command clumped(void) {
  static const uint32_t values[] = {0,           1,           0x100,       0xFF,
                                    0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x10000};
  fxs_command c = fxs_command_make((fxs_command_type)(draw() % 3u), (uint8_t)(draw() % 2u),
                                   (uint16_t)values[draw() % 4u]);
  c.agent = values[draw() % 8u];
  c.ref = values[draw() % 8u];
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) c.arg[i] = (fix16_t)values[draw() % 8u];
  return c;
}

static int sign(int v) { return (v > 0) - (v < 0); }

static int encoded_compare(const fxs_command *a, const fxs_command *b) {
  uint8_t ea[FXS_COMMAND_BYTES], eb[FXS_COMMAND_BYTES];
  fxs_command_encode(a, ea);
  fxs_command_encode(b, eb);
  return memcmp(ea, eb, FXS_COMMAND_BYTES);
}

// The definition of the canonical order: by source, by sequence, then the encodings under
// memcmp; sorted here by plain insertion.
static int reference_compare(const fxs_command *a, const fxs_command *b) {
  if (a->source != b->source) return a->source < b->source ? -1 : 1;
  if (a->sequence != b->sequence) return a->sequence < b->sequence ? -1 : 1;
  return sign(encoded_compare(a, b));
}

static void reference_sort(fxs_command *c, uint32_t count) {
  for (uint32_t i = 1; i < count; ++i) {
    fxs_command key = c[i];
    uint32_t j = i;
    for (; j > 0 && reference_compare(&c[j - 1], &key) > 0; --j) c[j] = c[j - 1];
    c[j] = key;
  }
}

static void assert_same_commands(const fxs_command *a, const fxs_command *b, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t ea[FXS_COMMAND_BYTES], eb[FXS_COMMAND_BYTES];
    fxs_command_encode(&a[i], ea);
    fxs_command_encode(&b[i], eb);
    TEST_ASSERT_EQUAL_HEX8_ARRAY_MESSAGE(ea, eb, FXS_COMMAND_BYTES, "command differs");
  }
}

void test_encoding_is_little_endian_field_by_field_and_decodes_back(void) {
  fxs_command c = fxs_command_make(FXS_CMD_APPLY_FORCE, 0x12, 0x3456);
  c.agent = 0x789ABCDEu;
  c.ref = 0x01020304u;
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) c.arg[i] = (fix16_t)(-1 - i);
  uint8_t e[FXS_COMMAND_BYTES];
  fxs_command_encode(&c, e);
  static const uint8_t head[12] = {
      FXS_CMD_APPLY_FORCE, 0x12, 0x56, 0x34, 0xDE, 0xBC, 0x9A, 0x78, 0x04, 0x03, 0x02, 0x01};
  TEST_ASSERT_EQUAL_HEX8_ARRAY(head, e, 12);
  TEST_ASSERT_EQUAL_HEX8(0xFE, e[16]); // arg[1] = -2
  TEST_ASSERT_EQUAL_HEX8(0xFF, e[19]);
  fxs_command back;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_command_decode(e, &back));
  assert_same_commands(&c, &back, 1);
  e[0] = FXS_CMD_COUNT;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_COMMAND, fxs_command_decode(e, &back));
}

void test_source_orders_before_sequence_and_sequence_before_content(void) {
  fxs_command a = fxs_command_make(FXS_CMD_DESPAWN, 1, 0);
  fxs_command b = fxs_command_make(FXS_CMD_SPAWN, 0, 9);
  TEST_ASSERT_TRUE(fxs_command_compare(&b, &a) < 0);
  b.source = 1;
  TEST_ASSERT_TRUE(fxs_command_compare(&a, &b) < 0);
  b.sequence = 0;
  TEST_ASSERT_TRUE(fxs_command_compare(&b, &a) < 0); // spawn (type 0) before despawn
  TEST_ASSERT_EQUAL_INT(0, fxs_command_compare(&a, &a));
}

void test_equal_keys_order_by_the_least_significant_byte_first(void) {
  fxs_command a = fxs_command_make(FXS_CMD_APPLY_FORCE, 0, 0);
  fxs_command b = a;
  a.agent = 0x100; // encoded 00 01 00 00
  b.agent = 0x001; // encoded 01 00 00 00
  TEST_ASSERT_TRUE(fxs_command_compare(&a, &b) < 0);
  TEST_ASSERT_TRUE(fxs_command_compare(&b, &a) > 0);
  a.agent = b.agent;
  a.arg[7] = -1;   // FF FF FF FF
  b.arg[7] = 0x7F; // 7F 00 00 00
  TEST_ASSERT_TRUE(fxs_command_compare(&b, &a) < 0);
}

void test_compare_agrees_with_the_encodings_in_many_seeded_pairs(void) {
  for (int n = 0; n < 4000; ++n) {
    fxs_command a = clumped(), b = clumped();
    TEST_ASSERT_EQUAL_INT(reference_compare(&a, &b), sign(fxs_command_compare(&a, &b)));
    TEST_ASSERT_EQUAL_INT(-reference_compare(&a, &b), sign(fxs_command_compare(&b, &a)));
  }
}

void test_sort_gives_the_reference_order_for_seeded_shuffles_with_duplicates(void) {
  for (int round = 0; round < 60; ++round) {
    uint32_t count = draw() % (MANY + 1u);
    for (uint32_t i = 0; i < count; ++i) commands[i] = clumped();
    if (count > 1 && round % 4 == 0) commands[count - 1] = commands[0]; // an exact duplicate
    memcpy(expected, commands, sizeof commands);
    reference_sort(expected, count);
    fxs_command_sort(commands, count);
    assert_same_commands(expected, commands, count);
  }
}

void test_sort_of_one_key_in_reverse_order_gives_ascending_content(void) {
  for (uint32_t i = 0; i < MANY; ++i) {
    commands[i] = fxs_command_make(FXS_CMD_APPLY_FORCE, 3, 7);
    commands[i].arg[0] = (fix16_t)(MANY - 1u - i);
  }
  fxs_command_sort(commands, MANY);
  for (uint32_t i = 0; i < MANY; ++i) TEST_ASSERT_EQUAL_INT32((int32_t)i, commands[i].arg[0]);
}

void test_sorted_commands_and_empty_lists_are_left_as_they_are(void) {
  for (uint32_t i = 0; i < MANY; ++i) commands[i] = fxs_command_make(FXS_CMD_SPAWN, 0, (uint16_t)i);
  memcpy(expected, commands, sizeof commands);
  fxs_command_sort(commands, MANY);
  assert_same_commands(expected, commands, MANY);
  fxs_command_sort(commands, 0);
  fxs_command_sort(commands, 1);
  assert_same_commands(expected, commands, MANY);
}
