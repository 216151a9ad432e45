// An in-process network for session tests: packets between numbered peers arrive after a
// latency plus jitter, or are lost, duplicated, held back (reordered) or corrupted, all
// drawn from the library's seeded random stream, so a failing run replays exactly.
// Header-only (static inline), like the other support files: every test that includes it
// gets its own copy, and tests that do not are not linked against rng.c.
#ifndef FXS_NETSIM_H
#define FXS_NETSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rng.h"

// Packets in flight at once; more are dropped (and counted in `overflow`).
#ifndef FXS_NETSIM_SLOTS
#define FXS_NETSIM_SLOTS 768
#endif
// Largest packet carried.
#ifndef FXS_NETSIM_BYTES
#define FXS_NETSIM_BYTES 512
#endif

typedef struct fxs_netsim_config {
  uint32_t latency_ms;          // one-way delay
  uint32_t jitter_ms;           // plus a uniform draw in [0, jitter_ms]
  uint32_t loss_per_mille;      // packets lost
  uint32_t duplicate_per_mille; // packets delivered twice (the copy with its own delay)
  uint32_t reorder_per_mille;   // packets held back by reorder_ms more
  uint32_t reorder_ms;
  uint32_t corrupt_per_mille; // packets with one byte changed
} fxs_netsim_config;

typedef struct fxs_netsim_packet {
  bool used;
  uint8_t from, to;
  uint16_t len;
  uint32_t deliver_ms;
  uint32_t order; // send order: ties in deliver_ms keep it
  uint8_t bytes[FXS_NETSIM_BYTES];
} fxs_netsim_packet;

typedef struct fxs_netsim {
  fxs_netsim_config config;
  fxs_rng rng;
  uint32_t next_order;
  uint32_t sent, lost, duplicated, reordered, corrupted, delivered, overflow;
  fxs_netsim_packet slots[FXS_NETSIM_SLOTS];
} fxs_netsim;

static inline void fxs_netsim_init(fxs_netsim *n, const fxs_netsim_config *config, uint64_t seed) {
  memset(n, 0, sizeof *n);
  n->config = *config;
  fxs_rng_seed(&n->rng, seed);
}

static inline bool fxs_netsim_chance(fxs_netsim *n, uint32_t per_mille) {
  return per_mille && fxs_rng_below(&n->rng, 1000) < per_mille;
}

static inline void fxs_netsim_enqueue(fxs_netsim *n, uint8_t from, uint8_t to, const uint8_t *bytes,
                                      size_t len, uint32_t now_ms) {
  for (uint32_t i = 0; i < FXS_NETSIM_SLOTS; ++i) {
    fxs_netsim_packet *p = &n->slots[i];
    if (p->used) continue;
    uint32_t delay = n->config.latency_ms;
    if (n->config.jitter_ms) delay += fxs_rng_below(&n->rng, n->config.jitter_ms + 1u);
    if (fxs_netsim_chance(n, n->config.reorder_per_mille))
      delay += n->config.reorder_ms, n->reordered++;
    p->used = true;
    p->from = from, p->to = to, p->len = (uint16_t)len;
    p->deliver_ms = now_ms + delay;
    p->order = n->next_order++;
    memcpy(p->bytes, bytes, len);
    if (len && fxs_netsim_chance(n, n->config.corrupt_per_mille)) {
      uint32_t at = fxs_rng_below(&n->rng, (uint32_t)len);
      p->bytes[at] ^= (uint8_t)(1u + fxs_rng_below(&n->rng, 255));
      n->corrupted++;
    }
    return;
  }
  n->overflow++;
}

// Sends a packet into the network (it may be lost, duplicated, delayed, corrupted).
static inline void fxs_netsim_send(fxs_netsim *n, uint8_t from, uint8_t to, const uint8_t *bytes,
                                   size_t len, uint32_t now_ms) {
  if (len > FXS_NETSIM_BYTES) return;
  n->sent++;
  if (fxs_netsim_chance(n, n->config.loss_per_mille)) {
    n->lost++;
    return;
  }
  fxs_netsim_enqueue(n, from, to, bytes, len, now_ms);
  if (fxs_netsim_chance(n, n->config.duplicate_per_mille)) {
    n->duplicated++;
    fxs_netsim_enqueue(n, from, to, bytes, len, now_ms);
  }
}

// The earliest packet due by now_ms (ties: first sent), or NULL. The caller reads it, then
// releases it with fxs_netsim_release.
static inline fxs_netsim_packet *fxs_netsim_next(fxs_netsim *n, uint32_t now_ms) {
  fxs_netsim_packet *best = 0;
  for (uint32_t i = 0; i < FXS_NETSIM_SLOTS; ++i) {
    fxs_netsim_packet *p = &n->slots[i];
    if (!p->used || p->deliver_ms > now_ms) continue;
    if (!best || p->deliver_ms < best->deliver_ms ||
        (p->deliver_ms == best->deliver_ms && p->order < best->order)) {
      best = p;
    }
  }
  return best;
}

static inline void fxs_netsim_release(fxs_netsim *n, fxs_netsim_packet *p) {
  p->used = false;
  n->delivered++;
}

#endif
