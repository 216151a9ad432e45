#include "fixsteer/agent.h"

fxs_agent fxs_default_agent(void) {
  fxs_agent a;
  a.position = fxs_vec2_zero();
  a.velocity = fxs_vec2_zero();
  a.orientation = 0;
  a.rotation = 0;
  a.mass = FXS_ONE;
  a.radius = FXS_DEFAULT_RADIUS;
  a.max_speed = FXS_INT(4);
  a.max_force = FXS_DEFAULT_MAX_FORCE;
  a.max_rotation = FXS_RATIO(1, 5);
  a.max_angular_acceleration = FXS_RATIO(1, 20);
  a.max_turn_rate = 0;
  a.orientation_mode = FXS_ORIENT_LOOK_WHERE_GOING;
  return a;
}

fxs_vec2 fxs_agent_heading(const fxs_agent *agent) {
  uint64_t min_sq = (uint64_t)FXS_HEADING_MIN_SPEED * (uint64_t)FXS_HEADING_MIN_SPEED;
  if (fxs_vec2_length_sq(agent->velocity) >= min_sq) return fxs_vec2_normalize(agent->velocity);
  return fxs_vec2_from_angle(agent->orientation);
}

fix16_t fxs_agent_slowing_radius(const fxs_agent *a) {
  int64_t v = a->max_speed > 0 ? a->max_speed : 0, f = a->max_force,
          m = a->mass > 0 ? a->mass : FXS_ONE;
  int64_t floor = 4 * (int64_t)(a->radius > 0 ? a->radius : 0);
  if (f <= 0) return FXS_MAX;
  // v^2 m / (2 f): v^2 < 2^62 (Q32.32) over 2 f (Q16.16) is Q16.16, then times m (Q16.16).
  int64_t q = (v * v) / (2 * f);
  int64_t d = q > INT64_MAX / m ? INT64_MAX : (q * m) >> 16;
  if (d < floor) d = floor;
  return d > FXS_MAX ? FXS_MAX : (fix16_t)d;
}
