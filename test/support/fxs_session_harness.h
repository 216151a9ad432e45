// A match of 1 to 4 players (and spectators) for the session tests: every peer has its own
// world and session, they talk through the in-process network of fxs_netsim.h, and each
// player's commands are a pure function of (seed, player, tick), so an offline run of the
// merged inputs gives the state every peer must reach.
#ifndef FXS_SESSION_HARNESS_H
#define FXS_SESSION_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fixsteer/command_build.h"
#include "fixsteer/hash.h"
#include "fixsteer/replay.h"
#include "fixsteer/session.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"
#include "fxs_netsim.h"

#define H_MAX_PEERS 5
#define H_TICK_MS 16 // each peer steps at most one tick per 16 ms of simulated time...
#define H_STEP_MS 4  // ...and runs a frame (receive, submit, advance, send) every 4 ms
#define H_MAX_COMMANDS 6
#define H_SNAPSHOT_BYTES 2048
#define H_REPLAY_BYTES (96 * 1024)
#define H_REPLAY_PEERS 3 // peers that can record a replay

static const fxs_world_capacity h_capacity = {16, 0, 0, 0, 0};

typedef struct h_config {
  uint8_t players, spectators;
  uint8_t mode;            // fxs_session_mode
  uint16_t delay;          // input delay, ticks
  uint16_t max_prediction; // 0: the default
  uint32_t ticks;
  fxs_netsim_config net;
  uint64_t seed;
  int desync_peer;        // -1: none
  uint32_t desync_tick;   // flip a bit of that peer's world before stepping this tick
  bool desync_first_only; // flip only on a first step, not on re-simulation (SYNCTEST check)
  bool replays;           // every peer records a replay
  int forge_peer;         // -1: none; else this peer also sends every other peer one forged
  uint32_t forge_tick;    // packet once it has settled this tick: its hash block moved far
                          // ahead (checksum recomputed); every receiver must refuse it
} h_config;

typedef struct h_peer {
  uint8_t index;
  fxs_world world;
  fxs_session session;
  fxs_replay_writer writer;
  uint32_t next_tick_ms;
  size_t replay_size;
} h_peer;

static h_peer h_peers[H_MAX_PEERS];
static uint64_t h_world_memory[H_MAX_PEERS][2048];
static uint64_t h_session_memory[H_MAX_PEERS][8192];
static uint8_t h_replays[H_REPLAY_PEERS][H_REPLAY_BYTES];
static uint8_t h_scratch[H_MAX_PEERS][H_SNAPSHOT_BYTES];
static fxs_netsim h_net;
static const h_config *h_now;
static uint32_t h_end_ms;

static inline h_config h_default_config(uint8_t players, uint8_t mode) {
  h_config c;
  memset(&c, 0, sizeof c);
  c.players = players;
  c.mode = mode;
  c.delay = 2;
  c.ticks = 1000;
  c.seed = 0x5e55105u + players;
  c.desync_peer = -1;
  c.forge_peer = -1;
  return c;
}

static inline fxs_agent_handle h_agent(uint32_t player, uint32_t k) {
  fxs_agent_handle h = {player * 2u + k + 1u}; // spawned on the first input tick, slot 2p + k
  return h;
}

static inline fxs_vec2 h_point(fxs_rng *r) {
  fix16_t x = (fix16_t)fxs_rng_below(r, 1000u << 16);
  fix16_t y = (fix16_t)fxs_rng_below(r, 1000u << 16);
  return fxs_vec2_make(x, y);
}

// Player p's commands for `tick`: two spawns on its first input tick, arrive behaviors on
// the next, then now and then a new target, a switch between wander and arrive, or a push.
static inline uint32_t h_inputs(const h_config *c, uint32_t p, uint32_t tick, fxs_command *out) {
  uint32_t n = 0;
  if (tick < c->delay || p >= c->players) return 0;
  fxs_rng r;
  fxs_rng_seed_stream(&r, c->seed ^ ((uint64_t)p << 40), tick);
  if (tick == c->delay) {
    for (uint32_t k = 0; k < 2; ++k) {
      fxs_spawn_def s = fxs_default_spawn_def();
      s.position = h_point(&r);
      out[n++] = fxs_command_spawn(&s);
    }
    return n;
  }
  uint32_t k = fxs_rng_below(&r, 2), roll = fxs_rng_below(&r, 100);
  fxs_agent_handle a = h_agent(p, k);
  if (tick == c->delay + 1u || (roll >= 12 && roll < 16)) {
    out[n++] = fxs_command_clear_behaviors(a, FXS_COMBINE_WEIGHTED_SUM);
    out[n++] = fxs_command_add_arrive(a, fxs_default_blend(), FXS_INT(40));
    out[n++] = fxs_command_set_target_point(a, h_point(&r));
  } else if (roll < 12) {
    out[n++] = fxs_command_set_target_point(a, h_point(&r));
  } else if (roll < 18) {
    fxs_wander_def w = fxs_default_wander_def();
    out[n++] = fxs_command_clear_behaviors(a, FXS_COMBINE_WEIGHTED_SUM);
    out[n++] = fxs_command_add_wander(a, fxs_default_blend(), &w);
  } else if (roll < 20) {
    out[n++] = fxs_command_apply_force(a, fxs_vec2_make(FXS_INT(2), -FXS_INT(1)));
  }
  return n;
}

static inline void h_flip(void *user, fxs_world *world, uint32_t tick, bool resimulating) {
  const h_peer *p = (const h_peer *)user;
  if (!h_now || h_now->desync_peer != (int)p->index || tick != h_now->desync_tick) return;
  if (resimulating && h_now->desync_first_only) return;
  world->agents[0].body.position.x ^= 1; // one bit of one agent's state
}

static inline bool h_append(void *user, const uint8_t *bytes, size_t size) {
  h_peer *p = (h_peer *)user;
  if (p->replay_size + size > H_REPLAY_BYTES) return false;
  memcpy(h_replays[p->index] + p->replay_size, bytes, size);
  p->replay_size += size;
  return true;
}

// A simulated network: latency and jitter in ms, loss per mille; no duplicates or reordering.
static inline fxs_netsim_config h_net_config(uint32_t latency, uint32_t jitter, uint32_t loss) {
  fxs_netsim_config n;
  memset(&n, 0, sizeof n);
  n.latency_ms = latency;
  n.jitter_ms = jitter;
  n.loss_per_mille = loss;
  return n;
}

static inline fxs_session_def h_session_def(const h_config *c, uint8_t local) {
  fxs_session_def d = fxs_default_session_def();
  d.mode = c->mode;
  d.players = c->players;
  d.spectators = c->spectators;
  d.local = local;
  d.session_id = (uint32_t)c->seed;
  d.delay = c->delay;
  if (c->max_prediction) d.max_prediction = c->max_prediction;
  d.max_commands = H_MAX_COMMANDS;
  d.max_packet_bytes = FXS_NETSIM_BYTES;
  d.max_packet_inputs = 24;
  d.max_packet_hashes = 24;
  d.tick_limit = c->ticks;
  d.snapshot_bytes = c->mode == FXS_SESSION_LOCKSTEP ? 0 : H_SNAPSHOT_BYTES;
  return d;
}

static inline void h_setup_peer(const h_config *c, uint8_t i) {
  h_peer *p = &h_peers[i];
  memset(p, 0, sizeof *p);
  p->index = i;
  fxs_world_def wd = fxs_default_world_def();
  wd.seed = c->seed;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&h_capacity) <= sizeof h_world_memory[i]);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&p->world, &wd, &h_capacity, h_world_memory[i],
                                           sizeof h_world_memory[i]));
  fxs_session_def d = h_session_def(c, i);
  d.before_step = h_flip;
  d.hook_user = p;
  if (c->replays) {
    TEST_ASSERT_TRUE(i < H_REPLAY_PEERS);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_begin(&p->writer, h_append, p, &p->world, 250,
                                                      h_scratch[i], sizeof h_scratch[i]));
    d.replay = &p->writer;
  }
  TEST_ASSERT_TRUE(fxs_session_memory_size(&d) > 0);
  TEST_ASSERT_TRUE(fxs_session_memory_size(&d) <= sizeof h_session_memory[i]);
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_session_init(&p->session, &d, h_session_memory[i], sizeof h_session_memory[i]));
  p->next_tick_ms = (uint32_t)((c->seed >> (4u * i)) % 40u); // peers start out of step
}

// Rewrites a packet's checksum after a deliberate change (FNV-1a 64 folded to 32 bits).
static inline void h_reseal(uint8_t *b, size_t len) {
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, b, len - 4);
  uint32_t sum = (uint32_t)(h.state ^ (h.state >> 32));
  for (int i = 0; i < 4; ++i) b[len - 4 + i] = (uint8_t)(sum >> (8 * i));
}

// The forged copy of a packet with hashes (c->forge_peer): its hash block claims to start at
// tick 2^30 and the sender claims to be past it, so that, if it were taken, every tick before
// would count as skipped and none would ever be compared again.
static inline void h_forge(const h_config *c, h_peer *p, uint8_t q, const uint8_t *buf, size_t len,
                           uint32_t now) {
  static bool forged[H_MAX_PEERS][H_MAX_PEERS];
  if (p->session.current == 0) memset(forged[p->index], 0, sizeof forged[p->index]);
  if (c->forge_peer != (int)p->index || forged[p->index][q] || buf[15] == 0 ||
      p->session.settled < c->forge_tick) {
    return;
  }
  static uint8_t b[FXS_NETSIM_BYTES];
  memcpy(b, buf, len);
  uint32_t start = 1u << 30, tick = start + 1000u;
  for (int i = 0; i < 4; ++i)
    b[16 + i] = (uint8_t)(tick >> (8 * i)), b[32 + i] = (uint8_t)(start >> (8 * i));
  h_reseal(b, len);
  fxs_result r = fxs_session_receive(&h_peers[q].session, p->index, b, len, now);
  TEST_ASSERT_EQUAL_STRING(fxs_result_message(FXS_ERR_BAD_SEQUENCE), fxs_result_message(r));
  forged[p->index][q] = true;
}

// One frame of peer i: submit when the session wants input, try to step when its clock
// says a tick is due, then send whatever is due to every other peer.
static inline void h_frame(const h_config *c, h_peer *p, uint32_t now) {
  fxs_session *s = &p->session;
  if (now >= p->next_tick_ms) {
    if (fxs_session_wants_input(s)) {
      fxs_command cmds[H_MAX_COMMANDS];
      uint32_t n = h_inputs(c, p->index, fxs_session_input_tick(s), cmds);
      fxs_result r = fxs_session_submit(s, cmds, n);
      TEST_ASSERT_TRUE_MESSAGE(r == FXS_OK || r == FXS_ERR_FULL, fxs_result_message(r));
    }
    fxs_result r = fxs_session_advance(s, &p->world, now);
    TEST_ASSERT_TRUE_MESSAGE(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_LIMIT,
                             fxs_result_message(r));
    if (r == FXS_OK) p->next_tick_ms += H_TICK_MS;
  }
  uint8_t buf[FXS_NETSIM_BYTES];
  for (uint8_t q = 0; q < s->peer_count; ++q) {
    size_t len = 0;
    if (q == p->index) continue;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_session_poll_send(s, q, now, buf, sizeof buf, &len));
    if (len) fxs_netsim_send(&h_net, p->index, q, buf, len, now);
    if (len) h_forge(c, p, q, buf, len, now);
  }
}

// Delivers every packet due by `now`. Corrupted packets must be refused, good ones taken.
static inline void h_deliver(uint32_t now) {
  fxs_netsim_packet *pk;
  while ((pk = fxs_netsim_next(&h_net, now)) != 0) {
    fxs_result r = fxs_session_receive(&h_peers[pk->to].session, pk->from, pk->bytes, pk->len, now);
    if (h_now->net.corrupt_per_mille == 0)
      TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, fxs_result_message(r));
    fxs_netsim_release(&h_net, pk);
  }
}

static inline bool h_all_complete(uint32_t peers) {
  for (uint32_t i = 0; i < peers; ++i) {
    if (!fxs_session_complete(&h_peers[i].session)) return false;
  }
  return true;
}

// Plays the whole match; every peer must complete within a bounded simulated time.
static inline void h_run(const h_config *c) {
  uint32_t peers = (uint32_t)c->players + c->spectators;
  h_now = c;
  for (uint8_t i = 0; i < peers; ++i) h_setup_peer(c, i);
  fxs_netsim_init(&h_net, &c->net, c->seed * 7u + 1u);
  uint32_t limit = c->ticks * H_TICK_MS * 4u + 30000u, now = 0;
  for (; now < limit && !h_all_complete(peers); now += H_STEP_MS) {
    h_deliver(now);
    for (uint32_t i = 0; i < peers; ++i) h_frame(c, &h_peers[i], now);
  }
  h_end_ms = now;
  TEST_ASSERT_TRUE_MESSAGE(h_all_complete(peers), "the match did not finish in time");
  for (uint32_t i = 0; i < peers; ++i) {
    TEST_ASSERT_EQUAL_UINT32(c->ticks, h_peers[i].world.tick);
    if (c->replays)
      TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_end(&h_peers[i].writer, &h_peers[i].world));
  }
}

// The state every peer must reach: a fresh world stepped with the merged inputs.
static inline uint64_t h_offline_hash(const h_config *c) {
  static uint64_t memory[2048];
  static fxs_world world;
  fxs_world_def wd = fxs_default_world_def();
  wd.seed = c->seed;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &wd, &h_capacity, memory, sizeof memory));
  for (uint32_t t = 0; t < c->ticks; ++t) {
    fxs_command merged[H_MAX_PEERS * H_MAX_COMMANDS];
    uint32_t n = 0;
    for (uint32_t p = 0; p < c->players; ++p) {
      uint32_t k = h_inputs(c, p, t, merged + n);
      for (uint32_t i = 0; i < k; ++i)
        merged[n + i].source = (uint8_t)p, merged[n + i].sequence = (uint16_t)i;
      n += k;
    }
    fxs_world_step(&world, merged, n, 0);
  }
  return fxs_world_hash(&world);
}

// Every peer ends with the offline run's hash and reports no desync.
static inline void h_expect_agreement(const h_config *c) {
  uint64_t expected = h_offline_hash(c);
  for (uint32_t i = 0; i < (uint32_t)c->players + c->spectators; ++i) {
    TEST_ASSERT_EQUAL_HEX64(expected, fxs_world_hash(&h_peers[i].world));
    TEST_ASSERT_NULL(fxs_session_desync_report(&h_peers[i].session));
  }
}

// Every peer reports the desync of c->desync_peer at c->desync_tick: that peer differs from
// every other one, every other one from it alone.
static inline void h_expect_desync(const h_config *c) {
  uint32_t peers = (uint32_t)c->players + c->spectators, odd = (uint32_t)c->desync_peer;
  for (uint32_t i = 0; i < peers; ++i) {
    const fxs_session_desync *d = fxs_session_desync_report(&h_peers[i].session);
    TEST_ASSERT_NOT_NULL(d);
    TEST_ASSERT_EQUAL_UINT32(c->desync_tick, d->tick);
    uint32_t expected = i == odd ? ((1u << peers) - 1u) & ~(1u << odd) : 1u << odd;
    TEST_ASSERT_EQUAL_HEX32(expected, d->peers);
    uint32_t other = i == odd ? (odd == 0 ? 1u : 0u) : odd;
    TEST_ASSERT_NOT_EQUAL(d->local_hash, d->remote_hash[other]);
  }
}

// Sums over the players: rollbacks, re-simulated ticks, stalls, bytes sent.
typedef struct h_totals {
  uint32_t rollbacks, resimulated, stalls, predicted;
  uint64_t bytes, packets;
} h_totals;

static inline h_totals h_sum(uint32_t peers) {
  h_totals t;
  memset(&t, 0, sizeof t);
  for (uint32_t i = 0; i < peers; ++i) {
    const fxs_session *s = &h_peers[i].session;
    t.rollbacks += s->stats.rollbacks;
    t.resimulated += s->stats.resimulated;
    t.stalls += s->stats.stalls;
    t.predicted += s->stats.predicted;
    for (uint32_t q = 0; q < s->peer_count; ++q) {
      t.bytes += s->peers[q].bytes_sent;
      t.packets += s->peers[q].packets_sent;
    }
  }
  return t;
}

#endif
