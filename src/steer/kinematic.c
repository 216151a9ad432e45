#include "fixsteer/kinematic.h"

// Below FXS_HEADING_MIN_SPEED a velocity's angle is rounding noise: turning to it would
// swing an agent that is settling, so the orientation is kept.
fix16_t fxs_new_orientation(fix16_t current, fxs_vec2 velocity) {
  if (fxs_vec2_within(velocity, fxs_vec2_zero(), FXS_HEADING_MIN_SPEED - 1)) return current;
  return fxs_vec2_angle(velocity);
}

// The output that moves at `velocity` and turns the agent to face it.
static fxs_kinematic_output facing(const fxs_agent *self, fxs_vec2 velocity) {
  fxs_kinematic_output out;
  out.velocity = velocity;
  out.rotation =
      fxs_angle_wrap(fxs_sub(fxs_new_orientation(self->orientation, velocity), self->orientation));
  return out;
}

// Within one tick's travel the agent lands on the target instead of passing it: at full
// speed it would overshoot, turn round by pi and overshoot back every tick.
fxs_kinematic_output fxs_kinematic_seek(const fxs_agent *self, fxs_vec2 target) {
  fxs_vec2 offset = fxs_vec2_sub(target, self->position);
  if (fxs_vec2_within(self->position, target, fxs_max(self->max_speed, 0))) {
    return facing(self, offset);
  }
  return facing(self, fxs_vec2_set_length(offset, self->max_speed));
}

fxs_kinematic_output fxs_kinematic_arrive(const fxs_agent *self, fxs_vec2 target, fix16_t radius,
                                          fix16_t time_to_target) {
  fxs_vec2 v = fxs_vec2_sub(target, self->position);
  if (fxs_vec2_within(self->position, target, radius)) {
    fxs_kinematic_output none = {{0, 0}, 0};
    return none;
  }
  if (time_to_target > 0) v = fxs_vec2_div(v, time_to_target);
  return facing(self, fxs_vec2_truncate(v, self->max_speed));
}

fxs_kinematic_output fxs_kinematic_wander(const fxs_agent *self, fix16_t max_rotation,
                                          fxs_rng *rng) {
  fxs_kinematic_output out;
  out.velocity = fxs_vec2_scale(fxs_vec2_from_angle(self->orientation), self->max_speed);
  // Two statements: the order of two draws inside one expression is unspecified in C, and
  // compilers do differ (gcc and clang evaluate arguments in opposite orders).
  fix16_t first = fxs_rng_fix16(rng, 0, FXS_ONE);
  fix16_t second = fxs_rng_fix16(rng, 0, FXS_ONE);
  fix16_t binomial = fxs_sub(first, second);
  out.rotation = fxs_mul(binomial, max_rotation);
  return out;
}

void fxs_kinematic_apply(fxs_agent *agent, fxs_kinematic_output output) {
  agent->velocity = fxs_vec2_truncate(output.velocity, agent->max_speed);
  agent->position = fxs_vec2_add(agent->position, agent->velocity);
  agent->rotation = output.rotation;
  agent->orientation = fxs_angle_wrap(fxs_add(agent->orientation, output.rotation));
}
