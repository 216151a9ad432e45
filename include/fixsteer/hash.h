/// @file hash.h
/// Two 64-bit hashes over explicit little-endian byte streams (fields, never raw structs,
/// so the value is the same on every CPU whatever its endianness or padding):
/// - the state hash (fxs_state_hasher, versions 2 and 3): what fxs_world_hash() computes
///   over the world's serialisation every tick. It consumes 8 bytes per step in inlined
///   code; v3 spreads the words over four independent lanes.
/// - FNV-1a 64 (fxs_hasher), one byte at a time: replay chunk checksums and the math
///   fingerprint, where speed does not matter and the reference values are well known.
#ifndef FIXSTEER_HASH_H
#define FIXSTEER_HASH_H

#include "fixsteer/api.h"
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
FXS_API fxs_hasher fxs_hasher_make(void);
/// Feeds `size` bytes in order.
FXS_API void fxs_hash_bytes(fxs_hasher *h, const void *bytes, size_t size);
/// Feeds one byte.
FXS_API void fxs_hash_u8(fxs_hasher *h, uint8_t v);
/// Feeds 4 bytes, least significant first.
FXS_API void fxs_hash_u32(fxs_hasher *h, uint32_t v);
/// Feeds the two's-complement bits of v as fxs_hash_u32 does.
FXS_API void fxs_hash_i32(fxs_hasher *h, int32_t v);
/// Feeds 8 bytes, least significant first.
FXS_API void fxs_hash_u64(fxs_hasher *h, uint64_t v);

/// The state hash, in two versions over the same bytes. Bytes are gathered little-endian
/// into 64-bit words. The fold of a word w into a state l premixes it, m = w * K1,
/// m ^= m >> 31, then fold(l, w) = rotl(l ^ m, 27) * K2.
/// - v2 (replay format 2): one lane from SEED, every word folded into it in turn.
/// - v3 (replay format 3 on): four lanes, lane i from SEED + i * K1; word k goes to lane
///   k mod 4 with the lighter step(l, w) = rotl((l ^ w) * K1, 31), so four one-multiply
///   steps are in flight at once instead of one chain of two-multiply folds. At the end
///   the lanes are combined with the fold, h = fold(fold(fold(lane0, lane1), lane2), lane3).
/// In both, a last partial word is padded with zeros and folded as the next word (into its
/// lane, before v3 combines them); the end mixes in the byte count and avalanches:
/// h ^= n; h ^= h >> 33; h *= K3; h ^= h >> 29; h *= K4; h ^= h >> 32.
/// Why it is well distributed: the premix and the fold are bijections (xor, rotation,
/// xor-shift and multiplication by an odd constant are all invertible), so for a fixed
/// state two different words always lead to different states and no input word is lost;
/// the step is a bijection of l for a fixed w and of w for a fixed l, so a lane that once
/// differs differs to its end and one differing word always changes the hash; the
/// multiplications carry every bit upward and the shifts and rotations carry the high bits
/// back down, so one flipped input bit reaches every output bit after the final mix (test_hash
/// measures 32 +- 0.5 of 64 bits flipping on average, in both versions). K1..K4 are odd
/// random constants with 32 of 64 bits set. It is not a cryptographic hash: it detects
/// desyncs, it does not resist forgery (replays compare keyframes byte for byte for that).
typedef struct fxs_state_hasher {
  uint64_t lane[4]; ///< Running lanes (v2 uses lane[0] only).
  uint64_t pending; ///< Bytes not yet folded in (the low `fill` bytes).
  uint32_t fill;    ///< Number of pending bytes, 0..7.
  uint32_t next;    ///< v3: the lane the next word goes to, 0..3 (v2: 0).
  uint32_t version; ///< FXS_STATE_HASH_V2 or FXS_STATE_HASH_V3.
  uint64_t length;  ///< Bytes fed so far.
} fxs_state_hasher;

/// The state hash of replay format 2: one chain of folds.
#define FXS_STATE_HASH_V2 2u
/// The state hash of replay format 3: four lanes.
#define FXS_STATE_HASH_V3 3u
/// The version fxs_world_hash computes and new recordings and sessions use.
#define FXS_STATE_HASH_VERSION FXS_STATE_HASH_V3

/// Initial state of the state hash (v3: of lane 0).
#define FXS_STATE_HASH_SEED UINT64_C(0x521b55ada989d8e5)
/// First multiplier of the state hash (the four are odd, with 32 bits set).
#define FXS_STATE_HASH_K1 UINT64_C(0x91d93080f9b439fd)
/// Second multiplier of the state hash.
#define FXS_STATE_HASH_K2 UINT64_C(0x2330fcf1562ae4b9)
/// Third multiplier of the state hash.
#define FXS_STATE_HASH_K3 UINT64_C(0x952c466e473a1797)
/// Fourth multiplier of the state hash.
#define FXS_STATE_HASH_K4 UINT64_C(0x4c1e26038dabf68f)

/// A state hasher of the given version (FXS_STATE_HASH_V2 or _V3; any other value gives a
/// v3 hasher: callers check versions where they read them) with no bytes fed.
static inline fxs_state_hasher fxs_state_hasher_of(uint32_t version) {
  fxs_state_hasher h;
  for (uint32_t i = 0; i < 4u; ++i) h.lane[i] = FXS_STATE_HASH_SEED + i * FXS_STATE_HASH_K1;
  h.pending = 0;
  h.fill = 0;
  h.next = 0;
  h.version = version == FXS_STATE_HASH_V2 ? FXS_STATE_HASH_V2 : FXS_STATE_HASH_V3;
  h.length = 0;
  return h;
}

/// A state hasher of the current version (FXS_STATE_HASH_VERSION) with no bytes fed.
static inline fxs_state_hasher fxs_state_hasher_make(void) {
  return fxs_state_hasher_of(FXS_STATE_HASH_VERSION);
}

/// Folds one 64-bit word (8 little-endian bytes) into a lane.
static inline uint64_t fxs_state_hash_fold(uint64_t state, uint64_t word) {
  uint64_t m = word * FXS_STATE_HASH_K1;
  m ^= m >> 31;
  uint64_t x = state ^ m;
  return ((x << 27) | (x >> 37)) * FXS_STATE_HASH_K2;
}

/// One word into a v3 lane: xor, multiply, rotate.
static inline uint64_t fxs_state_hash_step(uint64_t lane, uint64_t word) {
  uint64_t x = (lane ^ word) * FXS_STATE_HASH_K1;
  return (x << 31) | (x >> 33);
}

/// Folds one complete word into the lane its version and position give it.
static inline void fxs_state_hash_word(fxs_state_hasher *h, uint64_t word) {
  uint32_t k = h->next;
  if (h->version == FXS_STATE_HASH_V2) {
    h->lane[0] = fxs_state_hash_fold(h->lane[0], word);
    return;
  }
  h->lane[k] = fxs_state_hash_step(h->lane[k], word);
  h->next = (k + 1u) & 3u;
}

/// Feeds the low `bytes` bytes of v (1..8; the bits above them must be 0), least
/// significant first.
static inline void fxs_state_hash_put(fxs_state_hasher *h, uint64_t v, uint32_t bytes) {
  h->length += bytes;
  h->pending |= v << (8u * h->fill); // fill <= 7: the shift is below 64
  uint32_t total = h->fill + bytes;
  if (total < 8u) {
    h->fill = total;
    return;
  }
  fxs_state_hash_word(h, h->pending);
  uint32_t used = 8u - h->fill; // bytes of v that completed the word
  h->pending = used < 8u ? v >> (8u * used) : 0;
  h->fill = total - 8u;
}

/// The hash of everything fed so far (the hasher itself is left unchanged).
FXS_API uint64_t fxs_state_hash_value(const fxs_state_hasher *h);

/// Feeds `size` bytes in order.
FXS_API void fxs_state_hash_bytes(fxs_state_hasher *h, const void *bytes, size_t size);

/// Feeds `size` bytes in order, as fxs_state_hash_bytes does, folding whole words at once.
FXS_API void fxs_state_hash_block(fxs_state_hasher *h, const uint8_t *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif
