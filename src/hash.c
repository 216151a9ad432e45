#include "fixsteer/hash.h"

#include "bytes.h"

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

// The same words as fxs_state_hash_put byte by byte, each built in a register: the pending
// word is completed from the block's first bytes and the block's last bytes start the next,
// so only the folds form the chain of dependent steps.
void fxs_state_hash_block(fxs_state_hasher *h, const uint8_t *p, size_t size) {
  uint64_t state = h->state, pending = h->pending;
  size_t fill = h->fill;
  h->length += size;
  if (fill + size < 8u) { // the block does not complete the pending word
    h->pending = pending | (fxs_load_le(p, (uint32_t)size) << (8u * fill));
    h->fill = (uint32_t)(fill + size);
    return;
  }
  if (fill != 0) {
    size_t need = 8u - fill;
    state = fxs_state_hash_fold(state, pending | (fxs_load_le(p, (uint32_t)need) << (8u * fill)));
    p += need, size -= need;
  }
  for (; size >= 8u; size -= 8u, p += 8) state = fxs_state_hash_fold(state, fxs_load_le64(p));
  h->state = state;
  h->pending = fxs_load_le(p, (uint32_t)size);
  h->fill = (uint32_t)size;
}
