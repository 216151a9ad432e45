// Every golden replay in test/golden/ re-simulates tick by tick to its recorded hashes and to
// the final hash pinned here. On the Cortex-M3 the files are read through semihosting.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "hash.h"
#include "result.h"
#include "replay.h"
#include "version.h"

void setUp(void) {}
void tearDown(void) {}

// nav_crowd's replay (1,000 agents, a keyframe every 250 ticks) is about 1.5 MB. The
// navigation scenes need about 1 MiB to verify (two worlds with their A* searches); nav_crowd
// about 32 MiB (two worlds with eight integration fields each). A bare-metal Cortex-M board
// (4 MiB of RAM on QEMU's mps2-an385) verifies every golden but nav_crowd, which it skips
// saying why.
#if defined(__arm__) && !defined(__linux__)
#define REPLAY_BYTES (512u * 1024u)
#define MEMORY_BYTES (3u * 1024u * 1024u)
#define SKIP_WHAT_DOES_NOT_FIT 1
#else
#define REPLAY_BYTES (2u * 1024u * 1024u)
#define MEMORY_BYTES (34u * 1024u * 1024u)
#define SKIP_WHAT_DOES_NOT_FIT 0
#endif
static uint8_t replay[REPLAY_BYTES];
static uint64_t memory[MEMORY_BYTES / 8u];

typedef struct golden {
  const char *file;
  uint32_t ticks;
  uint64_t final_hash;
} golden;

static const golden goldens[] = {
    {"test/golden/hunter_prey.fxr", 1200, UINT64_C(0xa52b290b79de8fde)},
    {"test/golden/patrol.fxr", 1500, UINT64_C(0x7b473b0fab088bf0)},
    {"test/golden/flock.fxr", 1200, UINT64_C(0x333fa7845e0a66fa)},
    {"test/golden/queue.fxr", 1500, UINT64_C(0xd555439679987a4c)},
    {"test/golden/leader.fxr", 1200, UINT64_C(0xd1d68a0329bc3b7a)},
    {"test/golden/obstacle_field.fxr", 1500, UINT64_C(0x476ce8a9d79828a1)},
    {"test/golden/walker.fxr", 1500, UINT64_C(0x88e66fbc082a75a5)},
    {"test/golden/seek_wind.fxr", 600, UINT64_C(0x2416718a319f1dc0)},
    {"test/golden/orientation.fxr", 1000, UINT64_C(0x5bc2039f858a234b)},
    {"test/golden/obstacle_dense.fxr", 2000, UINT64_C(0xbd11ab682332df36)},
    {"test/golden/crowd_crossing.fxr", 1000, UINT64_C(0x31f9f249008839a6)},
    {"test/golden/hide_and_seek.fxr", 1500, UINT64_C(0xe01fef23c5e7277b)},
    {"test/golden/flow_field.fxr", 1500, UINT64_C(0x5418472ce7ee8db7)},
    {"test/golden/nav_wall.fxr", 900, UINT64_C(0x98b34531c5a587af)},
    {"test/golden/nav_cup.fxr", 1500, UINT64_C(0x69c7b510574da9d0)},
    {"test/golden/nav_door.fxr", 1200, UINT64_C(0x611f7416c3dfd47f)},
    {"test/golden/nav_maze.fxr", 1200, UINT64_C(0x36d0021d6caf896a)},
    {"test/golden/nav_building.fxr", 1000, UINT64_C(0x657764e508177a39)},
    {"test/golden/nav_unreachable.fxr", 900, UINT64_C(0xac148446a9f63ef9)},
    {"test/golden/nav_pillars.fxr", 900, UINT64_C(0xf4f6261a409259da)},
    {"test/golden/nav_rts.fxr", 1800, UINT64_C(0xa553a0ad8bba3e1d)},
    {"test/golden/nav_crowd.fxr", 700, UINT64_C(0xf2737487ef380854)},
    {"test/golden/nav_formation.fxr", 2000, UINT64_C(0x45a2f9b4316d12fb)},
    {"test/golden/orca_swap.fxr", 2000, UINT64_C(0x1cf6c07ea1c5c897)},
};

// Reads the file into `replay`; SIZE_MAX when it does not fit there.
static size_t load(const char *name) {
  FILE *f = fopen(name, "rb");
  TEST_ASSERT_NOT_NULL_MESSAGE(f, name);
  size_t n = fread(replay, 1, sizeof replay, f);
  fclose(f);
  TEST_ASSERT_TRUE_MESSAGE(n > 0, name);
  return n < sizeof replay ? n : SIZE_MAX;
}

static void verify_golden(const golden *g) {
  size_t size = load(g->file);
  if (size == SIZE_MAX || fxs_replay_verify_memory_size(replay, size, 0) > sizeof memory) {
    if (!SKIP_WHAT_DOES_NOT_FIT) TEST_FAIL_MESSAGE(g->file); // the buffers above are too small
    TEST_IGNORE_MESSAGE("this board's RAM cannot hold the replay and the two worlds to verify it");
  }
  fxs_verify_report rep;
  fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
  TEST_ASSERT_EQUAL_STRING_MESSAGE(fxs_result_message(FXS_OK), fxs_result_message(rep.result),
                                   g->file);
  TEST_ASSERT_EQUAL_UINT32(g->ticks, rep.ticks);
  TEST_ASSERT_EQUAL_HEX64(g->final_hash, rep.final_hash);
}

void test_golden_hunter_prey_verifies(void) { verify_golden(&goldens[0]); }
void test_golden_patrol_verifies(void) { verify_golden(&goldens[1]); }
void test_golden_flock_verifies(void) { verify_golden(&goldens[2]); }
void test_golden_queue_verifies(void) { verify_golden(&goldens[3]); }
void test_golden_leader_verifies(void) { verify_golden(&goldens[4]); }
void test_golden_obstacle_field_verifies(void) { verify_golden(&goldens[5]); }
void test_golden_walker_verifies(void) { verify_golden(&goldens[6]); }
void test_golden_seek_wind_verifies(void) { verify_golden(&goldens[7]); }
void test_golden_orientation_verifies(void) { verify_golden(&goldens[8]); }
void test_golden_obstacle_dense_verifies(void) { verify_golden(&goldens[9]); }
void test_golden_crowd_crossing_verifies(void) { verify_golden(&goldens[10]); }
void test_golden_hide_and_seek_verifies(void) { verify_golden(&goldens[11]); }
void test_golden_flow_field_verifies(void) { verify_golden(&goldens[12]); }
void test_golden_nav_wall_verifies(void) { verify_golden(&goldens[13]); }
void test_golden_nav_cup_verifies(void) { verify_golden(&goldens[14]); }
void test_golden_nav_door_verifies(void) { verify_golden(&goldens[15]); }
void test_golden_nav_maze_verifies(void) { verify_golden(&goldens[16]); }
void test_golden_nav_building_verifies(void) { verify_golden(&goldens[17]); }
void test_golden_nav_unreachable_verifies(void) { verify_golden(&goldens[18]); }
void test_golden_nav_pillars_verifies(void) { verify_golden(&goldens[19]); }
void test_golden_nav_rts_verifies(void) { verify_golden(&goldens[20]); }
void test_golden_nav_crowd_verifies(void) { verify_golden(&goldens[21]); }
void test_golden_nav_formation_verifies(void) { verify_golden(&goldens[22]); }
void test_golden_orca_swap_verifies(void) { verify_golden(&goldens[23]); }

// nav_crowd as simulation version 4 recorded it (1,000 agents in eight field groups; version
// 5 changed how a group's followers rest and wait): a build that still runs version 4
// verifies it by version 4's rules. Stamped with this version instead, the same bytes do not
// reproduce: the rules, not the file, make it verify.
static const golden nav_crowd_v4 = {"test/golden/v4/nav_crowd.fxr", 700,
                                    UINT64_C(0x21229dd72c8f1a42)};

// orca_swap and queue as simulation version 5 recorded them (version 6 brought the crowd side
// rule, which turns orca_swap's head-on meetings, and packed queues, which queue's stop path
// takes): this build verifies them by version 5's rules, and stamped with this version the
// same bytes do not reproduce.
static const golden version_5[] = {
    {"test/golden/v5/orca_swap.fxr", 1600, UINT64_C(0x6840a7cd01b9454c)},
    {"test/golden/v5/queue.fxr", 1500, UINT64_C(0x99098f85d0289b29)},
};

// nav_crowd as simulation version 6 recorded it (version 7's compact goal clusters change how
// its groups rest round their goals): verified by version 6's rules; stamped with this
// version, the same bytes do not reproduce.
static const golden nav_crowd_v6 = {"test/golden/v6/nav_crowd.fxr", 700,
                                    UINT64_C(0x62b913b529395ca2)};

// nav_cup as simulation version 9 recorded it (its twelve agents share a goal in a world without
// group fields: version 10's groups without fields settle them on their cluster's lattice):
// verified by version 9's rules; stamped with this version, the same bytes do not reproduce.
static const golden nav_cup_v9 = {"test/golden/v9/nav_cup.fxr", 1500, UINT64_C(0xbbcd1b6ad8748c58)};

// scenarios/orca_unreachable.yaml as simulation version 10 recorded it (25 ORCA agents whose
// shared target lies inside a closed box; version 11 keeps an agent off its group's lattice
// where a wall hides the goal, so the group comes to rest): verified by version 10's rules;
// stamped with this version, the same bytes do not reproduce.
static const golden orca_unreachable_v10 = {"test/golden/v10/orca_unreachable.fxr", 900,
                                            UINT64_C(0x8854cb488a0f6a14)};

// Sets the header's simulation version (file bytes 28..31) and re-seals the header chunk.
static void stamp_simulation_version(uint32_t version) {
  for (int i = 0; i < 4; ++i) replay[28 + i] = (uint8_t)(version >> (8 * i));
  uint32_t len = (uint32_t)replay[4] | ((uint32_t)replay[5] << 8);
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, replay, 8u + len);
  for (int i = 0; i < 8; ++i) replay[8 + len + (size_t)i] = (uint8_t)(h.state >> (8 * i));
}

void test_a_replay_of_simulation_version_4_verifies_by_its_own_rules(void) {
  TEST_ASSERT_EQUAL_UINT32(4, FXS_SIMULATION_VERSION_OLDEST);
  verify_golden(&nav_crowd_v4);
  fxs_replay_reader r;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, replay, load(nav_crowd_v4.file), false, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(4, r.simulation_version);
}

void test_the_version_4_replay_stamped_as_this_version_diverges(void) {
  size_t size = load(nav_crowd_v4.file);
  if (size == SIZE_MAX || fxs_replay_verify_memory_size(replay, size, 0) > sizeof memory) {
    if (!SKIP_WHAT_DOES_NOT_FIT) TEST_FAIL_MESSAGE(nav_crowd_v4.file);
    TEST_IGNORE_MESSAGE("this board's RAM cannot hold the replay and the two worlds to verify it");
  }
  stamp_simulation_version(FXS_SIMULATION_VERSION);
  fxs_verify_report rep;
  fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
  TEST_ASSERT_TRUE_MESSAGE(fxs_verify_diverged(rep.result), fxs_result_message(rep.result));
  // One older than the oldest version this build runs: refused by name.
  stamp_simulation_version(FXS_SIMULATION_VERSION_OLDEST - 1u);
  fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
  TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION, rep.result);
}

void test_replays_of_simulation_version_5_verify_by_their_own_rules(void) {
  for (size_t i = 0; i < sizeof version_5 / sizeof version_5[0]; ++i) {
    verify_golden(&version_5[i]);
    fxs_replay_reader r;
    size_t size = load(version_5[i].file);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, replay, size, false, 0, 0));
    TEST_ASSERT_EQUAL_UINT32(5, r.simulation_version);
    stamp_simulation_version(FXS_SIMULATION_VERSION);
    fxs_verify_report rep;
    fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
    TEST_ASSERT_TRUE_MESSAGE(fxs_verify_diverged(rep.result), version_5[i].file);
  }
}

// An older version's golden `g`, recorded by simulation `version`: it verifies by that version's
// rules (ignored where the board's RAM cannot hold it), and stamped with this version the same
// bytes diverge.
static void verify_older(const golden *g, uint32_t version) {
  verify_golden(g);
  size_t size = load(g->file);
  fxs_replay_reader r;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, replay, size, false, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(version, r.simulation_version);
  stamp_simulation_version(FXS_SIMULATION_VERSION);
  fxs_verify_report rep;
  fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
  TEST_ASSERT_TRUE_MESSAGE(fxs_verify_diverged(rep.result), fxs_result_message(rep.result));
}

void test_a_replay_of_simulation_version_6_verifies_by_its_own_rules_and_diverges_stamped_7(void) {
  verify_older(&nav_crowd_v6, 6);
}

void test_a_replay_of_simulation_version_9_verifies_by_its_own_rules_and_diverges_stamped_10(void) {
  verify_older(&nav_cup_v9, 9);
}

void test_a_replay_of_simulation_version_10_verifies_by_its_own_rules_and_diverges_stamped_11(
    void) {
  verify_older(&orca_unreachable_v10, 10);
}

void test_a_recorded_hash_one_bit_off_is_reported_at_exactly_its_tick(void) {
  // A peer whose state differed at one tick would have recorded a different hash there:
  // flip one bit of a recorded hash (re-sealing the chunk) and verify must stop at that tick.
  size_t size = load(goldens[1].file);
  fxs_replay_reader r;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, replay, size, true, 0, 0));
  fxs_replay_chunk c;
  for (int i = 0; i <= 300; ++i) TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_next(&r, &c, 0));
  while (c.tag != FXS_CHUNK_TICK) TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_next(&r, &c, 0));
  uint32_t len = (uint32_t)replay[c.offset + 4] | ((uint32_t)replay[c.offset + 5] << 8);
  size_t hash_at = c.offset + 8 + len - 8;
  replay[hash_at] ^= 0x01;
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, replay + c.offset, 8u + len);
  for (int i = 0; i < 8; ++i)
    replay[c.offset + 8 + len + (size_t)i] = (uint8_t)(h.state >> (8 * i));
  fxs_verify_report rep;
  fxs_replay_verify(replay, size, 0, memory, sizeof memory, &rep);
  TEST_ASSERT_EQUAL(FXS_ERR_HASH_MISMATCH, rep.result);
  TEST_ASSERT_EQUAL_UINT32(c.tick, rep.first_bad_tick);
}

void test_every_golden_was_recorded_by_this_simulation_version(void) {
  // A golden re-recorded after a behavior change must come with a bumped simulation version
  // (tools/golden-version-check.sh checks the manifest test/golden/VERSION against them).
  for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; ++i) {
    size_t size = load(goldens[i].file);
    if (size == SIZE_MAX) continue; // too large for this board's buffer (nav_crowd on an MCU)
    fxs_replay_reader r;
    fxs_result e = fxs_replay_open(&r, replay, size, true, 0, 0);
    TEST_ASSERT_EQUAL_STRING_MESSAGE("ok", fxs_result_message(e), goldens[i].file);
    TEST_ASSERT_EQUAL_UINT32_MESSAGE(FXS_REPLAY_VERSION, r.version, goldens[i].file);
    TEST_ASSERT_EQUAL_UINT32_MESSAGE(FXS_SIMULATION_VERSION, r.simulation_version, goldens[i].file);
  }
}
