// Internal: explicit little-endian writing and reading. A writer fills a buffer, feeds the
// state hash, compares with expected bytes, or only counts, so the state hash, snapshots and
// keyframe checks all come from one serializer. The writer's functions are inline: the state
// hash walks every field of every agent each tick.
#ifndef FIXSTEER_BYTES_H
#define FIXSTEER_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fixsteer/hash.h"

typedef struct fxs_writer {
  uint8_t *buffer; // may be NULL: do not store
  size_t capacity;
  size_t position;          // bytes produced so far, even past capacity
  fxs_state_hasher *hasher; // may be NULL
  const uint8_t *expect;    // may be NULL: compare the bytes with these
  size_t expect_size;
  size_t mismatch; // first differing position (valid when differs)
  bool differs;
} fxs_writer;

typedef struct fxs_reader {
  const uint8_t *data;
  size_t size;
  size_t position;
  bool failed; // set by the first read past the end; later reads return 0
} fxs_reader;

// Whether two NUL-terminated texts are equal (the library links no string functions but
// the mem* family, so that small C libraries suffice).
static inline bool fxs_text_equal(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// Little-endian loads and stores of fixed widths (the one codec of the library).
static inline uint64_t fxs_load_le(const uint8_t *p, uint32_t bytes) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // bytes 0..8 without a loop: two loads that may overlap (the overlapping bytes are the
  // same in both, so or-ing them changes nothing), reading only p[0, bytes).
  if (bytes >= 4u) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + bytes - 4u, 4);
    return (uint64_t)lo | ((uint64_t)hi << (8u * (bytes - 4u)));
  }
  if (bytes == 0u) return 0;
  uint32_t mid = bytes / 2u, last = bytes - 1u;
  return (uint64_t)p[0] | ((uint64_t)p[mid] << (8u * mid)) | ((uint64_t)p[last] << (8u * last));
#else
  uint64_t v = 0;
  for (uint32_t i = 0; i < bytes; ++i) v |= (uint64_t)p[i] << (8u * i);
  return v;
#endif
}
static inline uint16_t fxs_load_le16(const uint8_t *p) { return (uint16_t)fxs_load_le(p, 2); }
static inline uint32_t fxs_load_le32(const uint8_t *p) { return (uint32_t)fxs_load_le(p, 4); }
static inline uint64_t fxs_load_le64(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, p, 8); // the host's order is the format's: one load
  return v;
#else
  return fxs_load_le(p, 8);
#endif
}
static inline void fxs_store_le(uint8_t *p, uint64_t v, uint32_t bytes) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(p, &v, bytes); // the host's order is the format's: one store
#else
  for (uint32_t i = 0; i < bytes; ++i) p[i] = (uint8_t)(v >> (8u * i));
#endif
}

// A writer that stores into buffer (may be NULL: only count), feeding hasher when not NULL.
// Inline, so that a writer into a local buffer compiles to plain stores.
static inline fxs_writer fxs_writer_make(uint8_t *buffer, size_t capacity,
                                         fxs_state_hasher *hasher) {
  fxs_writer w;
  w.buffer = buffer;
  w.capacity = buffer ? capacity : 0;
  w.position = 0;
  w.hasher = hasher;
  w.expect = 0;
  w.expect_size = 0;
  w.mismatch = 0;
  w.differs = false;
  return w;
}
fxs_writer fxs_writer_comparing(const uint8_t *expect, size_t size);

// The storing and comparing paths, byte by byte (out of line: not the per-tick path).
void fxs_writer_store(fxs_writer *w, uint64_t v, uint32_t bytes);

// Writes the low `bytes` bytes of v, least significant first.
static inline void fxs_put_le(fxs_writer *w, uint64_t v, uint32_t bytes) {
  if (w->hasher) fxs_state_hash_put(w->hasher, v, bytes);
  if (w->buffer && !w->expect && w->capacity - w->position >= bytes && w->position <= w->capacity) {
    fxs_store_le(w->buffer + w->position, v, bytes); // the common case of a snapshot
  } else if (w->buffer || w->expect) {
    fxs_writer_store(w, v, bytes);
  }
  w->position += bytes;
}

static inline void fxs_put_u8(fxs_writer *w, uint8_t v) { fxs_put_le(w, v, 1); }
static inline void fxs_put_u16(fxs_writer *w, uint16_t v) { fxs_put_le(w, v, 2); }
static inline void fxs_put_u32(fxs_writer *w, uint32_t v) { fxs_put_le(w, v, 4); }
static inline void fxs_put_i32(fxs_writer *w, int32_t v) { fxs_put_le(w, (uint32_t)v, 4); }
static inline void fxs_put_u64(fxs_writer *w, uint64_t v) { fxs_put_le(w, v, 8); }
void fxs_put_bytes(fxs_writer *w, const uint8_t *bytes, size_t size);
// The same as fxs_put_bytes, in blocks: hashed 8 bytes at a time, stored with one copy.
void fxs_put_block(fxs_writer *w, const uint8_t *bytes, size_t size);
bool fxs_writer_fits(const fxs_writer *w);

fxs_reader fxs_reader_make(const uint8_t *data, size_t size);
uint8_t fxs_get_u8(fxs_reader *r);
uint16_t fxs_get_u16(fxs_reader *r);
uint32_t fxs_get_u32(fxs_reader *r);
int32_t fxs_get_i32(fxs_reader *r);
uint64_t fxs_get_u64(fxs_reader *r);

#endif
