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
