/// @file wander.h
/// Wander (seed 000, part 3): a circle circle_distance ahead along the velocity, a
/// displacement of length circle_radius at wander_angle on it; each tick wander_angle moves
/// by a uniform random amount in [-angle_change/2, angle_change/2), drawn from the agent's
/// own random stream. The force is circle_center + displacement.
#ifndef FIXSTEER_WANDER_H
#define FIXSTEER_WANDER_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"
#include "fixsteer/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Wander parameters (seed 000's CIRCLE_DISTANCE, CIRCLE_RADIUS, ANGLE_CHANGE).
typedef struct fxs_wander_def {
  fix16_t circle_distance; ///< World units ahead of the agent, >= 0. Default 6.
  fix16_t circle_radius;   ///< World units, >= 0. Default 8.
  fix16_t angle_change;    ///< Radians, full width of the per-tick change, >= 0. Default 1.
} fxs_wander_def;

/// The defaults listed on each field.
FXS_API fxs_wander_def fxs_default_wander_def(void);

/// Wander force. Reads and advances *wander_angle (radians, kept in (-pi, pi]) and rng.
/// At rest the circle centre is the agent itself and only the displacement pushes.
FXS_API fxs_vec2 fxs_wander(const fxs_agent *self, const fxs_wander_def *def, fix16_t *wander_angle,
                            fxs_rng *rng);

#ifdef __cplusplus
}
#endif

#endif
