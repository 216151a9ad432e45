// Joining a match under way (session_join.h): a spectator that arrives late or
// a player that comes back starts from offers the other peers write. One offer carries the
// state at the start of its sender's first unsettled tick S; every offer carries the input
// frames of every player its sender still holds and its last `window` state hashes. The joiner
// takes the state only when every offer that holds the hash of tick S - 1 agrees with it, and
// takes each player's frames from S on, contiguous, wherever they are, refusing offers that
// disagree on a frame: no single peer is trusted blindly.
#include <string.h>

#include "bytes.h"
#include "fixsteer/hash.h"
#include "fixsteer/session_join.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/version.h"
#include "session_packet.h"

// Offer layout (docs/lockstep.md has the byte table).
enum {
  AT_MAGIC = 0,
  AT_VERSION = 4,
  AT_SENDER = 5,
  AT_JOINER = 6,
  AT_FLAGS = 7,
  AT_SESSION = 8,
  AT_LENGTH = 12,
  AT_SETTLED = 16,
  AT_HASH_FIRST = 20,
  AT_HASH_COUNT = 24,
  AT_PLAYERS = 26,
  AT_SIMULATION = 28, // the sender's simulation version (u32) and math fingerprint (u64)
  AT_MATH = 32,
  HEADER = 40
};
#define FLAG_STATE 1u

// ------------------------------------------------------------------ writing

// The ticks of player p's frames this peer holds: the last `window` it received.
static uint32_t held_from(const fxs_session *s, uint32_t p) {
  uint32_t end = s->peers[p].received;
  return end > s->def.window ? end - s->def.window : 0u;
}

static void put_frame(fxs_writer *w, const fxs_session *s, uint32_t p, uint32_t t) {
  uint16_t c = s->counts[fxs_session_slot(s, p, t)];
  const fxs_command *frame = fxs_session_frame(s, p, t);
  fxs_put_u16(w, c);
  for (uint16_t i = 0; i < c; ++i) {
    uint8_t bytes[FXS_SESSION_COMMAND_MAX_BYTES];
    fxs_put_bytes(w, bytes, fxs_session_put_command(&frame[i], bytes));
  }
}

// The state at the start of the settled tick: the world itself or, when it is ahead (rollback),
// the snapshot the session saved of that tick.
static fxs_result put_state(fxs_writer *w, const fxs_session *s, const fxs_world *world) {
  size_t size = 0;
  const uint8_t *saved =
      world->tick == s->settled ? 0 : fxs_session_saved_state(s, s->settled, &size);
  if (world->tick != s->settled && !saved) return FXS_ERR_BAD_SEQUENCE;
  if (!saved) size = fxs_world_snapshot_size(world);
  if (size > UINT32_MAX) return FXS_ERR_LIMIT;
  fxs_put_u32(w, (uint32_t)size);
  if (saved) {
    fxs_put_bytes(w, saved, size);
  } else if (w->buffer && fxs_writer_fits(w) && w->capacity - w->position >= size) {
    size_t used = 0;
    if (fxs_world_save(world, w->buffer + w->position, size, &used) != FXS_OK || used != size)
      return FXS_ERR_BAD_VALUE;
    w->position += size;
  } else {
    w->position += size; // a size query, or a buffer that is too small (checked below)
  }
  return FXS_OK;
}

fxs_result fxs_session_write_offer(const fxs_session *s, const fxs_world *world, uint8_t joiner,
                                   uint8_t *buf, size_t cap, size_t *len) {
  if (!s || !len || joiner >= s->peer_count || joiner == s->def.local) return FXS_ERR_BAD_VALUE;
  *len = 0;
  fxs_writer w = fxs_writer_make(buf, cap, 0);
  uint32_t hash_first = s->settled > s->def.window ? s->settled - s->def.window : 0u;
  fxs_put_u32(&w, FXS_SESSION_OFFER_MAGIC);
  fxs_put_u8(&w, (uint8_t)FXS_SESSION_OFFER_VERSION);
  fxs_put_u8(&w, s->def.local);
  fxs_put_u8(&w, joiner);
  fxs_put_u8(&w, world ? (uint8_t)FLAG_STATE : 0u);
  fxs_put_u32(&w, s->def.session_id);
  fxs_put_u32(&w, 0); // the length, written last
  fxs_put_u32(&w, s->settled);
  fxs_put_u32(&w, hash_first);
  fxs_put_u16(&w, (uint16_t)(s->settled - hash_first));
  fxs_put_u8(&w, s->def.players);
  fxs_put_u8(&w, 0);
  fxs_put_u32(&w, FXS_SIMULATION_VERSION);
  fxs_put_u64(&w, s->math_fingerprint);
  for (uint32_t t = hash_first; t < s->settled; ++t)
    fxs_put_u64(&w, s->hashes[fxs_session_slot(s, s->def.local, t)]);
  for (uint32_t p = 0; p < s->def.players; ++p) {
    uint32_t first = held_from(s, p), end = s->peers[p].received;
    fxs_put_u32(&w, first);
    fxs_put_u16(&w, (uint16_t)(end - first));
    for (uint32_t t = first; t < end; ++t) put_frame(&w, s, p, t);
  }
  if (world) {
    fxs_result r = put_state(&w, s, world);
    if (r != FXS_OK) return r;
  }
  size_t total = w.position + FXS_SESSION_CHECKSUM_BYTES;
  if (total > UINT32_MAX) return FXS_ERR_LIMIT;
  *len = total;
  if (!buf) return FXS_OK;
  if (cap < total) return FXS_ERR_BUFFER_TOO_SMALL;
  fxs_store_le(buf + AT_LENGTH, total, 4);
  fxs_store_le(buf + w.position, fxs_session_checksum(buf, w.position), 4);
  return FXS_OK;
}

// ------------------------------------------------------------------ reading

// An offer as read and checked: where its parts are.
typedef struct offer {
  const uint8_t *bytes;
  size_t length;
  uint8_t sender;
  bool has_state;
  uint32_t settled, hash_first, hash_count;
  size_t hashes; // offset of the hashes
  uint32_t first[FXS_SESSION_MAX_PLAYERS], count[FXS_SESSION_MAX_PLAYERS];
  size_t frames[FXS_SESSION_MAX_PLAYERS]; // offset of each player's first frame
  size_t state, state_size;
} offer;

static fxs_result bad(fxs_session_join_error *e, fxs_result r, size_t offset) {
  if (e && e->result == FXS_OK) e->result = r, e->offset = offset;
  return r;
}

// Walks one player's frames: counts within the limits, every command decodable.
static fxs_result check_frames(const fxs_session_def *d, fxs_reader *r, uint32_t frames,
                               fxs_session_join_error *e) {
  for (uint32_t f = 0; f < frames; ++f) {
    size_t at = r->position;
    uint16_t c = fxs_get_u16(r);
    if (r->failed) return bad(e, FXS_ERR_TRUNCATED, at);
    if (c > d->max_commands) return bad(e, FXS_ERR_LIMIT, at);
    for (uint16_t i = 0; i < c; ++i) {
      fxs_command cmd;
      size_t used = 0;
      fxs_result res =
          fxs_session_get_command(r->data + r->position, r->size - r->position, 0, i, &cmd, &used);
      if (res != FXS_OK) return bad(e, res, r->position);
      r->position += used;
    }
  }
  return FXS_OK;
}

static fxs_result read_offer(const fxs_session *s, const uint8_t *b, size_t len, offer *o,
                             fxs_session_join_error *e) {
  const fxs_session_def *d = &s->def;
  memset(o, 0, sizeof *o);
  o->bytes = b, o->length = len;
  if (!b || len < HEADER + FXS_SESSION_CHECKSUM_BYTES) return bad(e, FXS_ERR_TRUNCATED, 0);
  if (fxs_load_le32(b + AT_MAGIC) != FXS_SESSION_OFFER_MAGIC) return bad(e, FXS_ERR_BAD_MAGIC, 0);
  if (b[AT_VERSION] != FXS_SESSION_OFFER_VERSION) return bad(e, FXS_ERR_BAD_VERSION, AT_VERSION);
  if (fxs_load_le32(b + AT_LENGTH) != len) return bad(e, FXS_ERR_BAD_LENGTH, AT_LENGTH);
  size_t body = len - FXS_SESSION_CHECKSUM_BYTES;
  if (fxs_load_le32(b + body) != fxs_session_checksum(b, body))
    return bad(e, FXS_ERR_BAD_CHECKSUM, body);
  if (fxs_load_le32(b + AT_SIMULATION) != FXS_SIMULATION_VERSION)
    return bad(e, FXS_ERR_SIMULATION_VERSION, AT_SIMULATION);
  if (fxs_load_le64(b + AT_MATH) != s->math_fingerprint)
    return bad(e, FXS_ERR_BAD_FINGERPRINT, AT_MATH);
  if (fxs_load_le32(b + AT_SESSION) != d->session_id)
    return bad(e, FXS_ERR_WRONG_SESSION, AT_SESSION);
  o->sender = b[AT_SENDER];
  if (o->sender >= s->peer_count || o->sender == d->local)
    return bad(e, FXS_ERR_BAD_PACKET, AT_SENDER);
  if (b[AT_JOINER] != d->local) return bad(e, FXS_ERR_BAD_PACKET, AT_JOINER);
  if (b[AT_FLAGS] & ~FLAG_STATE) return bad(e, FXS_ERR_BAD_PACKET, AT_FLAGS);
  if (b[AT_PLAYERS] != d->players || b[AT_PLAYERS + 1] != 0)
    return bad(e, FXS_ERR_BAD_PACKET, AT_PLAYERS);
  o->has_state = b[AT_FLAGS] & FLAG_STATE;
  o->settled = fxs_load_le32(b + AT_SETTLED);
  o->hash_first = fxs_load_le32(b + AT_HASH_FIRST);
  o->hash_count = fxs_load_le16(b + AT_HASH_COUNT);
  if (o->hash_count > d->window || (uint64_t)o->hash_first + o->hash_count != o->settled)
    return bad(e, FXS_ERR_BAD_SEQUENCE, AT_HASH_FIRST);
  if ((size_t)o->hash_count * 8u > body - HEADER) return bad(e, FXS_ERR_TRUNCATED, AT_HASH_COUNT);
  fxs_reader r = fxs_reader_make(b, body);
  r.position = HEADER;
  o->hashes = r.position;
  r.position += (size_t)o->hash_count * 8u;
  for (uint32_t p = 0; p < d->players; ++p) {
    size_t at = r.position;
    o->first[p] = fxs_get_u32(&r);
    o->count[p] = fxs_get_u16(&r);
    o->frames[p] = r.position;
    if (r.failed || r.position > body) return bad(e, FXS_ERR_TRUNCATED, at);
    if (o->count[p] > d->window || o->first[p] > UINT32_MAX - o->count[p])
      return bad(e, FXS_ERR_BAD_SEQUENCE, at);
    fxs_result res = check_frames(d, &r, o->count[p], e);
    if (res != FXS_OK) return res;
  }
  if (o->has_state) {
    size_t at = r.position;
    uint32_t size = fxs_get_u32(&r);
    if (r.failed || size > body - r.position) return bad(e, FXS_ERR_TRUNCATED, at);
    o->state = r.position, o->state_size = size;
    r.position += size;
  }
  return r.position == body ? FXS_OK : bad(e, FXS_ERR_BAD_LENGTH, r.position);
}

// Where an offer's frames of one player are read, one tick after the other.
typedef struct cursor {
  size_t at;     // offset of the next frame
  uint32_t tick; // its tick
  uint32_t left; // frames left
} cursor;

// The size of the frame at the cursor (the offer was checked: it decodes).
static size_t frame_size(const offer *o, size_t at) {
  uint16_t c = fxs_load_le16(o->bytes + at);
  size_t n = 2;
  for (uint16_t i = 0; i < c; ++i) {
    fxs_command cmd;
    size_t used = 0;
    fxs_session_get_command(o->bytes + at + n, o->length - at - n, 0, i, &cmd, &used);
    n += used;
  }
  return n;
}

// Moves the cursor to tick t; true when the offer holds that tick's frame.
static bool seek_tick(const offer *o, cursor *c, uint32_t t) {
  while (c->left && c->tick < t) {
    c->at += frame_size(o, c->at);
    c->tick++, c->left--;
  }
  return c->left && c->tick == t;
}

static bool holds(const offer *o, uint32_t p, uint32_t t) {
  return t >= o->first[p] && t - o->first[p] < o->count[p];
}

static uint32_t held_end(const offer *o, uint32_t p) { return o->first[p] + o->count[p]; }

// Blames offer i for its frame of player p at tick t (or, when it does not hold that tick,
// for its list of player p's frames).
static fxs_result blame_frame(const offer *offers, uint32_t i, uint32_t p, uint32_t t, fxs_result r,
                              fxs_session_join_error *e) {
  cursor c = {offers[i].frames[p], offers[i].first[p], offers[i].count[p]};
  size_t at = seek_tick(&offers[i], &c, t) ? c.at : offers[i].frames[p] - 6u;
  if (e && e->result == FXS_OK) e->offer = i;
  return bad(e, r, at);
}

// The offer whose sender is player p, or n when p sent none (the joiner itself, or a player
// that is away).
static uint32_t own_offer(const offer *offers, uint32_t n, uint32_t p) {
  for (uint32_t i = 0; i < n; ++i)
    if (offers[i].sender == p) return i;
  return n;
}

// The ticks [S, *end) of player p's frames that the joiner may take, and why no others: a
// player's own offer is the authority on its own frames (every other copy must agree and none
// may reach past it); the frames of a player without an offer (the joiner itself, or a player
// that is away) are taken only when every offer holds them, identically, to the same end: a
// frame one offer alone holds is one no other peer can confirm, and is refused.
static fxs_result confirm_player(const fxs_session *s, const offer *offers, uint32_t n, uint32_t p,
                                 uint32_t *end, fxs_session_join_error *e) {
  uint32_t S = s->settled, own = own_offer(offers, n, p);
  if (own < n) {
    *end = held_end(&offers[own], p);
    if (offers[own].first[p] > S || *end < S) // its own frames do not reach tick S
      return blame_frame(offers, own, p, S, FXS_ERR_UNCONFIRMED, e);
    for (uint32_t i = 0; i < n; ++i)
      if (held_end(&offers[i], p) > *end)
        return blame_frame(offers, i, p, *end, FXS_ERR_UNCONFIRMED, e);
    return FXS_OK;
  }
  *end = held_end(&offers[0], p);
  for (uint32_t i = 1; i < n; ++i)
    if (held_end(&offers[i], p) < *end) *end = held_end(&offers[i], p);
  if (*end < S) *end = S;
  for (uint32_t i = 0; i < n; ++i) {
    if (held_end(&offers[i], p) > *end)
      return blame_frame(offers, i, p, *end, FXS_ERR_UNCONFIRMED, e);
    if (*end > S && !holds(&offers[i], p, S))
      return blame_frame(offers, i, p, S, FXS_ERR_UNCONFIRMED, e);
  }
  return FXS_OK;
}

// Takes player p's confirmed frames from tick S on (confirm_player); every offer holding the
// same tick must hold the same frame, or the one that differs from the reference (the player's
// own offer, else the first) is named. *end: the first tick not taken.
static fxs_result take_player(fxs_session *s, const offer *offers, uint32_t n, uint32_t p,
                              uint32_t *end, fxs_session_join_error *e) {
  fxs_result r = confirm_player(s, offers, n, p, end, e);
  if (r != FXS_OK) return r;
  uint32_t own = own_offer(offers, n, p), ref = own < n ? own : 0u;
  cursor cur[FXS_SESSION_MAX_PEERS];
  for (uint32_t i = 0; i < n; ++i) {
    cur[i].at = offers[i].frames[p], cur[i].tick = offers[i].first[p];
    cur[i].left = offers[i].count[p];
  }
  for (uint32_t t = s->settled; t < *end; ++t) {
    if (!seek_tick(&offers[ref], &cur[ref], t))
      return blame_frame(offers, ref, p, t, FXS_ERR_UNCONFIRMED, e);
    const uint8_t *taken = offers[ref].bytes + cur[ref].at;
    size_t taken_size = frame_size(&offers[ref], cur[ref].at);
    for (uint32_t i = 0; i < n; ++i) {
      if (i == ref || !seek_tick(&offers[i], &cur[i], t)) continue;
      size_t size = frame_size(&offers[i], cur[i].at);
      if (size != taken_size || memcmp(offers[i].bytes + cur[i].at, taken, size) != 0)
        return blame_frame(offers, i, p, t, FXS_ERR_UNCONFIRMED, e); // it differs
    }
    uint16_t c = fxs_load_le16(taken);
    fxs_command *frame = fxs_session_frame(s, p, t);
    size_t at = 2;
    for (uint16_t i = 0; i < c; ++i) {
      size_t used = 0;
      fxs_session_get_command(taken + at, taken_size - at, (uint8_t)p, i, &frame[i], &used);
      at += used;
    }
    s->counts[fxs_session_slot(s, p, t)] = c;
  }
  return FXS_OK;
}

// The state of tick S must be confirmed by every other offer: each holds its own hash of tick
// S - 1 (it settled that tick too), equal to the state's. A state of a tick some peer has not
// settled, or has settled too long ago to hold its hash, is one no other peer can vouch for,
// and is refused as its sender's; a hash that differs names the offer that holds it.
static fxs_result check_state_hash(const offer *offers, uint32_t n, uint32_t state, uint64_t hash,
                                   fxs_session_join_error *e) {
  uint32_t tick = offers[state].settled;
  if (tick == 0) return FXS_OK;
  for (uint32_t i = 0; i < n; ++i) {
    const offer *o = &offers[i];
    uint32_t t = tick - 1u;
    if (t < o->hash_first || t - o->hash_first >= o->hash_count) {
      if (i == state) continue;
      if (e) e->offer = state;
      return bad(e, FXS_ERR_UNCONFIRMED, AT_SETTLED);
    }
    size_t at = o->hashes + (size_t)(t - o->hash_first) * 8u;
    if (fxs_load_le64(o->bytes + at) != hash) {
      if (e) e->offer = i;
      return bad(e, FXS_ERR_HASH_MISMATCH, at);
    }
  }
  return FXS_OK;
}

// Starts the joiner's peer records at tick S: every peer resends its inputs and hashes from
// what its offer shows we hold, and compares from S on.
static void start_peers(fxs_session *s, const offer *offers, uint32_t n) {
  uint32_t me = s->def.local, S = s->settled;
  for (uint32_t q = 0; q < s->peer_count; ++q) {
    fxs_session_peer *p = &s->peers[q];
    if (q == me) continue;
    p->acked_inputs = S;
    for (uint32_t i = 0; fxs_session_is_player(s, me) && i < n; ++i) {
      uint32_t held = offers[i].first[me] + offers[i].count[me];
      if (offers[i].sender == q && offers[i].first[me] <= S && held > S) p->acked_inputs = held;
    }
    if (p->acked_inputs > s->peers[me].received) p->acked_inputs = s->peers[me].received;
    p->sent_inputs = p->acked_inputs;
    // Its hashes are compared from S on; we acknowledge no more than it has settled (its
    // offer says), since it refuses acknowledgements of hashes it has not sent.
    p->hashes_compared = p->acked_hashes = p->sent_hashes = S;
    p->hashes_received = S;
    for (uint32_t i = 0; i < n; ++i) {
      if (offers[i].sender == q && offers[i].settled < S) p->hashes_received = offers[i].settled;
    }
  }
}

fxs_result fxs_session_join(fxs_session *s, const fxs_session_def *def, void *memory, size_t size,
                            fxs_world *world, const uint8_t *const *offers, const size_t *lengths,
                            uint32_t count, fxs_session_join_error *e) {
  static const fxs_session_join_error none = {FXS_OK, 0, 0};
  if (e) *e = none;
  if (!world || !offers || !lengths || count == 0 || count >= FXS_SESSION_MAX_PEERS)
    return bad(e, FXS_ERR_BAD_VALUE, 0);
  fxs_result r = fxs_session_init(s, def, memory, size);
  if (r != FXS_OK) return bad(e, r, 0);
  offer read[FXS_SESSION_MAX_PEERS - 1];
  uint32_t senders = 0, state = count;
  for (uint32_t i = 0; i < count; ++i) {
    if (e) e->offer = i;
    if ((r = read_offer(s, offers[i], lengths[i], &read[i], e)) != FXS_OK) return r;
    if (senders >> read[i].sender & 1u) return bad(e, FXS_ERR_BAD_PACKET, AT_SENDER);
    senders |= 1u << read[i].sender;
    if (read[i].has_state && state != count) return bad(e, FXS_ERR_BAD_PACKET, AT_FLAGS);
    if (read[i].has_state) state = i;
  }
  if (e) e->offer = state == count ? 0u : state;
  if (state == count) return bad(e, FXS_ERR_BAD_PACKET, AT_FLAGS); // no offer has the state
  const offer *o = &read[state];
  size_t at = 0;
  r = fxs_world_restore(world, o->bytes + o->state, o->state_size, &at);
  if (r != FXS_OK) return bad(e, r, o->state + at);
  if (world->tick != o->settled) return bad(e, FXS_ERR_BAD_SEQUENCE, AT_SETTLED);
  fxs_state_hasher h = fxs_state_hasher_make();
  fxs_state_hash_block(&h, o->bytes + o->state, o->state_size);
  if ((r = check_state_hash(read, count, state, fxs_state_hash_value(&h), e)) != FXS_OK) return r;
  s->current = s->settled = s->refusals_through = s->joined_at = o->settled;
  for (uint32_t p = 0; p < def->players; ++p) {
    uint32_t end = 0;
    if ((r = take_player(s, read, count, p, &end, e)) != FXS_OK) return r;
    // Ticks before the delay carry no input, so a match joined early holds them already.
    s->peers[p].received = end > def->delay ? end : def->delay;
  }
  start_peers(s, read, count);
  if (e) e->offer = 0;
  return FXS_OK;
}

// ------------------------------------------------------------------ naming a field

fxs_session_offer_field fxs_session_offer_field_at(const uint8_t *b, size_t len, size_t offset) {
  fxs_session_offer_field f = {FXS_OFFER_UNREADABLE, 0, 0, 0};
  if (!b || offset < HEADER) {
    f.part = FXS_OFFER_HEADER, f.at = (uint32_t)offset;
    return f;
  }
  if (len < HEADER + FXS_SESSION_CHECKSUM_BYTES) return f;
  size_t body = len - FXS_SESSION_CHECKSUM_BYTES;
  if (offset >= body) return f.part = FXS_OFFER_CHECKSUM, f;
  uint32_t first = fxs_load_le32(b + AT_HASH_FIRST), count = fxs_load_le16(b + AT_HASH_COUNT);
  if (offset < HEADER + (size_t)count * 8u) {
    f.part = FXS_OFFER_HASH, f.tick = first + (uint32_t)((offset - HEADER) / 8u);
    return f;
  }
  fxs_reader r = fxs_reader_make(b, body);
  r.position = HEADER + (size_t)count * 8u;
  for (uint32_t p = 0; p < b[AT_PLAYERS] && p < FXS_SESSION_MAX_PLAYERS; ++p) {
    uint32_t t = fxs_get_u32(&r), frames = fxs_get_u16(&r);
    if (r.failed) return f;
    f.player = (uint8_t)p;
    if (offset < r.position) return f.part = FXS_OFFER_FRAMES, f;
    for (uint32_t k = 0; k < frames; ++k, ++t) {
      size_t at = r.position;
      uint16_t c = fxs_get_u16(&r);
      for (uint16_t i = 0; !r.failed && i < c; ++i) {
        fxs_command cmd;
        size_t used = 0;
        if (fxs_session_get_command(r.data + r.position, r.size - r.position, 0, i, &cmd, &used) !=
            FXS_OK)
          return f.part = FXS_OFFER_UNREADABLE, f;
        r.position += used;
      }
      if (r.failed) return f.part = FXS_OFFER_UNREADABLE, f;
      if (offset >= at && offset < r.position) return f.part = FXS_OFFER_FRAME, f.tick = t, f;
    }
  }
  f.player = 0;
  return f.part = FXS_OFFER_STATE, f;
}

// ------------------------------------------------------------------ the other peers

fxs_result fxs_session_peer_left(fxs_session *s, uint8_t peer) {
  if (!s || peer >= s->peer_count || peer == s->def.local) return FXS_ERR_BAD_VALUE;
  s->peers[peer].absent = true;
  return FXS_OK;
}

fxs_result fxs_session_readmit(fxs_session *s, uint8_t peer, uint32_t tick) {
  if (!s || peer >= s->peer_count || peer == s->def.local) return FXS_ERR_BAD_VALUE;
  // Only a peer that left comes back; and the joiner starts at a tick every offer confirmed
  // (fxs_session_join): one we have settled (so at most our settled tick, and at most the end
  // of its frames we hold), and whose hash our ring still holds.
  if (!s->peers[peer].absent) return FXS_ERR_BAD_SEQUENCE;
  if (tick > s->settled || (uint64_t)tick + s->def.window < s->settled ||
      (fxs_session_is_player(s, peer) && tick > s->peers[peer].received)) {
    return FXS_ERR_BAD_SEQUENCE;
  }
  fxs_session_peer *p = &s->peers[peer];
  uint32_t me = s->def.local;
  p->absent = false;
  // Our own frames: resend all we hold (it skips those it has).
  if (fxs_session_is_player(s, me)) {
    uint32_t oldest = held_from(s, me);
    if (oldest < p->acked_inputs) p->acked_inputs = oldest;
    p->sent_inputs = p->acked_inputs;
  }
  // Its hashes from `tick` on are those of its new run (ticks it settled before it left are
  // compared again); the ticks before are not compared.
  p->hashes_received = p->hashes_compared = tick;
  p->acked_hashes = p->sent_hashes = tick;
  p->has_echo = false;
  p->dirty = true;
  p->sent = false;
  s->readmitted |= 1u << peer; // its silence counts from now on (fxs_session_start_clock)
  return FXS_OK;
}
