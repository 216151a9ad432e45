#include <string.h>

#include "unity.h"

#include "hash.h"
#include "version.h"
#include "behavior.h"
#include "behavior_params.h"
#include "result.h"
#include "command.h"
#include "world.h"
#include "snapshot.h"
#include "replay.h"
#include "input_limits.h"

static const fxs_world_capacity cap = {8, 4, 1, 8, 2};
static uint64_t world_memory[4096];
static uint64_t verify_memory[16384];
static uint8_t snapshot_scratch[4096];
static fxs_world world;

typedef struct sink {
  uint8_t data[65536];
  size_t size;
} sink;
static sink out;

static bool append(void *user, const uint8_t *bytes, size_t size) {
  sink *s = (sink *)user;
  if (s->size + size > sizeof s->data) return false;
  memcpy(s->data + s->size, bytes, size);
  s->size += size;
  return true;
}

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, world_memory, sizeof world_memory));
  out.size = 0;
}
void tearDown(void) {}

// Records `ticks` ticks of a small session: spawns on tick 0, retargets every 10 ticks.
// With tamper_tick >= 0, one bit of agent 1's x position is flipped after that tick's step,
// as a faulty peer would: the hashes recorded from then on come from the tampered world.
static void record(int ticks, uint32_t keyframe_interval, int tamper_tick) {
  fxs_replay_writer w;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_begin(&w, append, &out, &world, keyframe_interval,
                                                    snapshot_scratch, sizeof snapshot_scratch));
  for (int t = 0; t < ticks; ++t) {
    fxs_command cmds[4];
    uint32_t n = 0;
    if (t == 0) {
      for (int i = 0; i < 3; ++i) {
        fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, (uint16_t)i);
        c.arg[0] = FXS_INT(100 * i), c.arg[1] = FXS_INT(50);
        c.arg[4] = FXS_INT(3), c.arg[5] = FXS_RATIO(1, 4), c.arg[6] = FXS_ONE,
        c.arg[7] = FXS_INT(8);
        cmds[n++] = c;
      }
    } else if (t == 1) {
      for (int i = 0; i < 3; ++i) {
        fxs_behavior_slot b =
            fxs_behavior_slot_default(i == 2 ? FXS_BEHAVIOR_WANDER : FXS_BEHAVIOR_ARRIVE);
        fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 1, (uint16_t)i);
        c.agent = fxs_world_handle_at(&world, (uint16_t)i).value;
        c.ref = b.kind;
        c.arg[0] = b.weight;
        for (int k = 0; k < FXS_BEHAVIOR_PARAMS; ++k) c.arg[1 + k] = b.p[k];
        cmds[n++] = c;
      }
    } else if (t % 10 == 0) {
      fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 2, 0);
      c.agent = fxs_world_handle_at(&world, (uint16_t)(t / 10 % 2)).value;
      c.arg[0] = FXS_INT(10 * t), c.arg[1] = FXS_INT(400 - 3 * t);
      cmds[n++] = c;
    }
    fxs_world_step(&world, cmds, n, 0);
    if (t == tamper_tick) world.agents[1].body.position.x ^= 1;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_tick(&w, &world, cmds, n));
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_end(&w, &world));
}

static fxs_verify_report verify(void) {
  fxs_verify_report rep;
  TEST_ASSERT_TRUE(fxs_replay_verify_memory_size(out.data, out.size, 0) <= sizeof verify_memory);
  fxs_replay_verify(out.data, out.size, 0, verify_memory, sizeof verify_memory, &rep);
  return rep;
}

// What fxs_replay_verify_progress told: every call in order.
typedef struct told {
  uint32_t calls, last_ticks;
  size_t last_offset;
  bool in_order; // ticks up by one and offsets rising at every call
} told;

static void tell(void *user, uint32_t ticks, size_t offset) {
  told *t = (told *)user;
  if (ticks != t->last_ticks + 1u || offset <= t->last_offset) t->in_order = false;
  t->calls++, t->last_ticks = ticks, t->last_offset = offset;
}

void test_verify_progress_is_told_after_every_tick_with_the_bytes_read(void) {
  record(120, 50, -1);
  told t = {0, 0, 0, true};
  fxs_verify_report rep;
  fxs_result r = fxs_replay_verify_progress(out.data, out.size, 0, verify_memory,
                                            sizeof verify_memory, &rep, tell, &t);
  TEST_ASSERT_EQUAL(FXS_OK, r);
  TEST_ASSERT_EQUAL_UINT32(120, t.calls);
  TEST_ASSERT_TRUE(t.in_order);
  TEST_ASSERT_EQUAL_UINT32(120, t.last_ticks);
  // The last tick's chunk ends before the END chunk (8 + 12 + 8 bytes).
  TEST_ASSERT_EQUAL_size_t(out.size - 28u, t.last_offset);
  // Same report as without progress.
  fxs_verify_report plain = verify();
  TEST_ASSERT_EQUAL_MEMORY(&plain, &rep, sizeof rep);
}

void test_verify_progress_stops_being_told_at_a_format_error(void) {
  record(60, 0, -1);
  out.size -= 40; // cut inside the last tick chunks
  told t = {0, 0, 0, true};
  fxs_verify_report rep;
  fxs_replay_verify_progress(out.data, out.size, 0, verify_memory, sizeof verify_memory, &rep, tell,
                             &t);
  TEST_ASSERT_NOT_EQUAL(FXS_OK, rep.result);
  TEST_ASSERT_TRUE(t.in_order);
  TEST_ASSERT_EQUAL_UINT32(rep.ticks, t.calls);
  TEST_ASSERT_TRUE(t.calls < 60);
}

void test_a_recorded_session_verifies_tick_by_tick(void) {
  record(200, 50, -1);
  fxs_verify_report rep = verify();
  TEST_ASSERT_EQUAL(FXS_OK, rep.result);
  TEST_ASSERT_EQUAL_UINT32(200, rep.ticks);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), rep.final_hash);
}

void test_a_one_bit_change_is_caught_at_its_tick_with_agent_and_field(void) {
  record(200, 25, 60);
  fxs_verify_report rep = verify();
  TEST_ASSERT_EQUAL(FXS_ERR_HASH_MISMATCH, rep.result);
  TEST_ASSERT_EQUAL_UINT32(60, rep.first_bad_tick);
  TEST_ASSERT_TRUE(rep.has_difference);
  TEST_ASSERT_EQUAL_UINT32(75, rep.difference_tick); // the next keyframe
  TEST_ASSERT_EQUAL_INT32(1, rep.difference.agent);
  TEST_ASSERT_NOT_NULL(rep.difference.field);
  TEST_ASSERT_NOT_EQUAL(rep.difference.a, rep.difference.b);
}

// Offsets of every chunk in the recording.
static int chunk_offsets(size_t *offsets, int max) {
  int n = 0;
  size_t at = 0;
  while (at + 8 <= out.size && n < max) {
    offsets[n++] = at;
    uint32_t len = (uint32_t)out.data[at + 4] | ((uint32_t)out.data[at + 5] << 8) |
                   ((uint32_t)out.data[at + 6] << 16) | ((uint32_t)out.data[at + 7] << 24);
    at += 16u + len;
  }
  return n;
}

void test_truncation_at_every_chunk_boundary_and_inside_chunks_is_reported(void) {
  record(40, 10, -1);
  size_t offsets[128];
  int n = chunk_offsets(offsets, 128);
  size_t full = out.size;
  for (int i = 0; i < n; ++i) {
    for (size_t extra = 0; extra < 24; extra += 7) {
      out.size = offsets[i] + extra;
      if (out.size >= full) continue;
      fxs_verify_report rep;
      fxs_replay_verify(out.data, out.size, 0, verify_memory, sizeof verify_memory, &rep);
      TEST_ASSERT_TRUE_MESSAGE(rep.result == FXS_ERR_TRUNCATED || rep.result == FXS_ERR_BAD_MAGIC,
                               "truncated replay not reported as truncated");
      TEST_ASSERT_TRUE(rep.error_offset <= out.size);
    }
  }
  out.size = full;
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
}

// Recomputes the checksum of the chunk at `at` after a deliberate edit, so that the reader
// gets past the checksum to the field under test.
static void reseal(size_t at) {
  uint32_t len = (uint32_t)out.data[at + 4] | ((uint32_t)out.data[at + 5] << 8) |
                 ((uint32_t)out.data[at + 6] << 16) | ((uint32_t)out.data[at + 7] << 24);
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, out.data + at, 8u + len);
  for (int i = 0; i < 8; ++i) out.data[at + 8 + len + (size_t)i] = (uint8_t)(h.state >> (8 * i));
}

// Rewrites the header as a format from before simulation versions (2 or 3): its 20-byte
// payload ends with the keyframe interval.
static void as_unversioned_format(uint8_t version) {
  out.data[4] = 20;
  out.data[12] = version;
  memmove(out.data + 28, out.data + 32, out.size - 32); // drops the simulation version
  out.size -= 4;
  reseal(0);
}

static fxs_verify_report verify_expecting(fxs_result expected, size_t offset) {
  fxs_verify_report rep;
  fxs_replay_verify(out.data, out.size, 0, verify_memory, sizeof verify_memory, &rep);
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(expected), fxs_result_message(rep.result));
  TEST_ASSERT_EQUAL_UINT32(offset, rep.error_offset);
  return rep;
}

void test_a_flipped_bit_in_any_chunk_fails_its_checksum(void) {
  record(30, 10, -1);
  size_t offsets[64];
  int n = chunk_offsets(offsets, 64);
  for (int i = 0; i < n; ++i) {
    size_t len = (size_t)out.data[offsets[i] + 4] | ((size_t)out.data[offsets[i] + 5] << 8);
    size_t target = offsets[i] + 8 + len / 2; // middle of the payload
    out.data[target] ^= 0x10;
    verify_expecting(FXS_ERR_BAD_CHECKSUM, offsets[i]);
    out.data[target] ^= 0x10;
    out.data[offsets[i] + 8 + len + 3] ^= 0x01; // the checksum itself
    verify_expecting(FXS_ERR_BAD_CHECKSUM, offsets[i]);
    out.data[offsets[i] + 8 + len + 3] ^= 0x01;
  }
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
}

void test_header_fields_give_their_own_errors(void) {
  record(5, 0, -1);
  out.data[0] ^= 0x01;
  verify_expecting(FXS_ERR_BAD_MAGIC, 0);
  out.data[0] ^= 0x01;
  out.data[8] ^= 0x01; // replay magic in the header payload
  reseal(0);
  verify_expecting(FXS_ERR_BAD_MAGIC, 8);
  out.data[8] ^= 0x01;
  out.data[12] = 1; // version 1: replays from before the state hash v2
  reseal(0);
  verify_expecting(FXS_ERR_BAD_VERSION, 12);
  out.data[12] = FXS_REPLAY_VERSION + 1u; // a version from the future
  reseal(0);
  verify_expecting(FXS_ERR_BAD_VERSION, 12);
  out.data[12] = FXS_REPLAY_VERSION;
  out.data[16] ^= 0x80; // fingerprint
  reseal(0);
  verify_expecting(FXS_ERR_BAD_FINGERPRINT, 16);
  out.data[16] ^= 0x80;
  reseal(0);
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
}

void test_a_replay_of_another_simulation_version_is_refused_by_name_not_as_a_divergence(void) {
  record(5, 0, -1);
  fxs_replay_reader r;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, out.data, out.size, true, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, r.simulation_version);
  // The header's simulation version (payload bytes 20..23, file bytes 28..31) one higher.
  out.data[28] = (uint8_t)(FXS_SIMULATION_VERSION + 1u);
  reseal(0);
  verify_expecting(FXS_ERR_SIMULATION_VERSION, 28);
  TEST_ASSERT_FALSE(fxs_verify_diverged(FXS_ERR_SIMULATION_VERSION));
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION,
                    fxs_replay_open(&r, out.data, out.size, true, 0, &at));
  TEST_ASSERT_EQUAL_size_t(28, at);
  // Without the build checks (fixsteer dump) it opens, naming the recording's version.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, out.data, out.size, false, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION + 1u, r.simulation_version);
  TEST_ASSERT_EQUAL_STRING("recorded by another simulation version (behavior differs)",
                           fxs_result_message(FXS_ERR_SIMULATION_VERSION));
}

void test_a_world_steps_by_the_rules_of_a_version_this_build_runs_and_the_replay_says_which(void) {
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, fxs_world_simulation_version(&world));
  TEST_ASSERT_TRUE(FXS_SIMULATION_VERSION_OLDEST <= FXS_SIMULATION_VERSION);
  // Out of the range this build runs: refused, the world left as it was.
  TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION,
                    fxs_world_set_simulation_version(&world, FXS_SIMULATION_VERSION + 1u));
  TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION,
                    fxs_world_set_simulation_version(&world, FXS_SIMULATION_VERSION_OLDEST - 1u));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, fxs_world_simulation_version(&world));
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_set_simulation_version(&world, FXS_SIMULATION_VERSION_OLDEST));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION_OLDEST, fxs_world_simulation_version(&world));
  // The writer stamps the world's version; a reader refuses it unless this is the newest
  // version (fxs_replay_open), and verify takes it and re-simulates by its rules.
  record(20, 0, -1);
  fxs_replay_reader r;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_open(&r, out.data, out.size, false, 0, 0));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION_OLDEST, r.simulation_version);
  if (FXS_SIMULATION_VERSION_OLDEST < FXS_SIMULATION_VERSION) {
    TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION,
                      fxs_replay_open(&r, out.data, out.size, true, 0, 0));
  }
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
  // A restore keeps the setting (it is not in the snapshot).
  size_t n = fxs_world_snapshot_size(&world);
  TEST_ASSERT_TRUE(n <= sizeof snapshot_scratch);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snapshot_scratch, sizeof snapshot_scratch, &n));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&world, snapshot_scratch, n, 0));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION_OLDEST, fxs_world_simulation_version(&world));
  // One below the oldest, in the header: refused by name by verify as well.
  out.data[28] = (uint8_t)(FXS_SIMULATION_VERSION_OLDEST - 1u);
  reseal(0);
  verify_expecting(FXS_ERR_SIMULATION_VERSION, 28);
}

void test_a_header_whose_length_does_not_fit_its_format_is_refused(void) {
  record(5, 0, -1);
  out.data[12] = 3; // format 3's header has 20 bytes, this one 24
  reseal(0);
  verify_expecting(FXS_ERR_BAD_LENGTH, 4);
}

void test_a_replay_is_checked_with_the_state_hash_of_its_own_version(void) {
  TEST_ASSERT_EQUAL_UINT32(4, FXS_REPLAY_VERSION);
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V2, fxs_replay_state_hash_version(2));
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, fxs_replay_state_hash_version(3));
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, fxs_replay_state_hash_version(4));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_replay_state_hash_version(1));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_replay_state_hash_version(5));
  record(5, 0, -1);
  TEST_ASSERT_EQUAL_UINT32(FXS_REPLAY_VERSION,
                           (uint32_t)out.data[12] | ((uint32_t)out.data[13] << 8));
  uint64_t v2 = 0, v3 = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_hash_as(&world, FXS_STATE_HASH_V2, &v2));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_hash_as(&world, FXS_STATE_HASH_V3, &v3));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), v3);
  TEST_ASSERT_NOT_EQUAL(v2, v3);
  uint64_t untouched = 42;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VERSION, fxs_world_hash_as(&world, 1, &untouched));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VERSION, fxs_world_hash_as(&world, 4, &untouched));
  TEST_ASSERT_EQUAL_UINT64(42, untouched);
  fxs_verify_report rep = verify();
  TEST_ASSERT_EQUAL(FXS_OK, rep.result);
  TEST_ASSERT_EQUAL_HEX64(v3, rep.final_hash);
  // The same file as format 3 (a 20-byte header, no simulation version) verifies; labelled
  // format 2, its v3 hashes are not the v2 hashes of the states.
  as_unversioned_format(3);
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
  out.data[12] = 2;
  reseal(0);
  rep = verify();
  TEST_ASSERT_EQUAL(FXS_ERR_HASH_MISMATCH, rep.result);
  TEST_ASSERT_EQUAL_UINT32(0, rep.first_bad_tick);
}

void test_tick_chunks_reject_impossible_lengths_tags_sequences_and_commands(void) {
  record(5, 0, -1);
  size_t offsets[16];
  chunk_offsets(offsets, 16);
  size_t tick1 = offsets[3]; // header, snapshot, tick 0, tick 1
  uint8_t saved[8];
  memcpy(saved, out.data + tick1, 8);
  out.data[tick1 + 7] = 0x7F; // length 2^31: impossible
  verify_expecting(FXS_ERR_BAD_LENGTH, tick1 + 4);
  memcpy(out.data + tick1, saved, 8);
  memcpy(out.data + tick1, "XXXX", 4);
  reseal(tick1);
  verify_expecting(FXS_ERR_BAD_CHUNK, tick1);
  memcpy(out.data + tick1, saved, 4);
  out.data[tick1 + 8] = 9; // tick 9 instead of 1
  reseal(tick1);
  verify_expecting(FXS_ERR_BAD_SEQUENCE, tick1 + 8);
  out.data[tick1 + 8] = 1;
  out.data[tick1 + 12] += 1; // command count that does not match the length
  reseal(tick1);
  verify_expecting(FXS_ERR_BAD_LENGTH, tick1 + 12);
  out.data[tick1 + 12] -= 1;
  out.data[tick1 + 14] = 99; // first command's type
  reseal(tick1);
  verify_expecting(FXS_ERR_BAD_COMMAND, tick1 + 14);
  out.data[tick1 + 14] = FXS_CMD_ADD_BEHAVIOR;
  reseal(tick1);
  TEST_ASSERT_EQUAL(FXS_OK, verify().result);
  out.data[out.size++] = 0; // a byte after END
  verify_expecting(FXS_ERR_BAD_LENGTH, out.size - 1);
}

void test_the_writer_stops_cleanly_when_its_sink_is_full(void) {
  fxs_replay_writer w;
  fxs_world_step(&world, 0, 0, 0);
  out.size = sizeof out.data - 40; // room for the header only
  fxs_result r = fxs_replay_writer_begin(&w, append, &out, &world, 0, snapshot_scratch,
                                         sizeof snapshot_scratch);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, r);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_replay_writer_tick(&w, &world, 0, 0));
}

// ------------------------------------------------------------------ forged replays
// Each forgery below keeps every checksum valid: only the re-simulation can catch it.

static size_t chunk_with_tag(uint32_t tag, int nth) {
  size_t offsets[256];
  int n = chunk_offsets(offsets, 256);
  for (int i = 0; i < n; ++i) {
    const uint8_t *p = out.data + offsets[i];
    uint32_t t =
        (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    if (t == tag && nth-- == 0) return offsets[i];
  }
  TEST_FAIL_MESSAGE("chunk not found");
  return 0;
}

static size_t chunk_size(size_t at) {
  uint32_t len = (uint32_t)out.data[at + 4] | ((uint32_t)out.data[at + 5] << 8) |
                 ((uint32_t)out.data[at + 6] << 16) | ((uint32_t)out.data[at + 7] << 24);
  return 16u + len;
}

void test_a_forged_end_hash_is_a_divergence_at_the_last_tick(void) {
  record(40, 10, -1);
  size_t end = chunk_with_tag(FXS_CHUNK_END, 0);
  out.data[end + 12] ^= 0x01; // a bit of the final hash
  reseal(end);
  fxs_verify_report rep = verify_expecting(FXS_ERR_END_MISMATCH, end);
  TEST_ASSERT_TRUE(fxs_verify_diverged(rep.result));
  TEST_ASSERT_EQUAL_UINT32(39, rep.first_bad_tick);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), rep.actual_hash);
}

void test_a_garbage_keyframe_is_a_divergence_at_its_tick(void) {
  record(40, 10, -1);
  size_t key = chunk_with_tag(FXS_CHUNK_KEYFRAME, 1); // after tick 19
  out.data[key + 8 + 4 + 60] ^= 0x10;
  reseal(key);
  fxs_verify_report rep = verify_expecting(FXS_ERR_KEYFRAME_MISMATCH, key);
  TEST_ASSERT_EQUAL_UINT32(19, rep.first_bad_tick);
}

void test_a_missing_keyframe_breaks_the_promised_cadence(void) {
  record(40, 10, -1);
  size_t key = chunk_with_tag(FXS_CHUNK_KEYFRAME, 2); // after tick 29
  size_t size = chunk_size(key);
  memmove(out.data + key, out.data + key + size, out.size - key - size);
  out.size -= size;
  fxs_verify_report rep =
      verify_expecting(FXS_ERR_KEYFRAME_CADENCE, key); // the TICK that came instead
  TEST_ASSERT_EQUAL_UINT32(29, rep.first_bad_tick);
}

void test_keyframes_off_the_header_cadence_are_a_divergence(void) {
  record(40, 10, -1);
  out.data[8 + 16] = 20; // the header now promises a keyframe every 20 ticks
  reseal(0);
  fxs_verify_report rep =
      verify_expecting(FXS_ERR_KEYFRAME_CADENCE, chunk_with_tag(FXS_CHUNK_KEYFRAME, 0));
  TEST_ASSERT_EQUAL_UINT32(9, rep.first_bad_tick);
}

void test_a_replay_without_ticks_is_refused(void) {
  record(0, 10, -1);
  verify_expecting(FXS_ERR_NO_TICKS, chunk_with_tag(FXS_CHUNK_END, 0));
}

void test_limits_name_the_field_before_anything_is_simulated(void) {
  record(40, 10, -1);
  fxs_limits limits = fxs_default_limits();
  limits.max_agents = 4;
  fxs_verify_report rep;
  TEST_ASSERT_EQUAL_UINT32(0, fxs_replay_verify_memory_size(out.data, out.size, &limits));
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_replay_verify(out.data, out.size, &limits, verify_memory,
                                                     sizeof verify_memory, &rep));
  TEST_ASSERT_EQUAL_STRING("max_agents", rep.limit_error.field);
  TEST_ASSERT_EQUAL_UINT64(4, rep.limit_error.limit);
  TEST_ASSERT_EQUAL_UINT64(8, rep.limit_error.value);
  TEST_ASSERT_EQUAL_UINT32(chunk_with_tag(FXS_CHUNK_SNAPSHOT, 0) + 8 + 35, rep.error_offset);
  TEST_ASSERT_EQUAL_UINT32(0, rep.ticks);
  limits = fxs_default_limits();
  limits.max_ticks = 25;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_replay_verify(out.data, out.size, &limits, verify_memory,
                                                     sizeof verify_memory, &rep));
  TEST_ASSERT_EQUAL_STRING("max_ticks", rep.limit_error.field);
  TEST_ASSERT_EQUAL_UINT32(25, rep.ticks);
  limits = fxs_default_limits();
  limits.max_bytes = out.size - 1;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_replay_verify(out.data, out.size, &limits, verify_memory,
                                                     sizeof verify_memory, &rep));
  TEST_ASSERT_EQUAL_STRING("max_bytes", rep.limit_error.field);
}
