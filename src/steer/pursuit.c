#include "fixsteer/pursuit.h"

#include "fixsteer/behavior_params.h"
#include "fixsteer/seek.h"
#include "wide.h"

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

fxs_offset_pursuit_def fxs_default_offset_pursuit_def(void) {
  fxs_offset_pursuit_def d;
  d.offset_forward = fxs_behavior_param_default(FXS_BEHAVIOR_OFFSET_PURSUIT, 0);
  d.offset_side = fxs_behavior_param_default(FXS_BEHAVIOR_OFFSET_PURSUIT, 1);
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_OFFSET_PURSUIT, 2);
  d.max_prediction = fxs_behavior_param_default(FXS_BEHAVIOR_OFFSET_PURSUIT, 3);
  return d;
}

// (forward, side) in the frame of the unit heading h: forward * h + side * (-h.y, h.x), each
// component one rounding of an exact 64-bit sum (|term| <= 2^47).
static fix16_t local_to_world(fix16_t forward, fix16_t side, fix16_t h_along, fix16_t h_across) {
  int64_t raw = (int64_t)forward * h_along + (int64_t)side * h_across;
  return fxs_saturate(fxs_div_round_i64(raw, 65536));
}

fxs_vec2 fxs_offset_pursuit_slot(const fxs_agent *leader, const fxs_offset_pursuit_def *def) {
  fxs_vec2 h = fxs_agent_heading(leader);
  fxs_vec2 offset = fxs_vec2_make(local_to_world(def->offset_forward, def->offset_side, h.x, -h.y),
                                  local_to_world(def->offset_forward, def->offset_side, h.y, h.x));
  return fxs_vec2_add(leader->position, offset);
}

static fix16_t offset_ticks(const fxs_agent *self, const fxs_agent *leader,
                            const fxs_offset_pursuit_def *def, fxs_vec2 slot) {
  fix16_t cap = fxs_max(def->max_prediction, 0);
  fix16_t closing = fxs_add(fxs_max(self->max_speed, 0), fxs_vec2_length(leader->velocity));
  if (closing == 0) return 0;
  return fxs_min(fxs_div(fxs_vec2_distance(slot, self->position), closing), cap);
}

fix16_t fxs_offset_pursuit_ticks(const fxs_agent *self, const fxs_agent *leader,
                                 const fxs_offset_pursuit_def *def) {
  return offset_ticks(self, leader, def, fxs_offset_pursuit_slot(leader, def));
}

fxs_vec2 fxs_offset_pursuit(const fxs_agent *self, const fxs_agent *leader,
                            const fxs_offset_pursuit_def *def) {
  fxs_vec2 slot = fxs_offset_pursuit_slot(leader, def);
  fix16_t t = offset_ticks(self, leader, def, slot);
  fxs_vec2 predicted = fxs_vec2_add(slot, fxs_vec2_scale(leader->velocity, t));
  return fxs_arrive(self, predicted, fxs_max(def->slowing_radius, 0));
}
