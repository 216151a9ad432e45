#include "fixsteer/seek.h"

#include "seek_inline.h"
#include "vec2_scale.h"

// The force that turns the velocity into `offset` at `speed` (set_length of a zero offset is
// zero: on the target the force cancels the velocity).
static inline fxs_vec2 toward(const fxs_agent *self, fxs_vec2 offset, fix16_t speed) {
  return fxs_steer_toward(self, fxs_vec2_set_length_inline(offset, speed));
}

// fxs_arrive(self, target, 0), written out so that the most common behavior skips the
// slowing-radius test.
fxs_vec2 fxs_seek(const fxs_agent *self, fxs_vec2 target) {
  return toward(self, fxs_vec2_sub(target, self->position), self->max_speed);
}

fxs_vec2 fxs_flee(const fxs_agent *self, fxs_vec2 target, fix16_t panic_radius) {
  if (panic_radius > 0 && !fxs_vec2_within(self->position, target, panic_radius)) {
    return fxs_vec2_zero();
  }
  fxs_vec2 away = fxs_vec2_sub(self->position, target);
  if (fxs_vec2_is_zero(away)) {
    away = fxs_vec2_is_zero(self->velocity) ? fxs_vec2_make(FXS_ONE, 0) : self->velocity;
  }
  return fxs_steer_toward(self, fxs_vec2_set_length(away, self->max_speed));
}

fxs_vec2 fxs_arrive(const fxs_agent *self, fxs_vec2 target, fix16_t slowing_radius) {
  return fxs_steer_toward(self, fxs_arrive_desired_inline(self, target, slowing_radius));
}
