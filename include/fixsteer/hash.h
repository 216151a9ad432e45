/// @file hash.h
/// FNV-1a 64 over an explicit little-endian byte stream. The state hash, the replay
/// checksums and the math fingerprint all feed fields through these functions, never raw
/// structs, so the hash is the same on every CPU whatever its endianness or padding.
#ifndef FIXSTEER_HASH_H
#define FIXSTEER_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// FNV-1a 64 offset basis: the hash of no bytes.
#define FXS_HASH_INIT UINT64_C(0xCBF29CE484222325)

/// A running hash; start it at FXS_HASH_INIT.
typedef struct fxs_hasher {
  uint64_t state; ///< Current FNV-1a 64 value.
} fxs_hasher;

/// A hasher at FXS_HASH_INIT.
fxs_hasher fxs_hasher_make(void);
/// Feeds `size` bytes in order.
void fxs_hash_bytes(fxs_hasher *h, const void *bytes, size_t size);
/// Feeds one byte.
void fxs_hash_u8(fxs_hasher *h, uint8_t v);
/// Feeds 4 bytes, least significant first.
void fxs_hash_u32(fxs_hasher *h, uint32_t v);
/// Feeds the two's-complement bits of v as fxs_hash_u32 does.
void fxs_hash_i32(fxs_hasher *h, int32_t v);
/// Feeds 8 bytes, least significant first.
void fxs_hash_u64(fxs_hasher *h, uint64_t v);

#ifdef __cplusplus
}
#endif

#endif
