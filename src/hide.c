#include "fixsteer/hide.h"

#include <stddef.h>

#include "exact.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"

fxs_hide_def fxs_default_hide_def(void) {
  fxs_hide_def d;
  d.distance_from_boundary = fxs_behavior_param_default(FXS_BEHAVIOR_HIDE, 0);
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_HIDE, 1);
  d.max_prediction = fxs_behavior_param_default(FXS_BEHAVIOR_HIDE, 2);
  return d;
}

bool fxs_hiding_spot(const fxs_obstacle *obstacle, fxs_vec2 hunter_position,
                     fix16_t distance_from_boundary, fxs_vec2 *spot) {
  fxs_vec2 direction = fxs_exact_direction(hunter_position, obstacle->center);
  if (fxs_vec2_is_zero(direction)) return false;
  fix16_t reach = fxs_add(fxs_max(obstacle->radius, 0), fxs_max(distance_from_boundary, 0));
  fxs_vec2 away = fxs_vec2_set_length(direction, reach);
  *spot = fxs_vec2_add(obstacle->center, away);
  return true;
}

int fxs_best_hiding_spot(const fxs_agent *self, fxs_vec2 hunter_position,
                         const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                         fxs_vec2 *spot) {
  int best = -1;
  fxs_u128 best_sq = {0, 0};
  fxs_vec2 best_spot = fxs_vec2_zero();
  for (uint32_t i = 0; i < count; ++i) {
    fxs_vec2 s;
    if (!fxs_hiding_spot(&obstacles[i], hunter_position, def->distance_from_boundary, &s)) {
      continue;
    }
    fxs_u128 sq = fxs_distance_sq_exact(s, self->position);
    if (best < 0 || fxs_u128_compare(sq, best_sq) < 0) {
      best = (int)i;
      best_sq = sq;
      best_spot = s;
    }
  }
  if (best >= 0 && spot) *spot = best_spot;
  return best;
}

// True when the straight walk from the agent to the spot would take its body (radius
// included) into the obstacle: the point of the walk nearest to the centre lies strictly
// between agent and spot, within the body's reach. A walk that starts at its nearest point
// leads away from the centre, so an agent already pressed close keeps walking to the spot
// instead of circling back round.
static bool walk_blocked(const fxs_agent *self, const fxs_obstacle *o, fxs_vec2 spot) {
  fix16_t body = fxs_add(fxs_max(o->radius, 0), fxs_max(self->radius, 0));
  fxs_vec2 nearest = fxs_vec2_closest_on_segment(o->center, self->position, spot);
  return fxs_vec2_within(nearest, o->center, body) && !fxs_vec2_equal(nearest, spot) &&
         !fxs_vec2_equal(nearest, self->position);
}

// A point on the ring of hiding spots (radius + distance_from_boundary around the centre),
// 45 degrees round from the agent toward the spot: the agent walks round the obstacle
// instead of into it. Ties (spot exactly opposite) go counter-clockwise.
static fxs_vec2 detour_point(const fxs_agent *self, const fxs_obstacle *o, fxs_vec2 spot,
                             fix16_t ring) {
  fxs_vec2 out = fxs_vec2_normalize(fxs_exact_direction(o->center, self->position));
  fxs_vec2 to_spot = fxs_exact_direction(o->center, spot);
  fxs_vec2 ccw = fxs_vec2_make(fxs_neg(out.y), out.x);
  fxs_vec2 side = fxs_vec2_cross(out, to_spot) < 0 ? fxs_vec2_negate(ccw) : ccw;
  return fxs_vec2_add(o->center, fxs_vec2_set_length(fxs_vec2_add(out, side), ring));
}

fxs_vec2 fxs_hide_target(const fxs_agent *self, fxs_vec2 hunter_position,
                         const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                         bool *detour) {
  fxs_vec2 spot;
  int best = fxs_best_hiding_spot(self, hunter_position, obstacles, count, def, &spot);
  *detour = false;
  if (best < 0) return self->position;
  const fxs_obstacle *o = &obstacles[best];
  if (fxs_vec2_equal(self->position, o->center) || !walk_blocked(self, o, spot)) return spot;
  *detour = true;
  fix16_t ring = fxs_add(fxs_max(o->radius, 0), fxs_max(def->distance_from_boundary, 0));
  return detour_point(self, o, spot, ring);
}

fxs_vec2 fxs_hide(const fxs_agent *self, const fxs_agent *hunter, const fxs_obstacle *obstacles,
                  uint32_t count, const fxs_hide_def *def) {
  if (fxs_best_hiding_spot(self, hunter->position, obstacles, count, def, NULL) < 0) {
    return fxs_evade(self, hunter, def->max_prediction, 0);
  }
  bool detour;
  fxs_vec2 target = fxs_hide_target(self, hunter->position, obstacles, count, def, &detour);
  return detour ? fxs_seek(self, target) : fxs_arrive(self, target, fxs_max(def->slowing_radius, 0));
}
