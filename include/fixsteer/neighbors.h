/// @file neighbors.h
/// Neighbor selection with a field of view and a cap: from a candidate list (for example
/// the agents in the nearby cells of a spatial grid, in any order), the k nearest within a
/// radius and inside a field of view around the agent's heading. The result does not
/// depend on the candidates' order: it is sorted by exact squared distance, then id, then
/// index. The field of view is a cosine threshold compared with exact integer dot products
/// (no angles, no atan2).
#ifndef FIXSTEER_NEIGHBORS_H
#define FIXSTEER_NEIGHBORS_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/flocking.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest k of a neighbor query.
#define FXS_NEIGHBORS_MAX_K 16u

/// Neighbor query parameters.
typedef struct fxs_neighbor_query_def {
  fix16_t radius; ///< Neighbors at most this far count, units, >= 0. Default 60.
  /// cos of half the field of view, [-1, 1] (raw [-65536, 65536]). -1 sees all around,
  /// 0 the half plane ahead, 1 only straight ahead. Default -0.7071 (raw -46341): a 270
  /// degree view with a 90 degree blind cone behind, as in Reynolds' boids.
  fix16_t cos_half_fov;
  /// Most neighbors returned, [0, FXS_NEIGHBORS_MAX_K]. Default 7: the count of neighbors
  /// starlings were measured to track (Ballerini et al., 2008).
  uint32_t k;
} fxs_neighbor_query_def;

/// The defaults listed on each field.
FXS_API fxs_neighbor_query_def fxs_default_neighbor_query_def(void);

/// True when `point` lies in the field of view of an agent at `position` heading along
/// `heading`: cos(angle) >= cos_half_fov. The heading is normalized first (length 1 within
/// 2^-15); then d = (point - position) . heading is compared with cos_half_fov *
/// |point - position| exactly, through 128-bit squares. A point on the agent itself, any
/// point when cos_half_fov <= -1, and any point when the heading is zero are in view; a
/// point more than 32767 units away along an axis is not.
FXS_API bool fxs_in_field_of_view(fxs_vec2 position, fxs_vec2 heading, fxs_vec2 point,
                                  fix16_t cos_half_fov);

/// Chooses the nearest k candidates within radius and in the field of view around
/// fxs_agent_heading(self); candidates with id == self_id are skipped. Writes their indices
/// into `chosen` (room for min(def->k, FXS_NEIGHBORS_MAX_K) entries), nearest first (ties by
/// lower id, then lower index), and returns how many it wrote.
FXS_API uint32_t fxs_query_neighbors(const fxs_agent *self, uint32_t self_id,
                                     const fxs_neighbor *candidates, uint32_t count,
                                     const fxs_neighbor_query_def *def, uint32_t *chosen);

#ifdef __cplusplus
}
#endif

#endif
