#include "fixsteer/pursuit.h"

#include "fixsteer/seek.h"

fix16_t fxs_prediction_ticks(const fxs_agent *self, const fxs_agent *target,
                             fix16_t max_prediction) {
  if (max_prediction < 0) max_prediction = 0;
  if (self->max_speed <= 0) return max_prediction;
  fix16_t distance = fxs_vec2_distance(target->position, self->position);
  return fxs_min(fxs_div(distance, self->max_speed), max_prediction);
}

static fxs_vec2 future_position(const fxs_agent *self, const fxs_agent *target,
                                fix16_t max_prediction) {
  fix16_t t = fxs_prediction_ticks(self, target, max_prediction);
  return fxs_vec2_add(target->position, fxs_vec2_scale(target->velocity, t));
}

fxs_vec2 fxs_pursuit(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction) {
  return fxs_seek(self, future_position(self, target, max_prediction));
}

fxs_vec2 fxs_evade(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction,
                   fix16_t panic_radius) {
  return fxs_flee(self, future_position(self, target, max_prediction), panic_radius);
}
