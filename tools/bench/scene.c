// The benchmark's world scenarios, built through the public command API only (spawn,
// set_limits, set_target_point, set_target_agent, set_path, add_behavior, add_obstacle), so
// the scenes keep working when the world's internal layout changes. Integer-only.
#include "bench.h"

static const char *const scene_names[BENCH_SCENE_COUNT] = {
    "seek+integrate", "arrive",
    "wander",         "pursuit",
    "path following", "obstacle avoidance",
    "flocking",       "flocking, look-where-going"};

const char *bench_scene_name(bench_scene scene) {
  return (unsigned)scene < BENCH_SCENE_COUNT ? scene_names[scene] : "unknown";
}

static uint64_t isqrt_u64(uint64_t n) {
  uint64_t r = 0, bit = UINT64_C(1) << 62;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= r + bit) {
      n -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

uint32_t bench_side(uint32_t n) {
  // side^2 = n * pi * R^2 / density; pi * 40^2 / 10 = 502.6548 square units per agent.
  uint64_t area = (uint64_t)n * 5026548u / 10000u;
  uint32_t side = (uint32_t)isqrt_u64(area);
  return side < 64u ? 64u : side;
}

fxs_world_capacity bench_scene_capacity(bench_scene scene, uint32_t n, int *fits) {
  fxs_world_capacity c = {0};
  c.agents = n; // narrows where the field is 16 bits wide; checked just below
  *fits = c.agents == n;
  c.obstacles = scene == BENCH_AVOID ? BENCH_OBSTACLES : 0;
  c.paths = scene == BENCH_PATH ? 1 : 0;
  c.path_nodes = scene == BENCH_PATH ? BENCH_PATH_NODES : 0;
  c.walls = 0;
  return c;
}

fxs_world_capacity bench_base_capacity(uint32_t n, int *fits) {
  fxs_world_capacity c = bench_scene_capacity(BENCH_AVOID, n, fits);
  fxs_world_capacity p = bench_scene_capacity(BENCH_PATH, n, fits);
  c.paths = p.paths;
  c.path_nodes = p.path_nodes;
  return c;
}

fxs_world_def bench_scene_def(uint32_t n) {
  fxs_world_def d = fxs_default_world_def();
  d.seed = 7;
  d.bounds_min = fxs_vec2_zero();
  d.bounds_max = fxs_vec2_make(FXS_INT(bench_side(n)), FXS_INT(bench_side(n)));
  d.clamp_to_bounds = 1;
  d.neighbor_radius = FXS_INT(BENCH_NEIGHBOR_RADIUS);
  return d;
}

// A 64-bit mix of (i, k) (the splitmix64 finalizer): the benchmark's own placement stream,
// independent of the library's random streams.
static uint64_t mix(uint64_t i, uint64_t k) {
  uint64_t x = i * UINT64_C(0x9E3779B97F4A7C15) + k * UINT64_C(0xD1B54A32D192ED03) + 1u;
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

// A raw value in [0, range) from draw k of agent i.
static fix16_t draw(uint32_t i, uint32_t k, uint32_t range) {
  return (fix16_t)(((mix(i, k) >> 32) * range) >> 32);
}

bench_start bench_initial(uint32_t n, uint32_t i) {
  uint32_t side = (uint32_t)bench_side(n) << 16;
  bench_start s;
  s.position = fxs_vec2_make(draw(i, 0, side), draw(i, 1, side));
  s.velocity = fxs_vec2_make(draw(i, 2, 4u << 16) - FXS_INT(2), draw(i, 3, 4u << 16) - FXS_INT(2));
  s.target = fxs_vec2_make(draw(i, 4, side), draw(i, 5, side));
  return s;
}

fxs_result bench_scene_spawn(fxs_world *world, uint32_t n, uint32_t first, uint32_t count,
                             fxs_agent_handle *handles) {
  for (uint32_t i = first; i < first + count; ++i) {
    bench_start s = bench_initial(n, i);
    fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
    c.arg[0] = s.position.x, c.arg[1] = s.position.y;
    c.arg[2] = s.velocity.x, c.arg[3] = s.velocity.y;
    c.arg[4] = BENCH_MAX_SPEED, c.arg[5] = BENCH_MAX_FORCE;
    c.arg[6] = BENCH_MASS, c.arg[7] = BENCH_RADIUS;
    fxs_result r = fxs_world_apply(world, &c, &handles[i]);
    if (r != FXS_OK) return r;
  }
  return FXS_OK;
}

static fxs_result apply(fxs_world *world, const fxs_command *c) {
  return fxs_world_apply(world, c, 0);
}

static fxs_result add_behavior(fxs_world *world, fxs_agent_handle h, fxs_behavior kind,
                               fix16_t weight, fix16_t p0) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value;
  c.ref = (uint32_t)kind;
  c.arg[0] = weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  if (p0 != 0) c.arg[1] = p0;
  return apply(world, &c);
}

// Orientation stays fixed: the rows measure steering and integration (the float twins
// integrate no orientation either). BENCH_FLOCK_LOOK keeps the spawn default instead.
static fxs_result fix_orientation(fxs_world *world, fxs_agent_handle h) {
  fxs_agent d = fxs_default_agent();
  fxs_command c = fxs_command_make(FXS_CMD_SET_LIMITS, 0, 0);
  c.agent = h.value;
  c.ref = FXS_ORIENT_FIXED;
  c.arg[0] = BENCH_MAX_SPEED, c.arg[1] = BENCH_MAX_FORCE, c.arg[2] = BENCH_MASS;
  c.arg[3] = BENCH_RADIUS, c.arg[4] = d.max_rotation, c.arg[5] = d.max_angular_acceleration;
  c.arg[6] = d.max_turn_rate;
  return apply(world, &c);
}

static fxs_result add_world_features(fxs_world *world, bench_scene scene, uint32_t n) {
  uint32_t side = bench_side(n);
  if (scene == BENCH_PATH) {
    // An octagon around the centre, 0.35 * side from it (cos/sin of k * 45 degrees, x1000).
    static const int32_t cs[BENCH_PATH_NODES][2] = {{1000, 0},   {707, 707}, {0, 1000},
                                                    {-707, 707}, {-1000, 0}, {-707, -707},
                                                    {0, -1000},  {707, -707}};
    fxs_vec2 nodes[BENCH_PATH_NODES];
    int64_t half = (int64_t)side << 15, r = ((int64_t)side << 16) * 35 / 100;
    for (int k = 0; k < BENCH_PATH_NODES; ++k) {
      nodes[k] = fxs_vec2_make((fix16_t)(half + r * cs[k][0] / 1000),
                               (fix16_t)(half + r * cs[k][1] / 1000));
    }
    return fxs_world_add_path(world, nodes, BENCH_PATH_NODES, FXS_PATH_LOOP, FXS_INT(10), 0);
  }
  if (scene == BENCH_AVOID) {
    for (uint32_t k = 0; k < BENCH_OBSTACLES; ++k) {
      fxs_command c = fxs_command_make(FXS_CMD_ADD_OBSTACLE, 0, 0);
      c.arg[0] = draw(0xFFFF0000u + k, 0, side << 16);
      c.arg[1] = draw(0xFFFF0000u + k, 1, side << 16);
      c.arg[2] = FXS_INT(5) + draw(0xFFFF0000u + k, 2, 15u << 16);
      fxs_result r = apply(world, &c);
      if (r != FXS_OK) return r;
    }
  }
  return FXS_OK;
}

static fxs_result set_target(fxs_world *world, fxs_agent_handle h, fxs_vec2 target) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  c.agent = h.value;
  c.arg[0] = target.x, c.arg[1] = target.y;
  return apply(world, &c);
}

static fxs_result setup_agent(fxs_world *world, bench_scene scene, uint32_t n, uint32_t i,
                              const fxs_agent_handle *handles) {
  fxs_agent_handle h = handles[i];
  fxs_vec2 target = bench_initial(n, i).target;
  fxs_command c;
  fxs_result r = scene == BENCH_FLOCK_LOOK ? FXS_OK : fix_orientation(world, h);
  if (r != FXS_OK) return r;
  switch (scene) {
    case BENCH_SEEK:
      r = set_target(world, h, target);
      return r != FXS_OK ? r : add_behavior(world, h, FXS_BEHAVIOR_SEEK, FXS_ONE, 0);
    case BENCH_ARRIVE:
      r = set_target(world, h, target);
      return r != FXS_OK ? r : add_behavior(world, h, FXS_BEHAVIOR_ARRIVE, FXS_ONE, FXS_INT(100));
    case BENCH_WANDER:
      return add_behavior(world, h, FXS_BEHAVIOR_WANDER, FXS_ONE, 0);
    case BENCH_PURSUIT:
      c = fxs_command_make(FXS_CMD_SET_TARGET_AGENT, 0, 0);
      c.agent = h.value;
      c.ref = handles[(i + 1u) % n].value;
      r = apply(world, &c);
      return r != FXS_OK ? r : add_behavior(world, h, FXS_BEHAVIOR_PURSUIT, FXS_ONE, 0);
    case BENCH_PATH:
      c = fxs_command_make(FXS_CMD_SET_PATH, 0, 0);
      c.agent = h.value;
      c.ref = 0;
      r = apply(world, &c);
      return r != FXS_OK ? r : add_behavior(world, h, FXS_BEHAVIOR_PATH, FXS_ONE, 0);
    case BENCH_AVOID:
      r = set_target(world, h, target);
      if (r == FXS_OK) r = add_behavior(world, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0);
      return r != FXS_OK ? r : add_behavior(world, h, FXS_BEHAVIOR_SEEK, FXS_ONE, 0);
    case BENCH_FLOCK:
    case BENCH_FLOCK_LOOK:
      r = add_behavior(world, h, FXS_BEHAVIOR_SEPARATION, BENCH_SEPARATION_WEIGHT,
                       BENCH_SEPARATION_RADIUS);
      if (r == FXS_OK) {
        r = add_behavior(world, h, FXS_BEHAVIOR_ALIGNMENT, FXS_ONE, BENCH_ALIGNMENT_RADIUS);
      }
      return r != FXS_OK
                 ? r
                 : add_behavior(world, h, FXS_BEHAVIOR_COHESION, FXS_ONE, BENCH_COHESION_RADIUS);
    default:
      return FXS_ERR_BAD_VALUE;
  }
}

fxs_result bench_scene_setup(fxs_world *world, bench_scene scene, uint32_t n,
                             const fxs_agent_handle *handles) {
  fxs_result r = add_world_features(world, scene, n);
  for (uint32_t i = 0; i < n && r == FXS_OK; ++i) r = setup_agent(world, scene, n, i, handles);
  return r;
}
