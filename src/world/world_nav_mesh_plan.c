// A mesh world's navigation, second part (world_nav_mesh.h): the tick's planning (the grid's
// phases: progress, stale routes, free searches to waiting routes, the shared budget, finished
// searches into routes) and the following of a route's points.
#include "world_nav_mesh.h"
#include "world_internal.h"

#include <string.h>

#include "fixsteer/seek.h"
#include "world_nav.h"
#include "nav_mesh_tree.h"
#include "world_formation.h"
#include "world_nav_mesh_fields.h"
#include "world_route.h"
#include "world_rules.h"
#include "world_step.h"

static fxs_vec2 clamp_into(const fxs_nav_mesh *m, fxs_vec2 p) {
  p.x = p.x < m->bounds_min.x ? m->bounds_min.x : p.x > m->bounds_max.x ? m->bounds_max.x : p.x;
  p.y = p.y < m->bounds_min.y ? m->bounds_min.y : p.y > m->bounds_max.y ? m->bounds_max.y : p.y;
  return p;
}

static const fxs_vec2 *points_of(const fxs_world *world, uint32_t i) {
  return &world->nav.points[(size_t)i * world->capacity.nav_waypoints];
}

// A route's point is passed within this distance of the agent: the routing radius, at least
// the agent's touching distance (agent.h).
static fix16_t pass_distance(const fxs_world *world, const fxs_agent *a) {
  return fxs_max(world->nav.radius, fxs_agent_touch(a));
}

// Whether agent `i` on the last leg of its route `r` has lost sight of the route's last point:
// beyond its passing distance of it, the segment from its centre to the point meets a wall or an
// obstacle first (FXS_MESH_HIDDEN at radius 0; a segment through a vertex or a walk too long to
// decide is not hidden). False before simulation version 11 (world_rules.h,
// FXS_RULES_LAST_LEG_SIGHT).
static bool last_point_hidden(const fxs_world *world, uint32_t i, const fxs_nav_route *r) {
  if (r->next + 1u < r->count || !fxs_rules_since(world, FXS_RULES_LAST_LEG_SIGHT)) return false;
  const fxs_agent *a = &world->agents[i].body;
  const fxs_nav_mesh *m = &world->nav.mesh;
  fxs_vec2 from = clamp_into(m, a->position), to = points_of(world, i)[r->next];
  if (fxs_vec2_within(from, to, pass_distance(world, a))) return false;
  return fxs_mesh_view_of(m, fxs_nav_mesh_locate(m, from), from, to, fxs_nav_mesh_locate(m, to),
                          0) == FXS_MESH_HIDDEN;
}

// Progress (state), as on the grid: a ready route progresses when its agent passes a point or
// comes its touching distance nearer the one it seeks, or rests on its last leg. Since
// simulation version 11, a tick on the last leg out of sight of its point (last_point_hidden)
// is a stall tick: one pushed by the crowd behind a wall's end after it passed the corner
// rested against the wall, or slid along it toward the point, for ever.
static void measure_progress(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    fxs_nav_route *r = &n->routes[i];
    if (r->status != FXS_ROUTE_READY || !world->agents[i].alive) continue;
    const fxs_agent *a = &world->agents[i].body;
    if (last_point_hidden(world, i, r)) {
      fxs_route_stall(r);
      continue;
    }
    fxs_route_measure(r, fxs_vec2_distance(a->position, points_of(world, i)[r->next]),
                      fxs_agent_touch(a), fxs_vec2_is_zero(a->velocity));
  }
}

bool fxs_world_mesh_sees(const fxs_world *world, fxs_vec2 from, fxs_vec2 to) {
  const fxs_nav_mesh *m = &world->nav.mesh;
  from = clamp_into(m, from), to = clamp_into(m, to);
  return fxs_mesh_sight(m, fxs_nav_mesh_locate(m, from), from, to, fxs_nav_mesh_locate(m, to),
                        world->nav.radius);
}

// A formation member that does not see its slot (fxs_world_formation_mesh_goal, version 8):
// routed to it as a navigate agent to its target, its route holding while the route's goal is
// within pass_distance of the slot or the route's end sees the slot (the slot moves with its
// leader; the member steers straight on from there). False for any other agent.
static bool member_stale(fxs_world *world, uint32_t i, bool *stale, fxs_vec2 *goal) {
  fxs_world_nav *n = &world->nav;
  const fxs_agent_slot *s = &world->agents[i];
  fxs_vec2 slot;
  if (!s->alive || !fxs_world_formation_mesh_goal(world, i, &slot)) return false;
  const fxs_nav_route *r = &n->routes[i];
  *goal = clamp_into(&n->mesh, slot);
  bool moved = !fxs_vec2_within(*goal, n->goals[i], pass_distance(world, &s->body)) &&
               r->status == FXS_ROUTE_READY && r->count > 0 &&
               !fxs_world_mesh_sees(world, points_of(world, i)[r->count - 1u], *goal);
  *stale = r->status == FXS_ROUTE_NONE || r->version != n->version || moved || fxs_route_used_up(r);
  return true;
}

// Routes that need a search: missing, planned on another map version, toward a goal farther
// than pass_distance from the target now, cut short and at their last point, or stalled.
// Formation members that do not see their slots are routed to them (member_stale); other
// agents that do not navigate lose theirs.
static void mark_stale(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    fxs_nav_route *r = &n->routes[i];
    fxs_vec2 goal;
    bool stale;
    if (!s->alive || !fxs_world_nav_navigates(s)) {
      if (!member_stale(world, i, &stale, &goal)) {
        if (r->status != FXS_ROUTE_NONE) fxs_world_mesh_release(world, i);
        continue;
      }
    } else if (fxs_world_mesh_fields_serve(world, i)) {
      continue;
    } else {
      goal = clamp_into(&n->mesh, fxs_world_nav_target(world, i));
      stale = r->status == FXS_ROUTE_NONE || r->version != n->version ||
              !fxs_vec2_within(goal, n->goals[i], pass_distance(world, &s->body)) ||
              fxs_route_used_up(r);
    }
    if (!stale) continue;
    fxs_route_wait(r, n->search_owner, n->version);
    n->goals[i] = goal;
  }
}

// Free searches go to waiting routes, lowest agent slot first; a search starts where the
// agent stands (clamped into the bounds).
static void assign_searches(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t k = 0;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    fxs_nav_route *r = &n->routes[i];
    if (r->status != FXS_ROUTE_WAITING) continue;
    while (k < world->capacity.nav_searches && n->search_owner[k] != FXS_ROUTE_NO_OWNER) k++;
    if (k == world->capacity.nav_searches) return;
    fxs_vec2 start = clamp_into(&n->mesh, world->agents[i].body.position);
    fxs_mesh_route_begin(&n->mesh_searches[k], &n->mesh, start, n->goals[i], n->radius);
    n->search_owner[k] = i;
    r->status = FXS_ROUTE_SEARCHING;
    r->search = (uint16_t)k;
  }
}

// A finished search becomes its owner's route: its first capacity.nav_waypoints points
// (partial when there were more).
static void finish(fxs_world *world, uint32_t k) {
  fxs_world_nav *n = &world->nav;
  fxs_mesh_route *s = &n->mesh_searches[k];
  uint32_t owner = n->search_owner[k];
  fxs_nav_route *r = &n->routes[owner];
  uint32_t cap = world->capacity.nav_waypoints;
  fxs_vec2 *points = &n->points[(size_t)owner * cap];
  uint32_t total = fxs_mesh_route_points(s, &n->mesh, points, cap);
  uint32_t count = total < cap ? total : cap;
  if (count == 0) points[0] = s->start, count = 1; // no leg clear of the walls: stay
  fxs_route_ready(r, (uint8_t)s->status, count, total > cap,
                  fxs_vec2_distance(world->agents[owner].body.position, points[0]));
  n->search_owner[k] = FXS_ROUTE_NO_OWNER;
}

// The budget goes to the searches in slot order from slot (tick mod searches), as on the grid.
static void spend_budget(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t searches = world->capacity.nav_searches, left = n->budget;
  for (uint32_t j = 0; j < searches && left > 0; ++j) {
    uint32_t k = (world->tick + j) % searches;
    if (n->search_owner[k] == FXS_ROUTE_NO_OWNER) continue;
    fxs_mesh_route *s = &n->mesh_searches[k];
    uint32_t before = s->spent;
    fxs_nav_status st = fxs_mesh_route_step(s, &n->mesh, left);
    left -= s->spent - before;
    if (st != FXS_NAV_SEARCHING) finish(world, k);
  }
}

void fxs_world_mesh_plan(fxs_world *world) {
  if (world->nav.budget == 0) return;
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_PROGRESS, measure_progress(world));
  bool fields = world->capacity.nav_fields != 0;
  if (fields) {
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_FIELDS, fxs_world_mesh_fields_assign(world));
  }
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_ROUTES, mark_stale(world));
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_SEARCHES, assign_searches(world); spend_budget(world));
  if (fields) {
    FXS_WORLD_MARKED(world, FXS_PHASE_PLAN_FIELD_BUILDS, fxs_world_mesh_fields_build(world));
  }
}

// ------------------------------------------------------------------ following

// Moves the route of agent `index` past the points it has passed (within pass_distance).
static uint32_t advance(const fxs_world *world, uint32_t index) {
  const fxs_agent *a = &world->agents[index].body;
  fxs_nav_route *r = &world->nav.routes[index];
  const fxs_vec2 *points = points_of(world, index);
  fix16_t near = pass_distance(world, a);
  uint32_t i = r->next;
  while (i + 1u < r->count && fxs_vec2_within(a->position, points[i], near)) i++;
  r->next = (uint16_t)i;
  return i;
}

bool fxs_world_mesh_waypoint(const fxs_world *world, uint32_t index, fxs_vec2 *to, bool *last) {
  const fxs_nav_route *r = &world->nav.routes[index];
  if (world->nav.budget == 0 || r->count == 0) return false;
  uint32_t i = advance(world, index);
  *to = points_of(world, index)[i];
  *last = i + 1u >= r->count;
  return true;
}

fxs_nav_move fxs_world_mesh_move(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                 fix16_t slowing_radius) {
  const fxs_agent *a = &world->agents[index].body;
  if (world->nav.budget == 0) return fxs_world_nav_last_move(a, target, slowing_radius);
  fxs_vec2 field_to;
  bool field_last;
  if (fxs_world_mesh_fields_point(world, index, target, &field_to, &field_last)) {
    if (field_last) return fxs_world_nav_last_move(a, field_to, slowing_radius);
    fxs_nav_move m = {fxs_vec2_add(a->velocity, fxs_seek(a, field_to)), field_to, 0, 0};
    return m;
  }
  const fxs_nav_route *r = &world->nav.routes[index];
  if (r->count == 0) { // the first route is being searched: hold still
    fxs_nav_move m = {fxs_vec2_zero(), a->position, 0, 0};
    return m;
  }
  uint32_t i = advance(world, index);
  fxs_vec2 to = points_of(world, index)[i];
  if (i + 1u < r->count) {
    fxs_nav_move m = {fxs_vec2_add(a->velocity, fxs_seek(a, to)), to, 0, 0};
    return m;
  }
  if (r->reached == FXS_NAV_FOUND && !r->partial) to = target; // the route reaches the goal
  return fxs_world_nav_last_move(a, to, slowing_radius);
}

uint32_t fxs_world_mesh_route(const fxs_world *world, uint32_t index, fxs_vec2 *out,
                              uint32_t capacity, uint32_t *next) {
  if (world->nav.budget == 0) return 0;
  const fxs_nav_route *r = &world->nav.routes[index];
  const fxs_vec2 *points = points_of(world, index);
  for (uint32_t k = 0; k < r->count && k < capacity; ++k) out[k] = points[k];
  if (r->count > 0 && r->count <= capacity && r->reached == FXS_NAV_FOUND && !r->partial) {
    out[r->count - 1u] = fxs_world_nav_target(world, index);
  }
  if (next) *next = r->next;
  return r->count;
}
