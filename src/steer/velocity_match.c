#include "fixsteer/velocity_match.h"

#include "fixsteer/behavior_params.h"

fxs_dynamic_arrive_def fxs_default_dynamic_arrive_def(void) {
  fxs_dynamic_arrive_def d;
  d.target_radius = fxs_behavior_param_default(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 0);
  d.slow_radius = fxs_behavior_param_default(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 1);
  d.time_to_target = fxs_behavior_param_default(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 2);
  d.max_acceleration = fxs_behavior_param_default(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 3);
  return d;
}

fxs_vec2 fxs_velocity_match(const fxs_agent *self, fxs_vec2 target_velocity, fix16_t time_to_target,
                            fix16_t max_acceleration) {
  fxs_vec2 difference = fxs_vec2_sub(target_velocity, self->velocity);
  fxs_vec2 linear = difference;
  if (time_to_target > 0) linear = fxs_vec2_div(difference, time_to_target);
  // Once the difference is a few LSB, dividing it rounds to zero and the agent would keep a
  // residual velocity for ever: close the last step in one go instead.
  if (fxs_vec2_is_zero(linear)) linear = difference;
  return fxs_vec2_truncate(linear, max_acceleration > 0 ? max_acceleration : 0);
}

fxs_vec2 fxs_dynamic_arrive(const fxs_agent *self, fxs_vec2 target,
                            const fxs_dynamic_arrive_def *def) {
  fxs_vec2 direction = fxs_vec2_sub(target, self->position);
  fix16_t distance = fxs_vec2_length(direction);
  fix16_t target_speed = self->max_speed;
  if (distance < def->target_radius) {
    // Millington requests no steering here, which lets the agent drift on at whatever speed
    // it has and oscillate around the target; asking for zero velocity brings it to rest.
    target_speed = 0;
  } else if (distance <= def->slow_radius) {
    target_speed = fxs_muldiv(self->max_speed, distance, def->slow_radius);
  }
  fxs_vec2 target_velocity = fxs_vec2_set_length(direction, target_speed);
  return fxs_velocity_match(self, target_velocity, def->time_to_target, def->max_acceleration);
}
