#include "world_nav.h"
#include "world_internal.h"

#include <string.h>

#include "command_args.h"
#include "exact.h"
#include "fixsteer/nav_field.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/seek.h"
#include "nav_grid_cell.h"
#include "nav_state.h"
#include "world_formation.h"
#include "world_nav_aims.h"
#include "world_nav_fields.h"
#include "world_nav_mesh.h"
#include "world_nav_raster.h"
#include "world_route.h"
#include "world_slots.h"
#include "world_step.h"
#include "vec2_within.h"
#include "world_prefetch.h"
#include "world_walls.h"

bool fxs_world_nav_capacity_valid(const fxs_world_capacity *c) {
  if (c->nav_kind != FXS_NAV_KIND_GRID) return fxs_world_mesh_capacity_valid(c);
  if (c->nav_mesh_vertices != 0) return false;
  if (c->nav_cells == 0) {
    return c->nav_searches == 0 && c->nav_open == 0 && c->nav_waypoints == 0 && c->nav_fields == 0;
  }
  return c->nav_cells <= FXS_NAV_MAX_CELLS && c->nav_fields <= FXS_NAV_MAX_FIELDS &&
         c->nav_searches >= 1 && c->nav_searches <= FXS_NAV_MAX_SEARCHES && c->nav_open >= 1 &&
         c->nav_open <= c->nav_cells && c->nav_waypoints >= 2 &&
         c->nav_waypoints <= FXS_NAV_MAX_WAYPOINTS;
}

size_t fxs_world_nav_search_bytes(const fxs_world_capacity *c) {
  if (c->nav_cells == 0 || !fxs_world_nav_capacity_valid(c)) return 0;
  return fxs_nav_search_memory_size(c->nav_cells, c->nav_open);
}

// The searches are capacity.nav_searches slots plus one checking search (restore's checks,
// nav_state.h), which borrows the path scratch for its g.
void fxs_world_nav_init(fxs_world *world) {
  const fxs_world_capacity *c = &world->capacity;
  if (c->nav_cells == 0) return;
  size_t bytes = fxs_world_nav_search_bytes(c);
  for (uint32_t k = 0; k < c->nav_searches; ++k) {
    fxs_nav_search_init(&world->nav.searches[k],
                        world->internal->nav.search_memory + (size_t)k * bytes, bytes, c->nav_cells,
                        c->nav_open);
    world->nav.search_owner[k] = FXS_ROUTE_NO_OWNER;
  }
  fxs_nav_check_init(&world->nav.searches[c->nav_searches], world->internal->nav.scratch,
                     world->internal->nav.check.check_state, c->nav_cells, c->nav_open);
  if (c->nav_fields != 0) fxs_world_nav_fields_init(world);
  world->internal->nav.dirty = 1;
}

// ------------------------------------------------------------------ commands

// Every route dropped and every search freed (the grid's shape changed).
static void drop_all(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  for (uint32_t i = 0; i < world->capacity.agents; ++i)
    memset(&n->routes[i], 0, sizeof n->routes[i]);
  for (uint32_t k = 0; k < world->capacity.nav_searches; ++k)
    n->search_owner[k] = FXS_ROUTE_NO_OWNER;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) fxs_world_nav_fields_forget(world, i);
}

static fxs_result set_grid(fxs_world *world, const fxs_command *c) {
  fxs_world_nav *n = &world->nav;
  uint32_t w, h;
  if (!fxs_arg_whole(c->arg[3], &w) || !fxs_arg_whole(c->arg[4], &h) || c->arg[7] != 0)
    return FXS_ERR_BAD_VALUE;
  if (w == 0 && h == 0) { // removal: everything 0
    for (int i = 0; i < FXS_COMMAND_ARGS; ++i) {
      if (c->arg[i] != 0) return FXS_ERR_BAD_VALUE;
    }
    if (c->ref != 0) return FXS_ERR_BAD_VALUE;
    drop_all(world);
    uint8_t *cost = n->grid.cost;
    memset(&n->grid, 0, sizeof n->grid);
    n->grid.cost = cost;
    n->radius = 0, n->budget = 0;
    n->version++;
    fxs_world_nav_raster_reset(world);
    fxs_world_nav_fields_drop(world);
    return FXS_OK;
  }
  fxs_vec2 origin = fxs_vec2_make(c->arg[0], c->arg[1]);
  fxs_result r = fxs_nav_grid_check(origin, c->arg[2], w, h);
  if (r == FXS_ERR_LIMIT) return FXS_ERR_CAPACITY;
  if (r != FXS_OK || c->arg[5] < 0 || c->ref < 1 || c->ref > FXS_NAV_MAX_BUDGET) {
    return FXS_ERR_BAD_VALUE;
  }
  if ((uint64_t)w * h > world->capacity.nav_cells) return FXS_ERR_CAPACITY;
  drop_all(world);
  uint8_t *cost = n->grid.cost;
  n->grid.origin = origin, n->grid.cell_size = c->arg[2], n->grid.width = w, n->grid.height = h;
  n->grid.cost = cost;
  memset(n->base, 1, (size_t)w * h);
  n->radius = c->arg[5];
  n->budget = c->ref;
  n->version++;
  fxs_world_nav_fields_drop(world);
  fxs_world_nav_raster_reset(world);
  world->internal->nav.dirty = 1;
  return FXS_OK;
}

static fxs_result set_costs(fxs_world *world, const fxs_command *c) {
  fxs_world_nav *n = &world->nav;
  uint32_t x, y, w, h, cost;
  if (!fxs_arg_whole(c->arg[0], &x) || !fxs_arg_whole(c->arg[1], &y) ||
      !fxs_arg_whole(c->arg[2], &w) || !fxs_arg_whole(c->arg[3], &h) ||
      !fxs_arg_whole(c->arg[4], &cost) || c->arg[5] != 0 || c->arg[6] != 0 || c->arg[7] != 0 ||
      c->ref != 0) {
    return FXS_ERR_BAD_VALUE;
  }
  if (n->grid.width == 0) return FXS_ERR_OUTSIDE_GRID;
  fxs_nav_grid base = n->grid;
  base.cost = n->base;
  fxs_result r = fxs_nav_grid_set_block(&base, x, y, w, h, cost);
  if (r != FXS_OK) return r;
  fxs_world_nav_raster_base_changed(world, x, y, w, h);
  n->version++;
  fxs_world_nav_fields_drop(world);
  world->internal->nav.dirty = 1;
  return FXS_OK;
}

fxs_result fxs_world_nav_command(fxs_world *world, const fxs_command *c) {
  if (c->agent != 0) return FXS_ERR_BAD_VALUE;
  if (fxs_world_is_mesh(&world->capacity)) return fxs_world_mesh_command(world, c);
  if (world->capacity.nav_cells == 0) return FXS_ERR_CAPACITY;
  switch ((fxs_command_type)c->type) {
    case FXS_CMD_SET_NAV_GRID:
      return set_grid(world, c);
    case FXS_CMD_SET_NAV_COSTS:
      return set_costs(world, c);
    default:
      return FXS_ERR_BAD_COMMAND;
  }
}

void fxs_world_nav_map_changed(fxs_world *world) {
  if (world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return;
  world->nav.version++;
  world->internal->nav.dirty = 1;
  fxs_world_nav_fields_drop(world);
}

void fxs_world_nav_release(fxs_world *world, uint32_t index) {
  if (fxs_world_is_mesh(&world->capacity)) {
    fxs_world_mesh_release(world, index);
    return;
  }
  if (world->capacity.nav_cells == 0) return;
  fxs_nav_route *r = &world->nav.routes[index];
  if (r->status == FXS_ROUTE_SEARCHING && r->search < world->capacity.nav_searches) {
    world->nav.search_owner[r->search] = FXS_ROUTE_NO_OWNER;
  }
  memset(r, 0, sizeof *r);
}

uint32_t fxs_world_nav_field_entries(const fxs_world_capacity *c) {
  // Only a world with a flow field fills one from navigation, over a grid of the field's
  // shape: at most min(field_cells, nav_cells) cells.
  if (c->nav_cells == 0 || c->field_cells == 0) return 0;
  // (w + 2)(h + 2) = wh + 2(w + h) + 4 with wh <= cells and w, h <= FXS_NAV_MAX_SIDE:
  // w + h <= min(cells + 1, FXS_NAV_MAX_SIDE + cells / FXS_NAV_MAX_SIDE + 1).
  uint64_t cells = c->nav_cells < c->field_cells ? c->nav_cells : c->field_cells;
  uint64_t sum = cells + 1u;
  uint64_t other = FXS_NAV_MAX_SIDE + cells / FXS_NAV_MAX_SIDE + 1u;
  if (other < sum) sum = other;
  return (uint32_t)(cells + 2u * sum + 4u);
}

fxs_result fxs_world_nav_fill_field(fxs_world *world, fxs_vec2 goal) {
  const fxs_flow_field *f = &world->field;
  const fxs_nav_grid *g = fxs_world_nav_grid(world);
  if (!g || f->width != g->width || f->height != g->height || f->cell_size != g->cell_size ||
      !fxs_vec2_equal(f->origin, g->origin)) {
    return FXS_ERR_BAD_VALUE;
  }
  uint32_t entries = fxs_world_nav_field_entries(&world->capacity);
  fxs_nav_field field;
  if (fxs_nav_field_init(&field, world->internal->nav.field_memory,
                         fxs_nav_field_memory_size(entries), entries) != FXS_OK) {
    return FXS_ERR_BAD_VALUE;
  }
  uint32_t cx, cy;
  fxs_nav_grid_cell_of_inline(g, goal, &cx, &cy);
  uint32_t cell = cy * g->width + cx;
  fxs_nav_field_begin(&field, g, &cell, 1);
  fxs_nav_field_step(&field, UINT32_MAX);
  return fxs_nav_field_fill_flow(&field, &world->field);
}

// ------------------------------------------------------------------ planning

// The effective costs (the base costs with every live wall and obstacle rasterized at the
// grid's radius) are derived: world_nav_raster.c brings them up to date when the map changed.
const fxs_nav_grid *fxs_world_nav_grid(fxs_world *world) {
  if (world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return 0;
  if (world->internal->nav.dirty) fxs_world_nav_raster_update(world);
  return &world->nav.grid;
}

const fxs_nav_mesh *fxs_world_nav_mesh(const fxs_world *world) {
  return fxs_world_is_mesh(&world->capacity) ? &world->nav.mesh : 0;
}

static bool navigates(const fxs_agent_slot *s) {
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    if (s->behaviors[i].kind == FXS_BEHAVIOR_NAVIGATE) return true;
  }
  return false;
}

// The point an agent navigates to: its live target agent's position, else its target point.
static fxs_vec2 target_of(const fxs_world *world, const fxs_agent_slot *s) {
  int32_t t = s->target_agent ? fxs_world_slot_of(world, s->target_agent) : -1;
  return t < 0 ? s->target_point : world->agents[t].body.position;
}

fxs_vec2 fxs_world_nav_target(const fxs_world *world, uint32_t index) {
  return target_of(world, &world->agents[index]);
}

static uint32_t cell_index(const fxs_nav_grid *g, fxs_vec2 p) {
  uint32_t cx, cy;
  fxs_nav_grid_cell_of_inline(g, p, &cx, &cy);
  return cy * g->width + cx;
}

// The cell a search for an agent at `p` starts from: the cell under it, or, when that one
// is blocked (a body close to a wall), the walkable cell within two cells of it whose centre
// is nearest p (ties: lower index); the blocked cell when there is none.
static uint32_t start_cell(const fxs_nav_grid *g, fxs_vec2 p) {
  uint32_t cx, cy;
  fxs_nav_grid_cell_of_inline(g, p, &cx, &cy);
  uint32_t best = cy * g->width + cx;
  if (g->cost[best] != FXS_NAV_BLOCKED) return best;
  bool found = false;
  fxs_u128 best_d = {0, 0};
  for (int64_t y = (int64_t)cy - 2; y <= (int64_t)cy + 2; ++y) {
    for (int64_t x = (int64_t)cx - 2; x <= (int64_t)cx + 2; ++x) {
      if (fxs_nav_grid_cost(g, x, y) == FXS_NAV_BLOCKED) continue;
      fxs_u128 d = fxs_distance_sq_exact(p, fxs_nav_grid_cell_center(g, (uint32_t)x, (uint32_t)y));
      if (!found || fxs_u128_compare(d, best_d) < 0) {
        found = true, best_d = d, best = (uint32_t)y * g->width + (uint32_t)x;
      }
    }
  }
  return best;
}

// The distance from the agent to the centre of the waypoint its route seeks.
static fix16_t waypoint_distance(const fxs_world *world, uint32_t i) {
  const fxs_nav_grid *g = &world->nav.grid;
  const fxs_nav_route *r = &world->nav.routes[i];
  uint32_t cell = world->nav.waypoints[(size_t)i * world->capacity.nav_waypoints + r->next];
  fxs_vec2 c = fxs_nav_grid_cell_center(g, cell % g->width, cell / g->width);
  return fxs_vec2_distance(world->agents[i].body.position, c);
}

// Route progress (state): a ready route progresses when its agent passes a waypoint or comes
// its touching distance (agent.h) nearer the one it seeks; an agent at rest on its last leg
// (arrived, or holding behind one that did) is not stalled; any other tick is a stall tick.
// Each slot reads its own agent and route and writes only its route: the ranges run on the
// task system.
static void measure_progress_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  fxs_world *world = (fxs_world *)context;
  fxs_world_nav *n = &world->nav;
  (void)worker;
  for (uint32_t i = begin; i < end; ++i) {
    fxs_nav_route *r = &n->routes[i];
    if (r->status != FXS_ROUTE_READY || !world->agents[i].alive) continue;
    const fxs_agent *a = &world->agents[i].body;
    fxs_route_measure(r, waypoint_distance(world, i), fxs_agent_touch(a),
                      fxs_vec2_is_zero(a->velocity));
  }
}

static void measure_progress(fxs_world *world) {
  fxs_world_run_phase(world, measure_progress_range, world->capacity.agents, 1024, world);
}

static bool in_sight(const fxs_nav_grid *g, uint32_t from, uint32_t to) {
  uint32_t w = g->width;
  return fxs_nav_line_of_sight(g, from % w, from / w, to % w, to / w);
}

// Marks the routes that need a search: missing, planned on another map version or toward
// another goal cell, cut short and at their last waypoint, or stalled for
// FXS_NAV_STALL_TICKS; formation members that do not see their slots
// (fxs_world_formation_route_goal) are routed to them alike. Other routes are dropped.
// Each slot writes only its own route, field and move, and the search its route owns (one
// owner a search): the slots are marked in parallel (mark_stale_range). `walls`: the step's
// wall grid (fxs_world_nav_plan's).
static void mark_stale_one(fxs_world *world, const fxs_wall_grid *walls, uint32_t i) {
  fxs_world_nav *n = &world->nav;
  const fxs_agent_slot *s = &world->agents[i];
  fxs_nav_route *r = &n->routes[i];
  uint32_t goal = 0;
  bool member = false;
  if (!s->alive || !navigates(s)) {
    member = s->alive && fxs_world_formation_route_goal(world, i, &goal);
    if (!member) {
      if (r->status != FXS_ROUTE_NONE) fxs_world_nav_release(world, i);
      return;
    }
  } else if (fxs_world_nav_fields_serve(world, i, walls)) {
    return;
  } else {
    goal = cell_index(&n->grid, target_of(world, s));
  }
  // A formation member's slot moves with its leader: its route to another cell holds
  // while the route's end sees the slot's cell (the member steers straight on from there).
  const uint32_t *points = &n->waypoints[(size_t)i * world->capacity.nav_waypoints];
  bool moved =
      r->goal_cell != goal && (!member || (r->status == FXS_ROUTE_READY && r->count > 0 &&
                                           !in_sight(&n->grid, points[r->count - 1u], goal)));
  bool stale =
      r->status == FXS_ROUTE_NONE || r->version != n->version || moved || fxs_route_used_up(r);
  if (!stale) return;
  fxs_route_wait(r, n->search_owner, n->version);
  r->goal_cell = goal;
}

// What the marking's ranges share: the world and the step's wall grid.
typedef struct stale_context {
  fxs_world *world;
  const fxs_wall_grid *walls;
} stale_context;

static void mark_stale_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  (void)worker;
  const stale_context *sc = (const stale_context *)context;
  fxs_world *world = sc->world;
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, alive);
    FXS_PREFETCH_SLOT(world, i, end, behaviors);
    mark_stale_one(world, sc->walls, i);
  }
}

// Free searches go to waiting routes, lowest agent slot first.
static void assign_searches(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t k = 0;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    fxs_nav_route *r = &n->routes[i];
    if (r->status != FXS_ROUTE_WAITING) continue;
    while (k < world->capacity.nav_searches && n->search_owner[k] != FXS_ROUTE_NO_OWNER) k++;
    if (k == world->capacity.nav_searches) return;
    uint32_t start = start_cell(&n->grid, world->agents[i].body.position);
    uint32_t w = n->grid.width;
    fxs_nav_search_begin(&n->searches[k], &n->grid, start % w, start / w, r->goal_cell % w,
                         r->goal_cell / w);
    n->search_owner[k] = i;
    r->status = FXS_ROUTE_SEARCHING;
    r->search = (uint16_t)k;
  }
}

// A finished search becomes its owner's route: the path, string-pulled, its first
// capacity.nav_waypoints cells (partial when there were more). The path goes through the
// scratch cells (its length is below the grid's cell count).
static void finish(fxs_world *world, uint32_t k) {
  fxs_world_nav *n = &world->nav;
  const fxs_nav_search *s = &n->searches[k];
  uint32_t owner = n->search_owner[k];
  fxs_nav_route *r = &n->routes[owner];
  uint32_t *cells = world->internal->nav.scratch;
  uint32_t length = fxs_nav_search_path(s, cells, world->capacity.nav_cells);
  uint32_t kept = fxs_nav_pull_string(&n->grid, cells, length);
  uint32_t cap = world->capacity.nav_waypoints;
  uint32_t count = kept < cap ? kept : cap;
  memcpy(&n->waypoints[(size_t)owner * cap], cells, (size_t)count * sizeof *cells);
  fxs_route_ready(r, (uint8_t)s->status, count, kept > cap, 0);
  r->mark_distance = waypoint_distance(world, owner); // its first waypoint, now in place
  n->search_owner[k] = FXS_ROUTE_NO_OWNER;
}

// The budget goes to the searches in slot order, from slot (tick mod searches) round, so
// that no search waits for ever behind a long one.
static void spend_budget(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t searches = world->capacity.nav_searches, left = n->budget;
  for (uint32_t j = 0; j < searches && left > 0; ++j) {
    uint32_t k = (world->tick + j) % searches;
    if (n->search_owner[k] == FXS_ROUTE_NO_OWNER) continue;
    fxs_nav_search *s = &n->searches[k];
    uint32_t before = s->expanded;
    fxs_nav_status st = fxs_nav_search_step(s, &n->grid, left);
    left -= s->expanded - before;
    if (st != FXS_NAV_SEARCHING) finish(world, k);
  }
}

void fxs_world_nav_plan(fxs_world *world, const fxs_wall_grid *walls) {
  if (fxs_world_is_mesh(&world->capacity)) {
    fxs_world_mesh_plan(world);
    return;
  }
  if (world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return;
  if (world->internal->nav.dirty) {
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_MAP, fxs_world_nav_raster_update(world));
  }
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_PROGRESS, measure_progress(world));
  bool fields = world->capacity.nav_fields != 0;
  if (fields) {
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_FIELDS, fxs_world_nav_fields_assign(world));
    // The followers' aims, in parallel: marking the routes reads whether their fields reach them.
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_AIMS, fxs_world_nav_aims_find(world));
  }
  stale_context sc = {world, walls};
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_ROUTES,
                   fxs_world_run_phase(world, mark_stale_range, world->capacity.agents, 256, &sc));
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_SEARCHES, assign_searches(world); spend_budget(world));
  if (fields) {
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_FIELD_BUILDS, fxs_world_nav_fields_build(world));
  }
}

bool fxs_world_nav_navigates(const fxs_agent_slot *slot) { return navigates(slot); }

// ------------------------------------------------------------------ following

// The move onto the last point: arrival outside the landing radius; inside it the offset
// itself, at most max_force long, so the agent lands exactly and then rests.
fxs_nav_move fxs_world_nav_last_move(const fxs_agent *a, fxs_vec2 to, fix16_t slowing_radius) {
  fxs_nav_move m;
  m.to = to, m.last = 1, m.land = 0;
  fix16_t landing = fxs_max(fxs_agent_touch(a), fxs_max(a->max_force, 0));
  if (fxs_vec2_within_inline(a->position, to, landing)) {
    m.land = 1;
    m.velocity = fxs_vec2_truncate(fxs_exact_direction(a->position, to), fxs_max(a->max_force, 0));
    return m;
  }
  m.velocity = fxs_vec2_add(a->velocity, fxs_arrive(a, to, slowing_radius));
  return m;
}

// Moves the route of agent `index` (with waypoints) past the waypoints it has passed: one
// within half a cell of the agent, or whose successor is in sight from the agent's cell.
// Returns the index of the waypoint sought.
static uint32_t advance(const fxs_world *world, uint32_t index) {
  const fxs_world_nav *n = &world->nav;
  const fxs_agent *a = &world->agents[index].body;
  fxs_nav_route *r = &n->routes[index];
  const fxs_nav_grid *g = &n->grid;
  const uint32_t *points = &n->waypoints[(size_t)index * world->capacity.nav_waypoints];
  uint32_t here = cell_index(g, a->position), i = r->next;
  while (i + 1u < r->count) {
    fxs_vec2 c = fxs_nav_grid_cell_center(g, points[i] % g->width, points[i] / g->width);
    bool passed = fxs_vec2_within_inline(a->position, c, g->cell_size / 2);
    if (!passed && !in_sight(g, here, points[i + 1u])) break;
    i++;
  }
  r->next = (uint16_t)i;
  return i;
}

bool fxs_world_nav_waypoint(const fxs_world *world, uint32_t index, fxs_vec2 *to, bool *last) {
  if (world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return false;
  const fxs_nav_route *r = &world->nav.routes[index];
  if (r->count == 0) return false;
  const fxs_nav_grid *g = &world->nav.grid;
  uint32_t i = advance(world, index);
  uint32_t cell = world->nav.waypoints[(size_t)index * world->capacity.nav_waypoints + i];
  *to = fxs_nav_grid_cell_center(g, cell % g->width, cell / g->width);
  *last = i + 1u >= r->count;
  return true;
}

fxs_nav_move fxs_world_nav_move(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                fix16_t slowing_radius) {
  const fxs_agent *a = &world->agents[index].body;
  const fxs_world_nav *n = &world->nav;
  if (fxs_world_is_mesh(&world->capacity)) {
    return fxs_world_mesh_move(world, index, target, slowing_radius);
  }
  if (world->capacity.nav_cells == 0 || n->grid.width == 0) {
    return fxs_world_nav_last_move(a, target, slowing_radius);
  }
  fxs_vec2 field_to;
  bool field_last;
  if (fxs_world_nav_fields_point(world, index, target, &field_to, &field_last)) {
    if (field_last) return fxs_world_nav_last_move(a, field_to, slowing_radius);
    fxs_nav_move m = {fxs_vec2_add(a->velocity, fxs_seek(a, field_to)), field_to, 0, 0};
    return m;
  }
  const fxs_nav_route *r = &n->routes[index];
  if (r->count == 0) { // the first route is being searched: hold still
    fxs_nav_move m = {fxs_vec2_zero(), a->position, 0, 0};
    return m;
  }
  const fxs_nav_grid *g = &n->grid;
  uint32_t i = advance(world, index);
  uint32_t cell = n->waypoints[(size_t)index * world->capacity.nav_waypoints + i];
  fxs_vec2 to = fxs_nav_grid_cell_center(g, cell % g->width, cell / g->width);
  if (i + 1u < r->count) {
    fxs_nav_move m = {fxs_vec2_add(a->velocity, fxs_seek(a, to)), to, 0, 0};
    return m;
  }
  uint32_t tx, ty;
  if (r->reached == FXS_NAV_FOUND && fxs_nav_grid_cell_of_inline(g, target, &tx, &ty) &&
      ty * g->width + tx == cell) {
    to = target; // the route reaches the target's cell: the target itself
  }
  return fxs_world_nav_last_move(a, to, slowing_radius);
}

uint32_t fxs_world_nav_route(const fxs_world *world, fxs_agent_handle handle, fxs_vec2 *out,
                             uint32_t capacity, uint32_t *next) {
  int32_t i = fxs_world_slot_of(world, handle.value);
  if (next) *next = 0;
  if (i >= 0 && fxs_world_is_mesh(&world->capacity)) {
    return fxs_world_mesh_route(world, (uint32_t)i, out, capacity, next);
  }
  if (i < 0 || world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return 0;
  const fxs_nav_route *r = &world->nav.routes[i];
  const fxs_nav_grid *g = &world->nav.grid;
  const uint32_t *points = &world->nav.waypoints[(size_t)i * world->capacity.nav_waypoints];
  for (uint32_t k = 0; k < r->count && k < capacity; ++k) {
    out[k] = fxs_nav_grid_cell_center(g, points[k] % g->width, points[k] / g->width);
  }
  if (r->count > 0 && r->count <= capacity && r->reached == FXS_NAV_FOUND) {
    fxs_vec2 target = target_of(world, &world->agents[i]);
    uint32_t tx, ty;
    if (fxs_nav_grid_cell_of_inline(g, target, &tx, &ty) &&
        ty * g->width + tx == points[r->count - 1u]) {
      out[r->count - 1u] = target;
    }
  }
  if (next) *next = r->next;
  return r->count;
}

// ------------------------------------------------------------------ snapshot section

// Layout: grid origin x, y, cell size (i32), columns, rows (u32), radius (i32), budget,
// version (u32); the columns x rows base costs; per agent slot its route (status u8; unless
// NONE: reached, partial u8, search, count, next u16, version, goal cell u32, stall,
// mark_next u16, mark_distance i32, count cells u32); per search its owner (u32, 0xFFFFFFFF
// free) and, when owned, its state (nav_path.h).
void fxs_world_nav_write(const fxs_world *world, fxs_writer *w) {
  const fxs_world_nav *n = &world->nav;
  fxs_put_i32(w, n->grid.origin.x);
  fxs_put_i32(w, n->grid.origin.y);
  fxs_put_i32(w, n->grid.cell_size);
  fxs_put_u32(w, n->grid.width);
  fxs_put_u32(w, n->grid.height);
  fxs_put_i32(w, n->radius);
  fxs_put_u32(w, n->budget);
  fxs_put_u32(w, n->version);
  fxs_put_block(w, n->base, (size_t)n->grid.width * n->grid.height);
  uint32_t cap = world->capacity.nav_waypoints;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    const fxs_nav_route *r = &n->routes[i];
    if (!fxs_route_write_head(w, r)) continue;
    fxs_put_u32(w, r->goal_cell);
    fxs_route_write_tail(w, r);
    const uint32_t *p = &n->waypoints[(size_t)i * cap];
    for (uint32_t k = 0; k < r->count; ++k) fxs_put_u32(w, p[k]);
  }
  for (uint32_t k = 0; k < world->capacity.nav_searches; ++k) {
    fxs_put_u32(w, n->search_owner[k]);
    if (n->search_owner[k] != FXS_ROUTE_NO_OWNER) fxs_nav_search_write(&n->searches[k], w);
  }
  if (world->capacity.nav_fields != 0) fxs_world_nav_fields_write(world, w);
  if (fxs_world_nav_moves_any(world)) fxs_world_nav_moves_write(world, w);
}

// Every factor is below 2^38 and every count below 2^32, so each product is below 2^70:
// checked against 2^62 before multiplying, the sum cannot wrap.
uint64_t fxs_world_nav_write_bound(const fxs_world_capacity *c) {
  const uint64_t big = UINT64_C(1) << 62;
  uint64_t route = 23u + 4u * (uint64_t)c->nav_waypoints; // the record and its cells
  uint64_t search = 4u + 36u + 9u * (uint64_t)c->nav_cells + 4u * (uint64_t)c->nav_open;
  if ((c->agents && route > big / c->agents) ||
      (c->nav_searches && search > big / c->nav_searches)) {
    return UINT64_MAX;
  }
  uint64_t moves = c->nav_fields ? 4u * (uint64_t)c->agents : 0u; // the moves section
  return 32u + c->nav_cells + c->agents * route + c->nav_searches * search + moves;
}

typedef struct nav_header {
  fxs_nav_grid grid;
  fix16_t radius;
  uint32_t budget, version;
} nav_header;

static fxs_result read_header(fxs_reader *r, const fxs_world *shape, nav_header *h) {
  h->grid.origin.x = fxs_get_i32(r);
  h->grid.origin.y = fxs_get_i32(r);
  h->grid.cell_size = fxs_get_i32(r);
  h->grid.width = fxs_get_u32(r);
  h->grid.height = fxs_get_u32(r);
  h->radius = fxs_get_i32(r);
  h->budget = fxs_get_u32(r);
  h->version = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (h->grid.width == 0 && h->grid.height == 0) {
    bool zero = h->grid.origin.x == 0 && h->grid.origin.y == 0 && h->grid.cell_size == 0 &&
                h->radius == 0 && h->budget == 0;
    return zero ? FXS_OK : FXS_ERR_BAD_VALUE;
  }
  fxs_result e =
      fxs_nav_grid_check(h->grid.origin, h->grid.cell_size, h->grid.width, h->grid.height);
  if (e != FXS_OK || h->radius < 0 || h->budget < 1 || h->budget > FXS_NAV_MAX_BUDGET) {
    return FXS_ERR_BAD_VALUE;
  }
  if ((uint64_t)h->grid.width * h->grid.height > shape->capacity.nav_cells) return FXS_ERR_CAPACITY;
  return FXS_OK;
}

// One route; its waypoints go to `points` (NULL: checked only).
static fxs_result read_route(fxs_reader *r, const fxs_world *shape, const nav_header *h,
                             fxs_nav_route *route, uint32_t *points) {
  if (!fxs_route_read_head(r, route)) return r->failed ? FXS_ERR_TRUNCATED : FXS_OK;
  route->goal_cell = fxs_get_u32(r);
  fxs_route_read_tail(r, route);
  if (r->failed) return FXS_ERR_TRUNCATED;
  uint32_t cells = h->grid.width * h->grid.height;
  if (cells == 0 || route->goal_cell >= cells || !fxs_route_valid(route, &shape->capacity))
    return FXS_ERR_BAD_VALUE;
  for (uint32_t k = 0; k < route->count; ++k) {
    uint32_t c = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (c >= cells) return FXS_ERR_BAD_VALUE;
    if (points) points[k] = c;
  }
  return FXS_OK;
}

// The searches: each owned one by the one route that is SEARCHING with it (expect[k], from
// the routes), and a search in progress on the grid's shape.
static fxs_result read_searches(fxs_world *world, fxs_world *shape, fxs_reader *r,
                                const nav_header *h, const uint32_t *expect, size_t *at) {
  uint32_t searches = shape->capacity.nav_searches;
  for (uint32_t k = 0; k < searches; ++k) {
    *at = r->position;
    uint32_t owner = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (owner != expect[k]) return FXS_ERR_BAD_VALUE;
    if (world) world->nav.search_owner[k] = owner;
    if (owner == FXS_ROUTE_NO_OWNER) {
      // A free search is begun afresh later, which clears only the cells it recorded as
      // touched: lay it out again so that nothing the memory held before survives.
      if (world) {
        size_t bytes = fxs_world_nav_search_bytes(&world->capacity);
        fxs_nav_search_init(&world->nav.searches[k],
                            world->internal->nav.search_memory + (size_t)k * bytes, bytes,
                            world->capacity.nav_cells, world->capacity.nav_open);
      }
      continue;
    }
    // The dry pass reads into the checking search after the slots, the apply pass in place.
    fxs_nav_search *s = world ? &world->nav.searches[k] : &shape->nav.searches[searches];
    fxs_result e = fxs_nav_search_read(s, r);
    if (e != FXS_OK) return e;
    if (s->status != FXS_NAV_SEARCHING || s->width != h->grid.width ||
        s->height != h->grid.height) {
      return FXS_ERR_BAD_VALUE;
    }
  }
  return FXS_OK;
}

// The base costs, `cells` bytes of at most FXS_NAV_MAX_COST (into world->nav.base unless
// NULL); the offset of a bad or missing byte in *at. All there: checked and copied as a block.
static fxs_result read_base(fxs_world *world, fxs_reader *r, size_t cells, size_t *at) {
  if (r->failed || r->position > r->size || r->size - r->position < cells) {
    for (size_t i = 0; i < cells; ++i) { // short: byte by byte to the end
      *at = r->position;
      uint8_t c = fxs_get_u8(r);
      if (r->failed) return FXS_ERR_TRUNCATED;
      if (c > FXS_NAV_MAX_COST) return FXS_ERR_BAD_VALUE;
    }
    return FXS_OK; // only with no cells: fewer than `cells` bytes were left
  }
  const uint8_t *block = r->data + r->position;
  uint8_t bad = 0;
  for (size_t i = 0; i < cells; ++i) bad |= (uint8_t)(block[i] > FXS_NAV_MAX_COST);
  for (size_t i = 0; bad && i < cells; ++i) {
    if (block[i] > FXS_NAV_MAX_COST) return *at = r->position + i, FXS_ERR_BAD_VALUE;
  }
  if (world && cells) memcpy(world->nav.base, block, cells);
  r->position += cells;
  *at = r->position;
  return FXS_OK;
}

fxs_result fxs_world_nav_read(fxs_world *world, fxs_world *shape, fxs_reader *r, bool moves,
                              size_t *at) {
  nav_header h;
  *at = r->position;
  fxs_result e = read_header(r, shape, &h);
  if (e != FXS_OK) return e;
  size_t cells = (size_t)h.grid.width * h.grid.height;
  e = read_base(world, r, cells, at);
  if (e != FXS_OK) return e;
  uint32_t expect[FXS_NAV_MAX_SEARCHES];
  for (uint32_t k = 0; k < FXS_NAV_MAX_SEARCHES; ++k) expect[k] = FXS_ROUTE_NO_OWNER;
  uint32_t cap = shape->capacity.nav_waypoints;
  for (uint32_t i = 0; i < shape->capacity.agents; ++i) {
    *at = r->position;
    fxs_nav_route route;
    e = read_route(r, shape, &h, &route, world ? &world->nav.waypoints[(size_t)i * cap] : 0);
    if (e != FXS_OK) return e;
    if (route.status == FXS_ROUTE_SEARCHING) {
      if (expect[route.search] != FXS_ROUTE_NO_OWNER)
        return FXS_ERR_BAD_VALUE; // one search, two routes
      expect[route.search] = i;
    }
    if (world) world->nav.routes[i] = route;
  }
  e = read_searches(world, shape, r, &h, expect, at);
  if (e != FXS_OK) return e;
  if (world) {
    world->nav.grid.origin = h.grid.origin, world->nav.grid.cell_size = h.grid.cell_size;
    world->nav.grid.width = h.grid.width, world->nav.grid.height = h.grid.height;
    world->nav.radius = h.radius, world->nav.budget = h.budget, world->nav.version = h.version;
    // The snapshot carries the base costs: read them all again; the shapes that differ
    // from the ones rasterized are found slot by slot (world_nav_raster.h).
    if (h.grid.width != 0) {
      fxs_world_nav_raster_base_changed(world, 0, 0, h.grid.width, h.grid.height);
    }
    world->internal->nav.dirty = 1;
  }
  if (shape->capacity.nav_fields == 0) return FXS_OK;
  e = fxs_world_nav_fields_read(world, shape, r, h.grid.width * h.grid.height, at);
  if (e != FXS_OK) return e;
  if (moves) return fxs_world_nav_moves_read(world, shape, r, h.grid.width * h.grid.height, at);
  for (uint32_t i = 0; world && i < world->capacity.agents; ++i) {
    world->nav.moves[i] = FXS_NAV_NO_MOVE;
  }
  return FXS_OK;
}
