#include "bytes.h"

#include <string.h>

fxs_writer fxs_writer_comparing(const uint8_t *expect, size_t size) {
  fxs_writer w = fxs_writer_make(0, 0, 0);
  w.expect = expect;
  w.expect_size = expect ? size : 0;
  return w;
}

void fxs_writer_store(fxs_writer *w, uint64_t v, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) {
    size_t at = w->position + i;
    uint8_t b = (uint8_t)(v >> (8u * i));
    if (w->buffer && at < w->capacity) w->buffer[at] = b;
    if (w->expect && !w->differs && (at >= w->expect_size || w->expect[at] != b)) {
      w->differs = true;
      w->mismatch = at;
    }
  }
}

void fxs_put_bytes(fxs_writer *w, const uint8_t *bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) fxs_put_u8(w, bytes[i]);
}

void fxs_put_block(fxs_writer *w, const uint8_t *bytes, size_t size) {
  if (w->hasher) fxs_state_hash_block(w->hasher, bytes, size);
  if (w->buffer && !w->expect && w->position <= w->capacity && w->capacity - w->position >= size) {
    memcpy(w->buffer + w->position, bytes, size);
  } else if (w->buffer || w->expect) { // near the end of the buffer, or comparing
    size_t start = w->position;
    for (size_t i = 0; i < size; ++i) {
      w->position = start + i;
      fxs_writer_store(w, bytes[i], 1);
    }
    w->position = start;
  }
  w->position += size;
}

bool fxs_writer_fits(const fxs_writer *w) { return w->position <= w->capacity; }

fxs_reader fxs_reader_make(const uint8_t *data, size_t size) {
  fxs_reader r;
  r.data = data;
  r.size = data ? size : 0;
  r.position = 0;
  r.failed = false;
  return r;
}

uint8_t fxs_get_u8(fxs_reader *r) {
  if (r->failed || r->position >= r->size) {
    r->failed = true;
    return 0;
  }
  return r->data[r->position++];
}

// The n-byte little-endian value at the read position: one load when all n bytes are there
// (the usual case), otherwise byte by byte, so that a short read fails as fxs_get_u8 does.
// A caller may have moved the position past the end (fxs_snapshot_capacity skips to a field):
// that is a short read too.
static uint64_t get_le(fxs_reader *r, uint32_t bytes) {
  if (!r->failed && r->position <= r->size && r->size - r->position >= bytes) {
    uint64_t v = fxs_load_le(r->data + r->position, bytes);
    r->position += bytes;
    return v;
  }
  uint64_t v = 0;
  for (uint32_t i = 0; i < bytes; ++i) v |= (uint64_t)fxs_get_u8(r) << (8u * i);
  return v;
}

uint16_t fxs_get_u16(fxs_reader *r) { return (uint16_t)get_le(r, 2); }

uint32_t fxs_get_u32(fxs_reader *r) { return (uint32_t)get_le(r, 4); }

int32_t fxs_get_i32(fxs_reader *r) {
  uint32_t v = fxs_get_u32(r);
  // Portable two's-complement decoding (no implementation-defined conversion).
  return v <= 0x7FFFFFFFu ? (int32_t)v : (int32_t)((int64_t)v - INT64_C(4294967296));
}

uint64_t fxs_get_u64(fxs_reader *r) { return get_le(r, 8); }
