#include "world_nav_fields.h"
#include "world_step.h"
#include "world_internal.h"

#include <string.h>

#include "fixsteer/nav_field.h"
#include "fixsteer/nav_path.h"
#include "nav_grid_cell.h"
#include "world_nav.h"
#include "world_nav_aims.h"
#include "world_nav_mesh.h"
#include "world_nav_mesh_fields.h"
#include "nav_state.h"
#include "world_nav_raster.h"
#include "world_rules.h"
#include "exact.h"
#include "world_prefetch.h"
#include "world_walls.h"

#define NO_SLOT UINT32_MAX

uint8_t *fxs_world_nav_fields_packed(const fxs_world *world, uint32_t k) {
  return world->internal->nav.field_packed + (size_t)k * world->capacity.nav_cells;
}

// Records what field k's memory holds: begun toward its slot's goal over the grid as it is.
static void record(fxs_world *world, uint32_t k) {
  fxs_world_nav_internal *ni = &world->internal->nav;
  fxs_nav_field_built *b = &ni->field_built[k];
  b->valid = ni->dirty ? 0u : 1u;
  b->goal = world->nav.field_slots[k].goal_cell;
  b->revision = ni->raster->revision;
  b->restored = FXS_NAV_FIELD_NOT_RESTORED;
  fxs_world_nav_aims_forget(world); // the field's values are begun again
}

// Build memory j is taken back from the field it was lent to: a field being built there
// keeps its numbers but no values (it is built again from its count when it is next stepped).
static void take_back(fxs_world *world, uint32_t j) {
  fxs_world_nav_internal *ni = &world->internal->nav;
  uint32_t k = ni->build_owner[j];
  ni->build_owner[j] = NO_SLOT;
  if (k == NO_SLOT) return;
  fxs_nav_field *f = &world->nav.fields[k];
  if (f->packed) return; // packed already: it no longer uses the memory
  f->entry = NULL, f->bucket = NULL;
  ni->field_built[k].valid = 0;
}

// Lends a build memory to field k (idle after, not begun): the one it has, else a free one
// (lowest index), else one lent to a free slot, else, with `evict`, the one used least
// recently (lowest index on ties), taken back. False when none is (without `evict`).
static bool lend(fxs_world *world, uint32_t k, bool evict) {
  fxs_world_nav_internal *ni = &world->internal->nav;
  uint32_t builds = fxs_world_nav_field_builds(&world->capacity), pick = NO_SLOT;
  for (uint32_t j = 0; j < builds && pick == NO_SLOT; ++j) {
    if (ni->build_owner[j] == k) pick = j;
  }
  for (uint32_t j = 0; j < builds && pick == NO_SLOT; ++j) {
    if (ni->build_owner[j] == NO_SLOT) pick = j;
  }
  for (uint32_t j = 0; j < builds && pick == NO_SLOT; ++j) {
    if (!world->nav.field_slots[ni->build_owner[j]].live) pick = j;
  }
  if (pick == NO_SLOT && evict) {
    pick = 0;
    for (uint32_t j = 1; j < builds; ++j) {
      if (ni->build_stamp[j] < ni->build_stamp[pick]) pick = j;
    }
  }
  if (pick == NO_SLOT) return false;
  if (ni->build_owner[pick] != k) take_back(world, pick);
  ni->build_owner[pick] = k;
  ni->build_stamp[pick] = ++ni->build_clock;
  fxs_nav_field_attach(
      &world->nav.fields[k],
      ni->fields_memory + (size_t)pick * fxs_world_nav_fields_bytes(&world->capacity),
      fxs_world_nav_fields_entries(&world->capacity));
  return true;
}

// Gives back the build memory field k holds, if any (its field is packed or dropped).
static void give_back(fxs_world *world, uint32_t k) {
  fxs_world_nav_internal *ni = &world->internal->nav;
  uint32_t builds = fxs_world_nav_field_builds(&world->capacity);
  for (uint32_t j = 0; j < builds; ++j) {
    if (ni->build_owner[j] == k) ni->build_owner[j] = NO_SLOT;
  }
}

// Field k is ready in its build memory: packed (its aims unknown), the memory given back.
static void pack(fxs_world *world, uint32_t k) {
  fxs_nav_field *f = &world->nav.fields[k];
  if (f->packed) return;
  fxs_nav_field_pack(f, &world->nav.grid, fxs_world_nav_fields_packed(world, k), f);
  give_back(world, k);
  fxs_world_nav_aims_forget(world); // its aims start unknown
}

// Begins field k toward its slot's goal over the grid (brought up to date: no caller leaves it
// otherwise) and records it: at once packed when the goal is blocked (ready, no values), in a
// build memory when one is lent (taken back from another field with `evict`), else not held
// (begun when it is first stepped). Its aims are forgotten.
static void begin_field(fxs_world *world, uint32_t k, bool evict) {
  fxs_world_nav *n = &world->nav;
  fxs_nav_field *f = &n->fields[k];
  uint32_t goal = n->field_slots[k].goal_cell;
  record(world, k);
  if (n->grid.cost[goal] == 0) {
    give_back(world, k);
    fxs_nav_field_pack_empty(f, &n->grid, fxs_world_nav_fields_packed(world, k));
    return;
  }
  if (lend(world, k, evict)) {
    fxs_nav_field_begin(f, &n->grid, &goal, 1); // no failure: the goal was checked
    return;
  }
  give_back(world, k);
  f->entry = NULL, f->bucket = NULL, f->packed = NULL, f->cost = NULL;
  f->width = n->grid.width, f->height = n->grid.height;
  f->status = FXS_NAV_FIELD_BUILDING;
  f->current = 1, f->queued = 1, f->settled = 0;
  world->internal->nav.field_built[k].valid = 0;
}

// Field k, being built and not held in memory, is begun again in a build memory and built to
// its slot's count (the cells settled before it was taken back): the same values.
static void hold(fxs_world *world, uint32_t k) {
  fxs_world_nav *n = &world->nav;
  fxs_nav_field *f = &n->fields[k];
  if (f->entry || f->packed) return;
  uint32_t goal = n->field_slots[k].goal_cell;
  uint8_t restored = world->internal->nav.field_built[k].restored;
  lend(world, k, true);
  fxs_nav_field_begin(f, &n->grid, &goal, 1);
  record(world, k);
  world->internal->nav.field_built[k].restored = restored;
  if (fxs_nav_field_step(f, n->field_slots[k].settled) == FXS_NAV_FIELD_READY) pack(world, k);
}

uint32_t fxs_world_nav_fields_entries(const fxs_world_capacity *c) {
  if (c->nav_cells == 0 || c->nav_fields == 0) return 0;
  // (w + 2)(h + 2) = wh + 2(w + h) + 4 with wh <= cells and w, h <= FXS_NAV_MAX_SIDE:
  // w + h <= min(cells + 1, FXS_NAV_MAX_SIDE + cells / FXS_NAV_MAX_SIDE + 1).
  uint64_t cells = c->nav_cells, sum = cells + 1u;
  uint64_t other = FXS_NAV_MAX_SIDE + cells / FXS_NAV_MAX_SIDE + 1u;
  if (other < sum) sum = other;
  return (uint32_t)(cells + 2u * sum + 4u);
}

size_t fxs_world_nav_fields_bytes(const fxs_world_capacity *c) {
  uint32_t entries = fxs_world_nav_fields_entries(c);
  return entries ? fxs_nav_field_memory_size(entries) : 0;
}

uint32_t fxs_world_nav_field_builds(const fxs_world_capacity *c) {
  size_t bytes = fxs_world_nav_fields_bytes(c);
  if (bytes == 0) return 0;
  size_t fit = FXS_NAV_FIELD_BUILD_BYTES / bytes;
  uint32_t builds =
      fit < FXS_NAV_FIELD_BUILDS ? FXS_NAV_FIELD_BUILDS : (uint32_t)(fit < 64u ? fit : 64u);
  return builds < c->nav_fields ? builds : c->nav_fields;
}

void fxs_world_nav_fields_init(fxs_world *world) {
  const fxs_world_capacity *c = &world->capacity;
  fxs_world_nav *n = &world->nav;
  fxs_world_nav_internal *ni = &world->internal->nav;
  for (uint32_t k = 0; k < c->nav_fields; ++k) {
    memset(&n->fields[k], 0, sizeof n->fields[k]); // idle, holding nothing
    memset(&n->field_slots[k], 0, sizeof n->field_slots[k]);
    memset(&ni->field_built[k], 0, sizeof ni->field_built[k]);
    memset(&ni->field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS], 0,
           FXS_NAV_FIELD_MEMBER_WORDS * sizeof *ni->field_members);
  }
  for (uint32_t j = 0; j < fxs_world_nav_field_builds(c); ++j) {
    ni->build_owner[j] = NO_SLOT, ni->build_stamp[j] = 0;
  }
  ni->build_clock = 0;
  fxs_world_nav_aims_forget(world); // the entries are the caller's memory as it was
  for (uint32_t i = 0; i < c->agents; ++i) {
    ni->agent_field[i] = FXS_NAV_NO_FIELD;
    n->moves[i] = FXS_NAV_NO_MOVE;
  }
}

void fxs_world_nav_fields_forget(fxs_world *world, uint32_t index) {
  if (world->capacity.nav_fields != 0) world->nav.moves[index] = FXS_NAV_NO_MOVE;
}

void fxs_world_nav_fields_move(fxs_world *world, uint32_t index, uint32_t cell) {
  if (world->capacity.nav_fields != 0) world->nav.moves[index] = cell;
}

void fxs_world_nav_fields_drop(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  if (world->capacity.nav_fields == 0) return; // no slots, and no agent_field entries
  for (uint32_t k = 0; k < world->capacity.nav_fields; ++k) {
    memset(&n->field_slots[k], 0, sizeof n->field_slots[k]);
  }
  // No agent follows a dropped field: the next plan assigns them again, and without a grid
  // no plan runs (a restored world starts from none as well).
  for (uint32_t i = 0; i < world->capacity.agents; ++i)
    world->internal->nav.agent_field[i] = FXS_NAV_NO_FIELD;
  fxs_world_nav_aims_forget(world);
}

// ------------------------------------------------------------------ the cache

uint32_t fxs_world_nav_field_slot_take(fxs_world *world, uint32_t goal, bool *fresh) {
  fxs_world_nav *n = &world->nav;
  *fresh = false;
  uint32_t fields = world->capacity.nav_fields, free_slot = FXS_NAV_NO_FIELD,
           oldest = FXS_NAV_NO_FIELD;
  for (uint32_t k = 0; k < fields; ++k) {
    const fxs_nav_field_slot *s = &n->field_slots[k];
    if (!s->live) {
      if (free_slot == FXS_NAV_NO_FIELD) free_slot = k;
      continue;
    }
    if (s->goal_cell == goal) return k;
    if (s->used != world->tick &&
        (oldest == FXS_NAV_NO_FIELD || s->used < n->field_slots[oldest].used)) {
      oldest = k;
    }
  }
  uint32_t k = free_slot != FXS_NAV_NO_FIELD ? free_slot : oldest;
  if (k == FXS_NAV_NO_FIELD) return FXS_NAV_NO_FIELD;
  fxs_nav_field_slot *s = &n->field_slots[k];
  s->live = 1, s->ready = 0, s->goal_cell = goal, s->settled = 0;
  *fresh = true;
  return k;
}

// The slot of goal cell `goal` (fxs_world_nav_field_slot_take), its field begun when new.
static uint32_t slot_for(fxs_world *world, uint32_t goal) {
  bool fresh;
  uint32_t k = fxs_world_nav_field_slot_take(world, goal, &fresh);
  if (fresh) begin_field(world, k, false);
  return k;
}

static bool reaches(const fxs_nav_field *f, uint32_t cx, uint32_t cy);
static uint32_t cell_of(const fxs_nav_grid *g, fxs_vec2 p);

// The members of moves on ready fields (see the header): straight to their spots when these
// are near and in sight; with the destination in sight and the spot not, their move forgotten
// (A* to the spot). Cut-off members are left to fxs_world_nav_fields_serve.
static void follow_moves(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t *field = world->internal->nav.agent_field;
  const fxs_nav_grid *g = &n->grid;
  int64_t look = (int64_t)FXS_NAV_FIELD_LOOK * g->cell_size;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    uint32_t k = field[i], move = n->moves[i];
    if (k == FXS_NAV_NO_FIELD || move == FXS_NAV_NO_MOVE) continue;
    if (n->fields[k].status != FXS_NAV_FIELD_READY) continue;
    const fxs_agent_slot *s = &world->agents[i];
    uint32_t here = cell_of(g, s->body.position), w = g->width, sx, sy;
    if (!reaches(&n->fields[k], here % w, here / w)) continue; // serve: A*
    fxs_vec2 to = fxs_nav_grid_cell_center(g, move % w, move / w);
    int64_t reach = 2 * (int64_t)fxs_vec2_distance(s->target_point, to) + look;
    if (!fxs_vec2_within(s->body.position, to, reach > FXS_MAX ? FXS_MAX : (fix16_t)reach)) {
      continue;
    }
    bool inside = fxs_nav_grid_cell_of_inline(g, s->target_point, &sx, &sy);
    if (inside && fxs_world_nav_cells_in_sight(world, here, sy * w + sx)) {
      field[i] = k | FXS_NAV_FIELD_STRAIGHT;
      continue;
    }
    uint8_t *cell =
        &world->internal->nav.field_packed[(size_t)k * world->capacity.nav_cells + here];
    if (*cell >> 4 == FXS_NAV_AIM_UNKNOWN)
      *cell = (uint8_t)(*cell | fxs_world_nav_aim_of(world, k, here, 0) << 4);
    if (*cell >> 4 == FXS_NAV_AIM_GOAL) { // at the destination, the spot hidden: A* to it
      n->moves[i] = FXS_NAV_NO_MOVE;
      field[i] = FXS_NAV_NO_FIELD;
      world->internal->nav.field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS]--;
    }
  }
}

// The goal cells of the navigate agents of slots [begin, end) into agent_field (their moves'
// destinations, else their targets' cells), FXS_NAV_NO_FIELD for the others, and their
// targets into goal_points: each slot's own entries only, so the ranges run on the task
// system.
static void goal_cells_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  fxs_world *world = (fxs_world *)context;
  fxs_world_nav *n = &world->nav;
  uint32_t *field = world->internal->nav.agent_field;
  fxs_vec2 *points = world->internal->nav.goal_points;
  (void)worker;
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, alive);
    FXS_PREFETCH_SLOT(world, i, end, behaviors);
    field[i] = FXS_NAV_NO_FIELD;
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive || !fxs_world_nav_navigates(s)) {
      n->moves[i] = FXS_NAV_NO_MOVE; // a move's member that stops navigating forgets it
      continue;
    }
    uint32_t move = n->moves[i];
    points[i] = fxs_world_nav_target(world, i);
    field[i] = move != FXS_NAV_NO_MOVE ? move : cell_of(&n->grid, points[i]);
  }
}

void fxs_world_nav_fields_assign(fxs_world *world) {
  uint32_t agents = world->capacity.agents, *count = world->internal->nav.scratch;
  const uint32_t *field = world->internal->nav.agent_field;
  // agent_field holds each navigate agent's goal cell until it is replaced by its field.
  fxs_world_run_phase(world, goal_cells_range, agents, 1024, world);
  for (uint32_t i = 0; i < agents; ++i) {
    if (field[i] != FXS_NAV_NO_FIELD) count[field[i]] = 0;
  }
  fxs_world_nav_fields_group(world, count, slot_for);
  follow_moves(world);
}

// Counts a member going to `goal` in its slot's words (FXS_NAV_FIELD_MEMBER_WORDS): the slot's
// group, and the goal point's own count while the slot has room for the point.
static void count_member(uint32_t *m, fxs_vec2 goal) {
  m[0]++;
  for (uint32_t p = 0; p < FXS_NAV_FIELD_POINTS; ++p) {
    uint32_t *at = &m[1 + 3 * p];
    if (at[2] == 0) at[0] = (uint32_t)goal.x, at[1] = (uint32_t)goal.y;
    if ((fix16_t)at[0] == goal.x && (fix16_t)at[1] == goal.y) {
      at[2]++;
      return;
    }
  }
}

// The mark of a goal's count that holds the slot found for it instead (counts stay below
// 2^31), and the slot that stands for none.
#define GOAL_SLOT_FOUND 0x80000000u
#define GOAL_NO_SLOT 0x7FFFFFFFu

void fxs_world_nav_fields_group(fxs_world *world, uint32_t *count,
                                uint32_t (*slot_for_goal)(fxs_world *world, uint32_t goal)) {
  fxs_world_nav *n = &world->nav;
  uint32_t agents = world->capacity.agents, *field = world->internal->nav.agent_field;
  const fxs_vec2 *points = world->internal->nav.goal_points;
  for (uint32_t i = 0; i < agents; ++i) {
    if (field[i] != FXS_NAV_NO_FIELD) count[field[i]]++;
  }
  uint32_t *members = world->internal->nav.field_members;
  for (uint32_t k = 0; k < world->capacity.nav_fields; ++k) {
    uint32_t *m = &members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS];
    m[0] = 0;
    for (uint32_t p = 0; p < FXS_NAV_FIELD_POINTS; ++p) m[3 + 3 * p] = 0;
  }
  for (uint32_t i = 0; i < agents; ++i) {
    uint32_t goal = field[i];
    if (goal == FXS_NAV_NO_FIELD) continue;
    field[i] = FXS_NAV_NO_FIELD;
    // A goal's slot, once asked for, replaces its count: asked again in this pass,
    // slot_for_goal would answer the same (the slot is live toward the goal and used this
    // tick; or no slot was free or evictable, and none became so).
    if (!(count[goal] & GOAL_SLOT_FOUND)) {
      if (count[goal] < FXS_NAV_FIELD_GROUP) continue;
      uint32_t found = slot_for_goal(world, goal);
      count[goal] = GOAL_SLOT_FOUND | (found == FXS_NAV_NO_FIELD ? GOAL_NO_SLOT : found);
    }
    uint32_t k = count[goal] & ~GOAL_SLOT_FOUND;
    if (k == GOAL_NO_SLOT) continue;
    n->field_slots[k].used = world->tick;
    field[i] = k;
    count_member(&members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS], points[i]);
  }
}

uint32_t fxs_world_nav_fields_sharers(const fxs_world *world, uint32_t index, fxs_vec2 goal) {
  if (fxs_world_nav_fields_follows(world, index) == 0) return 0;
  uint32_t k = world->internal->nav.agent_field[index] & FXS_NAV_FIELD_SLOT;
  const uint32_t *m = &world->internal->nav.field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS];
  for (uint32_t p = 0; p < FXS_NAV_FIELD_POINTS && m[3 + 3 * p] != 0; ++p) {
    if ((fix16_t)m[1 + 3 * p] == goal.x && (fix16_t)m[2 + 3 * p] == goal.y) return m[3 + 3 * p];
  }
  return 0;
}

// True when the ready (packed) field `f` leads somewhere from cell (cx, cy): the cell has a
// value or a direction (one read: a value without a direction is a goal's).
static bool reaches(const fxs_nav_field *f, uint32_t cx, uint32_t cy) {
  return (f->packed[cy * f->width + cx] & 15u) != FXS_NAV_PACK_NONE;
}

// Whether wall w crosses or touches the segment from `at` to `to`, whose box is `box` (a wall
// whose bounding box misses it is passed over before any product).
static bool crosses(const fxs_wall *w, fxs_vec2 at, fxs_vec2 to, const fxs_box *box) {
  if ((w->a.x < box->lo_x && w->b.x < box->lo_x) || (w->a.x > box->hi_x && w->b.x > box->hi_x) ||
      (w->a.y < box->lo_y && w->b.y < box->lo_y) || (w->a.y > box->hi_y && w->b.y > box->hi_y))
    return false;
  return fxs_exact_orientation(w->a, w->b, at) * fxs_exact_orientation(w->a, w->b, to) <= 0 &&
         fxs_exact_orientation(at, to, w->a) * fxs_exact_orientation(at, to, w->b) <= 0;
}

// Walls an edge step's sight test takes from the step's wall grid at a time; with more in the
// segment's box it tests every wall.
#define SEES_NEAR_WALLS 16u

// Whether no wall the raster holds crosses or touches the segment from `at` to `to`. The walls
// the raster holds are the live ones (the plan's map update brought them up to date), so the
// step's wall grid over the live walls (`walls`) gives those whose boxes meet the segment's;
// the others cannot cross it. Without a grid, or with more walls near than it takes, every
// wall slot the raster holds is tested, as before the grid.
static bool sees(const fxs_world *world, const fxs_wall_grid *walls, fxs_vec2 at, fxs_vec2 to) {
  const fxs_nav_raster *t = world->internal->nav.raster;
  fxs_box box = {at.x < to.x ? at.x : to.x, at.y < to.y ? at.y : to.y, at.x < to.x ? to.x : at.x,
                 at.y < to.y ? to.y : at.y};
  uint32_t near[SEES_NEAR_WALLS];
  uint32_t n = walls && t->valid ? fxs_wall_grid_find(world, walls, &box, near, SEES_NEAR_WALLS)
                                 : FXS_ALL_WALLS;
  if (n != FXS_ALL_WALLS) {
    for (uint32_t k = 0; k < n; ++k) {
      if (crosses(&world->internal->live_walls[near[k]], at, to, &box)) return false;
    }
    return true;
  }
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    if (t->wall_on[i] && crosses(&t->walls[i], at, to, &box)) return false;
  }
  return true;
}

// The edge (see the header): the offset code of the nearest cell round (cx, cy) that ready
// field `f` reaches and `at` sees, ring by ring out to the grid's margin (its radius in cells,
// and one more; FXS_NAV_FIELD_EDGE_RINGS at most), each ring row by row; FXS_NAV_FIELD_EDGE_NONE
// without one.
static uint32_t edge_step(const fxs_world *world, const fxs_wall_grid *walls,
                          const fxs_nav_field *f, fxs_vec2 at, uint32_t cx, uint32_t cy) {
  const fxs_nav_grid *g = &world->nav.grid;
  int64_t size = fxs_max(g->cell_size, 1), radius = fxs_max(world->nav.radius, 0);
  int64_t rings = (radius + size - 1) / size + 1;
  if (rings > FXS_NAV_FIELD_EDGE_RINGS) rings = FXS_NAV_FIELD_EDGE_RINGS;
  for (int32_t d = 1; d <= rings; ++d) {
    for (int32_t dy = -d; dy <= d; ++dy) {
      for (int32_t dx = -d; dx <= d; dx += (dy == -d || dy == d) ? 1 : 2 * d) {
        int64_t nx = (int64_t)cx + dx, ny = (int64_t)cy + dy;
        if (nx < 0 || ny < 0 || nx >= g->width || ny >= g->height) continue;
        if (!reaches(f, (uint32_t)nx, (uint32_t)ny)) continue;
        if (!sees(world, walls, at, fxs_nav_grid_cell_center(g, (uint32_t)nx, (uint32_t)ny)))
          continue;
        return (uint32_t)((dy + FXS_NAV_FIELD_EDGE_RINGS) * FXS_NAV_FIELD_EDGE_SIDE +
                          (dx + FXS_NAV_FIELD_EDGE_RINGS));
      }
    }
  }
  return FXS_NAV_FIELD_EDGE_NONE;
}

bool fxs_world_nav_fields_serve(fxs_world *world, uint32_t index, const fxs_wall_grid *walls) {
  fxs_world_nav *n = &world->nav;
  if (world->capacity.nav_fields == 0) return false;
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD) return false;
  k &= ~FXS_NAV_FIELD_STRAIGHT;
  fxs_nav_route *r = &n->routes[index];
  const fxs_nav_field *f = &n->fields[k];
  if (f->status == FXS_NAV_FIELD_READY) {
    uint32_t cx, cy;
    fxs_nav_grid_cell_of_inline(&n->grid, world->agents[index].body.position, &cx, &cy);
    // The agent's aim on this field from this cell (world_nav_aims.h) tells without the read.
    const fxs_nav_aim *known = fxs_world_nav_aim_known(world, index, k, cy * n->grid.width + cx);
    if (!(known && known->reaches) && !reaches(f, cx, cy)) {
      // Where the field gives no direction: the edge (version 7), else cut off from the goal,
      // and A* finds the nearest point.
      uint32_t edge = FXS_NAV_FIELD_EDGE_NONE;
      uint32_t *field = &world->internal->nav.agent_field[index];
      if (fxs_rules_since(world, FXS_RULES_FIELD_EDGE) && !(*field & FXS_NAV_FIELD_STRAIGHT))
        edge = edge_step(world, walls, f, world->agents[index].body.position, cx, cy);
      if (edge == FXS_NAV_FIELD_EDGE_NONE) {
        *field = FXS_NAV_NO_FIELD;
        n->moves[index] = FXS_NAV_NO_MOVE;
        return false;
      }
      *field = k | FXS_NAV_FIELD_EDGE | edge << FXS_NAV_FIELD_EDGE_SHIFT;
    }
    if (r->status != FXS_ROUTE_NONE) fxs_world_nav_release(world, index);
    return true;
  }
  // Being built: a route the agent has is followed as it is; no search is started for it.
  if (r->status == FXS_ROUTE_WAITING || r->status == FXS_ROUTE_SEARCHING) {
    fxs_world_nav_release(world, index);
  }
  return true;
}

// ------------------------------------------------------------------ the move

static uint32_t cell_of(const fxs_nav_grid *g, fxs_vec2 p) {
  uint32_t cx, cy;
  fxs_nav_grid_cell_of_inline(g, p, &cx, &cy);
  return cy * g->width + cx;
}

void fxs_world_nav_fields_build(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  uint32_t fields = world->capacity.nav_fields, left = n->budget;
  for (uint32_t j = 0; j < fields && left > 0; ++j) {
    uint32_t k = (world->tick + j) % fields;
    fxs_nav_field *f = &n->fields[k];
    fxs_nav_field_slot *s = &n->field_slots[k];
    if (!s->live || s->ready) continue;
    hold(world, k); // its values in a build memory (built again when they were taken back)
    uint32_t before = f->settled;
    fxs_nav_field_step(f, left);
    left -= f->settled - before;
    s->settled += f->settled - before;
    if (f->status == FXS_NAV_FIELD_READY) s->ready = 1, s->settled = 0, pack(world, k);
  }
}

bool fxs_world_nav_fields_point(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                fxs_vec2 *to, bool *last) {
  const fxs_world_nav *n = &world->nav;
  if (world->capacity.nav_fields == 0) return false;
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD) return false;
  if (k & FXS_NAV_FIELD_STRAIGHT) { // a move's member, its spot in sight (follow_moves)
    *to = target, *last = true;
    return true;
  }
  if (k & FXS_NAV_FIELD_EDGE) { // where the field does not reach: to a cell near it reaches
    const fxs_nav_grid *g = &n->grid;
    uint32_t cx, cy, code = (k >> FXS_NAV_FIELD_EDGE_SHIFT) & FXS_NAV_FIELD_EDGE_CODES;
    fxs_nav_grid_cell_of_inline(g, world->agents[index].body.position, &cx, &cy);
    cx = cx + code % FXS_NAV_FIELD_EDGE_SIDE - FXS_NAV_FIELD_EDGE_RINGS;
    cy = cy + code / FXS_NAV_FIELD_EDGE_SIDE - FXS_NAV_FIELD_EDGE_RINGS;
    *to = fxs_nav_grid_cell_center(g, cx, cy), *last = false;
    return true;
  }
  if (n->fields[k].status != FXS_NAV_FIELD_READY) return false;
  const fxs_nav_grid *g = &n->grid;
  uint32_t here = cell_of(g, world->agents[index].body.position), w = g->width, cell = here;
  const fxs_nav_aim *known = fxs_world_nav_aim_known(world, index, k, here);
  uint32_t aim = known ? known->code : fxs_world_nav_fields_packed(world, k)[here] >> 4;
  if (known) {
    cell = known->to;
  } else { // none from this tick's pass (a field made ready since it, or outside a step)
    if (aim == FXS_NAV_AIM_UNKNOWN) {
      aim = fxs_world_nav_aim_of(world, k, here, &cell);
    } else if (aim >= FXS_NAV_AIM_STEP) {
      cell = fxs_world_nav_aim_cell(world, k, here, aim);
    }
  }
  if (aim == FXS_NAV_AIM_NONE) return false;
  *last = aim == FXS_NAV_AIM_GOAL;
  if (aim == FXS_NAV_AIM_GOAL && n->moves[index] != FXS_NAV_NO_MOVE) { // toward the destination
    uint32_t goal = n->field_slots[k].goal_cell;
    *to = fxs_nav_grid_cell_center(g, goal % w, goal / w), *last = false;
  } else if (aim == FXS_NAV_AIM_GOAL) {
    uint32_t goal = n->field_slots[k].goal_cell, tx, ty;
    bool inside = fxs_nav_grid_cell_of_inline(g, target, &tx, &ty);
    *to = inside ? target : fxs_nav_grid_cell_center(g, goal % w, goal / w);
  } else {
    *to = fxs_nav_grid_cell_center(g, cell % w, cell / w);
  }
  return true;
}

uint32_t fxs_world_nav_fields_follows(const fxs_world *world, uint32_t index) {
  if (world->capacity.nav_fields == 0) return 0;
  if (fxs_world_is_mesh(&world->capacity)) return fxs_world_mesh_fields_follows(world, index);
  uint32_t k = world->internal->nav.agent_field[index];
  if (k == FXS_NAV_NO_FIELD || world->nav.moves[index] != FXS_NAV_NO_MOVE) return 0;
  k &= FXS_NAV_FIELD_SLOT;
  if (world->nav.fields[k].status != FXS_NAV_FIELD_READY) return 0;
  return world->internal->nav.field_members[(size_t)k * FXS_NAV_FIELD_MEMBER_WORDS];
}

const fxs_nav_field *fxs_world_nav_field(const fxs_world *world, uint32_t slot,
                                         uint32_t *goal_cell) {
  FXS_ASSERT(world != NULL);
  if (!world || slot >= world->capacity.nav_fields) return NULL;
  if (fxs_world_is_mesh(&world->capacity)) return NULL; // a mesh's fields are trees
  const fxs_nav_field_slot *s = &world->nav.field_slots[slot];
  if (!s->live) return NULL;
  if (goal_cell) *goal_cell = s->goal_cell;
  return &world->nav.fields[slot];
}

// ------------------------------------------------------------------ snapshot section

void fxs_world_nav_fields_write(const fxs_world *world, fxs_writer *w) {
  const fxs_world_nav *n = &world->nav;
  for (uint32_t k = 0; k < world->capacity.nav_fields; ++k) {
    const fxs_nav_field_slot *s = &n->field_slots[k];
    fxs_put_u8(w, s->live);
    if (!s->live) continue;
    fxs_put_u32(w, s->goal_cell);
    fxs_put_u32(w, s->used);
    fxs_put_u32(w, s->ready ? FXS_NAV_FIELD_READY : FXS_NAV_FIELD_BUILDING);
    fxs_put_u32(w, s->settled);
  }
}

// Brings field k's values to those its restored slot names over the restored grid (costs up
// to date): its goal and settled count, every cell when ready. Kept or built on when the
// memory holds that goal over these costs and no more cells than that (see the header), else
// rebuilt. (A field in progress whose count reaches its last cell, which no world writes, is
// complete inside and is seen so by the next build, as one finished on the last cell of a
// budget.)
static void restore_values(fxs_world *world, uint32_t k) {
  fxs_world_nav *n = &world->nav;
  const fxs_nav_field_slot *s = &n->field_slots[k];
  fxs_nav_field *f = &n->fields[k];
  fxs_nav_field_built *b = &world->internal->nav.field_built[k];
  uint32_t want = s->ready ? UINT32_MAX : s->settled;
  bool same = b->valid && b->goal == s->goal_cell &&
              b->revision == world->internal->nav.raster->revision &&
              f->status != FXS_NAV_FIELD_IDLE && (f->packed || f->entry) && f->settled <= want;
  uint8_t how = FXS_NAV_FIELD_REBUILT;
  if (same && (f->status == FXS_NAV_FIELD_READY || f->settled == want)) {
    how = FXS_NAV_FIELD_KEPT;
  } else if (same) { // in progress, fewer cells settled than the slot's count: build on to it
    fxs_nav_field_step(f, want - f->settled);
    how = FXS_NAV_FIELD_CONTINUED;
  } else {
    begin_field(world, k, true); // the goal was checked; held in a build memory
    fxs_nav_field_step(f, want);
  }
  if (f->status == FXS_NAV_FIELD_READY) pack(world, k); // (a kept one is packed already)
  b->restored = how;
}

fxs_result fxs_world_nav_fields_read(fxs_world *world, const fxs_world *shape, fxs_reader *r,
                                     uint32_t cells, size_t *at) {
  uint32_t fields = shape->capacity.nav_fields;
  fxs_nav_field_slot slot[FXS_NAV_MAX_FIELDS];
  for (uint32_t k = 0; k < fields; ++k) {
    *at = r->position;
    memset(&slot[k], 0, sizeof slot[k]);
    slot[k].live = fxs_get_u8(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (slot[k].live > 1 || (slot[k].live && cells == 0)) return FXS_ERR_BAD_VALUE;
    if (!slot[k].live) continue;
    slot[k].goal_cell = fxs_get_u32(r);
    slot[k].used = fxs_get_u32(r);
    uint32_t status = fxs_get_u32(r);
    slot[k].settled = fxs_get_u32(r);
    slot[k].ready = status == FXS_NAV_FIELD_READY;
    if (r->failed) return FXS_ERR_TRUNCATED;
    bool ok = slot[k].goal_cell < cells &&
              (status == FXS_NAV_FIELD_READY
                   ? slot[k].settled == 0
                   : status == FXS_NAV_FIELD_BUILDING && slot[k].settled < cells);
    for (uint32_t j = 0; j < k && ok; ++j) { // one field a goal
      ok = !slot[j].live || slot[j].goal_cell != slot[k].goal_cell;
    }
    if (!ok) return FXS_ERR_BAD_VALUE;
  }
  if (!world) return FXS_OK;
  // The values: the effective costs of the restored map, then each field rebuilt.
  fxs_world_nav *n = &world->nav;
  for (uint32_t k = 0; k < fields; ++k) n->field_slots[k] = slot[k];
  for (uint32_t i = 0; i < world->capacity.agents; ++i)
    world->internal->nav.agent_field[i] = FXS_NAV_NO_FIELD;
  fxs_world_nav_aims_forget(world);
  for (uint32_t k = 0; k < fields; ++k) {
    world->internal->nav.field_built[k].restored = FXS_NAV_FIELD_NOT_RESTORED;
  }
  if (!fxs_world_nav_grid(world)) return FXS_OK; // no grid: no field is live (checked above)
  for (uint32_t k = 0; k < fields; ++k) {
    if (slot[k].live) restore_values(world, k);
  }
  return FXS_OK;
}

// ------------------------------------------------------------------ moves section

bool fxs_world_nav_moves_any(const fxs_world *world) {
  if (world->capacity.nav_fields == 0) return false;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    if (world->nav.moves[i] != FXS_NAV_NO_MOVE) return true;
  }
  return false;
}

void fxs_world_nav_moves_write(const fxs_world *world, fxs_writer *w) {
  for (uint32_t i = 0; i < world->capacity.agents; ++i) fxs_put_u32(w, world->nav.moves[i]);
}

fxs_result fxs_world_nav_moves_read(fxs_world *world, const fxs_world *shape, fxs_reader *r,
                                    uint32_t cells, size_t *at) {
  for (uint32_t i = 0; i < shape->capacity.agents; ++i) {
    *at = r->position;
    uint32_t move = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (move != FXS_NAV_NO_MOVE && move >= cells) return FXS_ERR_BAD_VALUE;
    if (world) world->nav.moves[i] = move;
  }
  return FXS_OK;
}
