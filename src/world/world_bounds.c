// The world's bounds: containment steering (fxs_containment, world.h), the bounce of a
// kinematic agent off them, and the clamp of positions at the end of a step.
#include "world_bounds.h"

#include "fixsteer/scalar.h"

fxs_vec2 fxs_containment(const fxs_agent *agent, const fxs_world_def *def) {
  return fxs_containment_inline(agent, def);
}

// One axis of a kinematic agent's containment: the velocity component v, reversed when it
// points into a bound the position p is within `margin` of.
static fix16_t bounce_axis(fix16_t p, fix16_t v, fix16_t lo, fix16_t hi, fix16_t margin) {
  if ((v < 0 && p < fxs_add(lo, margin)) || (v > 0 && p > fxs_sub(hi, margin))) return fxs_neg(v);
  return v;
}

// Containment of a kinematic agent, which has no steering to be turned by: within twice its
// radius of a bound (the margin of fxs_containment), a velocity component into the bound is
// reversed and the agent turns to face its new velocity, so a kinematic wanderer, whose
// orientation is its heading, bounces off the edge instead of pressing against it.
fxs_kinematic_output fxs_world_contain_kinematic(const fxs_agent *a, fxs_kinematic_output out,
                                                 const fxs_world_def *def) {
  if (!def->clamp_to_bounds) return out;
  fix16_t r = fxs_max(a->radius, 0);
  fix16_t margin = fxs_add(r, r);
  fxs_vec2 v = fxs_vec2_make(
      bounce_axis(a->position.x, out.velocity.x, def->bounds_min.x, def->bounds_max.x, margin),
      bounce_axis(a->position.y, out.velocity.y, def->bounds_min.y, def->bounds_max.y, margin));
  if (fxs_vec2_equal(v, out.velocity)) return out;
  out.velocity = v;
  out.rotation = fxs_angle_wrap(fxs_sub(fxs_atan2(v.y, v.x), a->orientation));
  return out;
}

// One axis of the clamp: a position outside [lo, hi] is put on the bound it crossed and
// loses its velocity into that bound, so a clamped agent does not report a speed it lacks.
static void clamp_axis(fix16_t *p, fix16_t *v, fix16_t lo, fix16_t hi) {
  if (*p < lo) {
    *p = lo;
    if (*v < 0) *v = 0;
  } else if (*p > hi) {
    *p = hi;
    if (*v > 0) *v = 0;
  }
}

void fxs_world_clamp_body(fxs_agent *a, const fxs_world_def *d) {
  clamp_axis(&a->position.x, &a->velocity.x, d->bounds_min.x, d->bounds_max.x);
  clamp_axis(&a->position.y, &a->velocity.y, d->bounds_min.y, d->bounds_max.y);
}
