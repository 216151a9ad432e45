/// @file flocking.h
/// Reynolds' flocking rules over a neighbor list the caller supplies (the world builds it
/// from its spatial grid, ordered by distance then id). Neighbors outside the radius are
/// ignored, so the list may be a superset. A caller whose search already measured each
/// neighbor's squared distance passes those (the *_known functions and the neighborhood):
/// the radius test then reads them instead of measuring again, with the same results.
#ifndef FIXSTEER_FLOCKING_H
#define FIXSTEER_FLOCKING_H

#include "fixsteer/api.h"
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
FXS_API fxs_neighbor fxs_neighbor_of(const fxs_agent *agent, uint32_t id);

/// Most a single neighbor's separation push can be, in units of max_speed.
#define FXS_SEPARATION_MAX_PUSH 8

/// Separation (Reynolds: a push that grows as the distance shrinks): sum over neighbors
/// within radius of normalize(self - other) * max_speed * (radius / distance - 1),
/// saturated at FXS_SEPARATION_MAX_PUSH * max_speed: nothing at the radius, max_speed at
/// half of it, the saturated push at radius / 9 and closer. It is in the units of a desired
/// velocity, as seek's desired - velocity is, so once bodies come close it outweighs the
/// pulls of seek, arrive, pursuit and cohesion and keeps them from overlapping (choose a
/// radius of at least twice the body radius). The integrator truncates the sum to max_force
/// as usual. Agents on the same spot push apart along +x / -x by id with the saturated
/// push. Neighbors with id == self_id are skipped.
FXS_API fxs_vec2 fxs_separation(const fxs_agent *self, uint32_t self_id,
                                const fxs_neighbor *neighbors, uint32_t count, fix16_t radius);

/// Alignment: average velocity of the neighbors within radius, minus the own velocity
/// (zero when there are none).
FXS_API fxs_vec2 fxs_alignment(const fxs_agent *self, uint32_t self_id,
                               const fxs_neighbor *neighbors, uint32_t count, fix16_t radius);

/// Cohesion: seek the centre of the neighbors within radius (zero when there are none).
FXS_API fxs_vec2 fxs_cohesion(const fxs_agent *self, uint32_t self_id,
                              const fxs_neighbor *neighbors, uint32_t count, fix16_t radius);

/// Separation over neighbors whose squared distances to self are known: dist_sq[i] must be
/// |neighbors[i].position - self->position|^2, exact, Q32.32 (raw units 2^-32, as
/// fxs_vec2_length_sq gives). Neighbor i counts when radius >= 0 and dist_sq[i] <= radius^2,
/// which is what fxs_vec2_within decides, so the result equals fxs_separation's.
FXS_API fxs_vec2 fxs_separation_known(const fxs_agent *self, uint32_t self_id,
                                      const fxs_neighbor *neighbors, const uint64_t *dist_sq,
                                      uint32_t count, fix16_t radius);

/// What alignment and cohesion average: exact sums over the neighbors within a radius.
/// Gathered once, it serves both rules when their radii are equal.
typedef struct fxs_neighborhood {
  ///@{
  int64_t position_x, position_y; ///< Sums of the positions, raw Q16.16 units.
  ///@}
  ///@{
  int64_t velocity_x, velocity_y; ///< Sums of the velocities, raw Q16.16 units.
  ///@}
  int32_t count; ///< Neighbors summed.
} fxs_neighborhood;

/// The neighborhood within radius from neighbors with known squared distances (dist_sq as
/// for fxs_separation_known); ids equal to self_id are skipped.
FXS_API fxs_neighborhood fxs_neighborhood_gather(uint32_t self_id, const fxs_neighbor *neighbors,
                                                 const uint64_t *dist_sq, uint32_t count,
                                                 fix16_t radius);

/// Alignment from a neighborhood: equals fxs_alignment over the same neighbors and radius.
FXS_API fxs_vec2 fxs_alignment_of(const fxs_agent *self, const fxs_neighborhood *h);

/// Cohesion from a neighborhood: equals fxs_cohesion over the same neighbors and radius.
FXS_API fxs_vec2 fxs_cohesion_of(const fxs_agent *self, const fxs_neighborhood *h);

#ifdef __cplusplus
}
#endif

#endif
