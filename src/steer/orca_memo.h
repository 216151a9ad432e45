// Internal: a worker's memo of the pair geometry ORCA has built (orca.c). Not part of the API.
//
// The push out of a pair's velocity obstacle and its edge depend only on the pair's offset
// p, relative velocity v, combined radius r and time horizon tau, and every step computing
// them is odd in (p, v) (rounded half away from zero, magnitudes divided, signs put back):
// the neighbor's line against the agent is the agent's own negated. So the agent of a pair
// steered second takes what the first one built, negated, instead of its square roots and
// divisions. The world steers neighbors close together (in cell order), so a small table
// per worker, indexed by the pair's two slots, finds about four in ten of the lines a crowd
// builds. An entry is taken only when its whole input is the negation of the pair's: any
// content, however old or overwritten, gives the result of building the line, so the memo
// is a cache, not state (not hashed, saved or replayed), and each worker keeps its own.
#ifndef FIXSTEER_ORCA_MEMO_H
#define FIXSTEER_ORCA_MEMO_H

#include <stdint.h>

#include "fixsteer/vec2.h"

/// Entries of a worker's memo at most (0, or a power of two from FXS_ORCA_MEMO_MIN_SLOTS):
/// 256, 10 KiB, except on microcontrollers (Cortex-M), whose RAM is scarcer than their
/// cycles: none there. A build may choose with -DFXS_ORCA_MEMO_MAX_ENTRIES=N; results are
/// the same with any.
#ifndef FXS_ORCA_MEMO_MAX_ENTRIES
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define FXS_ORCA_MEMO_MAX_ENTRIES 0u
#else
#define FXS_ORCA_MEMO_MAX_ENTRIES 256u
#endif
#endif

/// Worlds of fewer slots keep no memo: a small crowd has few pairs to share, and its world's
/// memory counts for more.
#define FXS_ORCA_MEMO_MIN_SLOTS 64u

typedef char fxs_orca_memo_max_is_0_or_a_power_of_two_from_the_least
    [FXS_ORCA_MEMO_MAX_ENTRIES == 0 ||
             (FXS_ORCA_MEMO_MAX_ENTRIES >= FXS_ORCA_MEMO_MIN_SLOTS &&
              (FXS_ORCA_MEMO_MAX_ENTRIES & (FXS_ORCA_MEMO_MAX_ENTRIES - 1u)) == 0)
         ? 1
         : -1];

/// One built pair, as the neighbor of the agent that built it will look for it: its input
/// and geometry negated (that agent's offset, relative velocity, push and edge, each times
/// -1), so that the neighbor compares its own and takes the push and edge as they are.
typedef struct fxs_orca_memo_entry {
  fxs_vec2 offset, relative; ///< -p (never zero in an entry) and -v.
  fix16_t r, tau;            ///< The combined radius and the time horizon (raw ticks).
  fxs_vec2 push, edge;       ///< -u and -edge: the neighbor's.
} fxs_orca_memo_entry;

/// A worker's memo: 2^(32 - shift) entries (shift <= 26), or none (entries NULL).
typedef struct fxs_orca_memo {
  fxs_orca_memo_entry *entries;
  unsigned shift; ///< A pair's 32-bit hash shifted right by it is its entry's index.
} fxs_orca_memo;

/// No memo.
static inline fxs_orca_memo fxs_orca_no_memo(void) {
  fxs_orca_memo m = {0, 0};
  return m;
}

/// Entries of each worker's memo in a world of `agents` slots: the power of two at or above
/// the slots, at most FXS_ORCA_MEMO_MAX_ENTRIES; none below FXS_ORCA_MEMO_MIN_SLOTS slots.
static inline uint32_t fxs_orca_memo_entries(uint32_t agents) {
  uint32_t n = FXS_ORCA_MEMO_MAX_ENTRIES;
  if (agents < FXS_ORCA_MEMO_MIN_SLOTS) return 0;
  while (n > FXS_ORCA_MEMO_MIN_SLOTS && n / 2u >= agents) n /= 2u;
  return n;
}

/// log2 of fxs_orca_memo_entries(agents) (0 for none).
static inline unsigned fxs_orca_memo_bits(uint32_t agents) {
  unsigned bits = 0;
  for (uint32_t n = fxs_orca_memo_entries(agents); n > 1u; n /= 2u) ++bits;
  return bits;
}

/// The entry of the pair of slots a and b (either order: both agents find the same one).
static inline fxs_orca_memo_entry *fxs_orca_memo_slot(const fxs_orca_memo *m, uint32_t a,
                                                      uint32_t b) {
  uint32_t h = (a * UINT32_C(0x9E3779B1)) ^ (b * UINT32_C(0x9E3779B1)); // symmetric
  return &m->entries[h >> m->shift];
}

#endif
