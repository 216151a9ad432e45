// The session's packets (docs/lockstep.md has the byte table): a fixed header, the sender's
// unacknowledged input frames, its unacknowledged state hashes and a checksum. Reading
// checks everything first and changes nothing until the whole packet is known to be good.
#include <string.h>

#include "bytes.h"
#include "fixsteer/fingerprint.h"
#include "fixsteer/hash.h"
#include "fixsteer/session.h"
#include "fixsteer/session_join.h"
#include "fixsteer/version.h"
#include "session_packet.h"

// Header field offsets.
enum {
  AT_MAGIC = 0,
  AT_VERSION = 4,
  AT_SENDER = 5,
  AT_RECEIVER = 6,
  AT_FLAGS = 7,
  AT_SESSION = 8,
  AT_LENGTH = 12,
  AT_FRAMES = 14,
  AT_HASHES = 15,
  AT_TICK = 16,
  AT_INPUT_ACK = 20,
  AT_HASH_ACK = 24,
  AT_INPUT_START = 28,
  AT_HASH_START = 32,
  AT_SEND_MS = 36,
  AT_ECHO_MS = 40,
  AT_SIMULATION = 44, // the sender's simulation version (u32) and math fingerprint (u64)
  AT_MATH = 48
};

// Flag bit: echo_ms holds the receiver's send time of its newest packet plus the time the
// sender held it, so the receiver measures the round trip on its own clock.
#define FLAG_ECHO 1u

// A header as read.
typedef struct packet {
  uint8_t sender, flags, frames, hash_count;
  uint32_t length, tick, input_ack, hash_ack, input_start, hash_start, send_ms, echo_ms;
} packet;

uint32_t fxs_session_checksum(const uint8_t *bytes, size_t size) {
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, bytes, size);
  return (uint32_t)(h.state ^ (h.state >> 32));
}

// ------------------------------------------------------------------ commands
// In packets a command is its type (u8), a u16 mask of the fields that are not zero (bit 0
// agent, bit 1 ref, bits 2..9 arg[0..7]) and those fields as u32, in that order: most
// commands use few fields, and every frame is sent until acknowledged. Source and sequence
// are not sent: they are the sender's player index and the command's place in its frame.

enum { FIELDS = 2 + FXS_COMMAND_ARGS };

static uint32_t field_of(const fxs_command *c, uint32_t i) {
  return i == 0 ? c->agent : i == 1 ? c->ref : (uint32_t)c->arg[i - 2u];
}

size_t fxs_session_command_size(const fxs_command *c) {
  size_t n = 3;
  for (uint32_t i = 0; i < FIELDS; ++i) n += field_of(c, i) ? 4u : 0u;
  return n;
}

size_t fxs_session_put_command(const fxs_command *c, uint8_t *b) {
  size_t n = 3;
  uint32_t mask = 0;
  for (uint32_t i = 0; i < FIELDS; ++i) {
    uint32_t v = field_of(c, i);
    if (!v) continue;
    mask |= 1u << i;
    fxs_store_le(b + n, v, 4);
    n += 4u;
  }
  b[0] = c->type;
  fxs_store_le(b + 1, mask, 2);
  return n;
}

fxs_result fxs_session_get_command(const uint8_t *b, size_t avail, uint8_t source,
                                   uint16_t sequence, fxs_command *c, size_t *used) {
  if (avail < 3u) return FXS_ERR_BAD_LENGTH;
  uint32_t mask = fxs_load_le16(b + 1);
  if (mask >> FIELDS) return FXS_ERR_BAD_PACKET;
  size_t n = 3;
  for (uint32_t i = 0; i < FIELDS; ++i) n += (mask >> i & 1u) ? 4u : 0u;
  if (avail < n) return FXS_ERR_BAD_LENGTH;
  if (b[0] >= FXS_CMD_COUNT) return FXS_ERR_BAD_COMMAND;
  *c = fxs_command_make((fxs_command_type)b[0], source, sequence);
  size_t at = 3;
  for (uint32_t i = 0; i < FIELDS; ++i) {
    if (!(mask >> i & 1u)) continue;
    uint32_t v = fxs_load_le32(b + at);
    at += 4u;
    if (i == 0) c->agent = v;
    else if (i == 1) c->ref = v;
    else c->arg[i - 2u] = (fix16_t)(int32_t)v;
  }
  *used = n;
  return FXS_OK;
}

// ------------------------------------------------------------------ writing

// Writes our input frames from the peer's acknowledgement on, as many as fit. Returns the
// number of frames; *room shrinks by their size.
static uint32_t write_frames(const fxs_session *s, uint32_t start, uint8_t *b, size_t *at,
                             size_t *room) {
  uint32_t me = s->def.local, frames = 0;
  if (!fxs_session_is_player(s, me)) return 0;
  for (uint32_t t = start; t < s->peers[me].received && frames < s->def.max_packet_inputs; ++t) {
    uint16_t c = s->counts[fxs_session_slot(s, me, t)];
    const fxs_command *frame = fxs_session_frame(s, me, t);
    size_t need = 2u;
    for (uint16_t i = 0; i < c; ++i) need += fxs_session_command_size(&frame[i]);
    if (need > *room) break;
    fxs_store_le(b + *at, c, 2);
    size_t put = *at + 2u;
    for (uint16_t i = 0; i < c; ++i) put += fxs_session_put_command(&frame[i], b + put);
    *at += need;
    *room -= need;
    frames++;
  }
  return frames;
}

static uint32_t write_hashes(const fxs_session *s, uint32_t start, uint8_t *b, size_t *at,
                             size_t room) {
  uint32_t n = 0;
  for (uint32_t t = start; t < s->settled && n < s->def.max_packet_hashes && room >= 8u; ++t, ++n) {
    fxs_store_le(b + *at, s->hashes[fxs_session_slot(s, s->def.local, t)], 8);
    *at += 8u;
    room -= 8u;
  }
  return n;
}

static size_t write_packet(fxs_session *s, uint32_t q, uint8_t *b, uint32_t now_ms) {
  fxs_session_peer *to = &s->peers[q];
  size_t at = FXS_SESSION_HEADER_BYTES;
  size_t room = (size_t)s->def.max_packet_bytes - FXS_SESSION_MIN_PACKET;
  uint32_t input_start = to->acked_inputs;
  // Our ring still holds every hash the peer has not acknowledged: no tick settles before
  // its hash of `window` ticks earlier is acknowledged by everyone (session.c, hash_room).
  uint32_t hash_start = to->acked_hashes;
  // Hashes keep a share of the room, or long input queues would starve them.
  uint32_t pending = s->settled > hash_start ? s->settled - hash_start : 0u;
  size_t kept = 8u * (pending < 8u ? pending : 8u);
  room -= kept;
  uint32_t frames = write_frames(s, input_start, b, &at, &room);
  uint32_t hashes = write_hashes(s, hash_start, b, &at, room + kept);
  fxs_store_le(b + AT_MAGIC, FXS_SESSION_PACKET_MAGIC, 4);
  b[AT_VERSION] = (uint8_t)FXS_SESSION_PACKET_VERSION;
  b[AT_SENDER] = s->def.local;
  b[AT_RECEIVER] = (uint8_t)q;
  b[AT_FLAGS] = to->has_echo ? (uint8_t)FLAG_ECHO : 0u;
  fxs_store_le(b + AT_SESSION, s->def.session_id, 4);
  fxs_store_le(b + AT_LENGTH, at + FXS_SESSION_CHECKSUM_BYTES, 2);
  b[AT_FRAMES] = (uint8_t)frames;
  b[AT_HASHES] = (uint8_t)hashes;
  fxs_store_le(b + AT_TICK, s->current, 4);
  fxs_store_le(b + AT_INPUT_ACK, fxs_session_is_player(s, q) ? s->peers[q].received : 0u, 4);
  fxs_store_le(b + AT_HASH_ACK, to->hashes_received, 4);
  fxs_store_le(b + AT_INPUT_START, input_start, 4);
  fxs_store_le(b + AT_HASH_START, hash_start, 4);
  fxs_store_le(b + AT_SEND_MS, now_ms, 4);
  fxs_store_le(b + AT_ECHO_MS, to->has_echo ? to->echo_ms + (now_ms - to->echo_at_ms) : 0u, 4);
  fxs_store_le(b + AT_SIMULATION, FXS_SIMULATION_VERSION, 4);
  fxs_store_le(b + AT_MATH, s->math_fingerprint, 8);
  fxs_store_le(b + at, fxs_session_checksum(b, at), 4);
  if (input_start + frames > to->sent_inputs) to->sent_inputs = input_start + frames;
  if (hash_start + hashes > to->sent_hashes) to->sent_hashes = hash_start + hashes;
  return at + FXS_SESSION_CHECKSUM_BYTES;
}

// A packet is due when there is news (new data, something to acknowledge), when data is
// still unacknowledged after resend_ms, or every keepalive_ms.
static bool due(const fxs_session *s, uint32_t q, uint32_t now_ms) {
  const fxs_session_peer *to = &s->peers[q];
  bool player = fxs_session_is_player(s, s->def.local);
  uint32_t inputs = player ? s->peers[s->def.local].received : 0u;
  bool fresh = (player && inputs > to->sent_inputs) || s->settled > to->sent_hashes;
  bool unacked = (player && to->acked_inputs < inputs) || to->acked_hashes < s->settled;
  uint32_t quiet = now_ms - to->last_sent_ms;
  uint32_t resend = to->rtt_ms + to->rtt_ms / 4u;
  if (resend < s->def.resend_ms) resend = s->def.resend_ms;
  return !to->sent || fresh || (to->dirty && quiet >= s->def.ack_delay_ms) ||
         (unacked && quiet >= resend) || quiet >= s->def.keepalive_ms;
}

fxs_result fxs_session_poll_send(fxs_session *s, uint8_t peer, uint32_t now_ms, uint8_t *buf,
                                 size_t cap, size_t *len) {
  if (len) *len = 0;
  FXS_ASSERT(s && buf && len && peer < s->peer_count && peer != s->def.local);
  if (!s || !buf || !len || peer >= s->peer_count || peer == s->def.local) return FXS_ERR_BAD_VALUE;
  if (cap < s->def.max_packet_bytes) return FXS_ERR_BUFFER_TOO_SMALL;
  fxs_session_start_clock(s, now_ms);
  if (s->peers[peer].absent || !due(s, peer, now_ms)) return FXS_OK;
  fxs_session_peer *to = &s->peers[peer];
  *len = write_packet(s, peer, buf, now_ms);
  to->sent = true;
  to->dirty = false;
  to->last_sent_ms = now_ms;
  to->packets_sent++;
  to->bytes_sent += *len;
  return FXS_OK;
}

// ------------------------------------------------------------------ reading

uint32_t fxs_session_packet_version(const uint8_t *bytes, size_t len) {
  if (!bytes || len <= AT_VERSION || fxs_load_le32(bytes + AT_MAGIC) != FXS_SESSION_PACKET_MAGIC)
    return 0;
  return bytes[AT_VERSION];
}

uint32_t fxs_session_packet_hash_version(uint32_t packet_version) {
  if (packet_version == 1u) return FXS_STATE_HASH_V2;
  return packet_version == 2u || packet_version == 3u ? FXS_STATE_HASH_V3 : 0u;
}

// Where a packet or an offer of the current layouts keeps its sender's build (the offer's
// offsets: session_join.c).
#define OFFER_AT_SIMULATION 28u
#define OFFER_AT_MATH 32u

bool fxs_session_sender_build(const uint8_t *bytes, size_t len, uint32_t *simulation_version,
                              uint64_t *fingerprint) {
  if (!bytes || len < 40u) return false;
  uint32_t magic = fxs_load_le32(bytes + AT_MAGIC);
  size_t at;
  if (magic == FXS_SESSION_PACKET_MAGIC && bytes[AT_VERSION] == FXS_SESSION_PACKET_VERSION &&
      len >= FXS_SESSION_HEADER_BYTES)
    at = AT_SIMULATION;
  else if (magic == FXS_SESSION_OFFER_MAGIC && bytes[AT_VERSION] == FXS_SESSION_OFFER_VERSION)
    at = OFFER_AT_SIMULATION;
  else return false;
  if (simulation_version) *simulation_version = fxs_load_le32(bytes + at);
  if (fingerprint) *fingerprint = fxs_load_le64(bytes + at + 4u);
  return true;
}

static fxs_result read_header(const fxs_session *s, uint8_t from, const uint8_t *b, size_t len,
                              packet *p) {
  if (len < FXS_SESSION_MIN_PACKET) return FXS_ERR_TRUNCATED;
  if (fxs_load_le32(b + AT_MAGIC) != FXS_SESSION_PACKET_MAGIC) return FXS_ERR_BAD_MAGIC;
  if (b[AT_VERSION] != FXS_SESSION_PACKET_VERSION) return FXS_ERR_BAD_VERSION;
  p->length = fxs_load_le16(b + AT_LENGTH);
  if (p->length > len) return FXS_ERR_TRUNCATED;
  if (p->length != len || len < FXS_SESSION_MIN_PACKET) return FXS_ERR_BAD_LENGTH;
  if (fxs_load_le32(b + len - FXS_SESSION_CHECKSUM_BYTES) !=
      fxs_session_checksum(b, len - FXS_SESSION_CHECKSUM_BYTES)) {
    return FXS_ERR_BAD_CHECKSUM;
  }
  // The handshake every packet makes: another behavior or other math would read as a desync.
  if (fxs_load_le32(b + AT_SIMULATION) != FXS_SIMULATION_VERSION) return FXS_ERR_SIMULATION_VERSION;
  if (fxs_load_le64(b + AT_MATH) != s->math_fingerprint) return FXS_ERR_BAD_FINGERPRINT;
  if (fxs_load_le32(b + AT_SESSION) != s->def.session_id) return FXS_ERR_WRONG_SESSION;
  p->sender = b[AT_SENDER];
  p->flags = b[AT_FLAGS];
  if (p->sender != from || b[AT_RECEIVER] != s->def.local || (p->flags & ~FLAG_ECHO) != 0) {
    return FXS_ERR_BAD_PACKET;
  }
  p->frames = b[AT_FRAMES];
  p->hash_count = b[AT_HASHES];
  if (len > s->def.max_packet_bytes || p->frames > s->def.max_packet_inputs ||
      p->hash_count > s->def.max_packet_hashes) {
    return FXS_ERR_LIMIT;
  }
  if (p->frames && !fxs_session_is_player(s, from))
    return FXS_ERR_BAD_PACKET; // spectators have no input
  p->tick = fxs_load_le32(b + AT_TICK);
  p->input_ack = fxs_load_le32(b + AT_INPUT_ACK);
  p->hash_ack = fxs_load_le32(b + AT_HASH_ACK);
  p->input_start = fxs_load_le32(b + AT_INPUT_START);
  p->hash_start = fxs_load_le32(b + AT_HASH_START);
  p->send_ms = fxs_load_le32(b + AT_SEND_MS);
  p->echo_ms = fxs_load_le32(b + AT_ECHO_MS);
  return FXS_OK;
}

// Walks the frames and hashes: every count within the limits, every command decodable, and
// the lengths adding up to the packet exactly.
static fxs_result check_body(const fxs_session *s, const packet *p, const uint8_t *b) {
  size_t at = FXS_SESSION_HEADER_BYTES, end = p->length - FXS_SESSION_CHECKSUM_BYTES;
  for (uint32_t f = 0; f < p->frames; ++f) {
    if (end - at < 2u) return FXS_ERR_BAD_LENGTH;
    uint16_t c = fxs_load_le16(b + at);
    at += 2u;
    if (c > s->def.max_commands) return FXS_ERR_LIMIT;
    for (uint16_t i = 0; i < c; ++i) {
      fxs_command cmd;
      size_t used = 0;
      fxs_result r = fxs_session_get_command(b + at, end - at, p->sender, i, &cmd, &used);
      if (r != FXS_OK) return r;
      at += used;
    }
  }
  return end - at == (size_t)p->hash_count * 8u ? FXS_OK : FXS_ERR_BAD_LENGTH;
}

// Ticks and acknowledgements an honest peer can send: frames that start no later than our
// first missing one, acknowledgements of no more than we sent, no tick counter overflow, and
// hashes that start no later than our first missing one (an honest peer keeps every hash we
// have not acknowledged, so a gap can only be forged to skip comparisons) of ticks it can have
// settled: before the tick it is at and, when we play, before our first input it lacks.
static fxs_result check_sequence(const fxs_session *s, const packet *p) {
  const fxs_session_peer *from = &s->peers[p->sender];
  uint32_t me = s->def.local;
  if (p->frames && (p->input_start > UINT32_MAX - p->frames || p->input_start > from->received)) {
    return FXS_ERR_BAD_SEQUENCE;
  }
  if (p->hash_count) {
    uint32_t end = p->hash_start + p->hash_count;
    // A joiner compares from the tick it joined at: the hashes of ticks before it may skip.
    bool gap = p->hash_start > from->hashes_received && p->hash_start > s->joined_at;
    if (p->hash_start > UINT32_MAX - p->hash_count || gap || end > p->tick ||
        (fxs_session_is_player(s, me) && end > s->peers[me].received)) {
      return FXS_ERR_BAD_SEQUENCE;
    }
  }
  if (fxs_session_is_player(s, me) && p->input_ack > s->peers[me].received)
    return FXS_ERR_BAD_SEQUENCE;
  if (p->hash_ack > s->settled) return FXS_ERR_BAD_SEQUENCE;
  return FXS_OK;
}

// Stores the frames that extend the sender's inputs without a gap, while the ring has room.
static bool take_frames(fxs_session *s, const packet *p, const uint8_t *b, size_t *at) {
  uint32_t q = p->sender;
  fxs_session_peer *from = &s->peers[q];
  bool fresh = false;
  for (uint32_t f = 0; f < p->frames; ++f) {
    uint16_t c = fxs_load_le16(b + *at);
    uint32_t t = p->input_start + f;
    *at += 2u;
    bool take = t == from->received && t - s->settled < s->def.window;
    fxs_command *frame = fxs_session_frame(s, q, t), skipped;
    for (uint16_t i = 0; i < c; ++i) {
      size_t used = 0;
      fxs_session_get_command(b + *at, p->length - *at, (uint8_t)q, i, take ? &frame[i] : &skipped,
                              &used);
      *at += used;
    }
    if (take) {
      s->counts[fxs_session_slot(s, q, t)] = c;
      from->received = t + 1u;
      fxs_session_input_arrived(s, q, t, c);
      fresh = true;
    }
  }
  return fresh;
}

// Stores the hashes we lack (check_sequence has refused any gap before them, except below the
// tick a joiner joined at, which it does not compare).
static bool take_hashes(fxs_session *s, const packet *p, const uint8_t *b, size_t at) {
  uint32_t q = p->sender;
  fxs_session_peer *from = &s->peers[q];
  bool fresh = false;
  for (uint32_t i = 0; i < p->hash_count; ++i, at += 8u) {
    uint32_t t = p->hash_start + i;
    if (t < from->hashes_received) continue;
    if (t >= from->hashes_compared && t - from->hashes_compared >= s->def.window) break; // no room
    s->hashes[fxs_session_slot(s, q, t)] = fxs_load_le64(b + at);
    from->hashes_received = t + 1u;
    fresh = true;
  }
  return fresh;
}

// Keeps the sender's newest send time to echo, and measures the round trip from its echo of
// ours (samples over a minute are ignored: a clock that jumped, or a forged echo).
static void take_times(fxs_session_peer *from, const packet *p, uint32_t now_ms) {
  if (!from->has_echo || (int32_t)(p->send_ms - from->echo_ms) > 0) {
    from->has_echo = true;
    from->echo_ms = p->send_ms;
    from->echo_at_ms = now_ms;
  }
  uint32_t sample = now_ms - p->echo_ms;
  if (!(p->flags & FLAG_ECHO) || sample > 60000u) return;
  from->rtt_ms = from->rtt_ms ? (uint32_t)(((uint64_t)from->rtt_ms * 7u + sample) / 8u) : sample;
}

fxs_result fxs_session_receive(fxs_session *s, uint8_t peer, const uint8_t *bytes, size_t len,
                               uint32_t now_ms) {
  if (!s || peer >= s->peer_count || peer == s->def.local || (!bytes && len))
    return FXS_ERR_BAD_VALUE;
  fxs_session_start_clock(s, now_ms);
  packet p;
  fxs_result r = bytes ? read_header(s, peer, bytes, len, &p) : FXS_ERR_TRUNCATED;
  if (r == FXS_OK && s->peers[peer].absent) r = FXS_ERR_ABSENT;
  if (r == FXS_OK) r = check_body(s, &p, bytes);
  if (r == FXS_OK) r = check_sequence(s, &p);
  fxs_session_peer *from = &s->peers[peer];
  if (r != FXS_OK) {
    from->packets_rejected++;
    return r;
  }
  from->heard = true;
  from->last_heard_ms = now_ms;
  from->tick = p.tick;
  from->packets_received++;
  from->bytes_received += len;
  take_times(from, &p, now_ms);
  if (fxs_session_is_player(s, s->def.local) && p.input_ack > from->acked_inputs)
    from->acked_inputs = p.input_ack;
  if (p.hash_ack > from->acked_hashes) from->acked_hashes = p.hash_ack;
  size_t at = FXS_SESSION_HEADER_BYTES;
  bool fresh = take_frames(s, &p, bytes, &at);
  fresh = take_hashes(s, &p, bytes, at) || fresh;
  if (fresh) {
    from->dirty = true;
    fxs_session_compare_hashes(s);
  }
  return FXS_OK;
}
