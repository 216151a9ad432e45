// Replays whose checksums, version and math fingerprint are repaired before reading, so
// mutated commands, snapshots, ticks and lengths reach the reader's field checks, the
// restore and the re-simulation. The repair uses the library's own public hash, so this
// target keeps working when the checksum function changes.
#include "replay_check.h"

static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

// Walks the chunks (tag, length, payload, checksum) while they fit and rewrites each
// checksum; the header chunk also gets this build's version, fingerprint and simulation
// version.
static void repair(uint8_t *data, size_t size) {
  static uint64_t fingerprint;
  if (!fingerprint) fingerprint = fxs_math_fingerprint();
  size_t at = 0;
  while (size - at >= 16) {
    uint32_t tag = get32(data + at);
    uint32_t length = get32(data + at + 4);
    if (length > size - at - 16) break;
    uint8_t *payload = data + at + 8;
    if (at == 0 && tag == FXS_CHUNK_HEADER && length == 24) {
      put16(payload + 4, (uint16_t)FXS_REPLAY_VERSION);
      put64(payload + 8, fingerprint);
      for (int i = 0; i < 4; ++i) payload[20 + i] = (uint8_t)(FXS_SIMULATION_VERSION >> (8 * i));
    }
    fxs_hasher h = fxs_hasher_make();
    fxs_hash_bytes(&h, data + at, 8u + length);
    put64(payload + length, h.state);
    at += 16u + length;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  if (size) memcpy(copy, data, size);
  repair(copy, size);
  replay_exercise(copy, size);
  free(copy);
  return 0;
}
