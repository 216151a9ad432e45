/// @file seek.h
/// Seek, flee and arrival (seed 000, parts 1 and 2; seed 001's seek). Each returns the
/// steering force desired_velocity - velocity; the integrator then limits it to max_force
/// (seed 001's "limit(maxsteer)") and divides it by the mass.
#ifndef FIXSTEER_SEEK_H
#define FIXSTEER_SEEK_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Seek: desired_velocity = normalize(target - position) * max_speed.
/// At the target itself the desired velocity is zero (the force brakes).
FXS_API fxs_vec2 fxs_seek(const fxs_agent *self, fxs_vec2 target);

/// Flee: desired_velocity = normalize(position - target) * max_speed.
/// panic_radius > 0 limits the influence: beyond it the force is zero (seed 000's
/// "influence range"); panic_radius <= 0 flees at any distance. An agent exactly on the
/// target flees along its velocity, or along +x when at rest.
FXS_API fxs_vec2 fxs_flee(const fxs_agent *self, fxs_vec2 target, fix16_t panic_radius);

/// Arrival: seek whose desired speed falls linearly to zero inside slowing_radius,
/// desired speed = max_speed * distance / slowing_radius. slowing_radius <= 0 is plain seek.
/// Comes to rest on the target and stays there (no jitter). Once that desired speed is 1 LSB
/// a tick or less (the slow-down has run out of resolution: a few LSBs from the target),
/// the desired velocity is the whole remaining offset, so the agent lands on the target
/// instead of creeping there one LSB a tick.
FXS_API fxs_vec2 fxs_arrive(const fxs_agent *self, fxs_vec2 target, fix16_t slowing_radius);

#ifdef __cplusplus
}
#endif

#endif
