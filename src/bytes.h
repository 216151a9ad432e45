// Internal: explicit little-endian writing and reading. A writer either fills a buffer or
// feeds a hasher (or both), so the state hash and the snapshot come from one serializer.
#ifndef FIXSTEER_BYTES_H
#define FIXSTEER_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/hash.h"

typedef struct fxs_writer {
  uint8_t *buffer;    // may be NULL: only count (and hash)
  size_t capacity;
  size_t position;    // bytes produced so far, even past capacity
  fxs_hasher *hasher; // may be NULL
  const uint8_t *expect; // may be NULL: compare the bytes with these instead of storing them
  size_t expect_size;
  size_t mismatch;       // first differing position (valid when differs)
  bool differs;
} fxs_writer;

typedef struct fxs_reader {
  const uint8_t *data;
  size_t size;
  size_t position;
  bool failed; // set by the first read past the end; later reads return 0
} fxs_reader;

fxs_writer fxs_writer_make(uint8_t *buffer, size_t capacity, fxs_hasher *hasher);
fxs_writer fxs_writer_comparing(const uint8_t *expect, size_t size);
void fxs_put_u8(fxs_writer *w, uint8_t v);
void fxs_put_u16(fxs_writer *w, uint16_t v);
void fxs_put_u32(fxs_writer *w, uint32_t v);
void fxs_put_i32(fxs_writer *w, int32_t v);
void fxs_put_u64(fxs_writer *w, uint64_t v);
void fxs_put_bytes(fxs_writer *w, const uint8_t *bytes, size_t size);
bool fxs_writer_fits(const fxs_writer *w);

fxs_reader fxs_reader_make(const uint8_t *data, size_t size);
uint8_t fxs_get_u8(fxs_reader *r);
uint16_t fxs_get_u16(fxs_reader *r);
uint32_t fxs_get_u32(fxs_reader *r);
int32_t fxs_get_i32(fxs_reader *r);
uint64_t fxs_get_u64(fxs_reader *r);

#endif
