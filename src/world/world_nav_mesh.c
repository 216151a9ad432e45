// A mesh world's navigation, first part (world_nav_mesh.h): capacities, memory, the mesh kept
// current by the map change commands, set_nav_grid, and the snapshot section. Planning and
// following are in world_nav_mesh_plan.c.
#include "world_nav_mesh.h"
#include "world_internal.h"

#include <string.h>

#include "command_args.h"
#include "fixsteer/nav_grid.h"
#include "world_nav_fields.h"
#include "world_nav_mesh_fields.h"
#include "world_route.h"

uint32_t fxs_world_mesh_vertices(const fxs_world_capacity *c) {
  if (!fxs_world_is_mesh(c)) return 0;
  if (c->nav_mesh_vertices != 0) return c->nav_mesh_vertices;
  uint64_t v = FXS_NAV_MESH_DEFAULT_VERTICES(c->walls, c->obstacles);
  return v > FXS_NAV_MESH_MAX_VERTICES ? FXS_NAV_MESH_MAX_VERTICES : (uint32_t)v;
}

static uint32_t triangles_of(const fxs_world_capacity *c) {
  return 2u * fxs_world_mesh_vertices(c) - 6u;
}

bool fxs_world_mesh_capacity_valid(const fxs_world_capacity *c) {
  if (!fxs_world_is_mesh(c)) return false;
  uint32_t v = fxs_world_mesh_vertices(c);
  return c->nav_cells == 0 && c->nav_fields <= FXS_NAV_MAX_FIELDS &&
         v >= FXS_NAV_MESH_MIN_VERTICES && v <= FXS_NAV_MESH_MAX_VERTICES && c->nav_searches >= 1 &&
         c->nav_searches <= FXS_NAV_MAX_SEARCHES && c->nav_open >= 1 &&
         c->nav_open <= triangles_of(c) && c->nav_waypoints >= 2 &&
         c->nav_waypoints <= FXS_NAV_MAX_WAYPOINTS;
}

size_t fxs_world_mesh_bytes(const fxs_world_capacity *c) {
  if (!fxs_world_mesh_capacity_valid(c)) return 0;
  fxs_nav_mesh_capacity mc = {fxs_world_mesh_vertices(c), 0};
  return fxs_nav_mesh_memory_size(&mc);
}

size_t fxs_world_mesh_search_bytes(const fxs_world_capacity *c) {
  if (!fxs_world_mesh_capacity_valid(c)) return 0;
  return fxs_mesh_route_memory_size(triangles_of(c), c->nav_open);
}

static void init_search(fxs_world *world, uint32_t k) {
  size_t bytes = fxs_world_mesh_search_bytes(&world->capacity);
  fxs_mesh_route_init(&world->nav.mesh_searches[k],
                      world->internal->nav.search_memory + (size_t)k * bytes, bytes,
                      triangles_of(&world->capacity), world->capacity.nav_open);
}

fxs_result fxs_world_mesh_init(fxs_world *world, void *mesh_memory, uint8_t *search_memory) {
  const fxs_world_capacity *c = &world->capacity;
  fxs_nav_mesh_capacity mc = {fxs_world_mesh_vertices(c), 0};
  fxs_result e = fxs_nav_mesh_init(&world->nav.mesh, &mc, world->def.bounds_min,
                                   world->def.bounds_max, mesh_memory, fxs_world_mesh_bytes(c));
  if (e != FXS_OK) return e;
  world->internal->nav.search_memory = search_memory;
  for (uint32_t k = 0; k <= c->nav_searches; ++k) {
    init_search(world, k);
    if (k < c->nav_searches) world->nav.search_owner[k] = FXS_ROUTE_NO_OWNER;
  }
  return FXS_OK;
}

// ------------------------------------------------------------------ map changes

static bool inside(const fxs_nav_mesh *m, fxs_vec2 p) {
  return p.x >= m->bounds_min.x && p.x <= m->bounds_max.x && p.y >= m->bounds_min.y &&
         p.y <= m->bounds_max.y;
}

fxs_result fxs_world_mesh_check_add(const fxs_world *world, const fxs_command *c) {
  const fxs_nav_mesh *m = &world->nav.mesh;
  bool ok = inside(m, fxs_vec2_make(c->arg[0], c->arg[1]));
  if (c->type == FXS_CMD_ADD_WALL) ok = ok && inside(m, fxs_vec2_make(c->arg[2], c->arg[3]));
  return ok ? FXS_OK : FXS_ERR_BAD_VALUE;
}

// The live walls and obstacles in slot order, into the step's lists (which the step fills
// with exactly these again before it reads them).
static void live_items(fxs_world *world, uint32_t *walls, uint32_t *obstacles) {
  uint32_t k = 0, m = 0;
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    if (world->wall_alive[i]) world->internal->live_walls[k++] = world->walls[i];
  }
  for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
    if (world->obstacle_alive[i]) world->internal->live_obstacles[m++] = world->obstacles[i];
  }
  *walls = k, *obstacles = m;
}

static fxs_result rebuild(fxs_world *world) {
  uint32_t wc, oc;
  live_items(world, &wc, &oc);
  return fxs_nav_mesh_build(&world->nav.mesh, world->internal->live_walls, wc,
                            world->internal->live_obstacles, oc, 0);
}

fxs_result fxs_world_mesh_changed(fxs_world *world, bool wall, uint32_t index, bool added) {
  fxs_nav_mesh *m = &world->nav.mesh;
  world->nav.version++;
  fxs_world_nav_fields_drop(world); // the triangles are renumbered: every field dropped
  fxs_world_mesh_fields_forget(world);
  fxs_result e;
  if (added) {
    e = wall ? fxs_nav_mesh_add_wall(m, &world->walls[index])
             : fxs_nav_mesh_add_obstacle(m, &world->obstacles[index]);
    if (e == FXS_OK) return FXS_OK;
    if (wall) { // taken back: the mesh of the items before it
      world->wall_alive[index] = 0;
    } else {
      world->obstacle_alive[index] = 0;
    }
    rebuild(world);
    return FXS_ERR_CAPACITY;
  }
  uint32_t wc, oc;
  live_items(world, &wc, &oc);
  const fxs_wall *lw = world->internal->live_walls;
  const fxs_obstacle *lo = world->internal->live_obstacles;
  e = wall ? fxs_nav_mesh_remove_wall(m, &world->walls[index], lw, wc, lo, oc)
           : fxs_nav_mesh_remove_obstacle(m, &world->obstacles[index], lw, wc, lo, oc);
  if (e != FXS_OK) rebuild(world); // the remaining items, from scratch
  return FXS_OK;
}

// ------------------------------------------------------------------ commands

static void drop_all(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  fxs_world_nav_fields_drop(world);
  for (uint32_t i = 0; i < world->capacity.agents; ++i)
    memset(&n->routes[i], 0, sizeof n->routes[i]);
  for (uint32_t k = 0; k < world->capacity.nav_searches; ++k)
    n->search_owner[k] = FXS_ROUTE_NO_OWNER;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) fxs_world_nav_fields_forget(world, i);
}

fxs_result fxs_world_mesh_command(fxs_world *world, const fxs_command *c) {
  if (c->type != FXS_CMD_SET_NAV_GRID) return FXS_ERR_CAPACITY; // no grid to cost
  fxs_world_nav *n = &world->nav;
  uint32_t w, h;
  if (!fxs_arg_whole(c->arg[3], &w) || !fxs_arg_whole(c->arg[4], &h) || c->arg[7] != 0)
    return FXS_ERR_BAD_VALUE;
  if (w == 0 && h == 0) { // routing off: everything 0
    for (int i = 0; i < FXS_COMMAND_ARGS; ++i) {
      if (c->arg[i] != 0) return FXS_ERR_BAD_VALUE;
    }
    if (c->ref != 0) return FXS_ERR_BAD_VALUE;
    drop_all(world);
    n->radius = 0, n->budget = 0;
    n->version++;
    return FXS_OK;
  }
  fxs_result r = fxs_nav_grid_check(fxs_vec2_make(c->arg[0], c->arg[1]), c->arg[2], w, h);
  if (r != FXS_OK || c->arg[5] < 0 || c->ref < 1 || c->ref > FXS_NAV_MAX_BUDGET) {
    return FXS_ERR_BAD_VALUE;
  }
  drop_all(world);
  n->radius = c->arg[5];
  n->budget = c->ref;
  n->version++;
  return FXS_OK;
}

void fxs_world_mesh_release(fxs_world *world, uint32_t index) {
  fxs_nav_route *r = &world->nav.routes[index];
  if (r->status == FXS_ROUTE_SEARCHING && r->search < world->capacity.nav_searches) {
    world->nav.search_owner[r->search] = FXS_ROUTE_NO_OWNER;
  }
  memset(r, 0, sizeof *r);
}

// ------------------------------------------------------------------ snapshot section

static void put_vec2(fxs_writer *w, fxs_vec2 v) {
  fxs_put_i32(w, v.x);
  fxs_put_i32(w, v.y);
}

static fxs_vec2 get_vec2(fxs_reader *r) {
  fxs_vec2 v;
  v.x = fxs_get_i32(r);
  v.y = fxs_get_i32(r);
  return v;
}

// Layout: radius (i32), budget, version (u32); the mesh: vertex count, each vertex (x, y
// i32), triangle count, each triangle (v[3], n[3], constrained u32), each vertex's triangle
// (u32); per agent slot its route (status u8; unless NONE: reached, partial u8, search,
// count, next u16, version u32, goal (x, y), stall, mark_next u16, mark_distance i32, count
// points (x, y)); per search its owner (u32, 0xFFFFFFFF free) and, when owned, its start and
// goal (x, y), radius (i32) and budget spent (u32): the search is that one, stepped by it.
void fxs_world_mesh_write(const fxs_world *world, fxs_writer *w) {
  const fxs_world_nav *n = &world->nav;
  const fxs_nav_mesh *m = &n->mesh;
  fxs_put_i32(w, n->radius);
  fxs_put_u32(w, n->budget);
  fxs_put_u32(w, n->version);
  fxs_put_u32(w, m->vertex_count);
  for (uint32_t i = 0; i < m->vertex_count; ++i) put_vec2(w, m->vertices[i]);
  fxs_put_u32(w, m->triangle_count);
  for (uint32_t i = 0; i < m->triangle_count; ++i) {
    const fxs_nav_triangle *t = &m->triangles[i];
    for (int k = 0; k < 3; ++k) fxs_put_u32(w, t->v[k]);
    for (int k = 0; k < 3; ++k) fxs_put_u32(w, t->n[k]);
    fxs_put_u32(w, t->constrained);
  }
  for (uint32_t i = 0; i < m->vertex_count; ++i) fxs_put_u32(w, m->vertex_triangle[i]);
  uint32_t cap = world->capacity.nav_waypoints;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    const fxs_nav_route *r = &n->routes[i];
    if (!fxs_route_write_head(w, r)) continue;
    put_vec2(w, n->goals[i]);
    fxs_route_write_tail(w, r);
    const fxs_vec2 *p = &n->points[(size_t)i * cap];
    for (uint32_t k = 0; k < r->count; ++k) put_vec2(w, p[k]);
  }
  for (uint32_t k = 0; k < world->capacity.nav_searches; ++k) {
    fxs_put_u32(w, n->search_owner[k]);
    if (n->search_owner[k] == FXS_ROUTE_NO_OWNER) continue;
    const fxs_mesh_route *s = &n->mesh_searches[k];
    put_vec2(w, s->start);
    put_vec2(w, s->goal);
    fxs_put_i32(w, s->radius);
    fxs_put_u32(w, s->spent);
  }
  if (world->capacity.nav_fields != 0) fxs_world_nav_fields_write(world, w);
  if (fxs_world_nav_moves_any(world)) fxs_world_mesh_moves_write(world, w);
}

// Header 12 and two counts; per vertex 8 + 4, per triangle 28; per route a 29-byte record and
// 8 a point; per search 28; per field slot 17; with fields, per agent 9 of moves.
uint64_t fxs_world_mesh_write_bound(const fxs_world_capacity *c) {
  uint64_t v = fxs_world_mesh_vertices(c), t = 2u * v;
  uint64_t route = 29u + 8u * (uint64_t)c->nav_waypoints + (c->nav_fields ? 9u : 0u);
  return 20u + 12u * v + 28u * t + (uint64_t)c->agents * route + 28u * (uint64_t)c->nav_searches +
         17u * (uint64_t)c->nav_fields;
}

// Stores v at *to; or-s into *differ any bit where it differs from what *to held.
static void put_word(uint32_t *to, uint32_t v, uint32_t *differ) {
  *differ |= *to ^ v;
  *to = v;
}

// The mesh into `m`: a scratch one over the shape's scratch memory, checked (the dry pass), or
// the world's (the pass that stores: the same bytes, checked already), with *differ non-zero
// when it held other arrays before (a count, a vertex, a triangle or a vertex's triangle).
static fxs_result read_mesh(fxs_reader *r, fxs_nav_mesh *m, bool check, uint32_t *differ,
                            size_t *at) {
  *at = r->position;
  uint32_t vc = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (vc < FXS_NAV_MESH_MIN_VERTICES || vc > m->vertex_capacity) return FXS_ERR_BAD_VALUE;
  put_word(&m->vertex_count, vc, differ);
  for (uint32_t i = 0; i < vc && !r->failed; ++i) {
    fxs_vec2 v = get_vec2(r);
    *differ |= (uint32_t)(m->vertices[i].x ^ v.x) | (uint32_t)(m->vertices[i].y ^ v.y);
    m->vertices[i] = v;
  }
  *at = r->position;
  uint32_t tc = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (tc < 2u || tc > m->triangle_capacity) return FXS_ERR_BAD_VALUE;
  put_word(&m->triangle_count, tc, differ);
  for (uint32_t i = 0; i < tc && !r->failed; ++i) {
    fxs_nav_triangle *t = &m->triangles[i];
    for (int k = 0; k < 3; ++k) put_word(&t->v[k], fxs_get_u32(r), differ);
    for (int k = 0; k < 3; ++k) put_word(&t->n[k], fxs_get_u32(r), differ);
    put_word(&t->constrained, fxs_get_u32(r), differ);
  }
  for (uint32_t i = 0; i < vc && !r->failed; ++i)
    put_word(&m->vertex_triangle[i], fxs_get_u32(r), differ);
  if (r->failed) return FXS_ERR_TRUNCATED;
  return check ? fxs_nav_mesh_check(m) : FXS_OK;
}

// One route; its points to `points` and goal to *goal.
static fxs_result read_route(fxs_reader *r, const fxs_world *shape, const fxs_nav_mesh *m, bool on,
                             fxs_nav_route *route, fxs_vec2 *goal, fxs_vec2 *points) {
  *goal = fxs_vec2_zero();
  if (!fxs_route_read_head(r, route)) return r->failed ? FXS_ERR_TRUNCATED : FXS_OK;
  *goal = get_vec2(r);
  fxs_route_read_tail(r, route);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (!on || !inside(m, *goal) || !fxs_route_valid(route, &shape->capacity))
    return FXS_ERR_BAD_VALUE;
  for (uint32_t k = 0; k < route->count; ++k) {
    fxs_vec2 p = get_vec2(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (points) points[k] = p;
  }
  return FXS_OK;
}

// One search owned by a SEARCHING route of map version `version` (header: `current`), into
// `s`: begun and stepped by its spent budget again on the mesh, which must leave it searching
// with exactly that spent. A search begun on an older map (a change applied outside a step)
// is only recorded: the next plan drops it unread.
static fxs_result read_search(fxs_reader *r, const fxs_nav_mesh *m, fxs_mesh_route *s,
                              uint32_t version, uint32_t current) {
  fxs_vec2 start = get_vec2(r), goal = get_vec2(r);
  fix16_t radius = fxs_get_i32(r);
  uint32_t spent = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (!inside(m, start) || !inside(m, goal) || radius < 0) return FXS_ERR_BAD_VALUE;
  if (fxs_mesh_route_begin(s, m, start, goal, radius) != FXS_OK) return FXS_ERR_BAD_VALUE;
  if (version != current) {
    s->spent = spent;
    return FXS_OK;
  }
  if (fxs_mesh_route_step(s, m, spent) != FXS_NAV_SEARCHING || s->spent != spent)
    return FXS_ERR_BAD_VALUE;
  return FXS_OK;
}

fxs_result fxs_world_mesh_read(fxs_world *world, fxs_world *shape, const fxs_world_def *def,
                               fxs_reader *r, bool moves, size_t *at) {
  *at = r->position;
  if (def->bounds_min.x >= def->bounds_max.x || def->bounds_min.y >= def->bounds_max.y)
    return FXS_ERR_BAD_VALUE; // the snapshot's bounds: a mesh needs an area
  fix16_t radius = fxs_get_i32(r);
  uint32_t budget = fxs_get_u32(r), version = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  bool on = budget != 0;
  if (radius < 0 || budget > FXS_NAV_MAX_BUDGET || (!on && radius != 0)) return FXS_ERR_BAD_VALUE;
  // The dry pass reads the mesh into a scratch mesh over the shape's scratch memory; the mesh
  // covers the snapshot's bounds.
  fxs_nav_mesh scratch, *m = world ? &world->nav.mesh : &scratch;
  uint32_t differ = 0; // the world's mesh held another one (its bounds or arrays)
  if (!world) {
    fxs_nav_mesh_capacity mc = {fxs_world_mesh_vertices(&shape->capacity), 0};
    fxs_nav_mesh_init(&scratch, &mc, def->bounds_min, def->bounds_max,
                      shape->internal->nav.check.mesh_scratch,
                      fxs_world_mesh_bytes(&shape->capacity));
  } else {
    differ = (uint32_t)(m->bounds_min.x ^ def->bounds_min.x) |
             (uint32_t)(m->bounds_min.y ^ def->bounds_min.y) |
             (uint32_t)(m->bounds_max.x ^ def->bounds_max.x) |
             (uint32_t)(m->bounds_max.y ^ def->bounds_max.y);
    m->bounds_min = def->bounds_min, m->bounds_max = def->bounds_max;
  }
  fxs_result e = read_mesh(r, m, world == 0, &differ, at);
  if (e != FXS_OK) return e;
  if (world && differ != 0) fxs_world_mesh_fields_forget(world); // built over another mesh
  uint32_t expect[FXS_NAV_MAX_SEARCHES], expect_version[FXS_NAV_MAX_SEARCHES];
  for (uint32_t k = 0; k < FXS_NAV_MAX_SEARCHES; ++k) expect[k] = FXS_ROUTE_NO_OWNER;
  uint32_t cap = shape->capacity.nav_waypoints;
  for (uint32_t i = 0; i < shape->capacity.agents; ++i) {
    *at = r->position;
    fxs_nav_route route;
    fxs_vec2 goal;
    e = read_route(r, shape, m, on, &route, &goal, world ? &world->nav.points[(size_t)i * cap] : 0);
    if (e != FXS_OK) return e;
    if (route.status == FXS_ROUTE_SEARCHING) {
      if (expect[route.search] != FXS_ROUTE_NO_OWNER)
        return FXS_ERR_BAD_VALUE; // one search, two routes
      expect[route.search] = i, expect_version[route.search] = route.version;
    }
    if (world) world->nav.routes[i] = route, world->nav.goals[i] = goal;
  }
  uint32_t searches = shape->capacity.nav_searches;
  for (uint32_t k = 0; k < searches; ++k) {
    *at = r->position;
    uint32_t owner = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (owner != expect[k]) return FXS_ERR_BAD_VALUE;
    if (world) {
      world->nav.search_owner[k] = owner;
      init_search(world, k); // nothing the memory held before survives
    }
    if (owner == FXS_ROUTE_NO_OWNER) continue;
    fxs_mesh_route *s = world ? &world->nav.mesh_searches[k] : &shape->nav.mesh_searches[searches];
    e = read_search(r, m, s, expect_version[k], version);
    if (e != FXS_OK) return e;
  }
  if (world) world->nav.radius = radius, world->nav.budget = budget, world->nav.version = version;
  if (shape->capacity.nav_fields == 0) return FXS_OK;
  // The group fields' slots (goal triangles of this mesh; none while routing is off), then
  // their trees kept, built on or rebuilt over the restored mesh and radius.
  e = fxs_world_nav_fields_read(world, shape, r, on ? m->triangle_count : 0u, at);
  if (e == FXS_OK && world) fxs_world_mesh_fields_restore(world);
  if (e != FXS_OK) return e;
  if (moves) return fxs_world_mesh_moves_read(world, shape, def, r, at); // the moves' points
  for (uint32_t i = 0; world && i < world->capacity.agents; ++i) {
    world->nav.moves[i] = FXS_NAV_NO_MOVE;
  }
  return FXS_OK;
}
