#include "fixsteer/wander.h"

#include "fixsteer/behavior_params.h"

fxs_wander_def fxs_default_wander_def(void) {
  fxs_wander_def d;
  d.circle_distance = fxs_behavior_param_default(FXS_BEHAVIOR_WANDER, 0);
  d.circle_radius = fxs_behavior_param_default(FXS_BEHAVIOR_WANDER, 1);
  d.angle_change = fxs_behavior_param_default(FXS_BEHAVIOR_WANDER, 2);
  return d;
}

fxs_vec2 fxs_wander(const fxs_agent *self, const fxs_wander_def *def, fix16_t *wander_angle,
                    fxs_rng *rng) {
  fxs_vec2 circle_center = fxs_vec2_set_length(self->velocity, def->circle_distance);
  // Seed 000 starts from (0, -1) * CIRCLE_RADIUS and sets its angle: the result is the
  // radius-long vector at wander_angle.
  fxs_vec2 displacement = fxs_vec2_scale(fxs_vec2_from_angle(*wander_angle), def->circle_radius);
  fix16_t change = def->angle_change > 0 ? def->angle_change : 0;
  fix16_t half = change / 2;
  fix16_t delta = fxs_sub(fxs_rng_fix16(rng, 0, change), half);
  *wander_angle = fxs_angle_wrap(fxs_add(*wander_angle, delta));
  return fxs_vec2_add(circle_center, displacement);
}
