// The built-in scenarios' command emitter (scenario.c, the only file that includes it): the
// command sources, spawns, behaviors, targets, walls and obstacles a scenario issues in a
// tick, and the defaults most scenarios configure their world with.
#ifndef FIXSTEER_TOOL_SCENARIO_EMIT_H
#define FIXSTEER_TOOL_SCENARIO_EMIT_H

#include <stdio.h>
#include <stdlib.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/manager.h"
#include "fixsteer/world.h"

struct scenario; // scenario.h, included before this header (SCENARIO_MAX_COMMANDS)

// Spawns are source 0 and configuration source 1, so on tick 0 every spawn is applied before
// the commands that configure it, and spawn i lands in slot i with handle value i + 1.
#define SRC_SPAWN 0
#define SRC_SETUP 1
#define SRC_GAME 2

static inline uint32_t handle_of(uint32_t slot) {
  return slot + 1u;
} // generation 0 on a fresh world

typedef struct emitter {
  fxs_command *out;
  uint32_t n;
  uint16_t seq[3];
} emitter;

static inline fxs_command *next(emitter *e, fxs_command_type type, uint8_t source) {
  if (e->n >= SCENARIO_MAX_COMMANDS) {
    // A scenario that needs more is a bug in the scenario: say so rather than drop input.
    fprintf(stderr, "fixsteer: scenario issues more than %d commands in one tick\n",
            SCENARIO_MAX_COMMANDS);
    exit(2);
  }
  fxs_command *c = &e->out[e->n++];
  *c = fxs_command_make(type, source, e->seq[source]++);
  return c;
}

static inline void spawn(emitter *e, int x, int y, fix16_t max_speed, fix16_t max_force) {
  fxs_command *c = next(e, FXS_CMD_SPAWN, SRC_SPAWN);
  if (!c) return;
  c->arg[0] = FXS_INT(x), c->arg[1] = FXS_INT(y);
  c->arg[4] = max_speed, c->arg[5] = max_force, c->arg[6] = FXS_ONE, c->arg[7] = FXS_INT(8);
}

static inline void clear(emitter *e, uint8_t src, uint32_t agent, fxs_combine_mode mode) {
  fxs_command *c = next(e, FXS_CMD_CLEAR_BEHAVIORS, src);
  if (c) c->agent = agent, c->ref = (uint32_t)mode;
}

// Adds a behavior with default parameters, overriding p0 when p0 != 0.
static inline void behave(emitter *e, uint8_t src, uint32_t agent, fxs_behavior kind,
                          fix16_t weight, uint8_t priority, fix16_t p0) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command *c = next(e, FXS_CMD_ADD_BEHAVIOR, src);
  if (!c) return;
  c->agent = agent;
  c->ref = (uint32_t)kind | ((uint32_t)priority << 8);
  c->arg[0] = weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c->arg[1 + i] = b.p[i];
  if (p0 != 0) c->arg[1] = p0;
}

static inline void target_point(emitter *e, uint8_t src, uint32_t agent, fxs_vec2 p) {
  fxs_command *c = next(e, FXS_CMD_SET_TARGET_POINT, src);
  if (c) c->agent = agent, c->arg[0] = p.x, c->arg[1] = p.y;
}

static inline void target_agent(emitter *e, uint8_t src, uint32_t agent, uint32_t target) {
  fxs_command *c = next(e, FXS_CMD_SET_TARGET_AGENT, src);
  if (c) c->agent = agent, c->ref = target;
}

static inline void orientation(emitter *e, uint32_t agent, fxs_orientation_mode mode) {
  fxs_agent d = fxs_default_agent();
  fxs_command *c = next(e, FXS_CMD_SET_LIMITS, SRC_SETUP);
  if (!c) return;
  c->agent = agent, c->ref = (uint32_t)mode;
  c->arg[0] = d.max_speed, c->arg[1] = d.max_force, c->arg[2] = d.mass, c->arg[3] = d.radius;
  c->arg[4] = d.max_rotation, c->arg[5] = d.max_angular_acceleration;
  c->arg[6] = FXS_RATIO(1, 8);
}

static inline void obstacle(emitter *e, int x, int y, int r) {
  fxs_command *c = next(e, FXS_CMD_ADD_OBSTACLE, SRC_SETUP);
  if (c) c->arg[0] = FXS_INT(x), c->arg[1] = FXS_INT(y), c->arg[2] = FXS_INT(r);
}

static inline void add_wall(emitter *e, int ax, int ay, int bx, int by) {
  fxs_command *c = next(e, FXS_CMD_ADD_WALL, SRC_SETUP);
  if (c)
    c->arg[0] = FXS_INT(ax), c->arg[1] = FXS_INT(ay), c->arg[2] = FXS_INT(bx),
    c->arg[3] = FXS_INT(by);
}

static inline void use_path(emitter *e, uint32_t agent, uint16_t path) {
  fxs_command *c = next(e, FXS_CMD_SET_PATH, SRC_SETUP);
  if (c) c->agent = agent, c->ref = path;
}

// A point moving on a Lissajous curve over the world: the "mouse" of the demos.
static inline fxs_vec2 mouse_at(uint32_t tick, int cx, int cy, int rx, int ry) {
  fix16_t a = fxs_angle_wrap((fix16_t)((tick % 4000u) * (uint32_t)FXS_RATIO(1, 160)));
  fix16_t b = fxs_angle_wrap((fix16_t)((tick % 4000u) * (uint32_t)FXS_RATIO(1, 230)));
  return fxs_vec2_make(fxs_add(FXS_INT(cx), fxs_mul(FXS_INT(rx), fxs_cos(a))),
                       fxs_add(FXS_INT(cy), fxs_mul(FXS_INT(ry), fxs_sin(b))));
}

static inline void configure_default(const struct scenario *self, fxs_world_def *def) {
  (void)self;
  *def = fxs_default_world_def();
  def->seed = 20261122u;
  def->bounds_max = fxs_vec2_make(FXS_INT(1600), FXS_INT(1200));
  def->clamp_to_bounds = 1;
}

static inline void no_paths(const struct scenario *self, fxs_world *world) {
  (void)self;
  (void)world;
}

// configure_default with a neighbor radius of 120 (the flock and the queue).
static inline void configure_small(const struct scenario *self, fxs_world_def *def) {
  configure_default(self, def);
  def->neighbor_radius = FXS_INT(120);
}

#endif
