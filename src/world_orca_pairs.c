#include "world_orca_pairs.h"

#include "world_grid.h"

#if FXS_ORCA_PAIR_WINDOW > 0

// The ring's size is a power of two: a view index's record is view & RING_MASK.
#define RING_MASK (FXS_ORCA_PAIR_WINDOW - 1u)
typedef char fxs_orca_pair_window_is_a_power_of_two[(FXS_ORCA_PAIR_WINDOW & RING_MASK) == 0 ? 1
                                                                                            : -1];

void fxs_orca_pairs_clear(fxs_world_worker *worker, uint32_t view) {
  worker->pair_ring[view & RING_MASK].count = 0;
}

// Two pair keys equal, compared as one 64-bit word each.
static inline uint64_t key_word(fxs_orca_pair_key k) {
  return ((uint64_t)(uint32_t)k.r << 32) | (uint32_t)k.tau;
}

void fxs_orca_pairs_recall(const fxs_world_worker *worker, uint32_t begin, uint32_t view,
                           uint32_t n, fxs_orca_pair_key key, fxs_orca_scratch *scratch) {
  uint32_t known = 0;
  uint64_t want = key_word(key);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t of = worker->neighbor_view[i];
    // Readable: steered before this agent in its range (begin <= of < view, one unsigned
    // comparison), and its record not yet overwritten by the ring.
    if (of - begin >= view - begin || view - of > RING_MASK) continue;
    const fxs_orca_pair_record *r = &worker->pair_ring[of & RING_MASK];
    if (key_word(r->key) != want) continue;
    for (uint32_t j = 0; j < r->count; ++j) {
      if (r->view[j] != view) continue;
      const fxs_orca_pair *p = &r->pair[j]; // |u| < 2^28.6, |direction| <= 2^16: negatable
      scratch->pairs[i].u = fxs_vec2_make(-p->u.x, -p->u.y);
      scratch->pairs[i].direction = fxs_vec2_make(-p->direction.x, -p->direction.y);
      known |= UINT32_C(1) << i;
      break;
    }
  }
  scratch->known = known;
}

void fxs_orca_pairs_keep(fxs_world_worker *worker, uint32_t view, uint32_t n,
                         fxs_orca_pair_key key, const fxs_orca_scratch *scratch) {
  fxs_orca_pair_record *r = &worker->pair_ring[view & RING_MASK];
  uint32_t m = 0;
  // Only neighbors steered after it can use them (whether they may read this record,
  // fxs_orca_pairs_recall decides).
  for (uint32_t i = 0; i < n && m < FXS_ORCA_PAIRS_KEPT; ++i) {
    uint32_t to = worker->neighbor_view[i];
    if (to <= view) continue;
    r->view[m] = to;
    r->pair[m] = scratch->pairs[i];
    ++m;
  }
  r->key = key;
  r->count = m;
}

#else
// Without records every pair is computed by both agents (world_orca_pairs.h's inline
// functions do nothing); ISO C wants a declaration in every translation unit.
typedef int fxs_orca_pairs_kept_none;
#endif
