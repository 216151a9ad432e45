#include "fixsteer/align.h"

#include "fixsteer/behavior_params.h"

fxs_align_def fxs_default_align_def(void) {
  fxs_align_def d;
  d.target_radius = fxs_behavior_param_default(FXS_BEHAVIOR_FACE, 0);
  d.slow_radius = fxs_behavior_param_default(FXS_BEHAVIOR_FACE, 1);
  d.time_to_target = fxs_behavior_param_default(FXS_BEHAVIOR_FACE, 2);
  return d;
}

fix16_t fxs_align(const fxs_agent *self, fix16_t target_orientation, const fxs_align_def *def) {
  fix16_t rotation = fxs_angle_wrap(fxs_sub(target_orientation, self->orientation));
  fix16_t rotation_size = fxs_abs(rotation);
  fix16_t target_rotation = self->max_rotation;
  if (rotation_size < def->target_radius) {
    // Millington requests no steering here, which keeps the agent spinning at its current
    // rotation; asking for zero rotation brings it to rest facing the target.
    target_rotation = 0;
  } else if (rotation_size <= def->slow_radius) {
    target_rotation = fxs_muldiv(self->max_rotation, rotation_size, def->slow_radius);
  }
  if (rotation < 0) target_rotation = fxs_neg(target_rotation);
  fix16_t difference = fxs_sub(target_rotation, self->rotation);
  fix16_t angular = difference;
  if (def->time_to_target > 0) angular = fxs_div(difference, def->time_to_target);
  // As in velocity matching: a difference that divides to zero is closed in one step.
  if (angular == 0) angular = difference;
  return fxs_clamp(angular, -self->max_angular_acceleration, self->max_angular_acceleration);
}

fix16_t fxs_face(const fxs_agent *self, fxs_vec2 target, const fxs_align_def *def) {
  fxs_vec2 direction = fxs_vec2_sub(target, self->position);
  if (fxs_vec2_is_zero(direction)) return 0;
  return fxs_align(self, fxs_vec2_angle(direction), def);
}

fix16_t fxs_look_where_going(const fxs_agent *self, const fxs_align_def *def) {
  if (fxs_vec2_is_zero(self->velocity)) return 0;
  return fxs_align(self, fxs_vec2_angle(self->velocity), def);
}
