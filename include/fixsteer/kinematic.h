/// @file kinematic.h
/// Millington's kinematic movement (seed 002): behaviors that output a velocity and a
/// rotation directly, with no acceleration. Apply the output with fxs_kinematic_apply.
#ifndef FIXSTEER_KINEMATIC_H
#define FIXSTEER_KINEMATIC_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"
#include "fixsteer/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/// KinematicSteeringOutput: the velocity to move at and a rotation to turn by this tick.
typedef struct fxs_kinematic_output {
  fxs_vec2 velocity; ///< World units per tick.
  fix16_t rotation;  ///< Radians this tick.
} fxs_kinematic_output;

/// newOrientation: the heading of velocity, or current when |velocity| is below
/// FXS_HEADING_MIN_SPEED (agent.h; zero included): an agent at rest keeps its orientation.
FXS_API fix16_t fxs_new_orientation(fix16_t current, fxs_vec2 velocity);

/// KinematicSeek: full speed at the target; rotation turns the agent to face its velocity.
/// Within max_speed of the target the velocity is the whole offset: the agent lands on the
/// target (Millington's seek would pass it and turn by pi every tick), and there, at rest,
/// keeps its orientation.
FXS_API fxs_kinematic_output fxs_kinematic_seek(const fxs_agent *self, fxs_vec2 target);

/// Kinematic arrive: within `radius` of the target, no velocity ("request no steering");
/// else velocity = (target - position) / time_to_target (ticks, > 0), clipped to max_speed.
FXS_API fxs_kinematic_output fxs_kinematic_arrive(const fxs_agent *self, fxs_vec2 target,
                                                  fix16_t radius, fix16_t time_to_target);

/// KinematicWander: full speed along the current orientation; rotation is
/// randomBinomial() * max_rotation, randomBinomial() = random() - random() in (-1, 1).
FXS_API fxs_kinematic_output fxs_kinematic_wander(const fxs_agent *self, fix16_t max_rotation,
                                                  fxs_rng *rng);

/// Applies a kinematic output: velocity = output.velocity clipped to max_speed,
/// position += velocity, orientation = wrap(orientation + rotation), rotation = output.rotation.
FXS_API void fxs_kinematic_apply(fxs_agent *agent, fxs_kinematic_output output);

#ifdef __cplusplus
}
#endif

#endif
