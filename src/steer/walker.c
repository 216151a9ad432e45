#include "fixsteer/walker.h"

#include "fixsteer/behavior_params.h"
#include "fixsteer/seek.h"

fxs_walker_def fxs_default_walker_def(void) {
  fxs_walker_def d;
  d.min_step = fxs_behavior_param_default(FXS_BEHAVIOR_WALKER, 0);
  d.max_step = fxs_behavior_param_default(FXS_BEHAVIOR_WALKER, 1);
  d.aggro_radius = fxs_behavior_param_default(FXS_BEHAVIOR_WALKER, 2);
  d.reach_radius = fxs_behavior_param_default(FXS_BEHAVIOR_WALKER, 3);
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_WALKER, 4);
  return d;
}

fxs_vec2 fxs_walker_pick(fxs_vec2 position, fxs_vec2 target, const fxs_walker_def *def,
                         fxs_rng *rng) {
  fxs_vec2 direction = fxs_vec2_sub(target, position);
  fix16_t distance = fxs_vec2_length(direction);
  fix16_t step = fxs_clamp(distance / 2, def->min_step, fxs_max(def->min_step, def->max_step));
  if (step > distance) return target;
  direction = fxs_vec2_set_length(direction, step);
  fix16_t aggro = def->aggro_radius > 0 ? def->aggro_radius : FXS_ONE;
  fix16_t percentage = fxs_div(fxs_clamp(distance, 0, aggro), aggro);
  fix16_t max_fov = fxs_lerp(0, FXS_HALF_PI, percentage) / 2;
  fix16_t rand_fov = fxs_rng_fix16(rng, 0, max_fov);
  if (fxs_rng_below(rng, 2) == 0) rand_fov = -rand_fov;
  return fxs_vec2_add(position, fxs_vec2_rotate(direction, rand_fov));
}

fxs_vec2 fxs_random_walker(const fxs_agent *self, fxs_vec2 target, const fxs_walker_def *def,
                           fxs_walker_state *state, fxs_rng *rng) {
  bool at_target = fxs_vec2_equal(state->waypoint, target);
  if (!state->has_waypoint ||
      (!at_target && fxs_vec2_within(self->position, state->waypoint, def->reach_radius))) {
    // Steps no longer than twice the reach radius would count as reached a tick or two
    // later and be picked again at once; 003's rule then walks straight to the target.
    fxs_walker_def agreed = *def;
    agreed.min_step = fxs_max(def->min_step, fxs_add(def->reach_radius, def->reach_radius));
    state->waypoint = fxs_walker_pick(self->position, target, &agreed, rng);
    state->has_waypoint = 1;
    at_target = fxs_vec2_equal(state->waypoint, target);
  }
  if (at_target) return fxs_arrive(self, target, def->slowing_radius);
  return fxs_seek(self, state->waypoint);
}
