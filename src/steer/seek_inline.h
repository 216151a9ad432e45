// Internal: arrival's desired velocity, inline, so that the world's step makes no call for
// the preferred velocity of its ORCA crowds (their velocity plus arrival's force). fxs_arrive
// is the force that turns the velocity into it: one implementation, two ways in. Not part of
// the API.
#ifndef FIXSTEER_SEEK_INLINE_H
#define FIXSTEER_SEEK_INLINE_H

#include "fixsteer/agent.h"
#include "vec2_measure.h"
#include "vec2_scale.h"

/// The velocity fxs_arrive(self, target, slowing_radius) steers toward: fxs_arrive is
/// fxs_steer_toward(self, this).
FXS_ALWAYS_INLINE fxs_vec2 fxs_arrive_desired_inline(const fxs_agent *self, fxs_vec2 target,
                                                     fix16_t slowing_radius) {
  fxs_vec2 offset = fxs_vec2_sub(target, self->position);
  fix16_t speed = self->max_speed;
  if (slowing_radius > 0) {
    // On the target (a zero offset) the speed would be 0: the offset is that velocity.
    if (fxs_vec2_is_zero(offset)) return offset;
    // The distance matters only inside the slowing radius. It and the scaling to the speed
    // come from one square root (the results of fxs_vec2_length and fxs_vec2_set_length).
    fxs_vec2_measure m = fxs_vec2_measure_inline(offset);
    if (m.length < slowing_radius) speed = fxs_muldiv(self->max_speed, m.length, slowing_radius);
    // The slow-down has run out of resolution (1 LSB a tick or less): it would creep the
    // last few LSBs one per tick. Close them in one step instead.
    if (speed <= 1) return offset;
    return fxs_vec2_set_length_measured_inline(offset, &m, speed);
  }
  // Without a slowing radius: seek (set_length of a zero offset is zero), as
  // fxs_vec2_set_length_inline; its scaling named here, so that fxs_seek, the other caller of
  // that function in seek.c, still has it inline.
  FXS_ASSERT(speed >= 0);
  return fxs_vec2_scale_round(offset, speed);
}

#endif
