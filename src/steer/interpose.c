#include "fixsteer/interpose.h"

#include "fixsteer/behavior_params.h"
#include "fixsteer/seek.h"
#include "wide.h"

fxs_interpose_def fxs_default_interpose_def(void) {
  fxs_interpose_def d;
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_INTERPOSE, 0);
  d.max_prediction = fxs_behavior_param_default(FXS_BEHAVIOR_INTERPOSE, 1);
  return d;
}

static fix16_t half_sum(fix16_t a, fix16_t b) {
  // |a + b| < 2^32 and the rounding is symmetric, so (-a, -b) gives exactly the negation.
  return fxs_saturate(fxs_div_round_i64((int64_t)a + b, 2));
}

fxs_vec2 fxs_midpoint(fxs_vec2 a, fxs_vec2 b) {
  return fxs_vec2_make(half_sum(a.x, b.x), half_sum(a.y, b.y));
}

static fix16_t ticks_to(const fxs_agent *self, fxs_vec2 point, fix16_t max_prediction) {
  fix16_t cap = fxs_max(max_prediction, 0);
  if (self->max_speed <= 0) return cap;
  return fxs_min(fxs_div(fxs_vec2_distance(point, self->position), self->max_speed), cap);
}

fix16_t fxs_interpose_ticks(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                            const fxs_interpose_def *def) {
  return ticks_to(self, fxs_midpoint(a->position, b->position), def->max_prediction);
}

fxs_vec2 fxs_interpose_point(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                             const fxs_interpose_def *def) {
  fix16_t t = fxs_interpose_ticks(self, a, b, def);
  fxs_vec2 future_a = fxs_vec2_add(a->position, fxs_vec2_scale(a->velocity, t));
  fxs_vec2 future_b = fxs_vec2_add(b->position, fxs_vec2_scale(b->velocity, t));
  return fxs_midpoint(future_a, future_b);
}

fxs_vec2 fxs_interpose(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                       const fxs_interpose_def *def) {
  return fxs_arrive(self, fxs_interpose_point(self, a, b, def), fxs_max(def->slowing_radius, 0));
}
