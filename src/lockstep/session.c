#include "fixsteer/session.h"

#include <string.h>

#include "fixsteer/fingerprint.h"
#include "fixsteer/hash.h"
#include "fixsteer/snapshot.h"
#include "session_packet.h"

// ------------------------------------------------------------------ definition and memory

fxs_session_def fxs_default_session_def(void) {
  fxs_session_def d;
  memset(&d, 0, sizeof d);
  d.mode = FXS_SESSION_LOCKSTEP;
  d.players = 2;
  d.session_id = 1;
  d.delay = 2;
  d.max_prediction = 8;
  d.synctest_ticks = 2;
  d.window = 32;
  d.max_commands = 16;
  d.max_packet_bytes = 1200;
  d.max_packet_inputs = 32;
  d.max_packet_hashes = 32;
  d.resend_ms = 20;
  d.ack_delay_ms = 20;
  d.keepalive_ms = 200;
  d.progress_window_ms = 10000;
  d.progress_min_ticks = 20;
  return d;
}

// Ticks beyond the settled ones the snapshot ring must hold (0: no ring).
static uint32_t ring_reach(const fxs_session_def *d) {
  if (d->mode == FXS_SESSION_ROLLBACK) return d->max_prediction;
  if (d->mode == FXS_SESSION_SYNCTEST) return d->synctest_ticks;
  return 0;
}

static bool players_ok(const fxs_session_def *d) {
  if (d->mode > FXS_SESSION_SYNCTEST) return false;
  if (d->mode == FXS_SESSION_SYNCTEST)
    return d->players == 1 && d->spectators == 0 && d->local == 0;
  return d->players >= 1 && d->players <= FXS_SESSION_MAX_PLAYERS && d->spectators <= 8 &&
         d->local < d->players + d->spectators;
}

fxs_result fxs_session_def_check(const fxs_session_def *d) {
  if (!d || !players_ok(d)) return FXS_ERR_BAD_VALUE;
  uint32_t reach = ring_reach(d);
  if (d->mode != FXS_SESSION_LOCKSTEP && (reach == 0 || d->snapshot_bytes == 0))
    return FXS_ERR_BAD_VALUE;
  if (d->window > FXS_SESSION_MAX_WINDOW || (uint32_t)d->delay + reach + 2u > d->window) {
    return FXS_ERR_BAD_VALUE;
  }
  if (d->max_commands == 0 || (uint32_t)d->max_commands * d->players > FXS_REPLAY_MAX_COMMANDS) {
    return FXS_ERR_BAD_VALUE;
  }
  uint32_t frame =
      FXS_SESSION_MIN_PACKET + 2u + (uint32_t)d->max_commands * FXS_SESSION_COMMAND_MAX_BYTES;
  if (d->max_packet_bytes < frame || d->max_packet_bytes < FXS_SESSION_MIN_PACKET + 8u) {
    return FXS_ERR_BAD_VALUE;
  }
  if (d->max_packet_inputs == 0 || d->max_packet_hashes == 0 || d->keepalive_ms == 0) {
    return FXS_ERR_BAD_VALUE;
  }
  return FXS_OK;
}

// Offsets of the rings in the memory block.
typedef struct layout {
  size_t commands, counts, hashes, snapshots, snapshot_ticks, snapshot_sizes, first_hashes, merged;
  size_t results;
  size_t total;
  uint32_t slots;
} layout;

// Places count * item bytes at the next 8-byte boundary; false on size_t overflow (which a
// 32-bit size_t can reach with large windows and snapshots).
static bool place(size_t *end, size_t count, size_t item, size_t *offset) {
  size_t at = (*end + 7u) & ~(size_t)7u;
  if (at < *end || (item && count > ((size_t)-1 - at) / item)) return false;
  *offset = at;
  *end = at + count * item;
  return true;
}

static bool plan(const fxs_session_def *d, layout *l) {
  size_t frames = (size_t)d->players * d->window;
  size_t peers = (size_t)d->players + d->spectators;
  size_t end = 0;
  l->slots = ring_reach(d) ? ring_reach(d) + 2u : 0u;
  return place(&end, frames, (size_t)d->max_commands * sizeof(fxs_command), &l->commands) &&
         place(&end, frames, sizeof(uint16_t), &l->counts) &&
         place(&end, peers * d->window, sizeof(uint64_t), &l->hashes) &&
         place(&end, l->slots, d->snapshot_bytes, &l->snapshots) &&
         place(&end, l->slots, sizeof(uint32_t), &l->snapshot_ticks) &&
         place(&end, l->slots, sizeof(size_t), &l->snapshot_sizes) &&
         place(&end, l->slots, sizeof(uint64_t), &l->first_hashes) &&
         place(&end, d->players, (size_t)d->max_commands * sizeof(fxs_command), &l->merged) &&
         place(&end, d->players, (size_t)d->max_commands * sizeof(fxs_result), &l->results) &&
         place(&end, 0, 1, &l->total);
}

size_t fxs_session_memory_size(const fxs_session_def *def) {
  layout l;
  if (fxs_session_def_check(def) != FXS_OK || !plan(def, &l)) return 0;
  return l.total;
}

fxs_result fxs_session_init(fxs_session *s, const fxs_session_def *def, void *memory, size_t size) {
  FXS_ASSERT(s != 0);
  layout l;
  if (!s || fxs_session_def_check(def) != FXS_OK || !plan(def, &l)) return FXS_ERR_BAD_VALUE;
  if (!memory || size < l.total) return FXS_ERR_BUFFER_TOO_SMALL;
  if (((uintptr_t)memory & 7u) != 0) return FXS_ERR_BAD_VALUE;
  uint8_t *m = (uint8_t *)memory;
  memset(m, 0, l.total);
  memset(s, 0, sizeof *s);
  s->def = *def;
  s->peer_count = (uint8_t)(def->players + def->spectators);
  s->rollback_to = FXS_SESSION_NO_TICK;
  s->math_fingerprint = fxs_math_fingerprint();
  s->commands = (fxs_command *)(void *)(m + l.commands);
  s->counts = (uint16_t *)(void *)(m + l.counts);
  s->hashes = (uint64_t *)(void *)(m + l.hashes);
  s->snapshots = m + l.snapshots;
  s->snapshot_ticks = (uint32_t *)(void *)(m + l.snapshot_ticks);
  s->snapshot_sizes = (size_t *)(void *)(m + l.snapshot_sizes);
  s->first_hashes = (uint64_t *)(void *)(m + l.first_hashes);
  s->merged = (fxs_command *)(void *)(m + l.merged);
  s->results = (fxs_result *)(void *)(m + l.results);
  s->snapshot_slots = l.slots;
  for (uint32_t i = 0; i < l.slots; ++i) s->snapshot_ticks[i] = FXS_SESSION_NO_TICK;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    // Ticks before the delay carry no input: they count as received and acknowledged.
    s->peers[q].received = fxs_session_is_player(s, q) ? def->delay : 0u;
    s->peers[q].acked_inputs = def->delay;
    s->peers[q].sent_inputs = def->delay;
  }
  return FXS_OK;
}

void fxs_session_start_clock(fxs_session *s, uint32_t now_ms) {
  // A readmitted peer's silence counts from the first call with a time after its return.
  for (uint32_t q = 0; s->readmitted && q < s->peer_count; ++q) {
    if (!(s->readmitted >> q & 1u)) continue;
    s->peers[q].heard = true;
    s->peers[q].last_heard_ms = now_ms;
  }
  s->readmitted = 0;
  if (s->clock_started) return;
  s->clock_started = true;
  s->start_ms = now_ms;
  s->progress_since_ms = now_ms;
  for (uint32_t q = 0; q < s->peer_count; ++q) s->peers[q].last_sent_ms = now_ms;
}

static fxs_result fail(fxs_session *s, fxs_result r) {
  if (s->error == FXS_OK) s->error = r;
  return r;
}

// ------------------------------------------------------------------ inputs

uint32_t fxs_session_oldest_input(const fxs_session *s, uint32_t p) {
  uint32_t oldest = s->settled;
  if (p != s->def.local) return oldest;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    const fxs_session_peer *to = &s->peers[q];
    if (q != s->def.local && !to->absent && to->acked_inputs < oldest) oldest = to->acked_inputs;
  }
  return oldest;
}

uint32_t fxs_session_input_tick(const fxs_session *s) { return s->peers[s->def.local].received; }

bool fxs_session_wants_input(const fxs_session *s) {
  uint32_t t = fxs_session_input_tick(s);
  return s->error == FXS_OK && fxs_session_is_player(s, s->def.local) &&
         (uint64_t)t <= (uint64_t)s->current + s->def.delay &&
         (s->def.tick_limit == 0 || t < s->def.tick_limit);
}

fxs_result fxs_session_submit(fxs_session *s, const fxs_command *commands, uint32_t count) {
  uint32_t me = s->def.local;
  if (!fxs_session_is_player(s, me) || (count && !commands)) return FXS_ERR_BAD_VALUE;
  if (!fxs_session_wants_input(s)) return FXS_ERR_BAD_SEQUENCE;
  if (count > s->def.max_commands) return FXS_ERR_LIMIT;
  uint32_t t = s->peers[me].received;
  if (t - fxs_session_oldest_input(s, me) >= s->def.window) return FXS_ERR_FULL;
  fxs_command *frame = fxs_session_frame(s, me, t);
  for (uint32_t i = 0; i < count; ++i) {
    frame[i] = commands[i];
    frame[i].source = (uint8_t)me;
    frame[i].sequence = (uint16_t)i;
  }
  s->counts[fxs_session_slot(s, me, t)] = (uint16_t)count;
  s->peers[me].received = t + 1u;
  return FXS_OK;
}

void fxs_session_input_arrived(fxs_session *s, uint32_t p, uint32_t t, uint16_t count) {
  (void)p;
  // It was stepped with the prediction "no commands": only a non-empty input differs.
  if (t < s->current && count > 0 && t < s->rollback_to) s->rollback_to = t;
}

// Ticks below this have every player's input.
static uint32_t input_frontier(const fxs_session *s) {
  uint32_t f = FXS_SESSION_NO_TICK;
  for (uint32_t p = 0; p < s->def.players; ++p) {
    if (s->peers[p].received < f) f = s->peers[p].received;
  }
  return f;
}

// Ticks below this leave room in our hash ring: settling tick t overwrites our hash of tick
// t - window, so every other peer must have compared that hash with its own (it arrived) and
// acknowledged ours. Hashes are therefore never skipped: a peer that withholds them holds the
// match back (the progress bound in fxs_session_advance) instead of escaping comparison.
// The room peer q leaves: ticks below this may settle as far as it is concerned (an absent
// peer, or ourselves, leaves all).
static uint64_t hash_room_of(const fxs_session *s, uint32_t q) {
  const fxs_session_peer *p = &s->peers[q];
  if (q == s->def.local || p->absent) return FXS_SESSION_NO_TICK;
  uint32_t done = p->hashes_compared < p->acked_hashes ? p->hashes_compared : p->acked_hashes;
  return (uint64_t)done + s->def.window;
}

static uint32_t hash_room(const fxs_session *s) {
  uint64_t room = FXS_SESSION_NO_TICK;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    uint64_t end = hash_room_of(s, q);
    if (end < room) room = end;
  }
  return (uint32_t)room;
}

// Ticks below this may be stepped without prediction and settled: every input is known and
// the hash ring has room.
static uint32_t known_frontier(const fxs_session *s) {
  uint32_t f = input_frontier(s), room = hash_room(s);
  return room < f ? room : f;
}

// Ticks below this may settle once stepped: in SYNCTEST they wait synctest_ticks more ticks,
// so that the checks can still restore them (except at the end of the match).
static uint32_t confirm_limit(const fxs_session *s) {
  uint32_t f = known_frontier(s);
  bool ended = s->def.tick_limit && s->current >= s->def.tick_limit;
  if (s->def.mode == FXS_SESSION_SYNCTEST && !ended) {
    uint32_t lag = s->current >= s->def.synctest_ticks ? s->current - s->def.synctest_ticks : 0u;
    if (lag < f) f = lag;
  }
  return f;
}

// One tick's commands of every player, in canonical order (players in index order, each
// one's commands in submission order); a missing input counts as no commands.
static uint32_t merge(fxs_session *s, uint32_t t) {
  uint32_t n = 0;
  for (uint32_t p = 0; p < s->def.players; ++p) {
    if (t >= s->peers[p].received) continue;
    uint16_t c = s->counts[fxs_session_slot(s, p, t)];
    memcpy(s->merged + n, fxs_session_frame(s, p, t), (size_t)c * sizeof(fxs_command));
    n += c;
  }
  return n;
}

// ------------------------------------------------------------------ snapshots and hashes

static fxs_result save_state(fxs_session *s, const fxs_world *world) {
  uint32_t slot = s->current % s->snapshot_slots;
  size_t size = 0;
  uint8_t *at = s->snapshots + (size_t)slot * s->def.snapshot_bytes;
  s->snapshot_ticks[slot] = FXS_SESSION_NO_TICK;
  if (fxs_world_save(world, at, s->def.snapshot_bytes, &size) != FXS_OK)
    return FXS_ERR_BUFFER_TOO_SMALL;
  s->snapshot_ticks[slot] = s->current;
  s->snapshot_sizes[slot] = size;
  s->stats.saves++;
  return FXS_OK;
}

const uint8_t *fxs_session_saved_state(const fxs_session *s, uint32_t t, size_t *size) {
  if (s->snapshot_slots == 0) return 0;
  uint32_t slot = t % s->snapshot_slots;
  if (s->snapshot_ticks[slot] != t) return 0;
  *size = s->snapshot_sizes[slot];
  return s->snapshots + (size_t)slot * s->def.snapshot_bytes;
}

static void report_desync(fxs_session *s, uint32_t peer, uint32_t t, uint64_t ours,
                          uint64_t theirs) {
  fxs_session_desync *d = &s->desync;
  if (d->detected && t > d->tick) return; // an earlier tick already differs
  if (!d->detected || t < d->tick) {
    memset(d, 0, sizeof *d);
    d->detected = true;
    d->tick = t;
    d->local_hash = ours;
  }
  d->peers |= 1u << peer;
  d->remote_hash[peer] = theirs;
}

void fxs_session_compare_hashes(fxs_session *s) {
  uint32_t me = s->def.local;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    fxs_session_peer *p = &s->peers[q];
    if (q == me) continue;
    uint32_t limit = p->hashes_received < s->settled ? p->hashes_received : s->settled;
    for (; p->hashes_compared < limit; p->hashes_compared++) {
      uint32_t t = p->hashes_compared;
      uint64_t ours = s->hashes[fxs_session_slot(s, me, t)];
      uint64_t theirs = s->hashes[fxs_session_slot(s, q, t)];
      if (ours != theirs) report_desync(s, q, t, ours, theirs);
    }
  }
}

// Keeps our hash of settled tick t in the ring slot of tick t - window, which every peer has
// compared and acknowledged by then (hash_room).
static void keep_hash(fxs_session *s, uint32_t t, uint64_t hash) {
  s->hashes[fxs_session_slot(s, s->def.local, t)] = hash;
}

// Hashes and records settled tick t: from the world when it is right after t, else from the
// snapshot of tick t + 1.
static fxs_result record(fxs_session *s, const fxs_world *world, uint32_t t) {
  fxs_replay_writer *w = s->def.replay;
  uint32_t n = w ? merge(s, t) : 0u;
  uint64_t hash;
  if (t + 1u == s->current) {
    if (w && fxs_replay_writer_tick(w, world, s->merged, n) != FXS_OK) return w->error;
    hash = w ? w->last_hash : fxs_world_hash(world);
  } else {
    size_t size = 0;
    const uint8_t *state = fxs_session_saved_state(s, t + 1u, &size);
    if (!state) return FXS_ERR_BAD_SEQUENCE;
    if (w) {
      if (fxs_replay_writer_tick_saved(w, t, state, size, s->merged, n) != FXS_OK) return w->error;
      hash = w->last_hash;
    } else {
      fxs_state_hasher h = fxs_state_hasher_make();
      fxs_state_hash_block(&h, state, size);
      hash = fxs_state_hash_value(&h);
    }
  }
  keep_hash(s, t, hash);
  return FXS_OK;
}

static fxs_result settle(fxs_session *s, const fxs_world *world) {
  uint32_t limit = confirm_limit(s);
  if (limit > s->current) limit = s->current;
  if (s->settled >= limit) return FXS_OK;
  while (s->settled < limit) {
    fxs_result r = record(s, world, s->settled);
    if (r != FXS_OK) return r;
    s->settled++;
  }
  fxs_session_compare_hashes(s);
  return FXS_OK;
}

// ------------------------------------------------------------------ stepping

// Counts the commands of tick t the world refused (merged and results are in canonical order).
static void count_refusals(fxs_session *s, uint32_t t, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (s->results[i] == FXS_OK) continue;
    const fxs_command *c = &s->merged[i];
    fxs_session_refusal *r = &s->last_refusal;
    s->stats.refused[c->source]++;
    r->any = true, r->tick = t, r->player = c->source, r->type = c->type;
    r->agent = c->agent, r->result = s->results[i];
  }
  s->refusals_through = t + 1u;
}

// Steps tick `current`, saving the state first unless the tick settles right away.
static fxs_result step(fxs_session *s, fxs_world *world, bool resimulating) {
  uint32_t t = s->current;
  bool settles_now = t == s->settled && t < confirm_limit(s);
  if (s->def.mode != FXS_SESSION_LOCKSTEP && !settles_now) {
    fxs_result r = save_state(s, world);
    if (r != FXS_OK) return r;
  }
  uint32_t n = merge(s, t);
  if (s->def.before_step) s->def.before_step(s->def.hook_user, world, t, resimulating);
  // A refused command is refused on every peer; it is counted once its tick's inputs are final.
  (void)fxs_world_step(world, s->merged, n, s->results);
  if (t >= s->refusals_through && t < input_frontier(s)) count_refusals(s, t, n);
  s->current = t + 1u;
  return FXS_OK;
}

// Restores the state at the start of tick `from` and steps again up to the present. In
// SYNCTEST each tick's new hash is compared with its first run's.
static fxs_result roll_back(fxs_session *s, fxs_world *world, uint32_t from) {
  size_t size = 0;
  const uint8_t *state = fxs_session_saved_state(s, from, &size);
  if (!state || from < s->settled) return FXS_ERR_BAD_SEQUENCE;
  if (fxs_world_restore(world, state, size, 0) != FXS_OK) return FXS_ERR_BAD_VALUE;
  uint32_t end = s->current;
  s->current = from;
  s->stats.rollbacks++;
  s->stats.resimulated += end - from;
  if (end - from > s->stats.max_rollback) s->stats.max_rollback = end - from;
  while (s->current < end) {
    fxs_result r = step(s, world, true);
    if (r != FXS_OK) return r;
    if (s->def.mode == FXS_SESSION_SYNCTEST) {
      uint32_t t = s->current - 1u;
      uint64_t first = s->first_hashes[t % s->snapshot_slots], again = fxs_world_hash(world);
      if (first != again) report_desync(s, s->def.local, t, first, again);
    } else if ((r = settle(s, world)) != FXS_OK) {
      return r;
    }
  }
  return FXS_OK;
}

// After the first step of a tick in SYNCTEST: keep its hash, then step the last
// synctest_ticks ticks again from their snapshot.
static fxs_result synctest(fxs_session *s, fxs_world *world) {
  uint32_t t = s->current - 1u;
  s->first_hashes[t % s->snapshot_slots] = fxs_world_hash(world);
  uint32_t from = s->current >= s->def.synctest_ticks ? s->current - s->def.synctest_ticks : 0u;
  if (from < s->settled) from = s->settled;
  return from < s->current ? roll_back(s, world, from) : FXS_OK;
}

// True when tick `current` may be stepped; otherwise notes what the session waits for.
static bool can_step(fxs_session *s, uint32_t now_ms) {
  uint32_t t = s->current, frontier = known_frontier(s), wait = FXS_SESSION_NO_TICK;
  if (fxs_session_is_player(s, s->def.local) && s->peers[s->def.local].received <= t) {
    wait = t;
  } else if (frontier <= t) {
    bool predict = s->def.mode != FXS_SESSION_LOCKSTEP && t - frontier < s->def.max_prediction;
    if (!predict) wait = frontier;
  }
  if (wait == FXS_SESSION_NO_TICK) return true;
  if (!s->waiting) s->wait_since_ms = now_ms;
  s->waiting = true;
  s->wait_tick = wait;
  return false;
}

// Bit p set: player p's input of tick t is missing.
static uint32_t missing_inputs(const fxs_session *s, uint32_t t) {
  uint32_t bits = 0;
  for (uint32_t p = 0; p < s->def.players; ++p) {
    if (s->peers[p].received <= t) bits |= 1u << p;
  }
  return bits;
}

// Bit q set: peer q has not compared or acknowledged our hash of tick t - window (hash_room).
static uint32_t missing_hashes(const fxs_session *s, uint32_t t) {
  uint32_t bits = 0;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    if (hash_room_of(s, q) <= t) bits |= 1u << q;
  }
  return bits;
}

// The progress bound (fxs_session_def.progress_window_ms). Windows follow each other; one
// that ends while the session waits on peers without enough ticks settled stops the match
// and names them. Time the local caller spends elsewhere is not blamed on anyone: the check
// then waits for the next wait.
static fxs_result check_progress(fxs_session *s, uint32_t now_ms) {
  if (s->def.progress_window_ms == 0 || now_ms - s->progress_since_ms < s->def.progress_window_ms)
    return FXS_OK;
  if (s->settled - s->progress_since >= s->def.progress_min_ticks) {
    s->progress_since_ms = now_ms;
    s->progress_since = s->settled;
    return FXS_OK;
  }
  if (!s->waiting) return FXS_OK;
  s->stalled_peers = missing_inputs(s, s->wait_tick) | missing_hashes(s, s->wait_tick);
  return FXS_ERR_STALLED;
}

static void end_wait(fxs_session *s, uint32_t now_ms) {
  if (!s->waiting) return;
  s->waiting = false;
  s->stats.stalls++;
  s->stats.stall_ms += now_ms - s->wait_since_ms;
}

fxs_result fxs_session_advance(fxs_session *s, fxs_world *world, uint32_t now_ms) {
  if (!s || !world) return FXS_ERR_BAD_VALUE;
  fxs_session_start_clock(s, now_ms);
  if (s->error != FXS_OK) return s->error;
  if (world->tick != s->current) return fail(s, FXS_ERR_BAD_SEQUENCE);
  fxs_result r = FXS_OK;
  uint32_t from = s->rollback_to;
  s->rollback_to = FXS_SESSION_NO_TICK;
  if (from < s->current) r = roll_back(s, world, from);
  if (r == FXS_OK) r = settle(s, world);
  if (r != FXS_OK) return fail(s, r);
  if (s->def.tick_limit && s->current >= s->def.tick_limit) {
    end_wait(s, now_ms);
    return FXS_ERR_LIMIT;
  }
  if (!can_step(s, now_ms)) {
    r = check_progress(s, now_ms);
    return r == FXS_OK ? FXS_ERR_WAITING : fail(s, r);
  }
  end_wait(s, now_ms);
  if (s->current >= input_frontier(s)) s->stats.predicted++;
  r = step(s, world, false);
  if (r == FXS_OK && s->def.mode == FXS_SESSION_SYNCTEST) r = synctest(s, world);
  if (r == FXS_OK) r = settle(s, world);
  return r == FXS_OK ? FXS_OK : fail(s, r);
}

// ------------------------------------------------------------------ queries

void fxs_session_restart_progress(fxs_session *s, uint32_t now_ms) {
  fxs_session_start_clock(s, now_ms);
  s->progress_since_ms = now_ms;
  s->progress_since = s->settled;
}

void fxs_session_wait_info(const fxs_session *s, uint32_t now_ms, fxs_session_wait *out) {
  memset(out, 0, sizeof *out);
  out->waiting = s->waiting;
  if (s->waiting) {
    out->tick = s->wait_tick;
    out->missing = missing_inputs(s, s->wait_tick);
    out->hashes_missing = missing_hashes(s, s->wait_tick);
    out->since_ms = s->wait_since_ms;
    out->waited_ms = now_ms - s->wait_since_ms;
  }
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    if (q == s->def.local) continue;
    uint32_t last = s->peers[q].heard ? s->peers[q].last_heard_ms : s->start_ms;
    out->silent_ms[q] = s->clock_started ? now_ms - last : 0u;
  }
}

const fxs_session_desync *fxs_session_desync_report(const fxs_session *s) {
  return s->desync.detected ? &s->desync : 0;
}

bool fxs_session_done(const fxs_session *s) {
  return s->def.tick_limit > 0 && s->settled >= s->def.tick_limit;
}

bool fxs_session_complete(const fxs_session *s) {
  if (!fxs_session_done(s)) return false;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    const fxs_session_peer *p = &s->peers[q];
    if (q != s->def.local && !p->absent && p->hashes_compared < s->def.tick_limit) return false;
  }
  return true;
}

bool fxs_session_delivered(const fxs_session *s) {
  uint32_t me = s->def.local;
  bool player = fxs_session_is_player(s, me);
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    if (q == me || s->peers[q].absent) continue;
    if (player && s->peers[q].acked_inputs < s->peers[me].received) return false;
    if (s->peers[q].acked_hashes < s->settled) return false;
  }
  return true;
}
