// A replay recorded and verified within a Cortex-M0's 16 KiB: the world and the writer's
// snapshot scratch share one arena, which the verifier then reuses; the final hash is
// pinned from x86-64.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "command.h"
#include "world.h"
#include "snapshot.h"
#include "replay.h"
#include "command_build.h"
#include "fxs_m0_scenes.h"
#include "fxs_test_util.h"
#include "fxs_test_hash_v2.h"

// The recorded world: agents and ticks of the ORCA crowd.
#define AGENTS 1u
#define TICKS 40u
// The arena holds the world and the writer's snapshot scratch while recording, then the
// verifier's memory; the replay has its own buffer.
#define ARENA_BYTES 7680u
#define REPLAY_BYTES 1792u

static uint64_t arena[ARENA_BYTES / 8u];
static uint8_t replay[REPLAY_BYTES];
static size_t replay_size;
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

static bool append(void *user, const uint8_t *bytes, size_t size) {
  (void)user;
  if (size > sizeof replay - replay_size) return false;
  memcpy(replay + replay_size, bytes, size);
  replay_size += size;
  return true;
}

// Records the crowd with a new goal for one agent every 15 ticks; returns the final hash.
static uint64_t record(void) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_m0_build(&world, FXS_M0_CROWD, AGENTS, arena, sizeof arena));
  size_t block = fxs_world_memory_size(&world.capacity);
  size_t snapshot = fxs_world_snapshot_size(&world);
  TEST_ASSERT_TRUE(block + snapshot <= sizeof arena);
  fxs_replay_writer w;
  replay_size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_begin(&w, append, 0, &world, 0,
                                                    (uint8_t *)arena + block, snapshot));
  for (uint32_t t = 0; t < TICKS; ++t) {
    fxs_command c[1];
    uint32_t n = 0;
    if (t % 15u == 0) {
      fxs_agent_handle h = fxs_world_handle_at(&world, (t / 15u) % AGENTS);
      fxs_vec2 goal = fxs_vec2_make(FXS_INT(40 + (int32_t)t * 5), FXS_INT(60));
      c[n++] = fxs_command_set_target_point(h, goal);
    }
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, n, 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_tick(&w, &world, c, n));
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_end(&w, &world));
  FXS_TEST_REPORT("replay of %u agents, %u ticks: %u bytes (snapshot %u, block %u)",
                  (unsigned)AGENTS, (unsigned)TICKS, (unsigned)replay_size, (unsigned)snapshot,
                  (unsigned)block);
  return hash_v2(&world);
}

void test_a_recorded_crowd_verifies_in_the_same_arena_at_the_pinned_hash(void) {
  uint64_t h = record();
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xE6CB8AA92421A044), h);
  size_t need = fxs_replay_verify_memory_size(replay, replay_size, 0);
  FXS_TEST_REPORT("verify memory: %u bytes", (unsigned)need);
  TEST_ASSERT_TRUE(need > 0 && need <= sizeof arena);
  memset(arena, 0xA5, sizeof arena); // the verifier starts from junk, not the recorder's world
  fxs_verify_report report;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_replay_verify(replay, replay_size, 0, arena, sizeof arena, &report));
  TEST_ASSERT_EQUAL_UINT32(TICKS, report.ticks);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), report.final_hash); // recorded with v3
}

void test_a_replay_with_one_byte_flipped_is_refused(void) {
  record();
  replay[replay_size / 2u] ^= 0x01u;
  fxs_verify_report report;
  fxs_result r = fxs_replay_verify(replay, replay_size, 0, arena, sizeof arena, &report);
  TEST_ASSERT_NOT_EQUAL(FXS_OK, r);
}
