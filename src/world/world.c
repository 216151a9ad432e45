#include "fixsteer/world.h"

#include <string.h>

#include "fixsteer/align.h"
#include "fixsteer/kinematic.h"
#include "fixsteer/leader.h"
#include "fixsteer/manager.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"
#include "fixsteer/velocity_match.h"
#include "fixsteer/version.h"
#include "fixsteer/wander.h"
#include "world_facts.h"
#include "world_field.h"
#include "world_grid.h"
#include "world_internal.h"
#include "world_obstacles.h"
#include "fixsteer/nav_field.h"
#include "world_move.h"
#include "world_nav.h"
#include "world_nav_aims.h"
#include "world_nav_fields.h"
#include "nav_mesh_tree.h"
#include "world_nav_mesh.h"
#include "world_nav_mesh_fields.h"
#include "world_nav_raster.h"
#include "world_sharers.h"
#include "world_slots.h"
#include "world_walls.h"

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

fxs_behavior_slot fxs_behavior_slot_default_for(fxs_behavior kind, fix16_t radius,
                                                fix16_t max_force) {
  fxs_behavior_slot s = fxs_behavior_slot_default(kind);
  for (uint32_t i = 0; i < FXS_BEHAVIOR_PARAMS; ++i)
    s.p[i] = fxs_behavior_param_default_for(kind, i, radius, max_force);
  return s;
}

// Byte offsets of each array inside the world's memory block; [count] is the total.
enum {
  M_INTERNAL, // the insides
  M_AGENTS,
  M_OBSTACLES,
  M_ALIVE,
  M_PATHS,
  M_NODES,
  M_WALLS,
  M_WALL_ALIVE,
  M_FIELD,      // state
  M_FREE_SLOTS, // derived
  M_NEXT,
  M_VIEW_POSITION,
  M_VIEW_VELOCITY,
  M_VIEW_SLOT,
  M_SLOT_CELL,
  M_SLOT_REACH,
  M_FACTS,
  M_CELL_START,
  M_LIVE,
  M_OBSTACLE_CELL_START,
  M_OBSTACLE_ORDER,
  M_LIVE_WALLS,
  M_WORKERS, // scratch
  M_WALL_CELL_START,
  M_WALL_ORDER,
  M_WALL_FIRST,
  M_NEAR_WALLS, // scratch
  M_ORCA_MEMO,  // cache
  M_NAV_BASE,
  M_NAV_ROUTES,
  M_NAV_WAYPOINTS,
  M_NAV_OWNERS,
  M_NAV_SEARCH_MEMORY, // navigation state
  M_NAV_COST,
  M_NAV_SEARCHES,
  M_NAV_SCRATCH,
  M_NAV_CHECK,
  M_NAV_FIELD, // navigation, derived and scratch
  M_NAV_FIELD_SLOTS,
  M_NAV_FIELDS,
  M_NAV_FIELDS_MEMORY,
  M_NAV_AGENT_FIELD,
  M_NAV_GOAL_POINTS,
  M_NAV_MOVES,
  M_NAV_FIELD_MEMBERS,
  M_NAV_FIELD_PACKED, // fields
  M_NAV_FIELD_BUILT,
  M_NAV_BUILD_OWNER,
  M_NAV_BUILD_STAMP,
  M_NAV_RASTER,
  M_NAV_COVER,
  M_NAV_RASTER_WALLS,
  M_NAV_WALL_ON,
  M_NAV_RASTER_OBSTACLES, // raster
  M_NAV_OBSTACLE_ON,
  M_MESH,
  M_MESH_SCRATCH,
  M_MESH_POINTS,
  M_MESH_GOALS,
  M_MESH_SEARCHES,
  M_MESH_SEARCH_MEMORY, // a mesh world's navigation
  M_MESH_TREES,
  M_MESH_TREE_MEMORY,
  M_MESH_GOAL_COUNT, // a mesh world's group fields
  M_GOAL_SHARERS,    // navigation, derived
  M_COUNT
};

static bool capacity_valid(const fxs_world_capacity *c) {
  return c->agents <= FXS_MAX_AGENTS && c->obstacles <= FXS_MAX_SMALL_CAPACITY &&
         c->paths <= FXS_MAX_SMALL_CAPACITY && c->walls <= FXS_MAX_SMALL_CAPACITY &&
         c->workers <= FXS_MAX_WORKERS && fxs_world_nav_capacity_valid(c);
}

// Appends an array of `count` items of `unit` bytes at *at (8-byte aligned); false when the
// block would not fit in size_t (checked for any width of size_t, 32 bits included).
static bool append(size_t *at, size_t count, size_t unit) {
  if (count != 0 && unit > SIZE_MAX / count) return false;
  size_t bytes = count * unit;
  if (bytes > SIZE_MAX - 7u) return false;
  bytes = (bytes + 7u) & ~(size_t)7u;
  if (bytes > SIZE_MAX - *at) return false;
  *at += bytes;
  return true;
}

// Worker scratch areas the world keeps: capacity.workers, at least one.
static uint32_t workers_of(const fxs_world_capacity *c) { return c->workers ? c->workers : 1u; }

static bool layout(const fxs_world_capacity *c, size_t offsets[M_COUNT + 1]) {
  if (!capacity_valid(c)) return false;
  // Navigation arrays are empty without navigation; with it, one route and
  // capacity.nav_waypoints waypoints per agent slot, the searches' memory and their structs
  // with one more, the checking search of a restore (nav_state.h: its g in the path scratch,
  // its state bits in M_NAV_CHECK).
  bool nav = c->nav_cells != 0, mesh = fxs_world_is_mesh(c);
  size_t searches = nav ? (size_t)c->nav_searches + 1u : 0u;
  size_t mesh_searches = mesh ? (size_t)c->nav_searches + 1u : 0u;
  const size_t counts[M_COUNT] = {
      1u,
      c->agents,
      c->obstacles,
      c->obstacles,
      c->paths,
      c->path_nodes,
      c->walls,
      c->walls,
      c->field_cells,
      fxs_free_slots_words(c->agents),
      c->agents,
      c->agents,
      c->agents,
      c->agents,
      c->agents,
      c->agents,
      nav || mesh ? c->agents : 0u, // the facts table (world_facts.h)
      (size_t)fxs_grid_max_cells(c) + 1u,
      c->obstacles,
      (size_t)fxs_obstacle_grid_max_cells(c) + 1u,
      c->obstacles,
      c->walls,
      workers_of(c),
      fxs_wall_grid_kept(c) ? (size_t)fxs_wall_grid_max_cells(c) + 1u : 0u,
      fxs_wall_grid_max_entries(c),
      2u * (size_t)fxs_wall_grid_walls(c),
      fxs_wall_grid_kept(c) ? (size_t)workers_of(c) * FXS_NEAR_WALLS : 0u,
      (size_t)workers_of(c) * fxs_orca_memo_entries(c->agents),
      c->nav_cells,
      nav || mesh ? c->agents : 0u,
      nav ? c->agents : 0u,
      c->nav_searches,
      c->nav_searches,
      c->nav_cells,
      searches,
      c->nav_cells,
      c->nav_cells,
      fxs_world_nav_field_entries(c) ? 1u : 0u,
      c->nav_fields,
      c->nav_fields,
      fxs_world_nav_field_builds(c),
      c->nav_fields ? (mesh ? 1u : 1u + FXS_NAV_AIM_WORDS) * (size_t)c->agents : 0u, // +aims
      c->nav_fields ? c->agents : 0u,
      c->nav_fields ? (mesh ? 3u : 1u) * (size_t)c->agents : 0u, // a mesh's: and move points
      (size_t)c->nav_fields * FXS_NAV_FIELD_MEMBER_WORDS,
      (size_t)c->nav_fields * c->nav_cells,
      c->nav_fields,
      fxs_world_nav_field_builds(c),
      fxs_world_nav_field_builds(c),
      nav ? 1u : 0u,
      fxs_world_nav_cover_words(c->nav_cells),
      nav ? c->walls : 0u,
      nav ? c->walls : 0u,
      nav ? c->obstacles : 0u,
      nav ? c->obstacles : 0u,
      mesh ? 1u : 0u,
      mesh ? 1u : 0u,
      mesh ? c->agents : 0u,
      mesh ? c->agents : 0u,
      mesh_searches,
      mesh_searches,
      mesh ? c->nav_fields : 0u,
      mesh ? c->nav_fields : 0u,
      mesh && c->nav_fields ? fxs_world_mesh_triangles(c) : 0u,
      fxs_world_sharers_entries(c)};
  const size_t units[M_COUNT] = {FXS_WORLD_INTERNAL_BYTES,
                                 sizeof(fxs_agent_slot),
                                 sizeof(fxs_obstacle),
                                 sizeof(uint8_t),
                                 sizeof(fxs_world_path),
                                 sizeof(fxs_vec2),
                                 sizeof(fxs_wall),
                                 sizeof(uint8_t),
                                 sizeof(fxs_vec2),
                                 sizeof(uint32_t),
                                 sizeof(fxs_agent),
                                 sizeof(fxs_vec2),
                                 sizeof(fxs_vec2),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(fxs_agent_facts),
                                 sizeof(uint32_t),
                                 sizeof(fxs_obstacle),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(fxs_wall),
                                 sizeof(fxs_world_worker),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(fxs_wall),
                                 sizeof(fxs_orca_memo_entry),
                                 sizeof(uint8_t),
                                 sizeof(fxs_nav_route),
                                 (size_t)c->nav_waypoints * sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 fxs_world_nav_search_bytes(c),
                                 sizeof(uint8_t),
                                 sizeof(fxs_nav_search),
                                 sizeof(uint32_t),
                                 sizeof(uint8_t),
                                 fxs_nav_field_memory_size(fxs_world_nav_field_entries(c)),
                                 sizeof(fxs_nav_field_slot),
                                 sizeof(fxs_nav_field),
                                 fxs_world_nav_fields_bytes(c),
                                 sizeof(uint32_t),
                                 sizeof(fxs_vec2),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(uint8_t),
                                 sizeof(fxs_nav_field_built),
                                 sizeof(uint32_t),
                                 sizeof(uint32_t),
                                 sizeof(fxs_nav_raster),
                                 sizeof(uint32_t),
                                 sizeof(fxs_wall),
                                 sizeof(uint8_t),
                                 sizeof(fxs_obstacle),
                                 sizeof(uint8_t),
                                 fxs_world_mesh_bytes(c),
                                 fxs_world_mesh_bytes(c),
                                 (size_t)c->nav_waypoints * sizeof(fxs_vec2),
                                 sizeof(fxs_vec2),
                                 sizeof(fxs_mesh_route),
                                 fxs_world_mesh_search_bytes(c),
                                 sizeof(fxs_mesh_tree),
                                 fxs_world_mesh_field_bytes(c),
                                 sizeof(uint32_t),
                                 sizeof(fxs_goal_sharer)};
  size_t at = 0;
  for (int i = 0; i < M_COUNT; ++i) {
    offsets[i] = at;
    if (!append(&at, counts[i], units[i])) return false;
  }
  offsets[M_COUNT] = at;
  return true;
}

size_t fxs_world_memory_size(const fxs_world_capacity *capacity) {
  size_t offsets[M_COUNT + 1];
  return layout(capacity, offsets) ? offsets[M_COUNT] : 0;
}

fxs_result fxs_world_def_check(const fxs_world_def *def) {
  if (def->clamp_to_bounds > 1 || def->neighbor_radius < 0) return FXS_ERR_BAD_VALUE;
  if (def->bounds_min.x > def->bounds_max.x || def->bounds_min.y > def->bounds_max.y) {
    return FXS_ERR_BAD_VALUE;
  }
  return FXS_OK;
}

#define FXS_AT(type, m) ((type *)(void *)(base + offsets[m]))

fxs_result fxs_world_init(fxs_world *world, const fxs_world_def *def,
                          const fxs_world_capacity *capacity, void *memory, size_t size) {
  if (fxs_world_def_check(def) != FXS_OK) return FXS_ERR_BAD_VALUE;
  size_t offsets[M_COUNT + 1];
  if (!layout(capacity, offsets)) return FXS_ERR_BAD_VALUE;
  if (fxs_world_is_mesh(capacity) &&
      (def->bounds_min.x >= def->bounds_max.x || def->bounds_min.y >= def->bounds_max.y)) {
    return FXS_ERR_BAD_VALUE; // a mesh needs an area
  }
  if (memory == 0 || size < offsets[M_COUNT]) return FXS_ERR_BUFFER_TOO_SMALL;
  uint8_t *base = (uint8_t *)memory;
  memset(base, 0, offsets[M_COUNT]);
  memset(world, 0, sizeof *world);
  world->def = *def;
  world->capacity = *capacity;
  world->memory = memory;
  world->memory_size = offsets[M_COUNT];
  world->internal = FXS_AT(fxs_world_internal, M_INTERNAL);
  world->internal->rules = FXS_SIMULATION_VERSION;
  world->agents = FXS_AT(fxs_agent_slot, M_AGENTS);
  world->obstacles = FXS_AT(fxs_obstacle, M_OBSTACLES);
  world->obstacle_alive = FXS_AT(uint8_t, M_ALIVE);
  world->paths = FXS_AT(fxs_world_path, M_PATHS);
  world->nodes = FXS_AT(fxs_vec2, M_NODES);
  world->walls = FXS_AT(fxs_wall, M_WALLS);
  world->wall_alive = FXS_AT(uint8_t, M_WALL_ALIVE);
  world->field.cells = FXS_AT(fxs_vec2, M_FIELD); // no grid yet: width = height = 0
  world->internal->free_slots = FXS_AT(uint32_t, M_FREE_SLOTS);
  world->internal->next = FXS_AT(fxs_agent, M_NEXT);
  world->internal->view_position = FXS_AT(fxs_vec2, M_VIEW_POSITION);
  world->internal->view_velocity = FXS_AT(fxs_vec2, M_VIEW_VELOCITY);
  world->internal->view_slot = FXS_AT(uint32_t, M_VIEW_SLOT);
  world->internal->slot_cell = FXS_AT(uint32_t, M_SLOT_CELL);
  world->internal->slot_reach = FXS_AT(uint32_t, M_SLOT_REACH);
  world->internal->facts =
      offsets[M_FACTS + 1] > offsets[M_FACTS] ? FXS_AT(fxs_agent_facts, M_FACTS) : 0;
  world->internal->cell_start = FXS_AT(uint32_t, M_CELL_START);
  world->internal->live_obstacles = FXS_AT(fxs_obstacle, M_LIVE);
  world->internal->obstacle_cell_start = FXS_AT(uint32_t, M_OBSTACLE_CELL_START);
  world->internal->obstacle_order = FXS_AT(uint32_t, M_OBSTACLE_ORDER);
  world->internal->obstacle_max_cells = fxs_obstacle_grid_max_cells(capacity);
  world->internal->live_walls = FXS_AT(fxs_wall, M_LIVE_WALLS);
  world->internal->wall_cell_start = FXS_AT(uint32_t, M_WALL_CELL_START);
  world->internal->wall_order = FXS_AT(uint32_t, M_WALL_ORDER);
  world->internal->wall_first = FXS_AT(uint32_t, M_WALL_FIRST);
  world->internal->wall_max_cells = fxs_wall_grid_max_cells(capacity);
  world->internal->wall_max_entries = fxs_wall_grid_max_entries(capacity);
  world->internal->near_walls = FXS_AT(fxs_wall, M_NEAR_WALLS);
  world->internal->workers = FXS_AT(fxs_world_worker, M_WORKERS);
  world->internal->worker_capacity = workers_of(capacity);
  world->internal->orca_memo = FXS_AT(fxs_orca_memo_entry, M_ORCA_MEMO);
  world->internal->orca_memo_bits = fxs_orca_memo_bits(capacity->agents);
  for (uint32_t w = 0; w < world->internal->worker_capacity; ++w) {
    fxs_orca_memo *m = &world->internal->workers[w].pairs;
    *m = fxs_orca_no_memo();
    if (world->internal->orca_memo_bits == 0) continue;
    m->entries = world->internal->orca_memo + ((size_t)w << world->internal->orca_memo_bits);
    m->shift = 32u - world->internal->orca_memo_bits;
  }
  if (capacity->nav_cells != 0) {
    fxs_world_nav *n = &world->nav;
    n->base = FXS_AT(uint8_t, M_NAV_BASE);
    n->grid.cost = FXS_AT(uint8_t, M_NAV_COST);
    n->routes = FXS_AT(fxs_nav_route, M_NAV_ROUTES);
    n->waypoints = FXS_AT(uint32_t, M_NAV_WAYPOINTS);
    n->search_owner = FXS_AT(uint32_t, M_NAV_OWNERS);
    world->internal->nav.search_memory = FXS_AT(uint8_t, M_NAV_SEARCH_MEMORY);
    n->searches = FXS_AT(fxs_nav_search, M_NAV_SEARCHES);
    world->internal->nav.scratch = FXS_AT(uint32_t, M_NAV_SCRATCH);
    world->internal->nav.check.check_state = FXS_AT(uint8_t, M_NAV_CHECK);
    world->internal->nav.field_memory = FXS_AT(uint8_t, M_NAV_FIELD);
    n->field_slots = FXS_AT(fxs_nav_field_slot, M_NAV_FIELD_SLOTS);
    n->fields = FXS_AT(fxs_nav_field, M_NAV_FIELDS);
    world->internal->nav.fields_memory = FXS_AT(uint8_t, M_NAV_FIELDS_MEMORY);
    world->internal->nav.agent_field = FXS_AT(uint32_t, M_NAV_AGENT_FIELD);
    world->internal->nav.goal_points = FXS_AT(fxs_vec2, M_NAV_GOAL_POINTS);
    n->moves = FXS_AT(uint32_t, M_NAV_MOVES);
    world->internal->nav.field_members = FXS_AT(uint32_t, M_NAV_FIELD_MEMBERS);
    world->internal->nav.field_packed = FXS_AT(uint8_t, M_NAV_FIELD_PACKED);
    world->internal->nav.build_owner = FXS_AT(uint32_t, M_NAV_BUILD_OWNER);
    world->internal->nav.build_stamp = FXS_AT(uint32_t, M_NAV_BUILD_STAMP);
    world->internal->nav.field_built = FXS_AT(fxs_nav_field_built, M_NAV_FIELD_BUILT);
    world->internal->nav.raster = FXS_AT(fxs_nav_raster, M_NAV_RASTER);
    world->internal->nav.raster->cover = FXS_AT(uint32_t, M_NAV_COVER);
    world->internal->nav.raster->walls = FXS_AT(fxs_wall, M_NAV_RASTER_WALLS);
    world->internal->nav.raster->wall_on = FXS_AT(uint8_t, M_NAV_WALL_ON);
    world->internal->nav.raster->obstacles = FXS_AT(fxs_obstacle, M_NAV_RASTER_OBSTACLES);
    world->internal->nav.raster->obstacle_on = FXS_AT(uint8_t, M_NAV_OBSTACLE_ON);
    fxs_world_nav_init(world);
  }
  if (fxs_world_is_mesh(capacity)) {
    fxs_world_nav *n = &world->nav;
    n->routes = FXS_AT(fxs_nav_route, M_NAV_ROUTES);
    n->search_owner = FXS_AT(uint32_t, M_NAV_OWNERS);
    n->points = FXS_AT(fxs_vec2, M_MESH_POINTS);
    n->goals = FXS_AT(fxs_vec2, M_MESH_GOALS);
    n->mesh_searches = FXS_AT(fxs_mesh_route, M_MESH_SEARCHES);
    world->internal->nav.check.mesh_scratch = FXS_AT(uint8_t, M_MESH_SCRATCH);
    fxs_world_mesh_init(world, FXS_AT(uint8_t, M_MESH), FXS_AT(uint8_t, M_MESH_SEARCH_MEMORY));
    if (capacity->nav_fields != 0) { // group fields (world_nav_mesh_fields.h)
      n->field_slots = FXS_AT(fxs_nav_field_slot, M_NAV_FIELD_SLOTS);
      n->fields = FXS_AT(fxs_nav_field, M_NAV_FIELDS);
      n->moves = FXS_AT(uint32_t, M_NAV_MOVES);
      world->internal->nav.agent_field = FXS_AT(uint32_t, M_NAV_AGENT_FIELD);
      world->internal->nav.goal_points = FXS_AT(fxs_vec2, M_NAV_GOAL_POINTS);
      world->internal->nav.field_members = FXS_AT(uint32_t, M_NAV_FIELD_MEMBERS);
      world->internal->nav.field_built = FXS_AT(fxs_nav_field_built, M_NAV_FIELD_BUILT);
      world->internal->nav.field_packed = FXS_AT(uint8_t, M_MESH_TREES);
      world->internal->nav.fields_memory = FXS_AT(uint8_t, M_MESH_GOAL_COUNT);
      fxs_world_mesh_fields_init(world, FXS_AT(uint8_t, M_MESH_TREE_MEMORY));
    }
  }
  world->internal->nav.sharers = FXS_AT(fxs_goal_sharer, M_GOAL_SHARERS);
  world->internal->nav.sharers_taken = 1; // the memory is the caller's: emptied by the first count
  world->internal->nav.sharers_grouped = 0;
  world->internal->nav.sharers_stale = 1;
  size_t sharers = fxs_world_sharers_entries(capacity); // 0 without agent slots: no table
  world->internal->nav.sharers_mask = sharers != 0 ? (uint32_t)(sharers - 1u) : 0u;
  fxs_free_slots_layout(world);
  fxs_world_rebuild_derived(world);
  return FXS_OK;
}

#undef FXS_AT

fxs_result fxs_world_set_simulation_version(fxs_world *world, uint32_t version) {
  if (version < FXS_SIMULATION_VERSION_OLDEST || version > FXS_SIMULATION_VERSION)
    return FXS_ERR_SIMULATION_VERSION;
  world->internal->rules = version;
  world->internal->nav.sharers_stale = 1; // the goal groups by this version's rules
  return FXS_OK;
}

uint32_t fxs_world_simulation_version(const fxs_world *world) { return world->internal->rules; }

fxs_result fxs_world_set_tasks(fxs_world *world, const fxs_task_system *tasks) {
  if (!tasks) {
    memset(&world->tasks, 0, sizeof world->tasks);
    return FXS_OK;
  }
  if (!tasks->enqueue || !tasks->finish || tasks->worker_count < 1 ||
      tasks->worker_count > world->internal->worker_capacity) {
    return FXS_ERR_BAD_VALUE;
  }
  world->tasks = *tasks;
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

// Handle encoding and decoding live in world_slots.c.
static fxs_agent_handle make_handle(uint32_t index, uint32_t generation) {
  return fxs_world_make_handle(index, generation);
}

static int32_t slot_of(const fxs_world *world, uint32_t value) {
  return fxs_world_slot_of(world, value);
}

fxs_result fxs_world_agent_owner(const fxs_world *world, fxs_agent_handle handle, uint32_t *owner) {
  int32_t i = slot_of(world, handle.value);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  *owner = world->agents[i].owned ? world->agents[i].owner : FXS_OWNER_SHARED;
  return FXS_OK;
}

const fxs_agent *fxs_world_agent(const fxs_world *world, fxs_agent_handle handle) {
  int32_t i = slot_of(world, handle.value);
  return i < 0 ? 0 : &world->agents[i].body;
}

fxs_result fxs_world_agent_targets(const fxs_world *world, fxs_agent_handle handle,
                                   fxs_agent_targets *out) {
  memset(out, 0, sizeof *out);
  int32_t i = slot_of(world, handle.value);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  const fxs_agent_slot *a = &world->agents[i];
  out->target_agent.value = a->target_agent;
  out->second_target.value = a->second_target;
  out->target_point = a->target_point;
  out->path_index = a->path_index;
  return FXS_OK;
}

fxs_result fxs_world_agent_behaviors(const fxs_world *world, fxs_agent_handle handle,
                                     fxs_agent_behaviors *out) {
  memset(out, 0, sizeof *out);
  int32_t i = slot_of(world, handle.value);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  const fxs_agent_slot *a = &world->agents[i];
  out->slots = a->behaviors;
  out->count = a->behavior_count;
  out->combine_mode = a->combine_mode;
  return FXS_OK;
}

fxs_agent_handle fxs_world_handle_at(const fxs_world *world, uint32_t index) {
  fxs_agent_handle none = {0};
  if (index >= world->capacity.agents || !world->agents[index].alive) return none;
  return make_handle(index, world->agents[index].generation);
}

uint32_t fxs_world_agent_count(const fxs_world *world) { return world->live_count; }

// ------------------------------------------------------------------ commands

static bool limits_valid(fix16_t max_speed, fix16_t max_force, fix16_t mass, fix16_t radius) {
  return max_speed >= 0 && max_force >= 0 && mass > 0 && radius >= 0;
}

static fxs_result spawn(fxs_world *world, const fxs_command *c, fxs_agent_handle *out) {
  if (!limits_valid(c->arg[4], c->arg[5], c->arg[6], c->arg[7]) || c->ref > FXS_SPAWN_OWNED) {
    return FXS_ERR_BAD_VALUE;
  }
  int32_t free_slot = fxs_free_slots_lowest(world); // the lowest free index, see world.h
  if (free_slot >= 0) {
    uint32_t i = (uint32_t)free_slot;
    fxs_agent_slot *s = &world->agents[i];
    fxs_free_slots_take(world, i);
    uint16_t generation = s->generation;
    memset(s, 0, sizeof *s);
    s->generation = generation;
    s->alive = 1;
    s->owned = (uint8_t)c->ref;
    s->owner = c->ref ? c->source : 0u;
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
    fxs_rng_seed_stream(&s->rng, world->def.seed, fxs_world_stream_id(i, generation));
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
  // A kinematic behavior sets the velocity itself: it is the whole set or not in it.
  if (s->behavior_count > 0 && (fxs_behavior_is_kinematic((fxs_behavior)kind) ||
                                fxs_behavior_is_kinematic((fxs_behavior)s->behaviors[0].kind))) {
    return FXS_ERR_MIXED_SET;
  }
  fxs_behavior_slot *b = &s->behaviors[s->behavior_count++];
  b->kind = (uint8_t)kind;
  b->priority = (uint8_t)(c->ref >> 8);
  b->weight = c->arg[0];
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) b->p[i] = c->arg[1 + i];
  return FXS_OK;
}

static fxs_result set_limits(fxs_agent_slot *s, const fxs_command *c) {
  if (!limits_valid(c->arg[0], c->arg[1], c->arg[2], c->arg[3]) || c->arg[4] < 0 || c->arg[5] < 0 ||
      c->arg[6] < 0 || c->ref > FXS_ORIENT_STEERED) {
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

// True when arg[first..] are all 0: arguments a command does not use must be 0, so one
// command has one encoding (as the navigation and field commands require).
static bool args_zero_from(const fxs_command *c, int first) {
  for (int i = first; i < FXS_COMMAND_ARGS; ++i) {
    if (c->arg[i] != 0) return false;
  }
  return true;
}

// The lowest free slot of an alive array (0 bytes are free), or `count` when all are taken.
// memchr: a full world refuses each of a tick's 65,535 additions after a fast scan.
static size_t first_free(const uint8_t *alive, uint32_t count) {
  const uint8_t *hit = count ? (const uint8_t *)memchr(alive, 0, count) : 0;
  return hit ? (size_t)(hit - alive) : count;
}

// A mesh world takes only walls and obstacles inside its bounds (world_nav_mesh.h).
static bool mesh_refuses(const fxs_world *world, const fxs_command *c) {
  return fxs_world_is_mesh(&world->capacity) && fxs_world_mesh_check_add(world, c) != FXS_OK;
}

// Wall or obstacle slot `index` was added or removed: the navigation follows (a mesh world's
// mesh may refuse an addition: then it is taken back, world_nav_mesh.h).
static fxs_result map_changed(fxs_world *world, bool wall, uint32_t index, bool added) {
  if (fxs_world_is_mesh(&world->capacity)) return fxs_world_mesh_changed(world, wall, index, added);
  fxs_world_nav_map_changed(world);
  return FXS_OK;
}

static fxs_result obstacle_command(fxs_world *world, const fxs_command *c) {
  if (c->type == FXS_CMD_REMOVE_OBSTACLE) {
    if (!args_zero_from(c, 0) || c->ref >= world->capacity.obstacles ||
        !world->obstacle_alive[c->ref]) {
      return FXS_ERR_BAD_VALUE;
    }
    world->obstacle_alive[c->ref] = 0;
    return map_changed(world, false, c->ref, false);
  }
  if (c->arg[2] < 0 || !args_zero_from(c, 3) || c->ref != 0) return FXS_ERR_BAD_VALUE;
  size_t i = first_free(world->obstacle_alive, world->capacity.obstacles);
  if (i == world->capacity.obstacles) return FXS_ERR_FULL;
  if (mesh_refuses(world, c)) return FXS_ERR_BAD_VALUE;
  world->obstacles[i].center = fxs_vec2_make(c->arg[0], c->arg[1]);
  world->obstacles[i].radius = c->arg[2];
  world->obstacle_alive[i] = 1;
  return map_changed(world, false, (uint32_t)i, true);
}

static fxs_result wall_command(fxs_world *world, const fxs_command *c) {
  if (c->type == FXS_CMD_REMOVE_WALL) {
    if (!args_zero_from(c, 0) || c->ref >= world->capacity.walls || !world->wall_alive[c->ref]) {
      return FXS_ERR_BAD_VALUE;
    }
    world->wall_alive[c->ref] = 0;
    return map_changed(world, true, c->ref, false);
  }
  if (!args_zero_from(c, 4) || c->ref != 0) return FXS_ERR_BAD_VALUE;
  size_t i = first_free(world->wall_alive, world->capacity.walls);
  if (i == world->capacity.walls) return FXS_ERR_FULL;
  if (mesh_refuses(world, c)) return FXS_ERR_BAD_VALUE;
  world->walls[i].a = fxs_vec2_make(c->arg[0], c->arg[1]);
  world->walls[i].b = fxs_vec2_make(c->arg[2], c->arg[3]);
  world->wall_alive[i] = 1;
  return map_changed(world, true, (uint32_t)i, true);
}

// Commands that act on one existing agent.
static fxs_result agent_command(fxs_world *world, fxs_agent_slot *s, const fxs_command *c) {
  switch ((fxs_command_type)c->type) {
    case FXS_CMD_DESPAWN:
      fxs_world_nav_release(world, (uint32_t)(s - world->agents));
      fxs_world_nav_fields_forget(world, (uint32_t)(s - world->agents));
      s->alive = 0;
      s->generation = (uint16_t)((s->generation + 1u) & FXS_HANDLE_GENERATION_MASK);
      fxs_free_slots_give(world, (uint32_t)(s - world->agents));
      return FXS_OK;
    case FXS_CMD_SET_TARGET_POINT:
      s->target_point = fxs_vec2_make(c->arg[0], c->arg[1]);
      fxs_world_nav_fields_forget(world, (uint32_t)(s - world->agents));
      return FXS_OK;
    case FXS_CMD_SET_TARGET_AGENT:
      if (c->ref != 0 && slot_of(world, c->ref) < 0) return FXS_ERR_STALE_HANDLE;
      s->target_agent = c->ref;
      fxs_world_nav_fields_forget(world, (uint32_t)(s - world->agents));
      return FXS_OK;
    case FXS_CMD_SET_SECOND_TARGET:
      if (c->ref != 0 && slot_of(world, c->ref) < 0) return FXS_ERR_STALE_HANDLE;
      s->second_target = c->ref;
      return FXS_OK;
    case FXS_CMD_CLEAR_BEHAVIORS:
      if (c->ref > FXS_COMBINE_PRIORITY_GROUPS) return FXS_ERR_BAD_VALUE;
      s->behavior_count = 0;
      memset(s->behaviors, 0, sizeof s->behaviors);
      s->combine_mode = (uint8_t)c->ref;
      return FXS_OK;
    case FXS_CMD_ADD_BEHAVIOR:
      return add_behavior(s, c);
    case FXS_CMD_SET_PATH:
      if (c->ref != FXS_NO_PATH && c->ref >= world->path_count) return FXS_ERR_BAD_VALUE;
      s->path_index = (uint16_t)c->ref;
      s->path = fxs_path_start();
      return FXS_OK;
    case FXS_CMD_APPLY_FORCE:
      s->pending_force = fxs_vec2_add(s->pending_force, fxs_vec2_make(c->arg[0], c->arg[1]));
      return FXS_OK;
    case FXS_CMD_SET_LIMITS:
      return set_limits(s, c);
    case FXS_CMD_SET_OWNER:
      if (c->ref > 0xFFu && c->ref != FXS_OWNER_SHARED) return FXS_ERR_BAD_VALUE;
      s->owned = c->ref != FXS_OWNER_SHARED;
      s->owner = s->owned ? (uint8_t)c->ref : 0u;
      return FXS_OK;
    default:
      return FXS_ERR_BAD_COMMAND;
  }
}

fxs_result fxs_world_apply(fxs_world *world, const fxs_command *command,
                           fxs_agent_handle *out_spawned) {
  world->internal->nav.sharers_stale = 1; // targets, behaviors or agents may change
  switch ((fxs_command_type)command->type) {
    case FXS_CMD_SPAWN:
      return spawn(world, command, out_spawned);
    case FXS_CMD_ADD_OBSTACLE:
    case FXS_CMD_REMOVE_OBSTACLE:
      return command->agent != 0 ? FXS_ERR_BAD_VALUE : obstacle_command(world, command);
    case FXS_CMD_ADD_WALL:
    case FXS_CMD_REMOVE_WALL:
      return command->agent != 0 ? FXS_ERR_BAD_VALUE : wall_command(world, command);
    case FXS_CMD_SET_FIELD_GRID:
    case FXS_CMD_SET_FIELD_CELLS:
    case FXS_CMD_FILL_FIELD:
      return fxs_world_field_command(world, command);
    case FXS_CMD_SET_NAV_GRID:
    case FXS_CMD_SET_NAV_COSTS:
      return fxs_world_nav_command(world, command);
    case FXS_CMD_MOVE: { // a group of one
      fxs_result r = FXS_OK, first = FXS_OK;
      uint32_t at = 1;
      fxs_world_moves(world, command, 1, &r, &at, &first);
      return r;
    }
    default:
      break;
  }
  if (command->type >= FXS_CMD_COUNT) return FXS_ERR_BAD_COMMAND;
  int32_t i = slot_of(world, command->agent);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  fxs_agent_slot *s = &world->agents[i];
  if (s->owned && command->source != s->owner) return FXS_ERR_NOT_OWNER;
  return agent_command(world, s, command);
}

uint32_t fxs_world_next_spawn_handles(const fxs_world *world, uint32_t count,
                                      fxs_agent_handle *out) {
  int32_t first = fxs_free_slots_lowest(world);
  uint32_t n = 0;
  for (uint32_t i = first < 0 ? world->capacity.agents : (uint32_t)first;
       i < world->capacity.agents && n < count; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) out[n++] = fxs_world_make_handle(i, s->generation);
  }
  return n;
}
