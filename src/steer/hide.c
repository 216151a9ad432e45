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

static bool is_taken(uint32_t i, const uint32_t *taken, uint32_t taken_count) {
  for (uint32_t k = 0; k < taken_count; ++k) {
    if (taken[k] == i) return true;
  }
  return false;
}

// The obstacle whose spot (distance_from_boundary off its edge) is nearest to `position`,
// skipping the taken ones; -1 when none is left.
static int nearest_spot(fxs_vec2 position, fxs_vec2 hunter_position, const fxs_obstacle *obstacles,
                        uint32_t count, fix16_t distance_from_boundary, const uint32_t *taken,
                        uint32_t taken_count, fxs_vec2 *spot) {
  int best = -1;
  fxs_u128 best_sq = {0, 0};
  fxs_vec2 best_spot = fxs_vec2_zero();
  for (uint32_t i = 0; i < count; ++i) {
    fxs_vec2 s;
    if (is_taken(i, taken, taken_count) ||
        !fxs_hiding_spot(&obstacles[i], hunter_position, distance_from_boundary, &s)) {
      continue;
    }
    fxs_u128 sq = fxs_distance_sq_exact(s, position);
    if (best < 0 || fxs_u128_compare(sq, best_sq) < 0) {
      best = (int)i;
      best_sq = sq;
      best_spot = s;
    }
  }
  if (best >= 0 && spot) *spot = best_spot;
  return best;
}

int fxs_best_hiding_spot(const fxs_agent *self, fxs_vec2 hunter_position,
                         const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                         fxs_vec2 *spot) {
  return nearest_spot(self->position, hunter_position, obstacles, count,
                      def->distance_from_boundary, 0, 0, spot);
}

int fxs_distinct_hiding_spot(const fxs_agent *self, fxs_vec2 hunter_position,
                             const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                             const fxs_hider *rivals, uint32_t rival_count, fxs_vec2 *spot) {
  // Zeroed: gcc -O3 cannot see that only the first n entries are read.
  uint32_t taken[FXS_HIDE_MAX_RIVALS] = {0};
  uint32_t n = 0;
  if (rival_count > FXS_HIDE_MAX_RIVALS) rival_count = FXS_HIDE_MAX_RIVALS;
  for (uint32_t r = 0; r < rival_count; ++r) {
    int i = nearest_spot(rivals[r].position, hunter_position, obstacles, count,
                         rivals[r].distance_from_boundary, taken, n, 0);
    if (i < 0) break; // every spot is taken: the rest share
    taken[n++] = (uint32_t)i;
  }
  int mine = nearest_spot(self->position, hunter_position, obstacles, count,
                          def->distance_from_boundary, taken, n, spot);
  return mine >= 0 ? mine
                   : fxs_best_hiding_spot(self, hunter_position, obstacles, count, def, spot);
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

// The point to steer to for the spot behind obstacle o: the spot, or the detour point.
static fxs_vec2 toward_spot(const fxs_agent *self, const fxs_obstacle *o, fxs_vec2 spot,
                            const fxs_hide_def *def, bool *detour) {
  *detour = false;
  if (fxs_vec2_equal(self->position, o->center) || !walk_blocked(self, o, spot)) return spot;
  *detour = true;
  fix16_t ring = fxs_add(fxs_max(o->radius, 0), fxs_max(def->distance_from_boundary, 0));
  return detour_point(self, o, spot, ring);
}

fxs_vec2 fxs_hide_target(const fxs_agent *self, fxs_vec2 hunter_position,
                         const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                         bool *detour) {
  fxs_vec2 spot;
  int best = fxs_best_hiding_spot(self, hunter_position, obstacles, count, def, &spot);
  *detour = false;
  if (best < 0) return self->position;
  return toward_spot(self, &obstacles[best], spot, def, detour);
}

fxs_vec2 fxs_hide_among(const fxs_agent *self, const fxs_agent *hunter,
                        const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def,
                        const fxs_hider *rivals, uint32_t rival_count) {
  fxs_vec2 spot;
  int best = fxs_distinct_hiding_spot(self, hunter->position, obstacles, count, def, rivals,
                                      rival_count, &spot);
  if (best < 0) return fxs_evade(self, hunter, def->max_prediction, 0);
  bool detour;
  fxs_vec2 target = toward_spot(self, &obstacles[best], spot, def, &detour);
  return detour ? fxs_seek(self, target)
                : fxs_arrive(self, target, fxs_max(def->slowing_radius, 0));
}

fxs_vec2 fxs_hide(const fxs_agent *self, const fxs_agent *hunter, const fxs_obstacle *obstacles,
                  uint32_t count, const fxs_hide_def *def) {
  return fxs_hide_among(self, hunter, obstacles, count, def, NULL, 0);
}
