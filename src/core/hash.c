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
  fxs_state_hasher end = *h;
  // The pending bytes form a final word padded with zeros; the length tells "ab" + 0 apart
  // from "ab".
  if (end.fill) fxs_state_hash_word(&end, end.pending);
  uint64_t x = end.lane[0];
  if (end.version != FXS_STATE_HASH_V2) {
    for (int i = 1; i < 4; ++i) x = fxs_state_hash_fold(x, end.lane[i]);
  }
  x ^= end.length;
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

// The whole words of a block, v2: one chain.
static const uint8_t *words_v2(fxs_state_hasher *h, const uint8_t *p, size_t words) {
  uint64_t state = h->lane[0];
  for (; words; --words, p += 8) state = fxs_state_hash_fold(state, fxs_load_le64(p));
  h->lane[0] = state;
  return p;
}

// The whole words of a block, v3: the lanes held in registers in the order the words reach
// them (a takes the next word), four words at a time so that the four folds overlap, then
// the last zero to three.
static const uint8_t *words_v3(fxs_state_hasher *h, const uint8_t *p, size_t words) {
  uint32_t k = h->next;
  uint64_t a = h->lane[k], b = h->lane[(k + 1u) & 3u], c = h->lane[(k + 2u) & 3u];
  uint64_t d = h->lane[(k + 3u) & 3u];
  for (; words >= 4u; words -= 4u, p += 32) {
    a = fxs_state_hash_step(a, fxs_load_le64(p));
    b = fxs_state_hash_step(b, fxs_load_le64(p + 8));
    c = fxs_state_hash_step(c, fxs_load_le64(p + 16));
    d = fxs_state_hash_step(d, fxs_load_le64(p + 24));
  }
  if (words > 0u) a = fxs_state_hash_step(a, fxs_load_le64(p));
  if (words > 1u) b = fxs_state_hash_step(b, fxs_load_le64(p + 8));
  if (words > 2u) c = fxs_state_hash_step(c, fxs_load_le64(p + 16));
  h->lane[k] = a, h->lane[(k + 1u) & 3u] = b, h->lane[(k + 2u) & 3u] = c;
  h->lane[(k + 3u) & 3u] = d;
  h->next = (uint32_t)((k + words) & 3u);
  return p + 8u * words;
}

// The same words as fxs_state_hash_put byte by byte, each built in a register: the pending
// word is completed from the block's first bytes and the block's last bytes start the next,
// so only the folds form the chain of dependent steps.
void fxs_state_hash_block(fxs_state_hasher *h, const uint8_t *p, size_t size) {
  size_t fill = h->fill;
  h->length += size;
  if (fill + size < 8u) { // the block does not complete the pending word
    h->pending |= fxs_load_le(p, (uint32_t)size) << (8u * fill);
    h->fill = (uint32_t)(fill + size);
    return;
  }
  if (fill != 0) {
    size_t need = 8u - fill;
    fxs_state_hash_word(h, h->pending | (fxs_load_le(p, (uint32_t)need) << (8u * fill)));
    p += need, size -= need;
  }
  p = h->version == FXS_STATE_HASH_V2 ? words_v2(h, p, size / 8u) : words_v3(h, p, size / 8u);
  size %= 8u;
  h->pending = fxs_load_le(p, (uint32_t)size);
  h->fill = (uint32_t)size;
}
