// Session packets from other peers (fxs_session_receive): every packet is untrusted. The input
// is a sequence of packets, each as [flags u8][length u16 LE][bytes]; flags bit 0 seals the
// packet (writes a valid magic, version, session id, sender, receiver, length and checksum
// over the fuzzed bytes, so the body checks are reached), bits 1-2 pick the sender (peer 1,
// 2 or the spectator 3), bit 3 lets peer 0 submit and step a tick after it, bit 4 marks the
// packet to be sent twice. Checks: a refused packet leaves the session byte for byte as it
// was (its memory block and its fields, but the refusal counter); stepping and sending never
// fail in other ways than the documented ones; the session's invariants hold after each
// packet (settled <= current, every player's inputs reach the settled tick, the world is at
// the session's tick).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/session.h"
#include "fuzz_common.h"

#define SESSION_ID 0x5e55u
#define MEMORY_WORDS 32768u

static const fxs_world_capacity capacity = {
    .agents = 8, .obstacles = 2, .paths = 1, .path_nodes = 4, .walls = 2};
static fxs_world world;
static fxs_session session, before, after;
static uint64_t world_memory[4096];
static uint64_t memory[MEMORY_WORDS], memory_before[MEMORY_WORDS];
static size_t memory_size;
static uint8_t packet[FXS_SESSION_MAX_PACKET];

// Three players and a spectator, rollback, local peer 0.
static void start(void) {
  fxs_world_def wd = fxs_default_world_def();
  FUZZ_CHECK(fxs_world_init(&world, &wd, &capacity, world_memory, sizeof world_memory) == FXS_OK,
             "world");
  fxs_session_def d = fxs_default_session_def();
  d.mode = FXS_SESSION_ROLLBACK;
  d.players = 3;
  d.spectators = 1;
  d.session_id = SESSION_ID;
  d.max_commands = 8;
  d.max_packet_bytes = 2048;
  d.snapshot_bytes = 4096;
  d.tick_limit = 64;
  d.progress_window_ms = 0; // packets are under test here; the progress bound has unit tests
  memory_size = fxs_session_memory_size(&d);
  FUZZ_CHECK(memory_size > 0 && memory_size <= sizeof memory, "session memory %zu", memory_size);
  FUZZ_CHECK(fxs_session_init(&session, &d, memory, memory_size) == FXS_OK, "session");
  fxs_result r = fxs_session_advance(&session, &world, 0); // starts the clock
  FUZZ_CHECK(r == FXS_OK || r == FXS_ERR_WAITING, "first advance: %s", fxs_result_message(r));
}

static void seal(uint8_t *b, size_t len, uint8_t sender) {
  uint32_t id = SESSION_ID;
  b[0] = 'F', b[1] = 'X', b[2] = 'S', b[3] = 'P';
  b[4] = (uint8_t)FXS_SESSION_PACKET_VERSION;
  b[5] = sender, b[6] = 0;
  for (int i = 0; i < 4; ++i) b[8 + i] = (uint8_t)(id >> (8 * i));
  b[12] = (uint8_t)len, b[13] = (uint8_t)(len >> 8);
  for (int i = 0; i < 4; ++i) b[44 + i] = (uint8_t)(FXS_SIMULATION_VERSION >> (8 * i));
  for (int i = 0; i < 8; ++i) b[48 + i] = (uint8_t)(session.math_fingerprint >> (8 * i));
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, b, len - FXS_SESSION_CHECKSUM_BYTES);
  uint32_t sum = (uint32_t)(h.state ^ (h.state >> 32));
  for (int i = 0; i < 4; ++i) b[len - 4 + (size_t)i] = (uint8_t)(sum >> (8 * i));
}

static void check_invariants(void) {
  FUZZ_CHECK(session.settled <= session.current, "settled %u past current %u", session.settled,
             session.current);
  FUZZ_CHECK(world.tick == session.current, "world at %u, session at %u", world.tick,
             session.current);
  for (uint32_t p = 0; p < session.def.players; ++p) {
    FUZZ_CHECK(session.peers[p].received >= session.settled, "player %u: inputs to %u, settled %u",
               p, session.peers[p].received, session.settled);
  }
  FUZZ_CHECK(session.error == FXS_OK, "the session stopped: %s", fxs_result_message(session.error));
}

// Feeds one packet; a refusal must change nothing but the refusal counter.
static void feed(const uint8_t *bytes, size_t len, uint8_t sender, uint32_t now) {
  memcpy(&before, &session, sizeof session);
  memcpy(memory_before, memory, memory_size);
  fxs_result r = fxs_session_receive(&session, sender, bytes, len, now);
  if (r == FXS_OK) return;
  FUZZ_CHECK(memcmp(memory, memory_before, memory_size) == 0,
             "a refused packet (%s) changed the session's memory", fxs_result_message(r));
  memcpy(&after, &session, sizeof session);
  FUZZ_CHECK(after.peers[sender].packets_rejected == before.peers[sender].packets_rejected + 1,
             "refusal not counted");
  after.peers[sender].packets_rejected = before.peers[sender].packets_rejected;
  FUZZ_CHECK(memcmp(&after, &before, sizeof session) == 0,
             "a refused packet (%s) changed the session", fxs_result_message(r));
}

static void step_and_send(uint32_t now) {
  if (fxs_session_wants_input(&session)) {
    fxs_result r = fxs_session_submit(&session, 0, 0);
    FUZZ_CHECK(r == FXS_OK || r == FXS_ERR_FULL, "submit: %s", fxs_result_message(r));
  }
  fxs_result r = fxs_session_advance(&session, &world, now);
  FUZZ_CHECK(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_LIMIT, "advance: %s",
             fxs_result_message(r));
  for (uint8_t q = 1; q < 4; ++q) {
    size_t len = 0;
    r = fxs_session_poll_send(&session, q, now, packet, sizeof packet, &len);
    FUZZ_CHECK(r == FXS_OK && len <= session.def.max_packet_bytes, "send: %s, %zu bytes",
               fxs_result_message(r), len);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  start();
  uint32_t now = 1;
  size_t at = 0;
  while (size - at >= 3) {
    uint8_t flags = data[at];
    size_t len = (size_t)data[at + 1] | ((size_t)data[at + 2] << 8);
    at += 3;
    if (len > size - at) len = size - at;
    uint8_t sender = (uint8_t)(1u + (flags >> 1 & 3u) % 3u);
    memcpy(packet, data + at, len);
    at += len;
    if ((flags & 1u) && len >= FXS_SESSION_MIN_PACKET) seal(packet, len, sender);
    feed(packet, len, sender, now);
    if (flags & 16u) feed(packet, len, sender, now);
    check_invariants();
    if (flags & 8u) step_and_send(now);
    check_invariants();
    now += 7;
  }
  return 0;
}
