#include "fixsteer/avoidance.h"

fxs_avoidance_def fxs_default_avoidance_def(void) {
  fxs_avoidance_def d;
  d.max_see_ahead = FXS_INT(60);
  d.max_avoid_force = FXS_ONE;
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

fxs_vec2 fxs_avoid_obstacles(const fxs_agent *self, const fxs_obstacle *obstacles,
                             uint32_t count, const fxs_avoidance_def *def) {
  int most = fxs_most_threatening_obstacle(self, obstacles, count, def);
  if (most < 0) return fxs_vec2_zero();
  const fxs_obstacle *o = &obstacles[most];
  bool touching = fxs_vec2_within(o->center, self->position, fxs_add(o->radius, self->radius));
  fxs_vec2 avoidance;
  if (touching) {
    // ahead - centre runs almost along the heading when the obstacle is beside the agent,
    // and shrinks to the radial push back when the agent has slowed against it: both let it
    // graze in or stall. Push straight out plus sideways, away from the centre, so it slides
    // round the obstacle.
    fxs_vec2 out = fxs_vec2_normalize(fxs_vec2_sub(self->position, o->center));
    fxs_vec2 left = fxs_vec2_normalize(fxs_vec2_make(fxs_neg(self->velocity.y), self->velocity.x));
    bool centre_on_left = fxs_vec2_dot(left, fxs_vec2_sub(o->center, self->position)) > 0;
    avoidance = fxs_vec2_add(out, centre_on_left ? fxs_vec2_negate(left) : left);
    if (fxs_vec2_is_zero(avoidance)) avoidance = out;
  } else {
    avoidance = fxs_vec2_sub(probe(self, def, FXS_ONE), o->center);
  }
  return fxs_vec2_set_length(avoidance, def->max_avoid_force);
}
