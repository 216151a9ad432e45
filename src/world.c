#include "fixsteer/world.h"

#include <string.h>

#include "fixsteer/align.h"
#include "fixsteer/kinematic.h"
#include "fixsteer/leader.h"
#include "fixsteer/manager.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"
#include "fixsteer/velocity_match.h"
#include "fixsteer/wander.h"

// ------------------------------------------------------------------ defaults and memory

fxs_world_def fxs_default_world_def(void) {
  fxs_world_def d;
  d.seed = 1;
  d.bounds_min = fxs_vec2_zero();
  d.bounds_max = fxs_vec2_make(FXS_INT(4096), FXS_INT(4096));
  d.clamp_to_bounds = 0;
  d.neighbor_radius = FXS_INT(100);
  return d;
}

fxs_behavior_slot fxs_behavior_slot_default(fxs_behavior kind) {
  fxs_behavior_slot s;
  memset(&s, 0, sizeof s);
  s.kind = (uint8_t)kind;
  s.weight = FXS_ONE;
  for (uint32_t i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) s.p[i] = fxs_behavior_param_default(kind, i);
  return s;
}

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

// Byte offsets of each array inside the world's memory block; [count] is the total.
enum {
  M_AGENTS, M_OBSTACLES, M_ALIVE, M_PATHS, M_NODES, M_WALLS, M_WALL_ALIVE,  // state
  M_NEXT, M_VIEW, M_LIVE, M_LIVE_WALLS, M_CELL_START, M_CELL_ITEMS, M_VIEW_CELL, // scratch
  M_COUNT
};

static uint32_t grid_cells(const fxs_world_capacity *c) {
  uint32_t n = 2u * c->agents;
  return n < 64u ? 64u : n;
}

static void layout(const fxs_world_capacity *c, size_t offsets[M_COUNT + 1]) {
  size_t sizes[M_COUNT] = {
      sizeof(fxs_agent_slot) * c->agents, sizeof(fxs_obstacle) * c->obstacles,
      sizeof(uint8_t) * c->obstacles,     sizeof(fxs_world_path) * c->paths,
      sizeof(fxs_vec2) * c->path_nodes,   sizeof(fxs_wall) * c->walls,
      sizeof(uint8_t) * c->walls,         sizeof(fxs_agent) * c->agents,
      sizeof(fxs_neighbor) * c->agents,   sizeof(fxs_obstacle) * c->obstacles,
      sizeof(fxs_wall) * c->walls,        sizeof(uint32_t) * (grid_cells(c) + 1u),
      sizeof(uint32_t) * c->agents,       sizeof(uint32_t) * c->agents};
  size_t at = 0;
  for (int i = 0; i < M_COUNT; ++i) {
    offsets[i] = at;
    at += align8(sizes[i]);
  }
  offsets[M_COUNT] = at;
}

size_t fxs_world_memory_size(const fxs_world_capacity *capacity) {
  size_t offsets[M_COUNT + 1];
  layout(capacity, offsets);
  return offsets[M_COUNT];
}

fxs_result fxs_world_def_check(const fxs_world_def *def) {
  if (def->clamp_to_bounds > 1 || def->neighbor_radius < 0) return FXS_ERR_BAD_VALUE;
  if (def->bounds_min.x > def->bounds_max.x || def->bounds_min.y > def->bounds_max.y) {
    return FXS_ERR_BAD_VALUE;
  }
  return FXS_OK;
}

fxs_result fxs_world_init(fxs_world *world, const fxs_world_def *def,
                          const fxs_world_capacity *capacity, void *memory, size_t size) {
  if (capacity->agents > 0xFFFEu || fxs_world_def_check(def) != FXS_OK) return FXS_ERR_BAD_VALUE;
  size_t offsets[M_COUNT + 1];
  layout(capacity, offsets);
  if (memory == 0 || size < offsets[M_COUNT]) return FXS_ERR_BUFFER_TOO_SMALL;
  uint8_t *base = (uint8_t *)memory;
  memset(base, 0, offsets[M_COUNT]);
  memset(world, 0, sizeof *world);
  world->def = *def;
  world->capacity = *capacity;
  world->agents = (fxs_agent_slot *)(void *)(base + offsets[M_AGENTS]);
  world->obstacles = (fxs_obstacle *)(void *)(base + offsets[M_OBSTACLES]);
  world->obstacle_alive = base + offsets[M_ALIVE];
  world->paths = (fxs_world_path *)(void *)(base + offsets[M_PATHS]);
  world->nodes = (fxs_vec2 *)(void *)(base + offsets[M_NODES]);
  world->walls = (fxs_wall *)(void *)(base + offsets[M_WALLS]);
  world->wall_alive = base + offsets[M_WALL_ALIVE];
  world->live_walls = (fxs_wall *)(void *)(base + offsets[M_LIVE_WALLS]);
  world->cell_start = (uint32_t *)(void *)(base + offsets[M_CELL_START]);
  world->cell_items = (uint32_t *)(void *)(base + offsets[M_CELL_ITEMS]);
  world->view_cell = (uint32_t *)(void *)(base + offsets[M_VIEW_CELL]);
  world->grid_max_cells = grid_cells(capacity);
  world->next = (fxs_agent *)(void *)(base + offsets[M_NEXT]);
  world->view = (fxs_neighbor *)(void *)(base + offsets[M_VIEW]);
  world->live_obstacles = (fxs_obstacle *)(void *)(base + offsets[M_LIVE]);
  return FXS_OK;
}

fxs_result fxs_world_add_path(fxs_world *world, const fxs_vec2 *nodes, uint16_t count,
                              fxs_path_mode mode, fix16_t radius, uint16_t *out_index) {
  if (world->path_count >= world->capacity.paths) return FXS_ERR_FULL;
  if (count > world->capacity.path_nodes - world->node_count) return FXS_ERR_FULL;
  if ((unsigned)mode > FXS_PATH_PATROL || radius < 0 || (count > 0 && nodes == 0)) {
    return FXS_ERR_BAD_VALUE;
  }
  fxs_world_path *p = &world->paths[world->path_count];
  p->first_node = world->node_count;
  p->count = count;
  p->mode = (uint8_t)mode;
  p->radius = radius;
  p->slowing_radius = FXS_INT(60);
  for (uint16_t i = 0; i < count; ++i) world->nodes[world->node_count + i] = nodes[i];
  world->node_count += count;
  if (out_index) *out_index = world->path_count;
  world->path_count++;
  return FXS_OK;
}

// ------------------------------------------------------------------ handles

static fxs_agent_handle make_handle(uint16_t index, uint16_t generation) {
  fxs_agent_handle h;
  h.value = ((uint32_t)generation << 16) | (uint32_t)(index + 1u);
  return h;
}

// Slot index a handle value names, or -1 when it is 0, out of range or stale.
static int32_t slot_of(const fxs_world *world, uint32_t value) {
  uint32_t index = (value & 0xFFFFu);
  if (index == 0 || index > world->capacity.agents) return -1;
  const fxs_agent_slot *s = &world->agents[index - 1];
  if (!s->alive || s->generation != (uint16_t)(value >> 16)) return -1;
  return (int32_t)(index - 1);
}

const fxs_agent *fxs_world_agent(const fxs_world *world, fxs_agent_handle handle) {
  int32_t i = slot_of(world, handle.value);
  return i < 0 ? 0 : &world->agents[i].body;
}

fxs_agent_handle fxs_world_handle_at(const fxs_world *world, uint16_t index) {
  fxs_agent_handle none = {0};
  if (index >= world->capacity.agents || !world->agents[index].alive) return none;
  return make_handle(index, world->agents[index].generation);
}

uint32_t fxs_world_agent_count(const fxs_world *world) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) n += world->agents[i].alive;
  return n;
}

// ------------------------------------------------------------------ commands

static bool limits_valid(fix16_t max_speed, fix16_t max_force, fix16_t mass, fix16_t radius) {
  return max_speed >= 0 && max_force >= 0 && mass > 0 && radius >= 0;
}

static fxs_result spawn(fxs_world *world, const fxs_command *c, fxs_agent_handle *out) {
  if (!limits_valid(c->arg[4], c->arg[5], c->arg[6], c->arg[7])) return FXS_ERR_BAD_VALUE;
  for (uint16_t i = 0; i < world->capacity.agents; ++i) {
    fxs_agent_slot *s = &world->agents[i];
    if (s->alive) continue;
    uint16_t generation = s->generation;
    memset(s, 0, sizeof *s);
    s->generation = generation;
    s->alive = 1;
    s->path_index = FXS_NO_PATH;
    s->body = fxs_default_agent();
    s->body.position = fxs_vec2_make(c->arg[0], c->arg[1]);
    s->body.velocity = fxs_vec2_truncate(fxs_vec2_make(c->arg[2], c->arg[3]), c->arg[4]);
    s->body.max_speed = c->arg[4];
    s->body.max_force = c->arg[5];
    s->body.mass = c->arg[6];
    s->body.radius = c->arg[7];
    s->target_point = s->body.position;
    s->path = fxs_path_start();
    fxs_rng_seed_stream(&s->rng, world->def.seed, ((uint32_t)generation << 16) | i);
    if (out) *out = make_handle(i, generation);
    return FXS_OK;
  }
  return FXS_ERR_FULL;
}

static fxs_result add_behavior(fxs_agent_slot *s, const fxs_command *c) {
  uint32_t kind = c->ref & 0xFFu;
  if (c->ref > 0xFFFFu) return FXS_ERR_BAD_VALUE;
  fxs_result valid = fxs_behavior_params_check(kind, c->arg[0], c->arg + 1, 0);
  if (valid != FXS_OK) return valid;
  if (c->arg[1 + FXS_BEHAVIOR_PARAMS] != 0) return FXS_ERR_BAD_VALUE;
  if (s->behavior_count >= FXS_AGENT_BEHAVIORS) return FXS_ERR_FULL;
  fxs_behavior_slot *b = &s->behaviors[s->behavior_count++];
  b->kind = (uint8_t)kind;
  b->priority = (uint8_t)(c->ref >> 8);
  b->weight = c->arg[0];
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) b->p[i] = c->arg[1 + i];
  return FXS_OK;
}

static fxs_result set_limits(fxs_agent_slot *s, const fxs_command *c) {
  if (!limits_valid(c->arg[0], c->arg[1], c->arg[2], c->arg[3]) || c->arg[4] < 0 ||
      c->arg[5] < 0 || c->arg[6] < 0 || c->ref > FXS_ORIENT_STEERED) {
    return FXS_ERR_BAD_VALUE;
  }
  fxs_agent *a = &s->body;
  a->max_speed = c->arg[0], a->max_force = c->arg[1], a->mass = c->arg[2];
  a->radius = c->arg[3], a->max_rotation = c->arg[4], a->max_angular_acceleration = c->arg[5];
  a->max_turn_rate = c->arg[6];
  a->orientation_mode = (uint8_t)c->ref;
  a->velocity = fxs_vec2_truncate(a->velocity, a->max_speed);
  return FXS_OK;
}

static fxs_result obstacle_command(fxs_world *world, const fxs_command *c) {
  if (c->type == FXS_CMD_REMOVE_OBSTACLE) {
    if (c->ref >= world->capacity.obstacles || !world->obstacle_alive[c->ref]) {
      return FXS_ERR_BAD_VALUE;
    }
    world->obstacle_alive[c->ref] = 0;
    return FXS_OK;
  }
  if (c->arg[2] < 0) return FXS_ERR_BAD_VALUE;
  for (uint16_t i = 0; i < world->capacity.obstacles; ++i) {
    if (world->obstacle_alive[i]) continue;
    world->obstacles[i].center = fxs_vec2_make(c->arg[0], c->arg[1]);
    world->obstacles[i].radius = c->arg[2];
    world->obstacle_alive[i] = 1;
    return FXS_OK;
  }
  return FXS_ERR_FULL;
}

static fxs_result wall_command(fxs_world *world, const fxs_command *c) {
  if (c->type == FXS_CMD_REMOVE_WALL) {
    if (c->ref >= world->capacity.walls || !world->wall_alive[c->ref]) return FXS_ERR_BAD_VALUE;
    world->wall_alive[c->ref] = 0;
    return FXS_OK;
  }
  for (uint16_t i = 0; i < world->capacity.walls; ++i) {
    if (world->wall_alive[i]) continue;
    world->walls[i].a = fxs_vec2_make(c->arg[0], c->arg[1]);
    world->walls[i].b = fxs_vec2_make(c->arg[2], c->arg[3]);
    world->wall_alive[i] = 1;
    return FXS_OK;
  }
  return FXS_ERR_FULL;
}

// Commands that act on one existing agent.
static fxs_result agent_command(fxs_world *world, fxs_agent_slot *s, const fxs_command *c) {
  switch ((fxs_command_type)c->type) {
    case FXS_CMD_DESPAWN:
      s->alive = 0;
      s->generation++;
      return FXS_OK;
    case FXS_CMD_SET_TARGET_POINT: s->target_point = fxs_vec2_make(c->arg[0], c->arg[1]); return FXS_OK;
    case FXS_CMD_SET_TARGET_AGENT:
      if (c->ref != 0 && slot_of(world, c->ref) < 0) return FXS_ERR_STALE_HANDLE;
      s->target_agent = c->ref;
      return FXS_OK;
    case FXS_CMD_CLEAR_BEHAVIORS:
      if (c->ref > FXS_COMBINE_PRIORITY_GROUPS) return FXS_ERR_BAD_VALUE;
      s->behavior_count = 0;
      memset(s->behaviors, 0, sizeof s->behaviors);
      s->combine_mode = (uint8_t)c->ref;
      return FXS_OK;
    case FXS_CMD_ADD_BEHAVIOR: return add_behavior(s, c);
    case FXS_CMD_SET_PATH:
      if (c->ref != FXS_NO_PATH && c->ref >= world->path_count) return FXS_ERR_BAD_VALUE;
      s->path_index = (uint16_t)c->ref;
      s->path = fxs_path_start();
      return FXS_OK;
    case FXS_CMD_APPLY_FORCE:
      s->pending_force = fxs_vec2_add(s->pending_force, fxs_vec2_make(c->arg[0], c->arg[1]));
      return FXS_OK;
    case FXS_CMD_SET_LIMITS: return set_limits(s, c);
    default: return FXS_ERR_BAD_COMMAND;
  }
}

fxs_result fxs_world_apply(fxs_world *world, const fxs_command *command,
                           fxs_agent_handle *out_spawned) {
  switch ((fxs_command_type)command->type) {
    case FXS_CMD_SPAWN: return spawn(world, command, out_spawned);
    case FXS_CMD_ADD_OBSTACLE:
    case FXS_CMD_REMOVE_OBSTACLE: return obstacle_command(world, command);
    case FXS_CMD_ADD_WALL:
    case FXS_CMD_REMOVE_WALL: return wall_command(world, command);
    default: break;
  }
  if (command->type >= FXS_CMD_COUNT) return FXS_ERR_BAD_COMMAND;
  int32_t i = slot_of(world, command->agent);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  return agent_command(world, &world->agents[i], command);
}

// ------------------------------------------------------------------ the step

// Phase 2: the start-of-tick view of every live agent, obstacle and wall.
static uint32_t sense(fxs_world *world, uint32_t *obstacle_count, uint32_t *wall_count) {
  uint32_t n = 0;
  for (uint16_t i = 0; i < world->capacity.agents; ++i) {
    if (world->agents[i].alive) world->view[n++] = fxs_neighbor_of(&world->agents[i].body, i);
  }
  uint32_t m = 0;
  for (uint16_t i = 0; i < world->capacity.obstacles; ++i) {
    if (world->obstacle_alive[i]) world->live_obstacles[m++] = world->obstacles[i];
  }
  *obstacle_count = m;
  uint32_t k = 0;
  for (uint16_t i = 0; i < world->capacity.walls; ++i) {
    if (world->wall_alive[i]) world->live_walls[k++] = world->walls[i];
  }
  *wall_count = k;
  return n;
}

// The grid of one tick: square cells of `size` raw units over the world's bounds, coarsened
// until they fit in grid_max_cells. Derived from the definition; not state.
typedef struct grid {
  int64_t size, min_x, min_y;
  uint32_t w, h;
} grid;

static grid grid_of(const fxs_world *world) {
  grid g;
  const fxs_world_def *d = &world->def;
  int64_t width = (int64_t)d->bounds_max.x - d->bounds_min.x;
  int64_t height = (int64_t)d->bounds_max.y - d->bounds_min.y;
  if (width < 1) width = 1;
  if (height < 1) height = 1;
  g.min_x = d->bounds_min.x, g.min_y = d->bounds_min.y;
  g.size = d->neighbor_radius > FXS_ONE ? d->neighbor_radius : FXS_ONE;
  for (;;) {
    uint64_t w = (uint64_t)((width + g.size - 1) / g.size), h = (uint64_t)((height + g.size - 1) / g.size);
    if (w * h <= world->grid_max_cells) {
      g.w = (uint32_t)w, g.h = (uint32_t)h;
      return g;
    }
    g.size *= 2;
  }
}

// Cell coordinate of a raw coordinate: monotone, clamped into [0, cells - 1].
static uint32_t cell_coord(int64_t v, int64_t min, int64_t size, uint32_t cells) {
  int64_t c = v < min ? 0 : (v - min) / size;
  return c >= (int64_t)cells ? cells - 1u : (uint32_t)c;
}

// Counting sort of the view into the grid's cells.
static void build_grid(fxs_world *world, const grid *g, uint32_t view_count) {
  uint32_t cells = g->w * g->h;
  memset(world->cell_start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t v = 0; v < view_count; ++v) {
    fxs_vec2 p = world->view[v].position;
    uint32_t c = cell_coord(p.y, g->min_y, g->size, g->h) * g->w + cell_coord(p.x, g->min_x, g->size, g->w);
    world->view_cell[v] = c;
    world->cell_start[c + 1]++;
  }
  for (uint32_t c = 0; c < cells; ++c) world->cell_start[c + 1] += world->cell_start[c];
  for (uint32_t v = 0; v < view_count; ++v) world->cell_items[world->cell_start[world->view_cell[v]]++] = v;
  for (uint32_t c = cells; c > 0; --c) world->cell_start[c] = world->cell_start[c - 1];
  world->cell_start[0] = 0;
}

// Offers one candidate to the sorted list of the nearest neighbors.
static void offer(fxs_neighbor out[FXS_MAX_NEIGHBORS], uint64_t key[FXS_MAX_NEIGHBORS], uint32_t *n,
                  const fxs_neighbor *c, uint64_t k) {
  uint32_t slot = *n < FXS_MAX_NEIGHBORS ? (*n)++ : FXS_MAX_NEIGHBORS;
  if (slot == FXS_MAX_NEIGHBORS) {
    if (k > key[*n - 1] || (k == key[*n - 1] && c->id > out[*n - 1].id)) return;
    slot = *n - 1; // replaces the farthest
  }
  while (slot > 0 && (key[slot - 1] > k || (key[slot - 1] == k && out[slot - 1].id > c->id))) {
    key[slot] = key[slot - 1];
    out[slot] = out[slot - 1];
    --slot;
  }
  key[slot] = k;
  out[slot] = *c;
}

// The nearest live agents within neighbor_radius of agent `self`, nearest first, ties by
// lower slot index; at most FXS_MAX_NEIGHBORS. Which cells are visited, and in which order,
// cannot change the result: it is the K smallest under a total order.
static uint32_t neighbors_of(const fxs_world *world, const grid *g, uint16_t self,
                             fxs_neighbor out[FXS_MAX_NEIGHBORS]) {
  uint64_t key[FXS_MAX_NEIGHBORS];
  uint32_t n = 0;
  fxs_vec2 at = world->agents[self].body.position;
  int64_t r = world->def.neighbor_radius;
  uint32_t x0 = cell_coord((int64_t)at.x - r, g->min_x, g->size, g->w);
  uint32_t x1 = cell_coord((int64_t)at.x + r, g->min_x, g->size, g->w);
  uint32_t y0 = cell_coord((int64_t)at.y - r, g->min_y, g->size, g->h);
  uint32_t y1 = cell_coord((int64_t)at.y + r, g->min_y, g->size, g->h);
  for (uint32_t cy = y0; cy <= y1; ++cy) {
    for (uint32_t cx = x0; cx <= x1; ++cx) {
      uint32_t cell = cy * g->w + cx;
      for (uint32_t i = world->cell_start[cell]; i < world->cell_start[cell + 1]; ++i) {
        const fxs_neighbor *c = &world->view[world->cell_items[i]];
        if (c->id == self || !fxs_vec2_within(at, c->position, world->def.neighbor_radius)) continue;
        offer(out, key, &n, c, fxs_vec2_length_sq(fxs_vec2_sub(c->position, at)));
      }
    }
  }
  return n;
}

// The agent a slot's behaviors aim at, or NULL.
static const fxs_agent *target_agent_of(const fxs_world *world, const fxs_agent_slot *s) {
  int32_t i = s->target_agent ? slot_of(world, s->target_agent) : -1;
  return i < 0 ? 0 : &world->agents[i].body;
}

typedef struct steer_context {
  const fxs_world *world;
  fxs_agent_slot *slot;
  uint16_t index;
  const fxs_agent *target;  // target agent or NULL
  fxs_vec2 target_point;    // its position, or the slot's target point
  const fxs_neighbor *neighbors;
  uint32_t neighbor_count;
  uint32_t obstacle_count;
  uint32_t wall_count;
} steer_context;

static fxs_align_def align_def_from(const fix16_t *p) {
  fxs_align_def d;
  d.target_radius = p[0], d.slow_radius = p[1], d.time_to_target = p[2];
  return d;
}

// Behaviors that read the neighbor list: separation, alignment, cohesion, leader, queue.
static fxs_vec2 neighbor_steering(steer_context *ctx, const fxs_behavior_slot *b,
                                  fxs_steering_manager *m, fix16_t *velocity_scale) {
  const fxs_agent *a = &ctx->slot->body;
  const fix16_t *p = b->p;
  const fxs_neighbor *nb = ctx->neighbors;
  uint32_t nc = ctx->neighbor_count;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_SEPARATION: return fxs_separation(a, ctx->index, nb, nc, p[0]);
    case FXS_BEHAVIOR_ALIGNMENT: return fxs_alignment(a, ctx->index, nb, nc, p[0]);
    case FXS_BEHAVIOR_COHESION: return fxs_cohesion(a, ctx->index, nb, nc, p[0]);
    case FXS_BEHAVIOR_LEADER: {
      if (!ctx->target) return fxs_vec2_zero();
      fxs_leader_def d = {p[0], p[1], p[2], p[3], p[4], p[5]};
      return fxs_follow_leader(a, ctx->index, ctx->target, nb, nc, &d);
    }
    case FXS_BEHAVIOR_QUEUE: {
      fxs_queue_def d = {p[0], p[1], p[2]};
      fxs_steering so_far = fxs_manager_combine(m, a); // what the earlier behaviors want
      fix16_t scale = FXS_ONE;
      fxs_vec2 f = fxs_queue(a, ctx->index, so_far.linear, nb, nc, &d, &scale);
      *velocity_scale = fxs_mul(*velocity_scale, scale);
      return f;
    }
    default: return fxs_vec2_zero();
  }
}

// Millington's align family: angular output only.
static fix16_t angular_steering(const steer_context *ctx, const fxs_behavior_slot *b) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_align_def d = align_def_from(b->kind == FXS_BEHAVIOR_ALIGN ? b->p + 1 : b->p);
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_ALIGN: return fxs_align(a, b->p[0], &d);
    case FXS_BEHAVIOR_FACE: return fxs_face(a, ctx->target_point, &d);
    case FXS_BEHAVIOR_LOOK_WHERE_GOING: return fxs_look_where_going(a, &d);
    default: return 0;
  }
}

static fxs_vec2 path_steering(steer_context *ctx) {
  fxs_agent_slot *s = ctx->slot;
  if (s->path_index >= ctx->world->path_count) return fxs_vec2_zero();
  const fxs_world_path *wp = &ctx->world->paths[s->path_index];
  fxs_path_def d = fxs_default_path_def(&ctx->world->nodes[wp->first_node], wp->count,
                                        (fxs_path_mode)wp->mode);
  d.radius = wp->radius, d.slowing_radius = wp->slowing_radius;
  return fxs_follow_path(&s->body, &d, &s->path);
}

// Linear (and angular) steering of one behavior slot for the agent of `ctx`.
static fxs_steering slot_steering(steer_context *ctx, const fxs_behavior_slot *b,
                                  fxs_steering_manager *m, fix16_t *velocity_scale) {
  fxs_agent_slot *s = ctx->slot;
  const fxs_agent *a = &s->body;
  const fix16_t *p = b->p;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_SEEK: return fxs_steering_linear(fxs_seek(a, ctx->target_point));
    case FXS_BEHAVIOR_FLEE: return fxs_steering_linear(fxs_flee(a, ctx->target_point, p[0]));
    case FXS_BEHAVIOR_ARRIVE: return fxs_steering_linear(fxs_arrive(a, ctx->target_point, p[0]));
    case FXS_BEHAVIOR_WANDER: {
      fxs_wander_def w = {p[0], p[1], p[2]};
      return fxs_steering_linear(fxs_wander(a, &w, &s->wander_angle, &s->rng));
    }
    case FXS_BEHAVIOR_PURSUIT:
    case FXS_BEHAVIOR_EVADE:
      if (!ctx->target) return fxs_steering_linear(fxs_vec2_zero());
      return fxs_steering_linear(b->kind == FXS_BEHAVIOR_PURSUIT ? fxs_pursuit(a, ctx->target, p[0])
                                                                  : fxs_evade(a, ctx->target, p[0], p[1]));
    case FXS_BEHAVIOR_AVOID: {
      fxs_avoidance_def d = {p[0], p[1], p[2], p[3], p[4]};
      return fxs_steering_linear(
          fxs_vec2_add(fxs_avoid_obstacles(a, ctx->world->live_obstacles, ctx->obstacle_count, &d),
                       fxs_avoid_walls(a, ctx->world->live_walls, ctx->wall_count, &d)));
    }
    case FXS_BEHAVIOR_PATH: return fxs_steering_linear(path_steering(ctx));
    case FXS_BEHAVIOR_DYNAMIC_ARRIVE: {
      fxs_dynamic_arrive_def d = {p[0], p[1], p[2], p[3]};
      return fxs_steering_linear(fxs_dynamic_arrive(a, ctx->target_point, &d));
    }
    case FXS_BEHAVIOR_VELOCITY_MATCH:
      if (!ctx->target) return fxs_steering_linear(fxs_vec2_zero());
      return fxs_steering_linear(fxs_velocity_match(a, ctx->target->velocity, p[0], p[1]));
    case FXS_BEHAVIOR_ALIGN:
    case FXS_BEHAVIOR_FACE:
    case FXS_BEHAVIOR_LOOK_WHERE_GOING: return fxs_steering_angular(angular_steering(ctx, b));
    case FXS_BEHAVIOR_WALKER: {
      fxs_walker_def d = {p[0], p[1], p[2], p[3], p[4]};
      return fxs_steering_linear(fxs_random_walker(a, ctx->target_point, &d, &s->walker, &s->rng));
    }
    default: return fxs_steering_linear(neighbor_steering(ctx, b, m, velocity_scale));
  }
}

// A kinematic behavior moves the agent directly; true when one was applied.
static bool apply_kinematic(steer_context *ctx, const fxs_behavior_slot *b, fxs_agent *next) {
  fxs_agent_slot *s = ctx->slot;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_KINEMATIC_SEEK:
      fxs_kinematic_apply(next, fxs_kinematic_seek(&s->body, ctx->target_point));
      return true;
    case FXS_BEHAVIOR_KINEMATIC_ARRIVE:
      fxs_kinematic_apply(next, fxs_kinematic_arrive(&s->body, ctx->target_point, b->p[0], b->p[1]));
      return true;
    case FXS_BEHAVIOR_KINEMATIC_WANDER:
      fxs_kinematic_apply(next, fxs_kinematic_wander(&s->body, b->p[0], &s->rng));
      return true;
    default: return false;
  }
}

// Phase 3: agent `index` steers from the start-of-tick state into world->next[index].
static void steer_agent(fxs_world *world, uint16_t index, const grid *g,
                        uint32_t obstacle_count, uint32_t wall_count) {
  fxs_agent_slot *s = &world->agents[index];
  fxs_agent *next = &world->next[index];
  *next = s->body;
  fxs_neighbor neighbors[FXS_MAX_NEIGHBORS];
  steer_context ctx;
  ctx.world = world;
  ctx.slot = s;
  ctx.index = index;
  ctx.target = target_agent_of(world, s);
  ctx.target_point = ctx.target ? ctx.target->position : s->target_point;
  ctx.neighbor_count = neighbors_of(world, g, index, neighbors);
  ctx.neighbors = neighbors;
  ctx.obstacle_count = obstacle_count;
  ctx.wall_count = wall_count;
  fxs_steering_manager m;
  fxs_manager_begin(&m, (fxs_combine_mode)s->combine_mode);
  fix16_t velocity_scale = FXS_ONE;
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    const fxs_behavior_slot *b = &s->behaviors[i];
    if (apply_kinematic(&ctx, b, next)) return;
    fxs_steering st = slot_steering(&ctx, b, &m, &velocity_scale);
    fxs_manager_add(&m, (fxs_behavior)b->kind, st, b->weight, b->priority);
  }
  fxs_manager_add_force(&m, s->pending_force);
  fxs_manager_scale_velocity(&m, velocity_scale);
  fxs_manager_update(&m, next);
}

// Phase 4: the new bodies replace the old ones; one-tick forces are spent.
static void integrate(fxs_world *world) {
  const fxs_world_def *d = &world->def;
  for (uint16_t i = 0; i < world->capacity.agents; ++i) {
    fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    s->body = world->next[i];
    s->pending_force = fxs_vec2_zero();
    if (d->clamp_to_bounds) {
      s->body.position.x = fxs_clamp(s->body.position.x, d->bounds_min.x, d->bounds_max.x);
      s->body.position.y = fxs_clamp(s->body.position.y, d->bounds_min.y, d->bounds_max.y);
    }
  }
}

fxs_result fxs_world_step(fxs_world *world, fxs_command *commands, uint32_t count,
                          fxs_result *results) {
  // 1. apply the tick's commands in canonical order
  fxs_command_sort(commands, count);
  fxs_result first_rejection = FXS_OK;
  for (uint32_t i = 0; i < count; ++i) {
    fxs_result r = fxs_world_apply(world, &commands[i], 0);
    if (results) results[i] = r;
    if (first_rejection == FXS_OK) first_rejection = r;
  }
  // 2. sense: snapshot positions, velocities and obstacles at the start of the tick
  //    and sort the agents into the neighbor grid
  uint32_t obstacle_count = 0, wall_count = 0;
  uint32_t view_count = sense(world, &obstacle_count, &wall_count);
  grid g = grid_of(world);
  build_grid(world, &g, view_count);
  // 3. steer every live agent in slot order from that snapshot
  for (uint16_t i = 0; i < world->capacity.agents; ++i) {
    if (world->agents[i].alive) steer_agent(world, i, &g, obstacle_count, wall_count);
  }
  // 4. integrate, 5. advance the tick
  integrate(world);
  world->tick++;
  return first_rejection;
}
