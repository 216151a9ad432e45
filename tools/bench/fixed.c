// The fixed-point kernels: the library's public functions in plain loops. Integer-only (the
// Cortex-M3 build checks that this object calls no soft-float routine).
#include "bench.h"

#include "fixsteer/batch.h"
#include "fixsteer/manager.h"
#include "fixsteer/seek.h"

void bench_fixed_seek_init(fxs_agent *agents, fxs_vec2 *targets, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    bench_start s = bench_initial(n, i);
    fxs_agent a = fxs_default_agent();
    a.position = s.position;
    a.velocity = s.velocity;
    a.max_speed = BENCH_MAX_SPEED;
    a.max_force = BENCH_MAX_FORCE;
    a.mass = BENCH_MASS;
    a.radius = BENCH_RADIUS;
    a.orientation_mode = FXS_ORIENT_FIXED;
    agents[i] = a;
    targets[i] = s.target;
  }
}

void bench_fixed_seek_run(fxs_agent *agents, const fxs_vec2 *targets, uint32_t n, uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) {
    for (uint32_t i = 0; i < n; ++i) {
      fxs_vec2 force = fxs_seek(&agents[i], targets[i]);
      fxs_agent_integrate(&agents[i], fxs_steering_linear(force), fxs_vec2_zero(), FXS_ONE);
    }
  }
}

void bench_fixed_seek_many_run(fxs_agent *agents, const fxs_vec2 *targets, uint32_t n,
                               uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) fxs_seek_integrate_many(agents, targets, n);
}

int64_t bench_fixed_length_sum(const fxs_vec2 *v, uint32_t n) {
  int64_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += fxs_vec2_length(v[i]);
  return sum;
}

void bench_fixed_world_run(fxs_world *world, uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) fxs_world_step(world, 0, 0, 0);
}

uint64_t bench_fixed_hash_run(const fxs_world *world, uint32_t times) {
  uint64_t sink = 0;
  for (uint32_t t = 0; t < times; ++t) sink ^= fxs_world_hash(world) + t;
  return sink;
}
