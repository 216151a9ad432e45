// Rollback and synctest sessions: predicted ticks are stepped again when a late input
// differs, the result equals the straight run (and the lockstep replay, byte for byte), the
// prediction never runs past its cap, and synctest finds state that a re-run does not
// reproduce.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "replay.h"
#include "session.h"
#include "fxs_test_util.h"
#include "fxs_session_harness.h"

void setUp(void) {}
void tearDown(void) {}

static uint32_t deepest(uint32_t peers) {
  uint32_t most = 0;
  for (uint32_t i = 0; i < peers; ++i) {
    if (h_peers[i].session.stats.max_rollback > most) most = h_peers[i].session.stats.max_rollback;
  }
  return most;
}

static void report(const char *what, const h_config *c) {
  uint32_t peers = (uint32_t)c->players + c->spectators;
  h_totals t = h_sum(peers);
  uint32_t most = deepest(peers);
  FXS_TEST_REPORT(
      "%s: %u ms, %u rollbacks, %u ticks re-simulated (deepest %u), %u predicted, %u stalls, "
      "%.1f bytes per tick per link",
      what, (unsigned)h_end_ms, (unsigned)t.rollbacks, (unsigned)t.resimulated, (unsigned)most,
      (unsigned)t.predicted, (unsigned)t.stalls,
      (double)t.bytes / c->ticks / (peers * (peers - 1u)));
}

// ------------------------------------------------------------------ matches

void test_two_rollback_players_without_latency_agree_with_the_offline_run(void) {
  h_config c = h_default_config(2, FXS_SESSION_ROLLBACK);
  c.delay = 0;
  h_run(&c);
  h_expect_agreement(&c);
  report("rollback, 2 players, 0 ms, delay 0", &c);
}

void test_three_rollback_players_under_100_ms_and_10_percent_loss_agree(void) {
  h_config c = h_default_config(3, FXS_SESSION_ROLLBACK);
  c.net = h_net_config(100, 0, 100);
  c.delay = 2;
  h_run(&c);
  h_expect_agreement(&c);
  h_totals t = h_sum(3);
  TEST_ASSERT_TRUE(t.rollbacks > 0);
  TEST_ASSERT_TRUE(deepest(3) <= 8);
  report("rollback, 3 players, 100 ms, 10% loss", &c);
}

void test_four_rollback_players_under_200_ms_jitter_and_20_percent_loss_agree(void) {
  h_config c = h_default_config(4, FXS_SESSION_ROLLBACK);
  c.net = h_net_config(120, 80, 200);
  c.net.duplicate_per_mille = 50;
  c.net.reorder_per_mille = 50;
  c.net.reorder_ms = 60;
  c.delay = 3;
  h_run(&c);
  h_expect_agreement(&c);
  h_totals t = h_sum(4);
  TEST_ASSERT_TRUE(t.rollbacks > 0);
  TEST_ASSERT_TRUE(deepest(4) <= 8);
  report("rollback, 4 players, 120-200 ms, 20% loss", &c);
}

void test_a_rollback_match_writes_the_replay_of_the_lockstep_match_byte_for_byte(void) {
  static uint8_t lockstep[H_REPLAY_BYTES];
  static uint64_t verify_memory[8192];
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(40, 40, 100);
  c.replays = true;
  h_run(&c);
  size_t size = h_peers[0].replay_size;
  memcpy(lockstep, h_replays[0], size);
  c.mode = FXS_SESSION_ROLLBACK;
  h_run(&c);
  TEST_ASSERT_TRUE(h_sum(3).rollbacks > 0);
  for (uint32_t i = 0; i < 3; ++i) {
    TEST_ASSERT_EQUAL_size_t(size, h_peers[i].replay_size);
    TEST_ASSERT_EQUAL_MEMORY(lockstep, h_replays[i], size);
  }
  fxs_verify_report rep;
  TEST_ASSERT_TRUE(fxs_replay_verify_memory_size(h_replays[1], size, 0) <= sizeof verify_memory);
  fxs_replay_verify(h_replays[1], size, 0, verify_memory, sizeof verify_memory, &rep);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, rep.result, fxs_result_message(rep.result));
}

void test_a_flipped_bit_in_a_rollback_match_is_reported_at_its_tick_by_every_peer(void) {
  h_config c = h_default_config(3, FXS_SESSION_ROLLBACK);
  c.net = h_net_config(60, 40, 150);
  c.desync_peer = 2;
  c.desync_tick = 450;
  h_run(&c);
  TEST_ASSERT_TRUE(h_sum(3).rollbacks > 0);
  h_expect_desync(&c);
}

// ------------------------------------------------------------------ prediction by hand

void test_a_forged_hash_block_in_a_rollback_match_is_refused_and_the_desync_still_found(void) {
  h_config c = h_default_config(3, FXS_SESSION_ROLLBACK);
  c.net = h_net_config(40, 30, 50);
  c.desync_peer = 2;
  c.desync_tick = 150;
  c.forge_peer = 2;
  c.forge_tick = 150;
  h_run(&c);
  h_expect_desync(&c);
}

static fxs_session lone, other;
static fxs_world lone_world, other_world, straight;
static uint64_t lone_memory[12288], other_memory[12288];
static uint64_t lone_world_memory[2048], other_world_memory[2048], straight_memory[2048];

static void pair(void) {
  fxs_world_def wd = fxs_default_world_def();
  fxs_session_def d = fxs_default_session_def();
  d.mode = FXS_SESSION_ROLLBACK;
  d.snapshot_bytes = H_SNAPSHOT_BYTES;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&lone_world, &wd, &h_capacity, lone_world_memory,
                                           sizeof lone_world_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other_world, &wd, &h_capacity, other_world_memory,
                                           sizeof other_world_memory));
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_world_init(&straight, &wd, &h_capacity, straight_memory, sizeof straight_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&lone, &d, lone_memory, sizeof lone_memory));
  d.local = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&other, &d, other_memory, sizeof other_memory));
}

// Player `p`'s input for tick t in this test: a spawn at tick 2, a target at tick 4, and a
// push at tick 6 for player 1; nothing otherwise.
static uint32_t scripted(uint32_t p, uint32_t t, fxs_command *out) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = fxs_vec2_make(FXS_INT(100 + 50 * (int)p), FXS_INT(80));
  fxs_agent_handle a = {p + 1u};
  if (t == 2) return out[0] = fxs_command_spawn(&s), 1;
  if (t == 4)
    return out[0] = fxs_command_set_target_point(a, fxs_vec2_make(FXS_INT(500), FXS_INT(300))), 1;
  if (t == 6 && p == 1) return out[0] = fxs_command_apply_force(a, fxs_vec2_make(FXS_INT(3), 0)), 1;
  return 0;
}

void test_prediction_stops_at_max_prediction_and_a_late_input_rolls_back_to_its_tick(void) {
  fxs_command cmds[2];
  pair();
  for (uint32_t i = 0; i < 20; ++i) { // peer 0 plays alone: delay (2) + max_prediction (8) ticks
    if (fxs_session_wants_input(&lone)) {
      fxs_session_submit(&lone, cmds, scripted(0, fxs_session_input_tick(&lone), cmds));
    }
    fxs_session_advance(&lone, &lone_world, i);
  }
  TEST_ASSERT_EQUAL_UINT32(10, lone_world.tick);
  TEST_ASSERT_EQUAL_UINT32(8, lone.stats.predicted);
  fxs_session_wait w;
  fxs_session_wait_info(&lone, 20, &w);
  TEST_ASSERT_TRUE(w.waiting);
  TEST_ASSERT_EQUAL_UINT32(2, w.tick);
  TEST_ASSERT_EQUAL_HEX32(0x2, w.missing);
  TEST_ASSERT_EQUAL_UINT32(2, lone.settled); // ticks 0 and 1 carry no input: final at once
  // Peer 1's inputs of ticks 2..9 arrive together.
  for (uint32_t t = 2; t < 10; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, cmds, scripted(1, t, cmds)));
    if (t < 9) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&other, &other_world, 0));
  }
  uint8_t buf[1200];
  size_t len = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&other, 0, 30, buf, sizeof buf, &len));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, buf, len, 31));
  TEST_ASSERT_EQUAL_UINT32(2, lone.rollback_to); // the spawn of tick 2 was predicted away
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, 32));
  TEST_ASSERT_EQUAL_UINT32(1, lone.stats.rollbacks);
  TEST_ASSERT_EQUAL_UINT32(8, lone.stats.resimulated);
  TEST_ASSERT_EQUAL_UINT32(11, lone_world.tick);
  // The straight run of the same inputs.
  for (uint32_t t = 0; t < 11; ++t) {
    fxs_command m[2];
    uint32_t n = 0;
    for (uint32_t p = 0; p < 2; ++p) {
      uint32_t k = scripted(p, t, m + n);
      if (k) m[n].source = (uint8_t)p, m[n].sequence = 0;
      n += k;
    }
    fxs_world_step(&straight, m, n, 0);
  }
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&straight), fxs_world_hash(&lone_world));
  TEST_ASSERT_EQUAL_UINT32(10, lone.settled);
}

void test_a_late_empty_input_confirms_the_prediction_without_a_rollback(void) {
  fxs_command none[1];
  pair();
  for (uint32_t i = 0; i < 6; ++i) {
    if (fxs_session_wants_input(&lone)) fxs_session_submit(&lone, none, 0);
    fxs_session_advance(&lone, &lone_world, i);
  }
  TEST_ASSERT_EQUAL_UINT32(6, lone_world.tick);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, none, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&other, &other_world, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, none, 0));
  uint8_t buf[1200];
  size_t len = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&other, 0, 10, buf, sizeof buf, &len));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, buf, len, 11));
  TEST_ASSERT_EQUAL_UINT32(FXS_SESSION_NO_TICK, lone.rollback_to);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, 12));
  TEST_ASSERT_EQUAL_UINT32(0, lone.stats.rollbacks);
  TEST_ASSERT_EQUAL_UINT32(4, lone.settled); // ticks 0..3: peer 1's inputs up to tick 3 are known
}

void test_a_snapshot_slot_too_small_stops_the_session(void) {
  static uint64_t memory[12288];
  fxs_session s;
  fxs_session_def d = fxs_default_session_def();
  d.mode = FXS_SESSION_ROLLBACK;
  d.snapshot_bytes = 16;
  pair();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&s, &d, memory, sizeof memory));
  fxs_session_submit(&s, 0, 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&s, &lone_world, 0)); // tick 0 settles at once
  fxs_session_submit(&s, 0, 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&s, &lone_world, 1));
  fxs_session_submit(&s, 0, 0);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_session_advance(&s, &lone_world, 2)); // predicted: saved
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_session_advance(&s, &lone_world, 3));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, s.error);
}

// ------------------------------------------------------------------ synctest

void test_synctest_re_simulates_every_tick_and_finds_no_difference(void) {
  static uint64_t verify_memory[8192];
  h_config c = h_default_config(1, FXS_SESSION_SYNCTEST);
  c.replays = true;
  h_run(&c);
  h_expect_agreement(&c);
  const fxs_session *s = &h_peers[0].session;
  TEST_ASSERT_EQUAL_UINT32(c.ticks, s->stats.rollbacks);
  TEST_ASSERT_EQUAL_UINT32(2 * c.ticks - 1, s->stats.resimulated);
  fxs_verify_report rep;
  TEST_ASSERT_TRUE(fxs_replay_verify_memory_size(h_replays[0], h_peers[0].replay_size, 0) <=
                   sizeof verify_memory);
  fxs_replay_verify(h_replays[0], h_peers[0].replay_size, 0, verify_memory, sizeof verify_memory,
                    &rep);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, rep.result, fxs_result_message(rep.result));
}

void test_synctest_reports_a_change_the_re_run_does_not_make_at_its_tick(void) {
  h_config c = h_default_config(1, FXS_SESSION_SYNCTEST);
  c.desync_peer = 0;
  c.desync_tick = 500;
  c.desync_first_only = true;
  h_run(&c);
  const fxs_session_desync *d = fxs_session_desync_report(&h_peers[0].session);
  TEST_ASSERT_NOT_NULL(d);
  TEST_ASSERT_EQUAL_UINT32(500, d->tick);
  TEST_ASSERT_EQUAL_HEX32(0x1, d->peers);
  TEST_ASSERT_NOT_EQUAL(d->local_hash, d->remote_hash[0]);
}
