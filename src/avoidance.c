#include "fixsteer/avoidance.h"

#include "fixsteer/behavior_params.h"

fxs_avoidance_def fxs_default_avoidance_def(void) {
  fxs_avoidance_def d;
  d.max_see_ahead = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 0);
  d.max_avoid_force = fxs_behavior_param_default(FXS_BEHAVIOR_AVOID, 1);
  return d;
}

// The probe ahead of the agent at `fraction` of the speed-scaled see-ahead distance.
static fxs_vec2 probe(const fxs_agent *self, const fxs_avoidance_def *def, fix16_t fraction) {
  fix16_t speed = fxs_vec2_length(self->velocity);
  fix16_t dynamic_length =
      self->max_speed > 0 ? fxs_min(fxs_div(speed, self->max_speed), FXS_ONE) : 0;
  fix16_t reach = fxs_mul(fxs_mul(def->max_see_ahead, dynamic_length), fraction);
  return fxs_vec2_add(self->position, fxs_vec2_set_length(self->velocity, reach));
}

int fxs_most_threatening_obstacle(const fxs_agent *self, const fxs_obstacle *obstacles,
                                  uint32_t count, const fxs_avoidance_def *def) {
  fxs_vec2 ahead = probe(self, def, FXS_ONE);
  fxs_vec2 ahead2 = probe(self, def, FXS_RATIO(1, 2));
  int most = -1;
  fix16_t best = 0;
  for (uint32_t i = 0; i < count; ++i) {
    fix16_t r = fxs_add(obstacles[i].radius, self->radius);
    fxs_vec2 c = obstacles[i].center;
    if (!fxs_vec2_within(c, ahead, r) && !fxs_vec2_within(c, ahead2, r) &&
        !fxs_vec2_within(c, self->position, r)) {
      continue;
    }
    fix16_t d = fxs_vec2_distance(self->position, c);
    if (most < 0 || d < best) {
      most = (int)i;
      best = d;
    }
  }
  return most;
}

// The push for a body touching something at `contact`: straight out from it plus sideways
// (perpendicular to the velocity, away from it). ahead - contact alone lets an agent graze
// in beside it, or stall against it once it has slowed down.
static fxs_vec2 slide_away(const fxs_agent *self, fxs_vec2 contact) {
  fxs_vec2 out = fxs_vec2_normalize(fxs_vec2_sub(self->position, contact));
  fxs_vec2 left = fxs_vec2_normalize(fxs_vec2_make(fxs_neg(self->velocity.y), self->velocity.x));
  bool contact_on_left = fxs_vec2_dot(left, fxs_vec2_sub(contact, self->position)) > 0;
  fxs_vec2 push = fxs_vec2_add(out, contact_on_left ? fxs_vec2_negate(left) : left);
  return fxs_vec2_is_zero(push) ? out : push;
}

fxs_vec2 fxs_avoid_obstacles(const fxs_agent *self, const fxs_obstacle *obstacles,
                             uint32_t count, const fxs_avoidance_def *def) {
  int most = fxs_most_threatening_obstacle(self, obstacles, count, def);
  if (most < 0) return fxs_vec2_zero();
  const fxs_obstacle *o = &obstacles[most];
  fxs_vec2 avoidance;
  if (fxs_vec2_within(o->center, self->position, fxs_add(o->radius, self->radius))) {
    avoidance = slide_away(self, o->center);
  } else {
    avoidance = fxs_vec2_sub(probe(self, def, FXS_ONE), o->center);
  }
  if (fxs_vec2_is_zero(avoidance)) {
    // Probe exactly on the centre: sidestep to the left of the heading (deterministic).
    avoidance = fxs_vec2_make(fxs_neg(self->velocity.y), self->velocity.x);
    if (fxs_vec2_is_zero(avoidance)) avoidance = fxs_vec2_make(0, FXS_ONE);
  }
  return fxs_vec2_set_length(avoidance, def->max_avoid_force);
}

static int sign64(int64_t v) { return (v > 0) - (v < 0); }

// True when segments [p, q] and [a, b] properly cross (touching ends do not count).
static bool segments_cross(fxs_vec2 p, fxs_vec2 q, fxs_vec2 a, fxs_vec2 b) {
  fxs_vec2 ab = fxs_vec2_sub(b, a), pq = fxs_vec2_sub(q, p);
  int d1 = sign64(fxs_vec2_cross(ab, fxs_vec2_sub(p, a)));
  int d2 = sign64(fxs_vec2_cross(ab, fxs_vec2_sub(q, a)));
  int d3 = sign64(fxs_vec2_cross(pq, fxs_vec2_sub(a, p)));
  int d4 = sign64(fxs_vec2_cross(pq, fxs_vec2_sub(b, p)));
  return d1 * d2 < 0 && d3 * d4 < 0;
}

static bool near_wall(const fxs_wall *w, fxs_vec2 point, fix16_t radius) {
  return fxs_vec2_within(fxs_vec2_closest_on_segment(point, w->a, w->b), point, radius);
}

int fxs_most_threatening_wall(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                              const fxs_avoidance_def *def) {
  fxs_vec2 ahead = probe(self, def, FXS_ONE);
  fxs_vec2 ahead2 = probe(self, def, FXS_RATIO(1, 2));
  int most = -1;
  fix16_t best = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_wall *w = &walls[i];
    if (!segments_cross(self->position, ahead, w->a, w->b) && !near_wall(w, ahead, self->radius) &&
        !near_wall(w, ahead2, self->radius) && !near_wall(w, self->position, self->radius)) {
      continue;
    }
    fix16_t d = fxs_vec2_distance(self->position, fxs_vec2_closest_on_segment(self->position, w->a, w->b));
    if (most < 0 || d < best) {
      most = (int)i;
      best = d;
    }
  }
  return most;
}

fxs_vec2 fxs_avoid_walls(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                         const fxs_avoidance_def *def) {
  int most = fxs_most_threatening_wall(self, walls, count, def);
  if (most < 0) return fxs_vec2_zero();
  const fxs_wall *w = &walls[most];
  fxs_vec2 contact = fxs_vec2_closest_on_segment(self->position, w->a, w->b);
  fxs_vec2 avoidance;
  if (fxs_vec2_within(contact, self->position, self->radius)) {
    avoidance = slide_away(self, contact);
  } else {
    // The wall's normal, turned to the agent's side.
    fxs_vec2 along = fxs_vec2_sub(w->b, w->a);
    avoidance = fxs_vec2_make(fxs_neg(along.y), along.x);
    if (fxs_vec2_cross(along, fxs_vec2_sub(self->position, w->a)) < 0) avoidance = fxs_vec2_negate(avoidance);
  }
  if (fxs_vec2_is_zero(avoidance)) avoidance = fxs_vec2_sub(self->position, contact);
  return fxs_vec2_set_length(avoidance, def->max_avoid_force);
}
