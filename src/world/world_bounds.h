// Internal: the world's bounds as the step uses them: fxs_containment (world.h), which steers
// an agent away from them, inline; the kinematic agent's bounce and the end-of-step clamp.
// Not part of the API.
#ifndef FIXSTEER_WORLD_BOUNDS_H
#define FIXSTEER_WORLD_BOUNDS_H

#include "fixsteer/kinematic.h"
#include "fixsteer/scalar.h"
#include "fixsteer/world.h"

/// A kinematic agent's output `out` within twice its radius of a bound (when the world
/// clamps to its bounds): a velocity component into the bound reversed, the agent turned to
/// face its new velocity.
fxs_kinematic_output fxs_world_contain_kinematic(const fxs_agent *a, fxs_kinematic_output out,
                                                 const fxs_world_def *def);

/// Puts a position outside the bounds on the bound it crossed; the velocity into that bound
/// is lost.
void fxs_world_clamp_body(fxs_agent *a, const fxs_world_def *d);

// True when base + t stays inside [low, high] for every braking distance
// t = fxs_div(fxs_mul(v, |v|), decel) the velocity v can give, decel > 0: then the axis needs
// no push, whatever t is exactly, and the two divisions are skipped. |fxs_mul(v, |v|)| is
// at most m = v^2 / 2^16 + 2 and fxs_div rounds |m| 2^16 / decel to within an LSB (4 are
// allowed), so |t| <= T when m 2^16 <= (T - 4) decel; T is capped at 2^32 (> any |t|) so
// the product stays below 2^63.
static inline bool fxs_clear_of_bounds(fix16_t base, fix16_t v, fix16_t low, fix16_t high,
                                       fix16_t decel) {
  int64_t gap = (int64_t)high - base;
  if ((int64_t)base - low < gap) gap = (int64_t)base - low;
  if (gap <= 4) return false;
  if (gap > (INT64_C(1) << 32)) gap = INT64_C(1) << 32;
  uint64_t speed = (uint64_t)(v < 0 ? -(int64_t)v : (int64_t)v);
  uint64_t m = ((speed * speed) >> 16) + 2u;
  return (m << 16) <= (uint64_t)(gap - 4) * (uint64_t)decel;
}

// One axis of fxs_containment: p, v the position and velocity, [lo, hi] the bounds.
static inline fix16_t fxs_contain_axis(fix16_t p, fix16_t v, fix16_t lo, fix16_t hi, fix16_t radius,
                                       fix16_t decel, fix16_t push) {
  fix16_t low = fxs_add(lo, radius), high = fxs_sub(hi, radius);
  if (low > high) {
    low = (fix16_t)(((int64_t)lo + hi) / 2);
    high = low;
  }
  fix16_t base = fxs_add(p, v);
  if (fxs_clear_of_bounds(base, v, low, high, decel)) return 0;
  fix16_t ahead = fxs_add(base, fxs_div(fxs_mul(v, fxs_abs(v)), decel));
  if (ahead > high) return fxs_neg(push);
  if (ahead < low) return push;
  return 0;
}

// fxs_containment, inline for the step, which runs it for every agent of a world that clamps
// to its bounds: one implementation, two ways in.
static inline fxs_vec2 fxs_containment_inline(const fxs_agent *agent, const fxs_world_def *def) {
  if (!def->clamp_to_bounds || agent->max_force <= 0) return fxs_vec2_zero();
  fix16_t mass = agent->mass > 0 ? agent->mass : FXS_ONE;
  // max_force > 0 here, so a unit mass divides it exactly (see fxs_div) without the call.
  fix16_t decel = mass == FXS_ONE ? agent->max_force : fxs_div(agent->max_force, mass);
  if (decel <= 0) return fxs_vec2_zero();
  fix16_t push = agent->max_force;
  fix16_t r = fxs_max(agent->radius, 0);
  r = fxs_add(r, r);
  return fxs_vec2_make(fxs_contain_axis(agent->position.x, agent->velocity.x, def->bounds_min.x,
                                        def->bounds_max.x, r, decel, push),
                       fxs_contain_axis(agent->position.y, agent->velocity.y, def->bounds_min.y,
                                        def->bounds_max.y, r, decel, push));
}

#endif
