// RVO2's Circle scene in the library's world (bench.h), built through the public command
// API. Desktop only: the start positions are computed once in double precision and rounded
// to Q16.16, which defines the scene; everything after that is the library's.
#include <math.h>

#include "bench.h"

static int64_t circle_radius_raw(uint32_t n) { return ((int64_t)200 * n << 16) / 250; }

uint32_t bench_circle_margin = 64u;

int bench_circle_fits(uint32_t n) {
  return circle_radius_raw(n) + FXS_INT(1) * (int64_t)bench_circle_margin <= FXS_MAX;
}

void bench_circle_start(uint32_t n, uint32_t i, fxs_vec2 *start, fxs_vec2 *goal) {
  double angle = 2.0 * 3.14159265358979323846 * (double)i / (double)n;
  double r = (double)circle_radius_raw(n);
  fix16_t x = (fix16_t)llround(r * cos(angle)), y = (fix16_t)llround(r * sin(angle));
  *start = fxs_vec2_make(x, y);
  *goal = fxs_vec2_make(-x, -y);
}

fxs_world_capacity bench_circle_capacity(uint32_t n) {
  fxs_world_capacity c = {0};
  c.agents = n;
  return c;
}

fxs_world_def bench_circle_def(uint32_t n) {
  fxs_world_def d = fxs_default_world_def();
  fix16_t half = (fix16_t)(circle_radius_raw(n) + FXS_INT(1) * (int64_t)bench_circle_margin);
  d.seed = 7;
  d.bounds_min = fxs_vec2_make(-half, -half);
  d.bounds_max = fxs_vec2_make(half, half);
  d.clamp_to_bounds = 0;
  d.neighbor_radius = CIRCLE_NEIGHBOR_DISTANCE;
  return d;
}

fxs_result bench_circle_setup(fxs_world *world, uint32_t n, fxs_agent_handle *handles) {
  fxs_orca_def orca = fxs_default_orca_def();
  orca.time_horizon = CIRCLE_TIME_HORIZON;
  orca.neighbor_distance = CIRCLE_NEIGHBOR_DISTANCE;
  orca.neighbor_radius = CIRCLE_RADIUS;
  orca.max_neighbors = CIRCLE_MAX_NEIGHBORS;
  orca.priority = 0;
  fxs_agent_limits_def limits = fxs_default_agent_limits_def();
  limits.max_speed = CIRCLE_MAX_SPEED, limits.max_force = CIRCLE_MAX_FORCE;
  limits.mass = FXS_ONE, limits.radius = CIRCLE_RADIUS;
  limits.orientation = FXS_ORIENT_FIXED; // RVO2 has no orientation either
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 start, goal;
    bench_circle_start(n, i, &start, &goal);
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = start;
    sd.velocity = fxs_vec2_zero();
    sd.max_speed = CIRCLE_MAX_SPEED, sd.max_force = CIRCLE_MAX_FORCE;
    sd.mass = FXS_ONE, sd.radius = CIRCLE_RADIUS;
    fxs_command c = fxs_command_spawn(&sd);
    fxs_result r = fxs_world_apply(world, &c, &handles[i]);
    if (r != FXS_OK) return r;
    fxs_command more[3] = {
        fxs_command_set_limits(handles[i], &limits), fxs_command_set_target_point(handles[i], goal),
        fxs_command_add_orca(handles[i], fxs_default_blend(), &orca, CIRCLE_SLOWING_RADIUS)};
    for (int k = 0; k < 3; ++k) {
      r = fxs_world_apply(world, &more[k], 0);
      if (r != FXS_OK) return r;
    }
  }
  return FXS_OK;
}
