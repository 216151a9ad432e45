/// @file agent.h
/// The host agent every behavior reads (seed 000's IBoid, Millington's Kinematic) and the
/// steering output every behavior returns (Millington's SteeringOutput).
#ifndef FIXSTEER_AGENT_H
#define FIXSTEER_AGENT_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/vec2.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How the integrator turns the agent.
typedef enum fxs_orientation_mode {
  /// Orientation stays where it is; angular steering is ignored.
  FXS_ORIENT_FIXED = 0,
  /// Orientation follows the velocity heading, at most max_turn_rate per tick (0: snaps).
  FXS_ORIENT_LOOK_WHERE_GOING = 1,
  /// Orientation integrates the angular steering (align, face, look where you're going).
  FXS_ORIENT_STEERED = 2,
} fxs_orientation_mode;

/// Kinematic state and limits of one agent. All values Q16.16.
typedef struct fxs_agent {
  fxs_vec2 position;                ///< World units.
  fxs_vec2 velocity;                ///< World units per tick; |velocity| <= max_speed.
  fix16_t orientation;              ///< Radians, (-pi, pi]; 0 faces +x.
  fix16_t rotation;                 ///< Radians per tick; |rotation| <= max_rotation.
  fix16_t mass;                     ///< > 0. Steering force is divided by it. Default 1.
  fix16_t radius;                   ///< Body radius, world units, >= 0. Default 8.
  fix16_t max_speed;                ///< World units per tick, >= 0. Default 4.
  fix16_t max_force;                ///< Max steering force per tick, >= 0. Default 0.25.
  fix16_t max_rotation;             ///< Radians per tick, >= 0. Default 0.2.
  fix16_t max_angular_acceleration; ///< Radians per tick per tick, >= 0. Default 0.05.
  fix16_t max_turn_rate;            ///< LOOK_WHERE_GOING turn limit, rad/tick; 0 snaps.
  uint8_t orientation_mode;         ///< An fxs_orientation_mode.
} fxs_agent;

/// What a behavior asks for: a linear force and an angular acceleration.
typedef struct fxs_steering {
  fxs_vec2 linear; ///< Force, world units per tick per tick per unit mass.
  fix16_t angular; ///< Angular acceleration, radians per tick per tick.
} fxs_steering;

/// An agent at the origin, at rest, facing +x, with the defaults listed on each field and
/// FXS_ORIENT_LOOK_WHERE_GOING.
FXS_API fxs_agent fxs_default_agent(void);

/// A steering output with only a linear part.
static inline fxs_steering fxs_steering_linear(fxs_vec2 linear) {
  fxs_steering s;
  s.linear = linear;
  s.angular = 0;
  return s;
}

/// A steering output with only an angular part.
static inline fxs_steering fxs_steering_angular(fix16_t angular) {
  fxs_steering s;
  s.linear = fxs_vec2_zero();
  s.angular = angular;
  return s;
}

/// Speed below which fxs_agent_heading uses the orientation instead of the velocity: 1/256
/// unit per tick, the speed at which FXS_ORIENT_LOOK_WHERE_GOING stops turning the agent.
#define FXS_HEADING_MIN_SPEED ((fix16_t)256)

/// The agent's unit heading (length 1 within 2 LSB per component): its velocity direction
/// when |velocity| >= FXS_HEADING_MIN_SPEED, else (cos orientation, sin orientation), so an
/// agent settling on a point does not swing its heading on rounding noise.
FXS_API fxs_vec2 fxs_agent_heading(const fxs_agent *agent);

/// The steering that turns velocity into desired: desired - velocity (seed 000).
static inline fxs_vec2 fxs_steer_toward(const fxs_agent *self, fxs_vec2 desired) {
  return fxs_vec2_sub(desired, self->velocity);
}

#ifdef __cplusplus
}
#endif

#endif
