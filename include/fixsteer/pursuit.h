/// @file pursuit.h
/// Pursuit and evade (seed 000, part 4): seek or flee the target's future position
/// target.position + target.velocity * T, with T = distance / max_speed (the pursuer's
/// max speed, "updates needed to cover the distance"), capped at max_prediction ticks.
#ifndef FIXSTEER_PURSUIT_H
#define FIXSTEER_PURSUIT_H

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The look-ahead T in ticks: distance / self->max_speed, at most max_prediction (>= 0).
/// A pursuer with max_speed 0 uses max_prediction.
fix16_t fxs_prediction_ticks(const fxs_agent *self, const fxs_agent *target,
                             fix16_t max_prediction);

/// Pursuit: seek(target.position + target.velocity * T).
fxs_vec2 fxs_pursuit(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction);

/// Evade: flee(target.position + target.velocity * T); panic_radius as in fxs_flee,
/// measured to the predicted position.
fxs_vec2 fxs_evade(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction,
                   fix16_t panic_radius);

#ifdef __cplusplus
}
#endif

#endif
