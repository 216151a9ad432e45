#include "fixsteer/hash.h"

#define FNV_PRIME UINT64_C(0x100000001B3)

fxs_hasher fxs_hasher_make(void) {
  fxs_hasher h;
  h.state = FXS_HASH_INIT;
  return h;
}

void fxs_hash_u8(fxs_hasher *h, uint8_t v) { h->state = (h->state ^ v) * FNV_PRIME; }

void fxs_hash_bytes(fxs_hasher *h, const void *bytes, size_t size) {
  const uint8_t *p = (const uint8_t *)bytes;
  for (size_t i = 0; i < size; ++i) fxs_hash_u8(h, p[i]);
}

void fxs_hash_u32(fxs_hasher *h, uint32_t v) {
  for (int i = 0; i < 4; ++i) fxs_hash_u8(h, (uint8_t)(v >> (8 * i)));
}

void fxs_hash_i32(fxs_hasher *h, int32_t v) { fxs_hash_u32(h, (uint32_t)v); }

void fxs_hash_u64(fxs_hasher *h, uint64_t v) {
  for (int i = 0; i < 8; ++i) fxs_hash_u8(h, (uint8_t)(v >> (8 * i)));
}

uint64_t fxs_state_hash_value(const fxs_state_hasher *h) {
  uint64_t x = h->state;
  // The pending bytes form a final word padded with zeros; the length tells "ab" + 0 apart
  // from "ab".
  if (h->fill) x = fxs_state_hash_fold(x, h->pending);
  x ^= h->length;
  x ^= x >> 33;
  x *= FXS_STATE_HASH_K3;
  x ^= x >> 29;
  x *= FXS_STATE_HASH_K4;
  x ^= x >> 32;
  return x;
}

void fxs_state_hash_bytes(fxs_state_hasher *h, const void *bytes, size_t size) {
  const uint8_t *p = (const uint8_t *)bytes;
  for (size_t i = 0; i < size; ++i) fxs_state_hash_put(h, p[i], 1);
}

// The n < 8 bytes at p as the low bytes of a word, least significant first.
static uint64_t low_bytes(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8u * i);
  return v;
}

// The 8 bytes at p, least significant first (one load on a little-endian core).
static uint64_t word_at(const uint8_t *p) {
  return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
         ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
         ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

// The same words as fxs_state_hash_put byte by byte, each built in a register: the pending
// word is completed from the block's first bytes and the block's last bytes start the next,
// so only the folds form the chain of dependent steps.
void fxs_state_hash_block(fxs_state_hasher *h, const uint8_t *p, size_t size) {
  uint64_t state = h->state, pending = h->pending;
  size_t fill = h->fill;
  h->length += size;
  if (fill + size < 8u) { // the block does not complete the pending word
    h->pending = pending | (low_bytes(p, size) << (8u * fill));
    h->fill = (uint32_t)(fill + size);
    return;
  }
  if (fill != 0) {
    size_t need = 8u - fill;
    state = fxs_state_hash_fold(state, pending | (low_bytes(p, need) << (8u * fill)));
    p += need, size -= need;
  }
  for (; size >= 8u; size -= 8u, p += 8) state = fxs_state_hash_fold(state, word_at(p));
  h->state = state;
  h->pending = low_bytes(p, size);
  h->fill = (uint32_t)size;
}
