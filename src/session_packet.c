// The session's packets (docs/lockstep.md has the byte table): a fixed header, the sender's
// unacknowledged input frames, its unacknowledged state hashes and a checksum. Reading
// checks everything first and changes nothing until the whole packet is known to be good.
#include <string.h>

#include "bytes.h"
#include "fixsteer/hash.h"
#include "fixsteer/session.h"
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
  AT_HASH_START = 32
};

// A header as read.
typedef struct packet {
  uint8_t sender, frames, hash_count;
  uint32_t length, tick, input_ack, hash_ack, input_start, hash_start;
} packet;

// FNV-1a 64 of the bytes, folded to 32 bits.
static uint32_t checksum(const uint8_t *bytes, size_t size) {
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, bytes, size);
  return (uint32_t)(h.state ^ (h.state >> 32));
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
    size_t need = 2u + (size_t)c * FXS_COMMAND_BYTES;
    if (need > *room) break;
    fxs_store_le(b + *at, c, 2);
    const fxs_command *frame = fxs_session_frame(s, me, t);
    for (uint16_t i = 0; i < c; ++i) fxs_command_encode(&frame[i], b + *at + 2u + (size_t)i * FXS_COMMAND_BYTES);
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

static size_t write_packet(fxs_session *s, uint32_t q, uint8_t *b) {
  fxs_session_peer *to = &s->peers[q];
  size_t at = FXS_SESSION_HEADER_BYTES;
  size_t room = (size_t)s->def.max_packet_bytes - FXS_SESSION_MIN_PACKET;
  uint32_t input_start = to->acked_inputs;
  uint32_t oldest = fxs_session_oldest_hash(s);
  uint32_t hash_start = to->acked_hashes > oldest ? to->acked_hashes : oldest;
  uint32_t frames = write_frames(s, input_start, b, &at, &room);
  uint32_t hashes = write_hashes(s, hash_start, b, &at, room);
  fxs_store_le(b + AT_MAGIC, FXS_SESSION_PACKET_MAGIC, 4);
  b[AT_VERSION] = (uint8_t)FXS_SESSION_PACKET_VERSION;
  b[AT_SENDER] = s->def.local;
  b[AT_RECEIVER] = (uint8_t)q;
  b[AT_FLAGS] = 0;
  fxs_store_le(b + AT_SESSION, s->def.session_id, 4);
  fxs_store_le(b + AT_LENGTH, at + FXS_SESSION_CHECKSUM_BYTES, 2);
  b[AT_FRAMES] = (uint8_t)frames;
  b[AT_HASHES] = (uint8_t)hashes;
  fxs_store_le(b + AT_TICK, s->current, 4);
  fxs_store_le(b + AT_INPUT_ACK, fxs_session_is_player(s, q) ? s->peers[q].received : 0u, 4);
  fxs_store_le(b + AT_HASH_ACK, to->hashes_received, 4);
  fxs_store_le(b + AT_INPUT_START, input_start, 4);
  fxs_store_le(b + AT_HASH_START, hash_start, 4);
  fxs_store_le(b + at, checksum(b, at), 4);
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
  return !to->sent || to->dirty || fresh || (unacked && quiet >= s->def.resend_ms) ||
         quiet >= s->def.keepalive_ms;
}

fxs_result fxs_session_poll_send(fxs_session *s, uint8_t peer, uint32_t now_ms, uint8_t *buf,
                                 size_t cap, size_t *len) {
  if (len) *len = 0;
  FXS_ASSERT(s && buf && len && peer < s->peer_count && peer != s->def.local);
  if (!s || !buf || !len || peer >= s->peer_count || peer == s->def.local) return FXS_ERR_BAD_VALUE;
  if (cap < s->def.max_packet_bytes) return FXS_ERR_BUFFER_TOO_SMALL;
  fxs_session_start_clock(s, now_ms);
  if (!due(s, peer, now_ms)) return FXS_OK;
  fxs_session_peer *to = &s->peers[peer];
  *len = write_packet(s, peer, buf);
  to->sent = true;
  to->dirty = false;
  to->last_sent_ms = now_ms;
  to->packets_sent++;
  to->bytes_sent += *len;
  return FXS_OK;
}

// ------------------------------------------------------------------ reading

static fxs_result read_header(const fxs_session *s, uint8_t from, const uint8_t *b, size_t len,
                              packet *p) {
  if (len < FXS_SESSION_MIN_PACKET) return FXS_ERR_TRUNCATED;
  if (fxs_load_le32(b + AT_MAGIC) != FXS_SESSION_PACKET_MAGIC) return FXS_ERR_BAD_MAGIC;
  if (b[AT_VERSION] != FXS_SESSION_PACKET_VERSION) return FXS_ERR_BAD_VERSION;
  p->length = fxs_load_le16(b + AT_LENGTH);
  if (p->length > len) return FXS_ERR_TRUNCATED;
  if (p->length != len || len < FXS_SESSION_MIN_PACKET) return FXS_ERR_BAD_LENGTH;
  if (fxs_load_le32(b + len - FXS_SESSION_CHECKSUM_BYTES) != checksum(b, len - FXS_SESSION_CHECKSUM_BYTES)) {
    return FXS_ERR_BAD_CHECKSUM;
  }
  if (fxs_load_le32(b + AT_SESSION) != s->def.session_id) return FXS_ERR_WRONG_SESSION;
  p->sender = b[AT_SENDER];
  if (p->sender != from || b[AT_RECEIVER] != s->def.local || b[AT_FLAGS] != 0) return FXS_ERR_BAD_PACKET;
  p->frames = b[AT_FRAMES];
  p->hash_count = b[AT_HASHES];
  if (len > s->def.max_packet_bytes || p->frames > s->def.max_packet_inputs ||
      p->hash_count > s->def.max_packet_hashes) {
    return FXS_ERR_LIMIT;
  }
  if (p->frames && !fxs_session_is_player(s, from)) return FXS_ERR_BAD_PACKET; // spectators have no input
  p->tick = fxs_load_le32(b + AT_TICK);
  p->input_ack = fxs_load_le32(b + AT_INPUT_ACK);
  p->hash_ack = fxs_load_le32(b + AT_HASH_ACK);
  p->input_start = fxs_load_le32(b + AT_INPUT_START);
  p->hash_start = fxs_load_le32(b + AT_HASH_START);
  return FXS_OK;
}

// Walks the frames and hashes: every count within the limits, every command decodable and
// numbered as the sender's, and the lengths adding up to the packet exactly.
static fxs_result check_body(const fxs_session *s, const packet *p, const uint8_t *b) {
  size_t at = FXS_SESSION_HEADER_BYTES, end = p->length - FXS_SESSION_CHECKSUM_BYTES;
  for (uint32_t f = 0; f < p->frames; ++f) {
    if (end - at < 2u) return FXS_ERR_BAD_LENGTH;
    uint16_t c = fxs_load_le16(b + at);
    at += 2u;
    if (c > s->def.max_commands) return FXS_ERR_LIMIT;
    if ((end - at) / FXS_COMMAND_BYTES < c) return FXS_ERR_BAD_LENGTH;
    for (uint16_t i = 0; i < c; ++i, at += FXS_COMMAND_BYTES) {
      fxs_command cmd;
      fxs_result r = fxs_command_decode(b + at, &cmd);
      if (r != FXS_OK) return r;
      if (cmd.source != p->sender || cmd.sequence != i) return FXS_ERR_BAD_PACKET;
    }
  }
  return end - at == (size_t)p->hash_count * 8u ? FXS_OK : FXS_ERR_BAD_LENGTH;
}

// Ticks and acknowledgements an honest peer can send: frames that start no later than our
// first missing one, acknowledgements of no more than we sent, no tick counter overflow.
static fxs_result check_sequence(const fxs_session *s, const packet *p) {
  const fxs_session_peer *from = &s->peers[p->sender];
  uint32_t me = s->def.local;
  if (p->frames && (p->input_start > UINT32_MAX - p->frames || p->input_start > from->received)) {
    return FXS_ERR_BAD_SEQUENCE;
  }
  if (p->hash_count && p->hash_start > UINT32_MAX - p->hash_count) return FXS_ERR_BAD_SEQUENCE;
  if (fxs_session_is_player(s, me) && p->input_ack > s->peers[me].received) return FXS_ERR_BAD_SEQUENCE;
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
    if (t == from->received && t - s->settled < s->def.window) {
      fxs_command *frame = fxs_session_frame(s, q, t);
      for (uint16_t i = 0; i < c; ++i) fxs_command_decode(b + *at + (size_t)i * FXS_COMMAND_BYTES, &frame[i]);
      s->counts[fxs_session_slot(s, q, t)] = c;
      from->received = t + 1u;
      fxs_session_input_arrived(s, q, t, c);
      fresh = true;
    }
    *at += (size_t)c * FXS_COMMAND_BYTES;
  }
  return fresh;
}

// Stores the hashes we lack. A first hash past our next one means the sender's ring no
// longer holds the ticks between: they are skipped (never compared).
static bool take_hashes(fxs_session *s, const packet *p, const uint8_t *b, size_t at) {
  uint32_t q = p->sender;
  fxs_session_peer *from = &s->peers[q];
  bool fresh = false;
  for (uint32_t i = 0; i < p->hash_count; ++i, at += 8u) {
    uint32_t t = p->hash_start + i;
    if (t < from->hashes_received) continue;
    bool room = t < from->hashes_compared || t - from->hashes_compared < s->def.window;
    if (!room) break;
    s->hashes[fxs_session_slot(s, q, t)] = fxs_load_le64(b + at);
    from->hashes_received = t + 1u;
    fresh = true;
  }
  return fresh;
}

fxs_result fxs_session_receive(fxs_session *s, uint8_t peer, const uint8_t *bytes, size_t len,
                               uint32_t now_ms) {
  if (!s || peer >= s->peer_count || peer == s->def.local || (!bytes && len)) return FXS_ERR_BAD_VALUE;
  fxs_session_start_clock(s, now_ms);
  packet p;
  fxs_result r = bytes ? read_header(s, peer, bytes, len, &p) : FXS_ERR_TRUNCATED;
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
  if (fxs_session_is_player(s, s->def.local) && p.input_ack > from->acked_inputs) from->acked_inputs = p.input_ack;
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
