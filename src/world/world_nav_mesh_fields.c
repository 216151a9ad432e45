// Group fields on a mesh world: see world_nav_mesh_fields.h.
#include "world_nav_mesh_fields.h"
#include "world_internal.h"

#include <string.h>

#include "nav_mesh_tree.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_nav_mesh.h"

uint32_t fxs_world_mesh_triangles(const fxs_world_capacity *c) {
  uint32_t v = fxs_world_mesh_vertices(c);
  return v ? 2u * v - 6u : 0u;
}

size_t fxs_world_mesh_field_bytes(const fxs_world_capacity *c) {
  if (!fxs_world_is_mesh(c) || c->nav_fields == 0) return 0;
  return fxs_mesh_tree_memory_size(fxs_world_mesh_triangles(c));
}

// A mesh world keeps its trees where a grid world has its packed fields, and its goal counts
// where a grid world has its build memories (world_internal.h).
static fxs_mesh_tree *tree_of(const fxs_world *world, uint32_t k) {
  return (fxs_mesh_tree *)(void *)world->internal->nav.field_packed + k;
}

const fxs_mesh_tree *fxs_world_mesh_field_tree(const fxs_world *world, uint32_t k) {
  return tree_of(world, k);
}

static uint32_t *goal_counts(const fxs_world *world) {
  return (uint32_t *)(void *)world->internal->nav.fields_memory;
}

void fxs_world_mesh_fields_init(fxs_world *world, uint8_t *memory) {
  const fxs_world_capacity *c = &world->capacity;
  size_t bytes = fxs_world_mesh_field_bytes(c);
  fxs_world_nav_fields_init(world);
  for (uint32_t k = 0; k < c->nav_fields; ++k) {
    fxs_mesh_tree_init(tree_of(world, k), memory + (size_t)k * bytes, fxs_world_mesh_triangles(c));
  }
}

static fxs_vec2 clamp_into(const fxs_nav_mesh *m, fxs_vec2 p) {
  p.x = p.x < m->bounds_min.x ? m->bounds_min.x : p.x > m->bounds_max.x ? m->bounds_max.x : p.x;
  p.y = p.y < m->bounds_min.y ? m->bounds_min.y : p.y > m->bounds_max.y ? m->bounds_max.y : p.y;
  return p;
}

// The triangle holding point p (clamped into the bounds).
static uint32_t triangle_of(const fxs_world *world, fxs_vec2 p) {
  return fxs_nav_mesh_locate(&world->nav.mesh, clamp_into(&world->nav.mesh, p));
}

// Begins tree k toward triangle `goal` over the world's mesh and radius, and records that it
// was begun over this mesh.
static void begin_tree(fxs_world *world, uint32_t k, uint32_t goal) {
  fxs_mesh_tree_begin(tree_of(world, k), &world->nav.mesh, goal, world->nav.radius);
  fxs_nav_field_built *b = &world->internal->nav.field_built[k];
  b->valid = 1, b->goal = goal, b->revision = 0;
  b->restored = FXS_NAV_FIELD_NOT_RESTORED;
}

// The slot of goal triangle `goal` (fxs_world_nav_field_slot_take), its tree begun when new.
static uint32_t slot_for(fxs_world *world, uint32_t goal) {
  bool fresh;
  uint32_t k = fxs_world_nav_field_slot_take(world, goal, &fresh);
  if (fresh) begin_tree(world, k, goal);
  return k;
}

fxs_vec2 *fxs_world_mesh_move_points(const fxs_world *world) {
  return (fxs_vec2 *)(void *)(world->nav.moves + world->capacity.agents);
}

void fxs_world_mesh_fields_move(fxs_world *world, uint32_t index, fxs_vec2 destination) {
  if (world->capacity.nav_fields == 0) return;
  world->nav.moves[index] = FXS_NAV_MESH_MOVE;
  fxs_world_mesh_move_points(world)[index] = clamp_into(&world->nav.mesh, destination);
}

// Leaves agent slot i's move (its field too, counted out of the members of slot k).
static void leave_move(fxs_world *world, uint32_t i, uint32_t k) {
  world->nav.moves[i] = FXS_NAV_NO_MOVE;
  world->internal->nav.agent_field[i] = FXS_NAV_NO_FIELD;
  world->internal->nav.field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS]--;
}

// The members of moves on ready trees (see the header): straight to their spots when these are
// near and in sight; with the destination in sight and the spot not, their move forgotten (the
// mesh A* to the spot). Cut-off members are left to fxs_world_mesh_fields_serve.
static void follow_moves(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t *field = world->internal->nav.agent_field;
  const fxs_vec2 *dest = fxs_world_mesh_move_points(world);
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    uint32_t k = field[i];
    if (k == FXS_NAV_NO_FIELD || n->moves[i] == FXS_NAV_NO_MOVE || !n->field_slots[k].ready)
      continue;
    const fxs_agent_slot *s = &world->agents[i];
    const fxs_mesh_tree *t = tree_of(world, k);
    fxs_vec2 from = clamp_into(&n->mesh, s->body.position);
    uint32_t here = fxs_nav_mesh_locate(&n->mesh, from);
    if (!fxs_mesh_tree_reaches(t, here)) continue; // serve: A*
    // Near: within twice the spot's distance from the destination and a look ahead (the
    // grid's FXS_NAV_FIELD_LOOK, in body widths) of it.
    int64_t look = 2 * (int64_t)FXS_NAV_FIELD_LOOK * fxs_max(s->body.radius, n->radius);
    int64_t reach = 2 * (int64_t)fxs_vec2_distance(s->target_point, dest[i]) + look;
    if (!fxs_vec2_within(from, dest[i], reach > FXS_MAX ? FXS_MAX : (fix16_t)reach)) continue;
    fxs_vec2 spot = clamp_into(&n->mesh, s->target_point);
    if (fxs_mesh_sight(&n->mesh, here, from, spot, fxs_nav_mesh_locate(&n->mesh, spot),
                       n->radius)) {
      field[i] = k | FXS_NAV_FIELD_STRAIGHT;
    } else if (fxs_mesh_sight(&n->mesh, here, from, dest[i], t->goal, n->radius)) {
      leave_move(world, i, k); // at the destination, the spot hidden: A* to it
    }
  }
}

void fxs_world_mesh_fields_assign(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t agents = world->capacity.agents, *count = goal_counts(world);
  uint32_t *field = world->internal->nav.agent_field;
  fxs_vec2 *points = world->internal->nav.goal_points;
  const fxs_vec2 *dest = fxs_world_mesh_move_points(world);
  // agent_field holds each navigate agent's goal triangle until it is replaced by its field:
  // a move's member's is its destination's. goal_points holds its target.
  for (uint32_t i = 0; i < agents; ++i) {
    field[i] = FXS_NAV_NO_FIELD;
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive || !fxs_world_nav_navigates(s)) {
      n->moves[i] = FXS_NAV_NO_MOVE; // a move's member that stops navigating forgets it
      continue;
    }
    points[i] = fxs_world_nav_target(world, i);
    field[i] = triangle_of(world, n->moves[i] != FXS_NAV_NO_MOVE ? dest[i] : points[i]);
    count[field[i]] = 0;
  }
  fxs_world_nav_fields_group(world, count, slot_for);
  follow_moves(world);
}

bool fxs_world_mesh_fields_serve(fxs_world *world, uint32_t index) {
  fxs_world_nav *n = &world->nav;
  if (world->capacity.nav_fields == 0) return false;
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD) return false;
  k &= FXS_NAV_FIELD_SLOT;
  fxs_nav_route *r = &n->routes[index];
  if (n->field_slots[k].ready) {
    uint32_t here = triangle_of(world, world->agents[index].body.position);
    if (!fxs_mesh_tree_reaches(tree_of(world, k), here)) { // cut off: A* (nearest place)
      world->internal->nav.agent_field[index] = FXS_NAV_NO_FIELD;
      n->moves[index] = FXS_NAV_NO_MOVE;
      return false;
    }
    if (r->status != FXS_ROUTE_NONE) fxs_world_mesh_release(world, index);
    return true;
  }
  // Being built: a route the agent has is followed as it is; no search is started for it.
  if (r->status == FXS_ROUTE_WAITING || r->status == FXS_ROUTE_SEARCHING) {
    fxs_world_mesh_release(world, index);
  }
  return true;
}

void fxs_world_mesh_fields_build(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t fields = world->capacity.nav_fields, left = n->budget;
  for (uint32_t j = 0; j < fields && left > 0; ++j) {
    uint32_t k = (world->tick + j) % fields;
    fxs_nav_field_slot *s = &n->field_slots[k];
    if (!s->live || s->ready) continue;
    fxs_mesh_tree *t = tree_of(world, k);
    uint32_t done = fxs_mesh_tree_step(t, &n->mesh, left);
    left -= done;
    s->settled += done;
    if (t->status == FXS_MESH_TREE_READY) s->ready = 1, s->settled = 0;
  }
}

bool fxs_world_mesh_fields_point(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                 fxs_vec2 *to, bool *last) {
  const fxs_world_nav *n = &world->nav;
  if (world->capacity.nav_fields == 0) return false;
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD) return false;
  if (k & FXS_NAV_FIELD_STRAIGHT) { // a move's member, its spot in sight (follow_moves)
    *to = target, *last = true;
    return true;
  }
  if (!n->field_slots[k].ready) return false;
  const fxs_mesh_tree *t = tree_of(world, k);
  fxs_vec2 from = clamp_into(&n->mesh, world->agents[index].body.position);
  uint32_t here = fxs_nav_mesh_locate(&n->mesh, from);
  if (!fxs_mesh_tree_reaches(t, here)) return false;
  bool move = n->moves[index] != FXS_NAV_NO_MOVE; // toward the destination, never landing there
  fxs_vec2 goal = move ? fxs_world_mesh_move_points(world)[index] : clamp_into(&n->mesh, target);
  *to = fxs_mesh_tree_aim(t, &n->mesh, here, from, goal, n->radius, last);
  if (move) *last = false;
  return true;
}

uint32_t fxs_world_mesh_fields_follows(const fxs_world *world, uint32_t index) {
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD || world->nav.moves[index] != FXS_NAV_NO_MOVE) return 0;
  k &= FXS_NAV_FIELD_SLOT;
  if (!world->nav.field_slots[k].ready) return 0;
  return world->internal->nav.field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS];
}

void fxs_world_mesh_fields_forget(fxs_world *world) {
  for (uint32_t k = 0; k < world->capacity.nav_fields; ++k)
    world->internal->nav.field_built[k].valid = 0;
}

// Brings tree k to what its restored slot names (goal, settled count; every triangle when
// ready) over the restored mesh and radius: kept or built on when it holds that goal and
// radius over this mesh and no more triangles settled than that (see the header), else
// rebuilt.
static void restore_tree(fxs_world *world, uint32_t k) {
  fxs_world_nav *n = &world->nav;
  const fxs_nav_field_slot *s = &n->field_slots[k];
  fxs_mesh_tree *t = tree_of(world, k);
  fxs_nav_field_built *b = &world->internal->nav.field_built[k];
  uint32_t want = s->ready ? UINT32_MAX : s->settled;
  int64_t diameter = 2 * (int64_t)(n->radius > 0 ? n->radius : 0);
  bool same = b->valid && t->status != FXS_MESH_TREE_IDLE && t->goal == s->goal_cell &&
              t->diameter == diameter && t->triangle_count == n->mesh.triangle_count &&
              t->settled <= want;
  uint8_t how = FXS_NAV_FIELD_REBUILT;
  if (same && (t->status == FXS_MESH_TREE_READY || t->settled == want)) {
    how = FXS_NAV_FIELD_KEPT;
  } else if (same) { // being built, fewer triangles settled than the slot's count: build on
    fxs_mesh_tree_step(t, &n->mesh, want - t->settled);
    how = FXS_NAV_FIELD_CONTINUED;
  } else {
    begin_tree(world, k, s->goal_cell);
    fxs_mesh_tree_step(t, &n->mesh, want);
  }
  b->restored = how;
}

void fxs_world_mesh_fields_restore(fxs_world *world) {
  for (uint32_t k = 0; k < world->capacity.nav_fields; ++k) {
    world->internal->nav.field_built[k].restored = FXS_NAV_FIELD_NOT_RESTORED;
    if (world->nav.field_slots[k].live) restore_tree(world, k);
  }
}

// ------------------------------------------------------------------ moves section

void fxs_world_mesh_moves_write(const fxs_world *world, fxs_writer *w) {
  const fxs_vec2 *dest = fxs_world_mesh_move_points(world);
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    bool member = world->nav.moves[i] != FXS_NAV_NO_MOVE;
    fxs_put_u8(w, member ? 1u : 0u);
    if (!member) continue;
    fxs_put_i32(w, dest[i].x);
    fxs_put_i32(w, dest[i].y);
  }
}

fxs_result fxs_world_mesh_moves_read(fxs_world *world, const fxs_world *shape,
                                     const fxs_world_def *def, fxs_reader *r, size_t *at) {
  bool any = false;
  for (uint32_t i = 0; i < shape->capacity.agents; ++i) {
    *at = r->position;
    uint8_t member = fxs_get_u8(r);
    fxs_vec2 p = {0, 0};
    if (member == 1u) p.x = fxs_get_i32(r), p.y = fxs_get_i32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (member > 1u || p.x < def->bounds_min.x || p.x > def->bounds_max.x ||
        p.y < def->bounds_min.y || p.y > def->bounds_max.y) {
      return FXS_ERR_BAD_VALUE; // a destination is clamped into the bounds
    }
    any = any || member;
    if (!world) continue;
    world->nav.moves[i] = member ? FXS_NAV_MESH_MOVE : FXS_NAV_NO_MOVE;
    fxs_world_mesh_move_points(world)[i] = p;
  }
  *at = r->position;
  return any ? FXS_OK : FXS_ERR_BAD_VALUE; // one encoding: the section only with a move
}
