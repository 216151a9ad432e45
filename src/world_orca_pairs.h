// Internal: a pair's ORCA half-plane computed once for both agents of the pair. Agent b's
// pair against a is the exact negation of a's against b when their pair keys match
// (orca_sorted.h), so the agent steered first keeps the pairs it computed against neighbors
// steered after it, and those neighbors take them negated instead of computing them again.
// Results are the same bit for bit whether a pair is computed or recalled: the records only
// save work and hold no state (not hashed, not saved).
//
// A worker keeps the records of the last FXS_ORCA_PAIR_WINDOW view entries it steered, in a
// ring indexed by view index; an agent reads a neighbor's record only when that neighbor was
// steered before it in the same range of the same worker and its record is still in the
// ring, so every record read was written by the reading thread in the same step. Every agent
// steered clears its record first. Not part of the API.
#ifndef FIXSTEER_WORLD_ORCA_PAIRS_H
#define FIXSTEER_WORLD_ORCA_PAIRS_H

#include <stdint.h>

#include "orca_sorted.h"

struct fxs_world_worker;

/// Pairs one agent keeps for neighbors steered after it (the others are computed again).
#define FXS_ORCA_PAIRS_KEPT 8u

/// The pairs an agent computed against neighbors steered after it.
typedef struct fxs_orca_pair_record {
  fxs_orca_pair_key key;                   ///< The agent's pair key.
  uint32_t count;                          ///< Pairs kept (0: none, or not an ORCA agent).
  uint32_t view[FXS_ORCA_PAIRS_KEPT];      ///< The neighbors' view indices.
  fxs_orca_pair pair[FXS_ORCA_PAIRS_KEPT]; ///< The agent's pair against each.
} fxs_orca_pair_record;

#if FXS_ORCA_PAIR_WINDOW > 0

/// The agent at view index `view` keeps no pairs (yet).
void fxs_orca_pairs_clear(struct fxs_world_worker *worker, uint32_t view);

/// Sets scratch->known and the pairs of the agent at `view` (steered in the range starting
/// at `begin`) against its first n neighbors (the worker's neighbor list) that a neighbor
/// steered before it in that range has kept, negated.
void fxs_orca_pairs_recall(const struct fxs_world_worker *worker, uint32_t begin, uint32_t view,
                           uint32_t n, fxs_orca_pair_key key, fxs_orca_scratch *scratch);

/// Keeps the agent's pairs (scratch->pairs, after its ORCA velocity) against those of its
/// first n neighbors steered after it, at most FXS_ORCA_PAIRS_KEPT.
void fxs_orca_pairs_keep(struct fxs_world_worker *worker, uint32_t view, uint32_t n,
                         fxs_orca_pair_key key, const fxs_orca_scratch *scratch);

#else // no records: every pair is computed by both agents

static inline void fxs_orca_pairs_clear(struct fxs_world_worker *worker, uint32_t view) {
  (void)worker, (void)view;
}
static inline void fxs_orca_pairs_recall(const struct fxs_world_worker *worker, uint32_t begin,
                                         uint32_t view, uint32_t n, fxs_orca_pair_key key,
                                         fxs_orca_scratch *scratch) {
  (void)worker, (void)begin, (void)view, (void)n, (void)key, (void)scratch;
}
static inline void fxs_orca_pairs_keep(struct fxs_world_worker *worker, uint32_t view, uint32_t n,
                                       fxs_orca_pair_key key, const fxs_orca_scratch *scratch) {
  (void)worker, (void)view, (void)n, (void)key, (void)scratch;
}

#endif

#endif
