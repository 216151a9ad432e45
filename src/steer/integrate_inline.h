// Internal: the integration step of fxs_agent_integrate (manager.c), inline, so that the
// world's lone ORCA agents (world_steer.c) integrate without a call. Results are those of
// fxs_agent_integrate: one implementation, two ways in. Not part of the API.
#ifndef FIXSTEER_INTEGRATE_INLINE_H
#define FIXSTEER_INTEGRATE_INLINE_H

#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/manager.h"
#include "vec2_scale.h"

/// The speed limit, for a steered velocity past max_speed or a max_speed < 0 (a call, in
/// manager.c: the rare case's registers stay out of the common path).
fxs_vec2 fxs_integrate_limit_speed(const fxs_agent *agent, fxs_vec2 velocity, fxs_vec2 steered,
                                   fix16_t mass);

// The force limit, fxs_vec2_truncate(v, max_length) with its common "already short enough"
// case and the scaling inline: most steered agents reach it.
FXS_ALWAYS_INLINE fxs_vec2 fxs_integrate_limit_force(fxs_vec2 v, fix16_t max_length) {
  if (max_length < 0) return fxs_vec2_truncate(v, max_length); // the contract check
  uint64_t max = (uint64_t)max_length;
  uint64_t sq = fxs_length_sq_raw(v.x, v.y);
  if (sq <= max * max) return v;
  return fxs_vec2_scale_down(v, max_length, sq);
}

// fxs_vec2_div(v, mass). A unit mass, the common case, divides exactly (see fxs_div): skipped.
static inline fxs_vec2 fxs_per_mass(fxs_vec2 v, fix16_t mass) {
  if (mass == FXS_ONE && v.x != INT32_MIN && v.y != INT32_MIN) return v;
  return fxs_vec2_div(v, mass);
}

// Calm rest: a steered velocity that turns by more than 90 degrees in one tick passed through
// rest on the way, and stops there; the agent starts the other way on the next tick. Only an
// agent slower than one tick of its steering can turn so far (v . (v + f) < 0 needs
// |v| < |f|), so moving agents are untouched, while forces that cancel on average (a pull
// against a push, a target behind a wall) end at rest instead of flipping the velocity's
// sign, and the heading, every tick.
static inline fxs_vec2 fxs_rest_on_reversal(fxs_vec2 before, fxs_vec2 after) {
  int64_t turn = (int64_t)before.x * after.x + (int64_t)before.y * after.y; // |.| < 2^63
  return turn < 0 ? fxs_vec2_zero() : after;
}

// The integration step after the force limit: force is the limited linear steering (0 for a
// velocity scale of 0), the mass already made positive, orientation aside.
FXS_ALWAYS_INLINE void fxs_integrate_limited(fxs_agent *agent, fxs_vec2 force,
                                             fxs_vec2 external_force, fix16_t velocity_scale,
                                             fix16_t mass) {
  // The velocity read after the force limit: fewer values live across its square root.
  fxs_vec2 velocity = agent->velocity;
  if (velocity_scale != FXS_ONE) velocity = fxs_vec2_scale(velocity, velocity_scale);
  // The limited force has no INT32_MIN component (each is within max_force <= FXS_MAX, or 0),
  // so a unit mass leaves it as it is without fxs_per_mass's test of the components.
  if (mass != FXS_ONE) force = fxs_vec2_div(force, mass);
  fxs_vec2 steered = fxs_vec2_add(velocity, force);
  // The cap is max_speed or more, so a steered velocity within max_speed is within the cap:
  // the common case needs neither the cap nor the old speed.
  uint64_t max = (uint64_t)agent->max_speed;
  if (agent->max_speed < 0 || fxs_length_sq_raw(steered.x, steered.y) > max * max) {
    steered = fxs_integrate_limit_speed(agent, velocity, steered, mass);
  }
  velocity = fxs_rest_on_reversal(velocity, steered);
  if (!fxs_vec2_is_zero(external_force)) {
    velocity = fxs_vec2_add(velocity, fxs_per_mass(external_force, mass));
  }
  agent->velocity = velocity;
  agent->position = fxs_vec2_add(agent->position, velocity);
}

// The integration step for a mass already made positive, orientation aside. Inline in each
// caller, so that the common ones, with constants for the scale, the mass and the external
// force, keep none of their tests and fewer values live.
FXS_ALWAYS_INLINE void fxs_integrate_with(fxs_agent *agent, fxs_vec2 linear,
                                          fxs_vec2 external_force, fix16_t velocity_scale,
                                          fix16_t mass) {
  // A velocity scale of 0 holds the agent: no old velocity and no linear steering.
  fxs_vec2 force = fxs_vec2_zero();
  if (velocity_scale != 0) force = fxs_integrate_limit_force(linear, agent->max_force);
  fxs_integrate_limited(agent, force, external_force, velocity_scale, mass);
}

// fxs_agent_integrate(agent, fxs_steering_linear(linear), fxs_vec2_zero(), FXS_ONE): its
// common case (unit mass, fixed orientation) inline, the others through the call. `limited`
// (a constant in each caller) says that fxs_integrate_limit_force has already limited linear
// to agent->max_force: the common case then leaves out the limit's test, which would pass (a
// limited force is within max_force, and one limited to a max_force < 0, which counts as 0,
// is zero); the call limits it again, to the same force.
FXS_ALWAYS_INLINE void fxs_integrate_linear_step(fxs_agent *agent, fxs_vec2 linear, bool limited) {
  if (agent->mass == FXS_ONE && agent->orientation_mode == FXS_ORIENT_FIXED) {
    if (limited) {
      fxs_integrate_limited(agent, linear, fxs_vec2_zero(), FXS_ONE, FXS_ONE);
    } else {
      fxs_integrate_with(agent, linear, fxs_vec2_zero(), FXS_ONE, FXS_ONE);
    }
    agent->rotation = 0;
    return;
  }
  fxs_agent_integrate(agent, fxs_steering_linear(linear), fxs_vec2_zero(), FXS_ONE);
}

/// fxs_agent_integrate(agent, fxs_steering_linear(linear), fxs_vec2_zero(), FXS_ONE), its
/// common case inline.
FXS_ALWAYS_INLINE void fxs_agent_integrate_linear(fxs_agent *agent, fxs_vec2 linear) {
  fxs_integrate_linear_step(agent, linear, false);
}

/// The same for a linear force that fxs_integrate_limit_force has already limited to
/// agent->max_force: the same result without the limit's second test.
FXS_ALWAYS_INLINE void fxs_agent_integrate_limited_linear(fxs_agent *agent, fxs_vec2 limited) {
  fxs_integrate_linear_step(agent, limited, true);
}

#endif
