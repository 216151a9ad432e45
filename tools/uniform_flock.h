// The flocks the tools step: the behaviors of a flocking agent (separation, alignment,
// cohesion, wander) and a uniform flock of N agents with about ten neighbors each, built
// the same way on every run (fixed xorshift). Used by fxs-bench and fxs-threads.
#ifndef FXS_TOOLS_UNIFORM_FLOCK_H
#define FXS_TOOLS_UNIFORM_FLOCK_H

#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"

static fxs_command behavior(uint32_t agent, fxs_behavior kind, fix16_t weight, uint16_t seq) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 1, seq);
  c.agent = agent, c.ref = kind, c.arg[0] = weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  return c;
}

// Separation, alignment, cohesion and wander for agent handle h (4 commands).
static uint32_t flock_behaviors(fxs_command *out, uint32_t h, uint16_t *seq) {
  out[0] = behavior(h, FXS_BEHAVIOR_SEPARATION, FXS_INT(3), (*seq)++);
  out[1] = behavior(h, FXS_BEHAVIOR_ALIGNMENT, FXS_ONE, (*seq)++);
  out[2] = behavior(h, FXS_BEHAVIOR_COHESION, FXS_RATIO(1, 2), (*seq)++);
  out[3] = behavior(h, FXS_BEHAVIOR_WANDER, FXS_RATIO(1, 4), (*seq)++);
  return 4;
}

// The uniform flock: N agents at random raw positions in a square whose side gives about
// ten agents per neighbor disc (radius 60), random velocities up to 2 per axis. The random
// numbers come from a fixed xorshift, so every run builds the same world.
typedef struct uniform {
  fxs_world world;
  void *memory;
  fxs_command *commands;
  uint32_t side;   // raw Q16.16
  uint64_t random; // xorshift state
} uniform;

static uint32_t next_random(uniform *u) {
  u->random ^= u->random << 13, u->random ^= u->random >> 7, u->random ^= u->random << 17;
  return (uint32_t)(u->random >> 16);
}

// Side of the square, raw Q16.16: sqrt(N * pi * 60^2 / 10) world units, by integer search.
static uint32_t uniform_side(uint32_t agents) {
  uint64_t area = (uint64_t)agents * 11310u / 10u; // pi * 3600 / 10 = 1130.97
  uint64_t s = 1;
  while ((s + 1) * (s + 1) <= area) ++s;
  return s > 32000u ? 32000u * 65536u : (uint32_t)s * 65536u;
}

static int uniform_make(uniform *u, uint32_t agents) {
  memset(u, 0, sizeof *u);
  fxs_world_capacity cap = {agents, 0, 0, 0, 0, FXS_MAX_WORKERS, 0, 0, 0, 0, 0, 0, 0, 0};
  fxs_world_def def = fxs_default_world_def();
  u->side = uniform_side(agents);
  def.neighbor_radius = FXS_INT(60);
  def.bounds_max = fxs_vec2_make((fix16_t)u->side, (fix16_t)u->side);
  size_t size = fxs_world_memory_size(&cap);
  u->memory = size ? malloc(size) : 0;
  u->commands = malloc(sizeof(fxs_command) * ((size_t)agents * 4u + 1u));
  u->random = UINT64_C(0x2545F4914F6CDD1D);
  if (!u->memory || !u->commands) return -1;
  return fxs_world_init(&u->world, &def, &cap, u->memory, size) == FXS_OK ? 0 : -1;
}

static fxs_command uniform_spawn(uniform *u, uint32_t i) {
  fxs_command s = fxs_command_make(FXS_CMD_SPAWN, 0, (uint16_t)i);
  s.arg[0] = (fix16_t)(next_random(u) % u->side), s.arg[1] = (fix16_t)(next_random(u) % u->side);
  s.arg[2] = (fix16_t)(next_random(u) % 262144u) - 131072;
  s.arg[3] = (fix16_t)(next_random(u) % 262144u) - 131072;
  s.arg[4] = FXS_INT(3), s.arg[5] = FXS_RATIO(1, 5), s.arg[6] = FXS_ONE, s.arg[7] = FXS_INT(8);
  return s;
}

// Spawns every agent (returns the seconds that took) and gives each its behaviors.
// The N spawn commands, into u->commands (to apply, and time, as the caller likes).
static void uniform_spawns(uniform *u) {
  for (uint32_t i = 0; i < u->world.capacity.agents; ++i) u->commands[i] = uniform_spawn(u, i);
}

// Gives every spawned agent the flocking behaviors (agent i has handle i + 1).
static void uniform_behaviors(uniform *u) {
  uint32_t n = 0;
  uint16_t seq = 0;
  for (uint32_t i = 0; i < u->world.capacity.agents; ++i) {
    n += flock_behaviors(&u->commands[n], i + 1u, &seq);
  }
  for (uint32_t i = 0; i < n; ++i) fxs_world_apply(&u->world, &u->commands[i], 0);
}

static void uniform_free(uniform *u) {
  free(u->commands);
  free(u->memory);
}

#endif
