// The world's agent slots: capacity limits, handle layout, the lowest-free-slot rule kept by
// the free-slot bitmap, and the derived data rebuilt after a restore.
#include <string.h>

#include "unity.h"

#include "rng.h"
#include "result.h"
#include "command.h"
#include "world.h"
#include "snapshot.h"

// 1100 slots: 35 bitmap words at level 0, 2 at level 1, 1 at level 2.
#define SLOTS 1100u
static uint64_t memory[66560];
static uint64_t memory2[66560];
static fxs_world world;

static void make(fxs_world *w, uint32_t agents, uint64_t *mem, size_t size) {
  fxs_world_capacity c = {agents, 0, 0, 0, 0};
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &c, mem, size));
}

void setUp(void) { make(&world, SLOTS, memory, sizeof memory); }
void tearDown(void) {}

static fxs_agent_handle spawn(fxs_world *w) {
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[4] = FXS_INT(4), c.arg[5] = FXS_RATIO(1, 4), c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(8);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
  return h;
}

static void despawn(fxs_world *w, fxs_agent_handle h) {
  fxs_command d = fxs_command_make(FXS_CMD_DESPAWN, 0, 0);
  d.agent = h.value;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &d, 0));
}

static uint32_t slot_of(fxs_agent_handle h) { return (h.value & FXS_HANDLE_INDEX_MASK) - 1u; }

void test_spawn_takes_the_lowest_free_slot_across_bitmap_words_and_levels(void) {
  static fxs_agent_handle h[SLOTS];
  for (uint32_t i = 0; i < SLOTS; ++i) {
    h[i] = spawn(&world);
    TEST_ASSERT_EQUAL_UINT32(i + 1u, h[i].value); // generation 0: slot + 1
  }
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[6] = FXS_ONE;
  TEST_ASSERT_EQUAL(FXS_ERR_FULL, fxs_world_apply(&world, &c, 0));
  static const uint32_t freed[] = {1099, 5, 640, 31, 32, 1023, 1024, 0};
  static const uint32_t order[] = {0, 5, 31, 32, 640, 1023, 1024, 1099};
  for (int i = 0; i < 8; ++i) despawn(&world, h[freed[i]]);
  TEST_ASSERT_EQUAL_UINT32(SLOTS - 8u, fxs_world_agent_count(&world));
  for (int i = 0; i < 8; ++i) TEST_ASSERT_EQUAL_UINT32(order[i], slot_of(spawn(&world)));
  TEST_ASSERT_EQUAL(FXS_ERR_FULL, fxs_world_apply(&world, &c, 0));
  TEST_ASSERT_EQUAL_UINT32(SLOTS, fxs_world_agent_count(&world));
}

void test_a_respawned_slot_carries_its_generation_above_the_index_bits(void) {
  fxs_agent_handle a = spawn(&world), b = spawn(&world);
  TEST_ASSERT_EQUAL_UINT32(1, a.value);
  TEST_ASSERT_EQUAL_UINT32(2, b.value);
  despawn(&world, b);
  fxs_agent_handle c = spawn(&world);
  TEST_ASSERT_EQUAL_UINT32((1u << 22) | 2u, c.value);
  TEST_ASSERT_NULL(fxs_world_agent(&world, b));
  TEST_ASSERT_NOT_NULL(fxs_world_agent(&world, c));
  TEST_ASSERT_EQUAL_UINT32(c.value, fxs_world_handle_at(&world, 1).value);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_handle_at(&world, 2).value);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_handle_at(&world, SLOTS + 5u).value);
}

void test_an_agent_draws_from_stream_generation_shifted_by_22_or_slot(void) {
  fxs_agent_handle a = spawn(&world), b = spawn(&world);
  fxs_rng expect;
  fxs_rng_seed_stream(&expect, 7, 1); // generation 0, slot 1: the stream id is the slot
  TEST_ASSERT_EQUAL_MEMORY(&expect, &world.agents[1].rng, sizeof expect);
  despawn(&world, b);
  despawn(&world, a);
  spawn(&world);
  spawn(&world);
  fxs_rng_seed_stream(&expect, 7, (1u << 22) | 1u);
  TEST_ASSERT_EQUAL_MEMORY(&expect, &world.agents[1].rng, sizeof expect);
}

void test_generations_wrap_after_1024_despawns_of_one_slot(void) {
  fxs_agent_handle first = spawn(&world), h = first;
  for (int i = 0; i < 1023; ++i) {
    despawn(&world, h);
    h = spawn(&world);
  }
  TEST_ASSERT_EQUAL_UINT32((1023u << 22) | 1u, h.value);
  TEST_ASSERT_NULL(fxs_world_agent(&world, first));
  despawn(&world, h);
  h = spawn(&world);
  TEST_ASSERT_EQUAL_UINT32(first.value, h.value);
  TEST_ASSERT_EQUAL_UINT32(0, world.agents[0].generation);
}

void test_capacities_beyond_the_limits_have_no_size_and_init_refuses_them(void) {
  fxs_world_capacity c = {FXS_MAX_AGENTS, 0, 0, 0, 0};
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL_UINT32(4194302u, FXS_MAX_AGENTS);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) > (size_t)FXS_MAX_AGENTS * sizeof(fxs_agent_slot));
  c.agents = FXS_MAX_AGENTS + 1u;
  TEST_ASSERT_EQUAL_size_t(0, fxs_world_memory_size(&c));
  fxs_world w;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_init(&w, &def, &c, memory2, sizeof memory2));
  fxs_world_capacity o = {0, FXS_MAX_SMALL_CAPACITY + 1u, 0, 0, 0};
  TEST_ASSERT_EQUAL_size_t(0, fxs_world_memory_size(&o));
  o.obstacles = 0, o.paths = FXS_MAX_SMALL_CAPACITY + 1u;
  TEST_ASSERT_EQUAL_size_t(0, fxs_world_memory_size(&o));
  o.paths = 0, o.walls = FXS_MAX_SMALL_CAPACITY + 1u;
  TEST_ASSERT_EQUAL_size_t(0, fxs_world_memory_size(&o));
}

void test_a_block_larger_than_size_t_has_no_size(void) {
  // 2^32 - 1 path nodes of 8 bytes: 32 GiB, which a 32-bit size_t cannot hold.
  fxs_world_capacity c = {0, 0, 1, 0xFFFFFFFFu, 0};
  size_t size = fxs_world_memory_size(&c);
  if (sizeof(size_t) == 4) {
    TEST_ASSERT_EQUAL_size_t(0, size);
    fxs_world w;
    fxs_world_def def = fxs_default_world_def();
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_init(&w, &def, &c, memory2, sizeof memory2));
  } else {
    TEST_ASSERT_TRUE(size / 8u >= 0xFFFFFFFFu);
  }
}

void test_a_restored_world_counts_its_agents_and_spawns_into_the_same_slots(void) {
  static uint8_t snap[65536];
  fxs_agent_handle h[40];
  for (int i = 0; i < 40; ++i) h[i] = spawn(&world);
  despawn(&world, h[33]);
  despawn(&world, h[3]);
  despawn(&world, h[17]);
  size_t written = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &written));
  fxs_world other;
  make(&other, SLOTS, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, written, 0));
  TEST_ASSERT_EQUAL_UINT32(37, fxs_world_agent_count(&other));
  for (int i = 0; i < 4; ++i) TEST_ASSERT_EQUAL_UINT32(spawn(&world).value, spawn(&other).value);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  // Restoring the empty world's snapshot frees every slot again.
  make(&world, SLOTS, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &written));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, written, 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_agent_count(&other));
  TEST_ASSERT_EQUAL_UINT32(1, spawn(&other).value);
}

void test_a_world_without_agent_slots_refuses_spawns(void) {
  fxs_world w;
  make(&w, 0, memory2, sizeof memory2);
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[6] = FXS_ONE;
  TEST_ASSERT_EQUAL(FXS_ERR_FULL, fxs_world_apply(&w, &c, 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_agent_count(&w));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&w, 0, 0, 0));
}
