// Lockstep sessions: matches of 2 to 4 players (and a spectator) over a lossy, jittery,
// duplicating, reordering network end where an offline run of the merged inputs ends; a
// flipped bit is reported at its tick by every peer; every bad packet is refused without
// changing the session.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "rng.h"
#include "hash.h"
#include "fingerprint.h"
#include "version.h"
#include "agent.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "replay.h"
#include "session.h"
#include "session_packet.h"
#include "fxs_test_util.h"
#include "fxs_session_harness.h"

void setUp(void) {}
void tearDown(void) {}

static void report(const char *what, const h_config *c) {
  h_totals t = h_sum((uint32_t)c->players + c->spectators);
  uint32_t links =
      (uint32_t)(c->players + c->spectators) * (uint32_t)(c->players + c->spectators - 1);
  FXS_TEST_REPORT(
      "%s: %u ticks in %u ms, %u stalls, %.1f bytes per tick per link, %u of %u packets lost", what,
      (unsigned)c->ticks, (unsigned)h_end_ms, (unsigned)t.stalls,
      (double)t.bytes / c->ticks / links, (unsigned)h_net.lost, (unsigned)h_net.sent);
}

// ------------------------------------------------------------------ definitions

void test_the_default_definition_is_valid_and_needs_memory(void) {
  fxs_session_def d = fxs_default_session_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_def_check(&d));
  TEST_ASSERT_TRUE(fxs_session_memory_size(&d) > 0);
  d.mode = FXS_SESSION_ROLLBACK;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d)); // needs snapshot_bytes
  d.snapshot_bytes = 1024;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_def_check(&d));
}

void test_definitions_outside_their_ranges_are_refused(void) {
  fxs_session_def base = fxs_default_session_def(), d;
  d = base, d.players = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.players = 9;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.players = 8, d.spectators = 9;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.local = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.delay = 31;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d)); // window 32 leaves no room
  d = base, d.window = 5000;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.max_commands = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.max_commands = 40000; // two players: more than a replay tick holds
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.max_packet_bytes = 100; // 16 commands do not fit
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.mode = 3;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  d = base, d.mode = FXS_SESSION_SYNCTEST, d.snapshot_bytes = 64; // synctest is one player
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_def_check(&d));
  TEST_ASSERT_EQUAL_size_t(0, fxs_session_memory_size(&d));
}

void test_init_refuses_too_little_or_misaligned_memory(void) {
  static uint64_t memory[8192];
  fxs_session s;
  fxs_session_def d = fxs_default_session_def();
  size_t need = fxs_session_memory_size(&d);
  TEST_ASSERT_TRUE(need <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_session_init(&s, &d, memory, need - 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_session_init(&s, &d, (uint8_t *)memory + 4, need));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&s, &d, memory, need));
}

// ------------------------------------------------------------------ matches

void test_two_players_on_a_perfect_network_end_where_the_offline_run_ends(void) {
  h_config c = h_default_config(2, FXS_SESSION_LOCKSTEP);
  h_run(&c);
  h_expect_agreement(&c);
  report("2 players, 0 ms", &c);
}

void test_three_players_under_100_ms_and_10_percent_loss_agree(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(100, 0, 100);
  c.delay = 4;
  h_run(&c);
  h_expect_agreement(&c);
  TEST_ASSERT_TRUE(h_net.lost > 0);
  report("3 players, 100 ms, 10% loss", &c);
}

void test_four_players_under_jitter_loss_duplicates_and_reordering_agree(void) {
  h_config c = h_default_config(4, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(120, 80, 200); // 120-200 ms one way, 20 % loss
  c.net.duplicate_per_mille = 50;
  c.net.reorder_per_mille = 50;
  c.net.reorder_ms = 60;
  c.delay = 6;
  h_run(&c);
  h_expect_agreement(&c);
  TEST_ASSERT_TRUE(h_net.duplicated > 0 && h_net.reordered > 0);
  h_totals t = h_sum(4);
  TEST_ASSERT_TRUE(t.stalls > 0); // 200 ms round trips beyond a 96 ms delay must stall
  report("4 players, 120-200 ms, 20% loss, dup, reorder", &c);
}

void test_corrupted_packets_are_refused_and_the_match_still_agrees(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(30, 30, 100);
  c.net.corrupt_per_mille = 50;
  h_run(&c);
  h_expect_agreement(&c);
  uint32_t rejected = 0;
  for (uint32_t i = 0; i < 3; ++i) {
    for (uint32_t q = 0; q < 3; ++q) rejected += h_peers[i].session.peers[q].packets_rejected;
  }
  TEST_ASSERT_TRUE(h_net.corrupted > 0);
  TEST_ASSERT_EQUAL_UINT32(h_net.corrupted, rejected); // the checksum catches every one
}

void test_a_spectator_follows_the_match_and_compares_hashes(void) {
  h_config c = h_default_config(2, FXS_SESSION_LOCKSTEP);
  c.spectators = 1;
  c.net = h_net_config(40, 20, 100);
  h_run(&c);
  h_expect_agreement(&c);
  TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[2].session.peers[0].hashes_compared);
  TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[0].session.peers[2].hashes_compared);
}

void test_every_peer_writes_the_same_replay_and_it_verifies(void) {
  static uint64_t verify_memory[8192];
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(50, 50, 150);
  c.replays = true;
  h_run(&c);
  h_expect_agreement(&c);
  for (uint32_t i = 1; i < 3; ++i) {
    TEST_ASSERT_EQUAL_size_t(h_peers[0].replay_size, h_peers[i].replay_size);
    TEST_ASSERT_EQUAL_MEMORY(h_replays[0], h_replays[i], h_peers[0].replay_size);
  }
  fxs_verify_report rep;
  FXS_TEST_REPORT("replay %u bytes, verify needs %u", (unsigned)h_peers[0].replay_size,
                  (unsigned)fxs_replay_verify_memory_size(h_replays[0], h_peers[0].replay_size, 0));
  TEST_ASSERT_TRUE(fxs_replay_verify_memory_size(h_replays[0], h_peers[0].replay_size, 0) <=
                   sizeof verify_memory);
  fxs_replay_verify(h_replays[0], h_peers[0].replay_size, 0, verify_memory, sizeof verify_memory,
                    &rep);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, rep.result, fxs_result_message(rep.result));
  TEST_ASSERT_EQUAL_UINT32(c.ticks, rep.ticks);
  TEST_ASSERT_EQUAL_HEX64(h_offline_hash(&c), rep.final_hash);
}

void test_a_flipped_bit_is_reported_at_its_tick_by_every_peer(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(60, 40, 150);
  c.desync_peer = 1;
  c.desync_tick = 300;
  h_run(&c);
  h_expect_desync(&c);
}

void test_a_forged_hash_block_far_ahead_is_refused_and_the_desync_is_still_found(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(30, 20, 50);
  c.desync_peer = 1;
  c.desync_tick = 100;
  c.forge_peer = 1;
  c.forge_tick = 100;
  h_run(&c);
  h_expect_desync(&c);
  for (uint32_t i = 0; i < 3; ++i) {
    // Every tick of the match was compared with every other peer: none was skipped.
    for (uint32_t q = 0; q < 3; ++q) {
      if (q != i) TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[i].session.peers[q].hashes_compared);
    }
  }
}

// ------------------------------------------------------------------ waiting

// Two sessions wired by hand: peer 0 never hears from peer 1.
static fxs_session lone, other;
static fxs_world lone_world, other_world;
static uint64_t lone_memory[8192], other_memory[8192], lone_world_memory[2048],
    other_world_memory[2048];

static void pair(uint16_t delay) {
  fxs_world_def wd = fxs_default_world_def();
  fxs_session_def d = fxs_default_session_def();
  d.delay = delay;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&lone_world, &wd, &h_capacity, lone_world_memory,
                                           sizeof lone_world_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other_world, &wd, &h_capacity, other_world_memory,
                                           sizeof other_world_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&lone, &d, lone_memory, sizeof lone_memory));
  d.local = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&other, &d, other_memory, sizeof other_memory));
}

void test_a_session_steps_through_the_delay_then_waits_for_the_missing_player(void) {
  pair(3);
  for (uint32_t t = 0; t < 3; ++t) {
    TEST_ASSERT_TRUE(fxs_session_wants_input(&lone));
    TEST_ASSERT_EQUAL_UINT32(t + 3, fxs_session_input_tick(&lone));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, 100 + t));
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_WAITING, fxs_session_advance(&lone, &lone_world, 200));
  TEST_ASSERT_EQUAL(FXS_ERR_WAITING, fxs_session_advance(&lone, &lone_world, 250));
  fxs_session_wait w;
  fxs_session_wait_info(&lone, 260, &w);
  TEST_ASSERT_TRUE(w.waiting);
  TEST_ASSERT_EQUAL_UINT32(3, w.tick);
  TEST_ASSERT_EQUAL_HEX32(0x2, w.missing);
  TEST_ASSERT_EQUAL_UINT32(200, w.since_ms);
  TEST_ASSERT_EQUAL_UINT32(60, w.waited_ms);
  TEST_ASSERT_EQUAL_UINT32(160, w.silent_ms[1]); // never heard since the clock started at 100
  TEST_ASSERT_EQUAL_UINT32(3, lone_world.tick);
}

void test_the_wait_ends_when_the_input_arrives_and_counts_as_a_stall(void) {
  pair(1);
  uint8_t buf[1200];
  size_t len = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, 0)); // tick 0: inside the delay
  TEST_ASSERT_EQUAL(FXS_ERR_WAITING, fxs_session_advance(&lone, &lone_world, 10));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, 0, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&other, 0, 30, buf, sizeof buf, &len));
  TEST_ASSERT_TRUE(len > 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, buf, len, 35));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, 40));
  TEST_ASSERT_EQUAL_UINT32(1, lone.stats.stalls);
  TEST_ASSERT_EQUAL_UINT32(30, lone.stats.stall_ms);
  TEST_ASSERT_FALSE(lone.waiting);
}

void test_submit_refuses_input_out_of_turn_and_too_many_commands(void) {
  pair(1);
  fxs_command many[17];
  memset(many, 0, sizeof many);
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_session_submit(&lone, many, 17));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, many, 1)); // tick 1 = current + delay
  TEST_ASSERT_FALSE(fxs_session_wants_input(&lone));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_SEQUENCE, fxs_session_submit(&lone, many, 0));
}

void test_submitted_commands_take_the_player_as_source_and_their_position_as_sequence(void) {
  pair(0);
  fxs_command c[2];
  fxs_spawn_def s = fxs_default_spawn_def();
  c[0] = fxs_command_spawn(&s);
  c[1] = fxs_command_spawn(&s);
  c[0].source = 9, c[0].sequence = 77, c[1].sequence = 5;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, c, 2));
  const fxs_command *stored = fxs_session_frame(&other, 1, 0);
  TEST_ASSERT_EQUAL_UINT8(1, stored[0].source);
  TEST_ASSERT_EQUAL_UINT16(0, stored[0].sequence);
  TEST_ASSERT_EQUAL_UINT8(1, stored[1].source);
  TEST_ASSERT_EQUAL_UINT16(1, stored[1].sequence);
}

// Delivers whatever each of the pair has to send to the other.
static void exchange(uint32_t now) {
  static uint8_t buf[1200];
  size_t len = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&lone, 1, now, buf, sizeof buf, &len));
  if (len) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&other, 0, buf, len, now));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&other, 0, now, buf, sizeof buf, &len));
  if (len) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, buf, len, now));
}

// Both submit (player 0 `mine` commands, player 1 `theirs`), exchange and step one tick.
static void both_step(const fxs_command *mine, uint32_t n0, const fxs_command *theirs, uint32_t n1,
                      uint32_t now) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, mine, n0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, theirs, n1));
  exchange(now);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&lone, &lone_world, now));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&other, &other_world, now));
}

void test_a_player_cannot_command_another_players_agent_and_both_peers_report_it(void) {
  pair(0);
  fxs_spawn_def sd = fxs_default_spawn_def();
  sd.owned = 1;
  fxs_command spawn = fxs_command_spawn(&sd);
  fxs_agent_handle h;
  TEST_ASSERT_EQUAL_UINT32(1, fxs_world_next_spawn_handles(&lone_world, 1, &h));
  both_step(&spawn, 1, 0, 0, 10); // player 0 spawns an agent it owns
  fxs_command attack[3] = {fxs_command_despawn(h),
                           fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(900), 0)),
                           fxs_command_apply_force(h, fxs_vec2_make(FXS_INT(50), 0))};
  both_step(0, 0, attack, 3, 20); // player 1 tries to despawn, retarget and push it
  both_step(0, 0, 0, 0, 30);
  for (int i = 0; i < 2; ++i) {
    const fxs_session *s = i ? &other : &lone;
    const fxs_world *w = i ? &other_world : &lone_world;
    const fxs_agent *a = fxs_world_agent(w, h);
    TEST_ASSERT_NOT_NULL(a);
    TEST_ASSERT_EQUAL_INT32(0, a->velocity.x); // not pushed, not steered to (900, 0)
    TEST_ASSERT_EQUAL_INT32(0, w->agents[0].target_point.x);
    TEST_ASSERT_EQUAL_UINT32(0, s->stats.refused[0]);
    TEST_ASSERT_EQUAL_UINT32(3, s->stats.refused[1]);
    TEST_ASSERT_TRUE(s->last_refusal.any);
    TEST_ASSERT_EQUAL_UINT32(1, s->last_refusal.tick);
    TEST_ASSERT_EQUAL_UINT8(1, s->last_refusal.player);
    TEST_ASSERT_EQUAL(FXS_ERR_NOT_OWNER, s->last_refusal.result);
    TEST_ASSERT_EQUAL_UINT32(h.value, s->last_refusal.agent);
  }
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&lone_world), fxs_world_hash(&other_world));
  // The owner hands it over: now player 1's commands apply and player 0's are refused.
  fxs_command give = fxs_command_set_owner(h, 1);
  both_step(&give, 1, 0, 0, 40);
  both_step(attack, 1, attack, 1, 50); // both despawn it: player 0's is refused first
  TEST_ASSERT_NULL(fxs_world_agent(&lone_world, h));
  TEST_ASSERT_EQUAL_UINT32(1, lone.stats.refused[0]);
  TEST_ASSERT_EQUAL_UINT8(0, lone.last_refusal.player);
}

// ------------------------------------------------------------------ progress bound

void test_a_peer_that_sends_one_input_just_before_each_time_out_is_stopped_by_the_progress_bound(
    void) {
  pair(1);
  lone.def.progress_window_ms = 2000; // at least 20 ticks in every 2 s
  uint32_t now = 0, ticks_at_stop = 0;
  fxs_result r = FXS_OK;
  for (; now < 60000 && r != FXS_ERR_STALLED; now += 10) {
    if (fxs_session_wants_input(&lone)) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
    if (now % 900 == 0 && fxs_session_wants_input(&other)) { // one input every 900 ms
      TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, 0, 0));
      exchange(now);
    }
    r = fxs_session_advance(&lone, &lone_world, now);
    if (r == FXS_OK) ticks_at_stop++;
    TEST_ASSERT_TRUE(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_STALLED);
    (void)fxs_session_advance(&other, &other_world, now);
  }
  TEST_ASSERT_EQUAL(FXS_ERR_STALLED, r);
  TEST_ASSERT_EQUAL_UINT32(2000, now - 10); // the first window ends with 3 ticks, not 20
  TEST_ASSERT_EQUAL_HEX32(0x2, lone.stalled_peers);
  TEST_ASSERT_EQUAL(FXS_ERR_STALLED, fxs_session_advance(&lone, &lone_world, now));
  TEST_ASSERT_FALSE(fxs_session_wants_input(&lone));
  TEST_ASSERT_TRUE(ticks_at_stop < 20);
}

void test_a_pause_the_caller_excuses_is_not_blamed_on_the_peer(void) {
  pair(1);
  lone.def.progress_window_ms = 2000;
  fxs_result r = FXS_OK;
  for (uint32_t now = 0; now < 10000; now += 10) { // the other player sends nothing at all
    if (fxs_session_wants_input(&lone)) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
    fxs_session_restart_progress(&lone, now);
    r = fxs_session_advance(&lone, &lone_world, now);
    TEST_ASSERT_TRUE(r == FXS_OK || r == FXS_ERR_WAITING);
  }
  // Once the caller stops excusing it, the bound applies again.
  for (uint32_t now = 10000; now <= 12000 && r != FXS_ERR_STALLED; now += 10)
    r = fxs_session_advance(&lone, &lone_world, now);
  TEST_ASSERT_EQUAL(FXS_ERR_STALLED, r);
}

void test_a_match_that_keeps_the_progress_floor_is_never_stopped(void) {
  pair(1);
  lone.def.progress_window_ms = 1000;
  lone.def.progress_min_ticks = 20;
  uint32_t now = 0;
  for (; now < 20000; now += 10) { // one tick every 40 ms: 25 per window
    if (now % 40) continue;
    if (fxs_session_wants_input(&lone)) TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&lone, 0, 0));
    if (fxs_session_wants_input(&other))
      TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, 0, 0));
    exchange(now);
    fxs_result r = fxs_session_advance(&lone, &lone_world, now);
    TEST_ASSERT_TRUE_MESSAGE(r == FXS_OK || r == FXS_ERR_WAITING, fxs_result_message(r));
    (void)fxs_session_advance(&other, &other_world, now);
  }
  TEST_ASSERT_TRUE(lone.settled >= 480);
  TEST_ASSERT_EQUAL(FXS_OK, lone.error);
}

// ------------------------------------------------------------------ bad packets

static uint8_t good[1200];
static size_t good_len;

// A packet from peer 1 to peer 0: input frames of ticks 2 (3 spawns of 19 bytes: type,
// field mask, 4 fields) at byte 56 and 3 (1 spawn) at byte 115, the state hash of tick 0 at
// byte 136, the checksum at 144.
static void make_good_packet(void) {
  pair(2);
  fxs_command c[3];
  fxs_spawn_def s = fxs_default_spawn_def();
  for (int i = 0; i < 3; ++i) c[i] = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, c, 3));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_advance(&other, &other_world, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&other, c, 1));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(&other, 0, 0, good, sizeof good, &good_len));
  TEST_ASSERT_EQUAL_size_t(FXS_SESSION_MIN_PACKET + 2 + 3 * 19 + 2 + 19 + 8, good_len);
}

// Feeds a changed copy of the good packet and expects `expected` and an unchanged session.
static void expect_refused(fxs_result expected, const uint8_t *bytes, size_t len) {
  static fxs_session before;
  static uint64_t memory_before[8192];
  before = lone;
  memcpy(memory_before, lone_memory, sizeof lone_memory);
  fxs_result r = fxs_session_receive(&lone, 1, bytes, len, 5);
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(expected), fxs_result_message(r));
  TEST_ASSERT_EQUAL_MEMORY(lone_memory, memory_before, sizeof lone_memory);
  TEST_ASSERT_EQUAL_UINT32(before.peers[1].received, lone.peers[1].received);
  TEST_ASSERT_EQUAL_UINT32(before.peers[1].packets_rejected + 1, lone.peers[1].packets_rejected);
  TEST_ASSERT_EQUAL_UINT32(before.peers[1].acked_inputs, lone.peers[1].acked_inputs);
  TEST_ASSERT_FALSE(lone.peers[1].heard);
}

void test_the_good_packet_is_taken(void) {
  make_good_packet();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, good, good_len, 5));
  TEST_ASSERT_EQUAL_UINT32(4, lone.peers[1].received);
  TEST_ASSERT_EQUAL_UINT16(3, lone.counts[fxs_session_slot(&lone, 1, 2)]);
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_session_receive(&lone, 1, good, good_len, 6)); // a duplicate is harmless
  TEST_ASSERT_EQUAL_UINT32(4, lone.peers[1].received);
}

void test_a_hash_block_that_starts_past_our_next_hash_is_refused(void) {
  static uint8_t b[1200];
  make_good_packet();
  memcpy(b, good, good_len), b[32] = 1, h_reseal(b, good_len); // tick 0's hash sent as tick 1's
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len);
  memcpy(b, good, good_len), b[16] = 0, h_reseal(b, good_len); // a sender at tick 0 has no hash
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len);
}

void test_truncated_packets_are_refused(void) {
  make_good_packet();
  expect_refused(FXS_ERR_TRUNCATED, good, 0);
  expect_refused(FXS_ERR_TRUNCATED, good, FXS_SESSION_MIN_PACKET - 1);
  expect_refused(FXS_ERR_TRUNCATED, good, good_len - 1);
  expect_refused(FXS_ERR_TRUNCATED, good, good_len / 2);
}

void test_wrong_magic_version_and_session_are_refused(void) {
  static uint8_t b[1200];
  make_good_packet();
  memcpy(b, good, good_len), b[0] ^= 1;
  expect_refused(FXS_ERR_BAD_MAGIC, b, good_len);
  // Version 1 (the state hash v2) and 4 (unknown): refused, and the version is readable
  // for naming it.
  TEST_ASSERT_EQUAL_UINT32(FXS_SESSION_PACKET_VERSION, fxs_session_packet_version(good, good_len));
  memcpy(b, good, good_len), b[4] = 1, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_VERSION, b, good_len);
  TEST_ASSERT_EQUAL_UINT32(1, fxs_session_packet_version(b, good_len));
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V2, fxs_session_packet_hash_version(1));
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3,
                           fxs_session_packet_hash_version(FXS_SESSION_PACKET_VERSION));
  TEST_ASSERT_EQUAL_UINT32(FXS_STATE_HASH_V3, fxs_session_packet_hash_version(2));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_session_packet_hash_version(4));
  memcpy(b, good, good_len), b[4] = 4, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_VERSION, b, good_len);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_session_packet_version(b, 4));
  memcpy(b, good, good_len), b[8] ^= 1, h_reseal(b, good_len);
  expect_refused(FXS_ERR_WRONG_SESSION, b, good_len);
  memcpy(b, good, good_len), b[60] ^= 0x10;
  expect_refused(FXS_ERR_BAD_CHECKSUM, b, good_len);
}

void test_a_peer_of_another_simulation_version_or_other_math_is_refused(void) {
  static uint8_t b[1200];
  make_good_packet();
  uint32_t sim = 0;
  uint64_t math = 0;
  TEST_ASSERT_TRUE(fxs_session_sender_build(good, good_len, &sim, &math));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, sim);
  TEST_ASSERT_EQUAL_HEX64(fxs_math_fingerprint(), math);
  // The sender's simulation version (bytes 44..47) one higher, the checksum kept right.
  memcpy(b, good, good_len), b[44] = (uint8_t)(FXS_SIMULATION_VERSION + 1u), h_reseal(b, good_len);
  expect_refused(FXS_ERR_SIMULATION_VERSION, b, good_len);
  TEST_ASSERT_TRUE(fxs_session_sender_build(b, good_len, &sim, &math));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION + 1u, sim);
  // Its math fingerprint (bytes 48..55) changed.
  memcpy(b, good, good_len), b[50] ^= 0x04, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_FINGERPRINT, b, good_len);
  // A packet of layout 2 has no build to name.
  memcpy(b, good, good_len), b[4] = 2;
  TEST_ASSERT_FALSE(fxs_session_sender_build(b, good_len, &sim, &math));
  TEST_ASSERT_FALSE(fxs_session_sender_build(b, 8, &sim, &math));
}

void test_wrong_sender_receiver_flags_and_lengths_are_refused(void) {
  static uint8_t b[1300];
  make_good_packet();
  memcpy(b, good, good_len), b[5] = 0, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_PACKET, b, good_len); // claims to come from us
  memcpy(b, good, good_len), b[6] = 1, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_PACKET, b, good_len);
  memcpy(b, good, good_len), b[7] = 0x80, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_PACKET, b, good_len);
  memcpy(b, good, good_len), b[12] -= 1, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_LENGTH, b, good_len);
  memcpy(b, good, good_len), memset(b + good_len, 0, 8), b[12] += 8, h_reseal(b, good_len + 8);
  expect_refused(FXS_ERR_BAD_LENGTH, b, good_len + 8); // 8 stray bytes: one hash the count omits
  memcpy(b, good, good_len), b[15] = 2, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_LENGTH, b, good_len); // two hashes announced, one present
}

void test_huge_counts_are_refused_by_the_limits(void) {
  static uint8_t b[1200];
  make_good_packet();
  memcpy(b, good, good_len), b[14] = 255, h_reseal(b, good_len);
  expect_refused(FXS_ERR_LIMIT, b, good_len); // 255 frames > max_packet_inputs
  memcpy(b, good, good_len), b[15] = 255, h_reseal(b, good_len);
  expect_refused(FXS_ERR_LIMIT, b, good_len);
  memcpy(b, good, good_len), b[56] = 0xFF, b[57] = 0xFF, h_reseal(b, good_len);
  expect_refused(FXS_ERR_LIMIT, b, good_len); // 65535 commands in a frame
  memcpy(b, good, good_len), b[15] = 0, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_LENGTH, b, good_len); // 8 bytes left over: the hash not announced
  memcpy(b, good, 135), b[12] = 139, b[15] = 0, h_reseal(b, 139);
  expect_refused(FXS_ERR_BAD_LENGTH, b, 139); // ends inside the last command
}

void test_bad_commands_and_impossible_sequences_are_refused(void) {
  static uint8_t b[1200];
  make_good_packet();
  memcpy(b, good, good_len), b[58] = 200, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_COMMAND, b, good_len);
  memcpy(b, good, good_len), b[60] |= 0x80, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_PACKET, b, good_len); // a field mask naming fields that do not exist
  memcpy(b, good, good_len), b[28] = 3, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len); // starts past our first missing tick
  memcpy(b, good, good_len), b[20] = 9, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len); // acknowledges inputs we never sent
  memcpy(b, good, good_len), b[24] = 1, h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len); // acknowledges a hash we never had
  memcpy(b, good, good_len), memset(b + 28, 0xFF, 4), h_reseal(b, good_len);
  expect_refused(FXS_ERR_BAD_SEQUENCE, b, good_len); // tick counter overflow
}

void test_a_spectator_cannot_send_inputs(void) {
  static uint64_t memory[8192];
  static uint8_t b[1200];
  fxs_session s;
  fxs_session_def d = fxs_default_session_def();
  d.spectators = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&s, &d, memory, sizeof memory));
  make_good_packet();
  memcpy(b, good, good_len), b[5] = 2, h_reseal(b, good_len);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_PACKET, fxs_session_receive(&s, 2, b, good_len, 0));
}

void test_random_bytes_are_refused_and_change_nothing(void) {
  static uint8_t b[1200];
  fxs_rng r;
  fxs_rng_seed(&r, 99);
  make_good_packet();
  for (int i = 0; i < 3000; ++i) {
    size_t len = fxs_rng_below(&r, 1200);
    for (size_t k = 0; k < len; ++k) b[k] = (uint8_t)fxs_rng_next(&r);
    if (i % 3 == 0 && len >= 4) memcpy(b, good, 4);    // past the magic
    if (i % 3 == 1 && len >= FXS_SESSION_MIN_PACKET) { // a valid header over random bytes
      memcpy(b, good, FXS_SESSION_HEADER_BYTES);
      b[12] = (uint8_t)len, b[13] = (uint8_t)(len >> 8);
      h_reseal(b, len);
    }
    fxs_result res = fxs_session_receive(&lone, 1, b, len, 5);
    TEST_ASSERT_NOT_EQUAL(FXS_OK, res);
  }
  TEST_ASSERT_EQUAL_UINT32(2, lone.peers[1].received);
  TEST_ASSERT_EQUAL_UINT32(3000, lone.peers[1].packets_rejected);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&lone, 1, good, good_len, 5)); // still works
  TEST_ASSERT_EQUAL_UINT32(4, lone.peers[1].received);
}
