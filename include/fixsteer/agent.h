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

/// Scale: no threshold of the world is an absolute length. Each derives from the agent's
/// radius or top speed by one of these divisors, with a floor of a few raw units where
/// Q16.16's rounding would otherwise decide (docs/crowds.md gives the usable range).
/// An agent whose speed is at most max_speed / FXS_REST_SPEED_DIVISOR (at least
/// FXS_REST_SPEED_FLOOR raw) is at rest: contact and ORCA's static friction stop it there.
#define FXS_REST_SPEED_DIVISOR 64
/// Least rest speed, raw units a tick: ORCA's and contact's rounding stays below it.
#define FXS_REST_SPEED_FLOOR 16
/// Within radius / FXS_TOUCH_DIVISOR of a point, of a neighbor's body, or of progress: the
/// gap at which agents touch, the landing radius on a last waypoint, a route's progress step
/// and the least push out of a wall (1 unit for the default radius 8).
#define FXS_TOUCH_DIVISOR 8
/// Contact's slack beyond the body, radius / FXS_SLACK_DIVISOR, at least FXS_SLACK_FLOOR raw:
/// it absorbs the rounding of a move projected onto a wall (1/64 unit for radius 8).
#define FXS_SLACK_DIVISOR 512
/// Least contact slack, raw units.
#define FXS_SLACK_FLOOR 64
/// Below max_speed / FXS_LOOK_SPEED_DIVISOR, look-where-going turns the agent at most pi/2
/// times its fraction of that speed a tick: a body at rest or nearly so keeps its heading,
/// whatever the rounding or the jostling of its last few moves.
#define FXS_LOOK_SPEED_DIVISOR 4

/// Body radius of the library's default agent (fxs_default_agent()), units; the behavior
/// parameters' defaults are given for it and derive from any agent's radius (behavior_params.h).
#define FXS_DEFAULT_RADIUS FXS_INT(8)
/// Max force of the library's default agent, units a tick a tick.
#define FXS_DEFAULT_MAX_FORCE FXS_RATIO(1, 4)

/// The usable range (docs/crowds.md): the world behaves the same in any unit for bodies of a
/// radius in [FXS_SCALE_MIN_RADIUS, FXS_SCALE_MAX_RADIUS] units (or 0, a point) and a top
/// speed in [FXS_SCALE_MIN_SPEED, FXS_SCALE_MAX_SPEED] units a tick (or 0), in a world
/// within Q16.16's +-32767 units. Below the least radius or speed the floors above (a few
/// raw units) become a large part of the thresholds; ORCA's bound of 1024 units (orca.h)
/// cuts its default neighbor distance of 15 radii for radii above 68, and positions, radii
/// and speeds beyond it are clamped. The scene reader refuses agents outside the range.
#define FXS_SCALE_MIN_RADIUS FXS_RATIO(1, 16)
/// Largest usable body radius, units.
#define FXS_SCALE_MAX_RADIUS FXS_INT(256)
/// Least usable top speed, units a tick.
#define FXS_SCALE_MIN_SPEED FXS_RATIO(1, 256)
/// Largest usable top speed, units a tick.
#define FXS_SCALE_MAX_SPEED FXS_INT(256)

/// The agent's rest speed, raw units a tick (FXS_REST_SPEED_DIVISOR).
static inline fix16_t fxs_agent_rest_speed(const fxs_agent *a) {
  fix16_t v = (a->max_speed > 0 ? a->max_speed : 0) / FXS_REST_SPEED_DIVISOR;
  return v > FXS_REST_SPEED_FLOOR ? v : FXS_REST_SPEED_FLOOR;
}

/// The agent's touching distance, units (FXS_TOUCH_DIVISOR), at least 1 raw.
static inline fix16_t fxs_agent_touch(const fxs_agent *a) {
  fix16_t d = (a->radius > 0 ? a->radius : 0) / FXS_TOUCH_DIVISOR;
  return d > 1 ? d : 1;
}

/// The agent's contact slack, units (FXS_SLACK_DIVISOR).
static inline fix16_t fxs_agent_contact_slack(const fxs_agent *a) {
  fix16_t d = (a->radius > 0 ? a->radius : 0) / FXS_SLACK_DIVISOR;
  return d > FXS_SLACK_FLOOR ? d : FXS_SLACK_FLOOR;
}

/// The distance in which the agent can stop from top speed, units: max_speed^2 / (2
/// max_force / mass), saturating; at least 4 radii (slowing radii of 0 mean this, so that
/// arrival is as gentle in any unit). FXS_MAX for an agent that cannot brake.
FXS_API fix16_t fxs_agent_slowing_radius(const fxs_agent *a);

/// The steering that turns velocity into desired: desired - velocity (seed 000).
static inline fxs_vec2 fxs_steer_toward(const fxs_agent *self, fxs_vec2 desired) {
  return fxs_vec2_sub(desired, self->velocity);
}

#ifdef __cplusplus
}
#endif

#endif
