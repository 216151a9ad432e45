// Join offers from other peers (fxs_session_join): every offer is untrusted. The input is up
// to three offers, each as [flags u8][length u16 LE][bytes], for the joiner, peer 2 of a
// three-player lockstep match with one spectator. Flags bit 0 seals the offer (writes a valid
// magic, version, sender, joiner, session id, length and checksum over the fuzzed bytes, so the
// body checks are reached); bit 1 makes the fuzzed bytes the offer's hashes and frames and
// appends a real state (a fresh world's snapshot at tick 0, or after `tick` steps taken from
// the next byte) with the state flag, so the frame and hash checks run against a state that
// restores. Checks: a refusal names an offer that exists and a byte inside it; an accepted
// join leaves a session whose invariants hold (world and session at the joined tick, every
// player's inputs reach it) and that can be stepped and sent from without any other failure.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/session_join.h"
#include "fuzz_common.h"

#define SESSION_ID 0x10ffu
#define MAX_OFFER 8192u

static const fxs_world_capacity capacity = {
    .agents = 8, .obstacles = 2, .paths = 1, .path_nodes = 4, .walls = 2};
static fxs_world world, source_world;
static fxs_session session;
static uint64_t world_memory[4096], source_memory[4096];
static uint64_t memory[32768];
static uint8_t offers[3][MAX_OFFER];
static uint8_t packet[FXS_SESSION_MAX_PACKET];

static fxs_session_def match_def(void) {
  fxs_session_def d = fxs_default_session_def();
  d.players = 3;
  d.spectators = 1;
  d.local = 2;
  d.session_id = SESSION_ID;
  d.max_commands = 8;
  d.max_packet_bytes = 2048;
  d.window = 16;
  d.tick_limit = 64;
  d.progress_window_ms = 0;
  return d;
}

static void store32(uint8_t *b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[i] = (uint8_t)(v >> (8 * i));
}

// Header fields and checksum made valid around the fuzzed bytes.
static uint64_t math; // fxs_math_fingerprint(), once

static void seal(uint8_t *b, size_t len, uint8_t sender) {
  store32(b, FXS_SESSION_OFFER_MAGIC);
  b[4] = (uint8_t)FXS_SESSION_OFFER_VERSION;
  b[5] = sender, b[6] = 2;
  store32(b + 8, SESSION_ID);
  store32(b + 12, (uint32_t)len);
  b[26] = 3, b[27] = 0;
  store32(b + 28, FXS_SIMULATION_VERSION); // this build's: the fuzzed bytes get past it
  for (int i = 0; i < 8; ++i) b[32 + i] = (uint8_t)(math >> (8 * i));
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, b, len - FXS_SESSION_CHECKSUM_BYTES);
  store32(b + len - 4, (uint32_t)(h.state ^ (h.state >> 32)));
}

// The fuzzed body followed by a real state of a world stepped `ticks` times.
static size_t with_state(uint8_t *b, const uint8_t *body, size_t len, uint8_t ticks) {
  fxs_world_def wd = fxs_default_world_def();
  FUZZ_CHECK(
      fxs_world_init(&source_world, &wd, &capacity, source_memory, sizeof source_memory) == FXS_OK,
      "world");
  for (uint8_t t = 0; t < ticks % 8u; ++t) fxs_world_step(&source_world, 0, 0, 0);
  size_t size = fxs_world_snapshot_size(&source_world);
  if (len < 28 || len + 4 + size + 4 > MAX_OFFER) return 0;
  memcpy(b, body, len);
  b[7] = 1;
  store32(b + 16, source_world.tick);
  store32(b + len, (uint32_t)size);
  size_t used = 0;
  FUZZ_CHECK(fxs_world_save(&source_world, b + len + 4, size, &used) == FXS_OK, "save");
  return len + 4 + size + 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *list[3];
  size_t lengths[3];
  uint32_t n = 0;
  size_t at = 0;
  while (n < 3 && size - at >= 4) {
    uint8_t flags = data[at], ticks = data[at + 3];
    size_t len = (size_t)data[at + 1] | ((size_t)data[at + 2] << 8);
    at += 4;
    if (len > size - at) len = size - at;
    if (len > MAX_OFFER - 4) len = MAX_OFFER - 4;
    uint8_t *b = offers[n];
    size_t total = len;
    if (flags & 2u) {
      total = with_state(b, data + at, len, ticks);
      if (!total) total = len, memcpy(b, data + at, len);
    } else {
      memcpy(b, data + at, len);
    }
    at += len;
    uint8_t sender = (uint8_t)(n == 2 ? 3u : n);
    if (!math) math = fxs_math_fingerprint();
    if ((flags & 1u) && total >= 44) seal(b, total, sender);
    list[n] = b, lengths[n] = total, n++;
  }
  if (n == 0) return 0;
  fxs_world_def wd = fxs_default_world_def();
  FUZZ_CHECK(fxs_world_init(&world, &wd, &capacity, world_memory, sizeof world_memory) == FXS_OK,
             "world");
  fxs_session_def d = match_def();
  fxs_session_join_error e;
  fxs_result r =
      fxs_session_join(&session, &d, memory, sizeof memory, &world, list, lengths, n, &e);
  if (r != FXS_OK) {
    FUZZ_CHECK(e.result == r && e.offer < n && e.offset <= lengths[e.offer],
               "refusal %s names offer %u byte %zu of %u offers", fxs_result_message(r), e.offer,
               e.offset, n);
    return 0;
  }
  FUZZ_CHECK(world.tick == session.current && session.current == session.settled,
             "joined: world at %u, session at %u, settled %u", world.tick, session.current,
             session.settled);
  for (uint32_t p = 0; p < 3; ++p) {
    FUZZ_CHECK(session.peers[p].received >= session.settled, "player %u: inputs to %u", p,
               session.peers[p].received);
  }
  for (uint32_t now = 1; now < 40; now += 4) {
    if (fxs_session_wants_input(&session)) {
      r = fxs_session_submit(&session, 0, 0);
      FUZZ_CHECK(r == FXS_OK || r == FXS_ERR_FULL, "submit: %s", fxs_result_message(r));
    }
    r = fxs_session_advance(&session, &world, now);
    FUZZ_CHECK(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_LIMIT, "advance: %s",
               fxs_result_message(r));
    for (uint8_t q = 0; q < 4; ++q) {
      size_t len = 0;
      if (q == 2) continue;
      r = fxs_session_poll_send(&session, q, now, packet, sizeof packet, &len);
      FUZZ_CHECK(r == FXS_OK && len <= session.def.max_packet_bytes, "send: %s",
                 fxs_result_message(r));
    }
  }
  return 0;
}
