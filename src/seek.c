#include "fixsteer/seek.h"

#include "vec2_measure.h"
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
  fxs_vec2 offset = fxs_vec2_sub(target, self->position);
  fix16_t speed = self->max_speed;
  if (slowing_radius > 0 && !fxs_vec2_is_zero(offset)) {
    // The distance matters only inside the slowing radius. It and the scaling to the speed
    // come from one square root (the results of fxs_vec2_length and fxs_vec2_set_length).
    fxs_vec2_measure m = fxs_vec2_measure_inline(offset);
    fix16_t distance = m.length;
    if (distance < slowing_radius) speed = fxs_muldiv(self->max_speed, distance, slowing_radius);
    // The slow-down has run out of resolution (1 LSB a tick or less): it would creep the
    // last few LSBs one per tick. Close them in one step instead.
    if (speed <= 1) return fxs_steer_toward(self, offset);
    return fxs_steer_toward(self, fxs_vec2_set_length_measured_inline(offset, &m, speed));
  }
  // On the target (a zero offset) with a slowing radius the speed would be 0: the same force.
  if (slowing_radius > 0) return fxs_steer_toward(self, offset);
  return toward(self, offset, speed);
}
