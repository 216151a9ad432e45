/// @file flocking.h
/// Reynolds' flocking rules over a neighbor list the caller supplies (the world builds it
/// from its spatial grid, ordered by distance then id). Neighbors outside the radius are
/// ignored, so the list may be a superset.
#ifndef FIXSTEER_FLOCKING_H
#define FIXSTEER_FLOCKING_H

#include <stdint.h>

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a behavior needs to know about another agent.
typedef struct fxs_neighbor {
  fxs_vec2 position; ///< World units.
  fxs_vec2 velocity; ///< World units per tick.
  uint32_t id;       ///< Stable id; breaks ties between agents on the same spot.
} fxs_neighbor;

/// The neighbor view of an agent.
fxs_neighbor fxs_neighbor_of(const fxs_agent *agent, uint32_t id);

/// Separation: sum over neighbors closer than radius of normalize(self - other) *
/// (radius - distance) / radius, times max_force: one neighbor on top of the agent pushes
/// with max_force, one at the radius with nothing. Agents on the same spot push apart along
/// +x / -x by id. Neighbors with id == self_id are skipped.
fxs_vec2 fxs_separation(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                        uint32_t count, fix16_t radius);

/// Alignment: average velocity of the neighbors within radius, minus the own velocity
/// (zero when there are none).
fxs_vec2 fxs_alignment(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                       uint32_t count, fix16_t radius);

/// Cohesion: seek the centre of the neighbors within radius (zero when there are none).
fxs_vec2 fxs_cohesion(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                      uint32_t count, fix16_t radius);

#ifdef __cplusplus
}
#endif

#endif
