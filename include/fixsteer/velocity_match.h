/// @file velocity_match.h
/// Millington's VelocityMatch and dynamic Arrive (seed 002). Both ask for the acceleration
/// (target velocity - velocity) / time_to_target, limited to max_acceleration; Arrive aims
/// its target velocity at the target, slowing inside slow_radius and stopping inside
/// target_radius.
#ifndef FIXSTEER_VELOCITY_MATCH_H
#define FIXSTEER_VELOCITY_MATCH_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Dynamic arrive parameters (targetRadius, slowRadius, timeToTarget, maxAcceleration).
typedef struct fxs_dynamic_arrive_def {
  fix16_t target_radius;    ///< World units: closer than this, no steering. Default 2.
  fix16_t slow_radius;      ///< World units: closer than this, slow down. Default 100.
  fix16_t time_to_target;   ///< Ticks, > 0. Default 4.
  fix16_t max_acceleration; ///< Units per tick per tick, >= 0. Default 0.25.
} fxs_dynamic_arrive_def;

/// The defaults listed on each field.
FXS_API fxs_dynamic_arrive_def fxs_default_dynamic_arrive_def(void);

/// VelocityMatch: (target_velocity - velocity) / time_to_target, at most max_acceleration long.
FXS_API fxs_vec2 fxs_velocity_match(const fxs_agent *self, fxs_vec2 target_velocity,
                                    fix16_t time_to_target, fix16_t max_acceleration);

/// Dynamic Arrive: target speed max_speed outside slow_radius, max_speed * distance /
/// slow_radius inside, zero within target_radius (where Millington requests no steering and
/// the agent would drift on: here it brakes to rest); then velocity matching.
FXS_API fxs_vec2 fxs_dynamic_arrive(const fxs_agent *self, fxs_vec2 target,
                                    const fxs_dynamic_arrive_def *def);

#ifdef __cplusplus
}
#endif

#endif
