// Joining a match under way: a player whose process dies comes back and finishes the match in
// step with the others, a spectator arrives mid-match and follows it to the end, and offers
// that lie (a state whose hash the other players do not confirm, frames two peers disagree
// on, a tampered byte) are refused.
#include <string.h>

#include "unity.h"
#include "rng.h"
#include "fingerprint.h"
#include "version.h"
#include "result.h"
#include "world.h"
#include "snapshot.h"
#include "bytes.h"
#include "session.h"
#include "session_packet.h"
#include "session_join.h"
#include "fxs_test_util.h"
#include "fxs_session_harness.h"

void setUp(void) {}
void tearDown(void) {}

static bool h_alive[H_MAX_PEERS];
// How long the others take to notice that a peer died (a time-out), ms: longer than any
// packet's flight, so that what it sent before it died has arrived.
#define H_NOTICE_MS 250u
static uint8_t offer_bytes[H_MAX_PEERS][16384];

// Delivers the packets due by `now` between live peers; a packet to a dead peer is lost, and
// one still in flight from a peer that died may be refused (it left).
static void deliver_alive(uint32_t now) {
  fxs_netsim_packet *pk;
  while ((pk = fxs_netsim_next(&h_net, now)) != 0) {
    if (h_alive[pk->to]) {
      fxs_result r =
          fxs_session_receive(&h_peers[pk->to].session, pk->from, pk->bytes, pk->len, now);
      if (r != FXS_OK)
        TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_ERR_ABSENT), fxs_result_message(r));
    }
    fxs_netsim_release(&h_net, pk);
  }
}

// Offers of every live peer for `joiner`, peer `state`'s with the state.
static uint32_t collect_offers_from(uint32_t peers, uint8_t joiner, uint32_t state,
                                    const uint8_t **offers, size_t *lengths) {
  uint32_t n = 0;
  for (uint8_t q = 0; q < peers; ++q) {
    if (q == joiner || !h_alive[q]) continue;
    const fxs_world *w = q == state ? &h_peers[q].world : 0;
    size_t need = 0;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_session_write_offer(&h_peers[q].session, w, joiner, 0, 0, &need));
    TEST_ASSERT_TRUE(need <= sizeof offer_bytes[q]);
    TEST_ASSERT_EQUAL(FXS_OK,
                      fxs_session_write_offer(&h_peers[q].session, w, joiner, offer_bytes[q],
                                              sizeof offer_bytes[q], &lengths[n]));
    TEST_ASSERT_EQUAL_size_t(need, lengths[n]);
    offers[n++] = offer_bytes[q];
  }
  return n;
}

// Offers of every live peer for `joiner`. The state comes from the live peer that has settled
// the fewest ticks (the lowest such peer), since every other offer must confirm its tick.
static uint32_t collect_offers(uint32_t peers, uint8_t joiner, const uint8_t **offers,
                               size_t *lengths) {
  uint32_t state = peers;
  for (uint8_t q = 0; q < peers; ++q) {
    if (q == joiner || !h_alive[q]) continue;
    if (state == peers || h_peers[q].session.settled < h_peers[state].session.settled) state = q;
  }
  return collect_offers_from(peers, joiner, state, offers, lengths);
}

// A fresh world for peer i (its old one is gone with its process).
static void fresh_world(const h_config *c, uint8_t i) {
  fxs_world_def wd = fxs_default_world_def();
  wd.seed = c->seed;
  memset(h_world_memory[i], 0xA5, sizeof h_world_memory[i]); // junk, not zeros
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&h_peers[i].world, &wd, &h_capacity, h_world_memory[i],
                                           sizeof h_world_memory[i]));
}

// Peer `joiner` joins now from the others' offers; the others take it back.
static uint32_t join(const h_config *c, uint32_t peers, uint8_t joiner) {
  const uint8_t *offers[H_MAX_PEERS];
  size_t lengths[H_MAX_PEERS];
  uint32_t n = collect_offers(peers, joiner, offers, lengths);
  fresh_world(c, joiner);
  fxs_session_def d = h_session_def(c, joiner);
  d.before_step = h_flip;
  d.hook_user = &h_peers[joiner];
  memset(h_session_memory[joiner], 0x5A, sizeof h_session_memory[joiner]);
  fxs_session_join_error e;
  fxs_result r = fxs_session_join(&h_peers[joiner].session, &d, h_session_memory[joiner],
                                  sizeof h_session_memory[joiner], &h_peers[joiner].world, offers,
                                  lengths, n, &e);
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_OK), fxs_result_message(r));
  uint32_t at = h_peers[joiner].session.joined_at;
  for (uint8_t q = 0; q < peers; ++q) {
    if (q != joiner && h_alive[q])
      TEST_ASSERT_EQUAL(FXS_OK, fxs_session_readmit(&h_peers[q].session, joiner, at));
  }
  h_alive[joiner] = true;
  return at;
}

// Plays the match; `leaver` (or -1) dies when its world reaches `leave_tick` and comes back
// `away_ms` later; spectators marked late arrive when player 0 reaches `arrive_tick`.
static uint32_t play(const h_config *c, int leaver, uint32_t leave_tick, uint32_t away_ms,
                     uint32_t late_spectators, uint32_t arrive_tick) {
  uint32_t peers = (uint32_t)c->players + c->spectators, died_at = 0, joined_tick = 0;
  bool noticed = false;
  h_now = c;
  for (uint8_t i = 0; i < peers; ++i) {
    h_setup_peer(c, i);
    h_alive[i] = !(late_spectators >> i & 1u);
  }
  for (uint8_t i = 0; i < peers; ++i) {
    for (uint8_t q = 0; q < peers; ++q) {
      if (h_alive[i] && !h_alive[q]) fxs_session_peer_left(&h_peers[i].session, q);
    }
  }
  fxs_netsim_init(&h_net, &c->net, c->seed * 7u + 1u);
  uint32_t now = 0, limit = c->ticks * H_TICK_MS * 4u + 30000u;
  for (; now < limit; now += H_STEP_MS) {
    bool all = true;
    for (uint32_t i = 0; i < peers; ++i)
      all = all && h_alive[i] && fxs_session_complete(&h_peers[i].session);
    if (all) break;
    deliver_alive(now);
    for (uint8_t i = 0; i < peers; ++i) {
      if (h_alive[i]) h_frame(c, &h_peers[i], now);
    }
    if (leaver >= 0 && h_alive[leaver] && !died_at && h_peers[leaver].world.tick >= leave_tick) {
      h_alive[leaver] = false;
      died_at = now;
    }
    // The others notice the death a time-out later, once what it sent before has arrived.
    if (leaver >= 0 && died_at && !noticed && now >= died_at + H_NOTICE_MS) {
      noticed = true;
      for (uint8_t q = 0; q < peers; ++q) {
        if (h_alive[q])
          TEST_ASSERT_EQUAL(FXS_OK, fxs_session_peer_left(&h_peers[q].session, (uint8_t)leaver));
      }
    }
    if (leaver >= 0 && !h_alive[leaver] && died_at && now >= died_at + away_ms) {
      joined_tick = join(c, peers, (uint8_t)leaver);
      h_peers[leaver].next_tick_ms = now;
    }
    for (uint8_t i = 0; i < peers; ++i) {
      if ((late_spectators >> i & 1u) && !h_alive[i] && h_peers[0].world.tick >= arrive_tick) {
        joined_tick = join(c, peers, i);
        h_peers[i].next_tick_ms = now;
      }
    }
  }
  for (uint32_t i = 0; i < peers; ++i) {
    TEST_ASSERT_TRUE_MESSAGE(fxs_session_complete(&h_peers[i].session), "the match did not finish");
    TEST_ASSERT_EQUAL_UINT32(c->ticks, h_peers[i].world.tick);
  }
  return joined_tick;
}

void test_a_player_whose_process_dies_comes_back_and_ends_where_the_offline_run_ends(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(40, 20, 50);
  uint32_t at = play(&c, 2, 300, 1500, 0, 0);
  TEST_ASSERT_TRUE(at >= 280 && at <= 310);
  h_expect_agreement(&c);
  // From its return on, every tick was compared between every pair.
  for (uint32_t i = 0; i < 3; ++i)
    for (uint32_t q = 0; q < 3; ++q)
      if (q != i) TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[i].session.peers[q].hashes_compared);
}

void test_a_readmitted_peer_is_silent_only_since_its_return(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.ticks = 200;
  h_run(&c);
  fxs_session *s = &h_peers[0].session;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_peer_left(s, 2));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_readmit(s, 2, s->settled));
  uint32_t back = h_end_ms + 5000;
  (void)fxs_session_advance(s, &h_peers[0].world, back);
  fxs_session_wait w;
  fxs_session_wait_info(s, back + 30, &w);
  TEST_ASSERT_EQUAL_UINT32(30, w.silent_ms[2]);
}

void test_a_rollback_player_comes_back_the_same_way(void) {
  h_config c = h_default_config(3, FXS_SESSION_ROLLBACK);
  c.net = h_net_config(60, 30, 50);
  play(&c, 1, 400, 800, 0, 0);
  h_expect_agreement(&c);
}

void test_a_spectator_arrives_at_tick_500_and_follows_to_the_end(void) {
  h_config c = h_default_config(2, FXS_SESSION_LOCKSTEP);
  c.spectators = 1;
  c.net = h_net_config(30, 10, 20);
  uint32_t at = play(&c, -1, 0, 0, 1u << 2, 500);
  TEST_ASSERT_TRUE(at >= 490 && at <= 510);
  h_expect_agreement(&c);
  TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[0].session.peers[2].hashes_compared);
  TEST_ASSERT_EQUAL_UINT32(c.ticks, h_peers[2].session.peers[1].hashes_compared);
}

void test_a_desync_after_a_return_is_still_found(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.net = h_net_config(20, 10, 0);
  c.desync_peer = 2;
  c.desync_tick = 600;
  play(&c, 2, 300, 500, 0, 0);
  h_expect_desync(&c);
}

// ------------------------------------------------------------------ offers that lie

static const uint8_t *lies[H_MAX_PEERS];
static size_t lie_lengths[H_MAX_PEERS];
static uint32_t lie_count;
static h_config lie_config;

// Three players play to tick 200, then player 2 leaves and the others write their offers.
static void offers_at_200(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  TEST_ASSERT_EQUAL_UINT32(2, lie_count);
}

static fxs_session_join_error try_join(void) {
  fresh_world(&lie_config, 2);
  fxs_session_def d = h_session_def(&lie_config, 2);
  fxs_session_join_error e;
  fxs_session_join(&h_peers[2].session, &d, h_session_memory[2], sizeof h_session_memory[2],
                   &h_peers[2].world, lies, lie_lengths, lie_count, &e);
  return e;
}

void test_honest_offers_are_taken(void) {
  offers_at_200();
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL(FXS_OK, e.result);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&h_peers[0].world), fxs_world_hash(&h_peers[2].world));
}

// Rewrites an offer's checksum after a deliberate change.
static void reseal_offer(uint8_t *b, size_t len) {
  uint32_t sum = fxs_session_checksum(b, len - 4);
  for (int i = 0; i < 4; ++i) b[len - 4 + i] = (uint8_t)(sum >> (8 * i));
}

void test_a_state_that_does_not_restore_is_refused_and_named(void) {
  offers_at_200();
  // The last byte before the checksum belongs to the state: change it, keep the checksum right.
  offer_bytes[0][lie_lengths[0] - 5] ^= 0x80;
  reseal_offer(offer_bytes[0], lie_lengths[0]);
  fxs_session_join_error e = try_join();
  TEST_ASSERT_NOT_EQUAL(FXS_OK, e.result);
  TEST_ASSERT_EQUAL_UINT32(0, e.offer);
  TEST_ASSERT_TRUE(e.offset >= 40 && e.offset < lie_lengths[0]);
}

void test_a_forged_state_with_its_own_hash_is_refused_when_the_other_player_disagrees(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  // Player 0 forges: its world moved by one bit, and its own hash of tick 199 made to match.
  fxs_session *s0 = &h_peers[0].session;
  h_peers[0].world.agents[0].body.position.x ^= 1;
  s0->hashes[fxs_session_slot(s0, 0, 199)] = fxs_world_hash(&h_peers[0].world);
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_ERR_HASH_MISMATCH), fxs_result_message(e.result));
  TEST_ASSERT_EQUAL_UINT32(1, e.offer); // player 1's hash of tick 199 refutes it
}

void test_a_state_confirmed_by_its_sender_alone_is_refused_when_another_player_disagrees(void) {
  offers_at_200();
  // Player 1's hash of tick 199 (the last of its hashes) changed: the state is not confirmed.
  uint8_t *o = offer_bytes[1];
  uint32_t count = fxs_load_le16(o + 24);
  TEST_ASSERT_TRUE(count > 0);
  o[40 + 8 * (count - 1)] ^= 1;
  reseal_offer(o, lie_lengths[1]);
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL(FXS_ERR_HASH_MISMATCH, e.result);
  TEST_ASSERT_EQUAL_UINT32(1, e.offer);
  TEST_ASSERT_EQUAL_size_t(40 + 8 * (count - 1), e.offset);
}

void test_an_offer_of_another_simulation_version_or_other_math_is_refused(void) {
  offers_at_200();
  uint8_t *o = offer_bytes[1];
  uint32_t sim = 0;
  uint64_t math = 0;
  TEST_ASSERT_TRUE(fxs_session_sender_build(o, lie_lengths[1], &sim, &math));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, sim);
  TEST_ASSERT_EQUAL_HEX64(fxs_math_fingerprint(), math);
  o[28] = (uint8_t)(FXS_SIMULATION_VERSION + 1u); // the sender's simulation version
  reseal_offer(o, lie_lengths[1]);
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL(FXS_ERR_SIMULATION_VERSION, e.result);
  TEST_ASSERT_EQUAL_UINT32(1, e.offer);
  TEST_ASSERT_EQUAL_size_t(28, e.offset);
  TEST_ASSERT_TRUE(fxs_session_sender_build(o, lie_lengths[1], &sim, &math));
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION + 1u, sim);
  offers_at_200();
  offer_bytes[0][33] ^= 0x10; // the sender's math fingerprint
  reseal_offer(offer_bytes[0], lie_lengths[0]);
  e = try_join();
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_FINGERPRINT, e.result);
  TEST_ASSERT_EQUAL_UINT32(0, e.offer);
  TEST_ASSERT_EQUAL_size_t(32, e.offset);
}

void test_a_tampered_byte_without_a_new_checksum_is_refused(void) {
  offers_at_200();
  offer_bytes[1][30] ^= 0x40;
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_CHECKSUM, e.result);
  TEST_ASSERT_EQUAL_UINT32(1, e.offer);
}

void test_two_states_missing_states_and_offers_for_someone_else_are_refused(void) {
  offers_at_200();
  lies[1] = lies[0], lie_lengths[1] = lie_lengths[0]; // the same sender twice
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_PACKET, try_join().result);
  offers_at_200();
  lies[0] = lies[1], lie_lengths[0] = lie_lengths[1], lie_count = 1; // no state
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_PACKET, try_join().result);
  offers_at_200();
  offer_bytes[1][6] = 1; // written for peer 1
  reseal_offer(offer_bytes[1], lie_lengths[1]);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_PACKET, try_join().result);
}

void test_random_bytes_and_truncations_are_refused_without_a_crash(void) {
  offers_at_200();
  static uint8_t copy[16384];
  size_t len = lie_lengths[1];
  memcpy(copy, offer_bytes[1], len);
  fxs_rng r;
  fxs_rng_seed_stream(&r, 77, 1);
  for (uint32_t k = 0; k < 400; ++k) {
    memcpy(offer_bytes[1], copy, len);
    lie_lengths[1] = k % 2 ? len : fxs_rng_below(&r, (uint32_t)len);
    for (int j = 0; j < 4; ++j)
      offer_bytes[1][fxs_rng_below(&r, (uint32_t)len)] ^= (uint8_t)(1u + fxs_rng_below(&r, 255));
    if (k % 3 == 0) reseal_offer(offer_bytes[1], lie_lengths[1] >= 4 ? lie_lengths[1] : 4);
    fxs_session_join_error e = try_join();
    (void)e; // any refusal, or an acceptance of a change the checks cannot see; never a crash
  }
}

// ------------------------------------------------------------------ forged frames and states

// Peer `forger`'s session claims `count` more input frames of player p, each a despawn of
// agent 0x10001 (+ `variant`): what a hostile peer writes into its offer.
static void forge_frames(uint8_t forger, uint32_t p, uint32_t count, uint32_t variant) {
  fxs_session *s = &h_peers[forger].session;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t t = s->peers[p].received;
    fxs_command *f = fxs_session_frame(s, p, t);
    f[0] = fxs_command_make(FXS_CMD_DESPAWN, (uint8_t)p, 0);
    f[0].agent = 0x10001u + variant;
    s->counts[fxs_session_slot(s, p, t)] = 1;
    s->peers[p].received = t + 1u;
  }
}

// The field of offer i that the join error points at.
static fxs_session_offer_field blamed_field(fxs_session_join_error e) {
  return fxs_session_offer_field_at(lies[e.offer], lie_lengths[e.offer], e.offset);
}

static void expect_frame_blamed(fxs_session_join_error e, uint32_t offer, uint32_t player,
                                uint32_t tick) {
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_ERR_UNCONFIRMED), fxs_result_message(e.result));
  TEST_ASSERT_EQUAL_UINT32(offer, e.offer);
  fxs_session_offer_field f = blamed_field(e);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_FRAME, f.part);
  TEST_ASSERT_EQUAL_UINT8(player, f.player);
  TEST_ASSERT_EQUAL_UINT32(tick, f.tick);
}

void test_frames_of_the_joiner_that_the_state_sender_alone_adds_are_refused_and_named(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  forge_frames(0, 2, 3, 0); // the host adds three frames "of player 2" despawning its agent
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  expect_frame_blamed(try_join(), 0, 2, 200);
}

void test_frames_of_the_joiner_that_another_player_alone_adds_are_refused_and_named(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  forge_frames(1, 2, 1, 0);
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  expect_frame_blamed(try_join(), 1, 2, 200);
}

void test_frames_every_offer_holds_alike_are_taken_for_the_joiner(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  forge_frames(0, 2, 2, 0); // both hold the same two frames: confirmed
  forge_frames(1, 2, 2, 0);
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  TEST_ASSERT_EQUAL(FXS_OK, try_join().result);
  TEST_ASSERT_EQUAL_UINT32(202, h_peers[2].session.peers[2].received);
  TEST_ASSERT_EQUAL_UINT32(0x10001u, fxs_session_frame(&h_peers[2].session, 2, 201)[0].agent);
}

void test_frames_forged_for_a_live_player_are_refused_naming_the_forger(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  forge_frames(0, 1, 2, 0); // frames of player 1 that player 1 itself does not hold
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  expect_frame_blamed(try_join(), 0, 1, 200);
}

void test_a_frame_that_differs_from_its_players_own_blames_the_copy_not_the_player(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  forge_frames(1, 1, 2, 0); // player 1's own two frames
  forge_frames(0, 1, 2, 5); // the host's copy of them, changed
  lie_count = collect_offers(3, 2, lies, lie_lengths);
  expect_frame_blamed(try_join(), 0, 1, 200);
}

void test_a_state_past_what_the_other_offers_confirm_is_refused_as_its_senders(void) {
  lie_config = h_default_config(3, FXS_SESSION_LOCKSTEP);
  lie_config.ticks = 200;
  h_run(&lie_config);
  h_alive[0] = h_alive[1] = true, h_alive[2] = false;
  h_peers[1].session.settled = 197; // player 1 has settled only 197 ticks
  lie_count = collect_offers_from(3, 2, 0, lies, lie_lengths); // player 0 offers tick 200
  fxs_session_join_error e = try_join();
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_ERR_UNCONFIRMED), fxs_result_message(e.result));
  TEST_ASSERT_EQUAL_UINT32(0, e.offer);
  fxs_session_offer_field f = blamed_field(e);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_HEADER, f.part);
  TEST_ASSERT_EQUAL_UINT32(16, f.at); // its settled tick
  // Once player 1 has settled tick 199 too, the same state is taken.
  h_peers[1].session.settled = 200;
  lie_count = collect_offers_from(3, 2, 0, lies, lie_lengths);
  TEST_ASSERT_EQUAL(FXS_OK, try_join().result);
}

void test_a_readmission_of_a_present_peer_or_at_a_wrong_tick_is_refused(void) {
  h_config c = h_default_config(3, FXS_SESSION_LOCKSTEP);
  c.ticks = 200;
  h_run(&c);
  fxs_session *s = &h_peers[0].session;
  uint32_t settled = s->settled, window = s->def.window;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_SEQUENCE, fxs_session_readmit(s, 2, settled)); // it is here
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_peer_left(s, 2));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_SEQUENCE, fxs_session_readmit(s, 2, settled + 1u));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_SEQUENCE, fxs_session_readmit(s, 2, settled + 10u));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_SEQUENCE, fxs_session_readmit(s, 2, settled - window - 1u));
  TEST_ASSERT_TRUE(s->peers[2].absent); // nothing changed
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_readmit(s, 2, settled - 10u));
  TEST_ASSERT_FALSE(s->peers[2].absent);
}

void test_every_field_of_an_offer_is_named(void) {
  offers_at_200();
  const uint8_t *o = lies[1];
  size_t len = lie_lengths[1];
  fxs_session_offer_field f = fxs_session_offer_field_at(o, len, 5);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_HEADER, f.part);
  TEST_ASSERT_EQUAL_UINT32(5, f.at);
  f = fxs_session_offer_field_at(o, len, 40 + 8 * 3 + 2);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_HASH, f.part);
  TEST_ASSERT_EQUAL_UINT32(fxs_load_le32(o + 20) + 3u, f.tick);
  size_t frames = 40 + 8u * fxs_load_le16(o + 24);
  f = fxs_session_offer_field_at(o, len, frames + 1);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_FRAMES, f.part);
  TEST_ASSERT_EQUAL_UINT8(0, f.player);
  f = fxs_session_offer_field_at(o, len, frames + 6); // player 0's first frame
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_FRAME, f.part);
  TEST_ASSERT_EQUAL_UINT32(fxs_load_le32(o + frames), f.tick);
  f = fxs_session_offer_field_at(o, len, len - 2);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_CHECKSUM, f.part);
  f = fxs_session_offer_field_at(lies[0], lie_lengths[0], lie_lengths[0] - 5);
  TEST_ASSERT_EQUAL_UINT8(FXS_OFFER_STATE, f.part);
}
