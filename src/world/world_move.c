#include "world_move.h"
#include "world_internal.h"

#include <stdbool.h>

#include "exact.h"
#include "fixsteer/nav_grid.h"
#include "fixsteer/scalar.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_nav_mesh.h"
#include "world_nav_mesh_fields.h"
#include "world_rules.h"
#include "world_slots.h"

#define NO_MOVE UINT32_MAX

// ------------------------------------------------------------------ the spot lattice

// Axial directions of the hexagonal lattice: east, north-east, north-west, west, south-west,
// south-east (a along (1, 0), b along (1/2, sqrt(3)/2)).
static const int8_t dir_a[6] = {1, 0, -1, -1, 0, 1};
static const int8_t dir_b[6] = {0, 1, 1, 0, -1, -1};

// n / d rounded half away from zero (d > 0).
static int64_t round_div(int64_t n, int64_t d) {
  return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d);
}

// The ring of lattice spot `index`: the least k with 3k(k + 1) >= index.
static uint32_t ring_of(uint32_t index) {
  uint64_t lo = 0, hi = 37838; // 3 * 37838 * 37839 > 2^32
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    if (3u * mid * (mid + 1u) >= index) hi = mid;
    else lo = mid + 1u;
  }
  return (uint32_t)lo;
}

fxs_vec2 fxs_world_move_spot(fxs_vec2 destination, fix16_t pitch, uint32_t index) {
  if (index == 0) return destination;
  // Ring k >= 1 holds indices [3k(k - 1) + 1, 3k(k + 1)].
  int64_t k = ring_of(index);
  int64_t at = (int64_t)index - (3 * k * (k - 1) + 1); // [0, 6k)
  int64_t side = at / k, step = at % k;
  // The ring starts on its east corner (k, 0); side s walks k steps along direction s + 2.
  int64_t a = k * dir_a[0], b = k * dir_b[0];
  for (int64_t s = 0; s < side; ++s) a += k * dir_a[(s + 2) % 6], b += k * dir_b[(s + 2) % 6];
  a += step * dir_a[(side + 2) % 6], b += step * dir_b[(side + 2) % 6];
  // |2a + b| <= 3k < 2^17 and pitch < 2^31: both products fit in 64 bits.
  int64_t p = pitch < 0 ? 0 : pitch;
  int64_t dx = round_div((2 * a + b) * p, 2);
  int64_t dy = round_div(b * p * FXS_MOVE_ROW_HEIGHT, FXS_ONE);
  return fxs_vec2_make(fxs_saturate(destination.x + dx), fxs_saturate(destination.y + dy));
}

// ------------------------------------------------------------------ checks

fxs_result fxs_world_move_check(const fxs_world *world, const fxs_command *c, uint32_t *slot) {
  int32_t i = fxs_world_slot_of(world, c->agent);
  if (i < 0) return FXS_ERR_STALE_HANDLE;
  const fxs_agent_slot *s = &world->agents[i];
  if (s->owned && c->source != s->owner) return FXS_ERR_NOT_OWNER;
  if (c->arg[2] < 0 || c->arg[2] > FXS_MOVE_MAX_GAP) return FXS_ERR_BAD_VALUE;
  for (int k = 3; k < FXS_COMMAND_ARGS; ++k) {
    if (c->arg[k] != 0) return FXS_ERR_BAD_VALUE;
  }
  *slot = (uint32_t)i;
  return FXS_OK;
}

// ------------------------------------------------------------------ ordering

typedef struct order {
  const fxs_world *world;
  const fxs_command *commands;
  const uint32_t *mark; // per agent slot: its move's command index
  fxs_vec2 to;          // the group's destination
} order;

typedef bool before_fn(const order *o, uint32_t x, uint32_t y);

// Members: by group (source, tag, arguments), then canonical command order.
static bool member_before(const order *o, uint32_t x, uint32_t y) {
  const fxs_command *a = &o->commands[o->mark[x]], *b = &o->commands[o->mark[y]];
  if (a->source != b->source) return a->source < b->source;
  if (a->ref != b->ref) return a->ref < b->ref;
  for (int k = 0; k < FXS_COMMAND_ARGS; ++k) {
    if (a->arg[k] != b->arg[k]) return a->arg[k] < b->arg[k];
  }
  return o->mark[x] < o->mark[y];
}

// Members of one group: nearest the destination first, then canonical command order.
static bool nearer_before(const order *o, uint32_t x, uint32_t y) {
  int c = fxs_u128_compare(fxs_distance_sq_exact(o->world->agents[x].body.position, o->to),
                           fxs_distance_sq_exact(o->world->agents[y].body.position, o->to));
  return c != 0 ? c < 0 : o->mark[x] < o->mark[y];
}

static bool same_group(const order *o, uint32_t x, uint32_t y) {
  const fxs_command *a = &o->commands[o->mark[x]], *b = &o->commands[o->mark[y]];
  if (a->source != b->source || a->ref != b->ref) return false;
  for (int k = 0; k < FXS_COMMAND_ARGS; ++k) {
    if (a->arg[k] != b->arg[k]) return false;
  }
  return true;
}

// Moves v[root] down the heap v[0, n) ordered by `before` (largest at the top).
static void sift(uint32_t *v, uint32_t root, uint32_t n, before_fn *before, const order *o) {
  uint32_t x = v[root];
  while (root < n / 2u) {
    uint32_t child = 2u * root + 1u;
    if (child + 1u < n && before(o, v[child], v[child + 1u])) ++child;
    if (!before(o, x, v[child])) break;
    v[root] = v[child];
    root = child;
  }
  v[root] = x;
}

// Heap sort: O(n log n) whatever the input, no recursion, no memory. Keys never tie.
static void sort(uint32_t *v, uint32_t n, before_fn *before, const order *o) {
  if (n < 2u) return;
  for (uint32_t root = n / 2u; root-- > 0;) sift(v, root, n, before, o);
  for (uint32_t end = n - 1u; end > 0; --end) {
    uint32_t top = v[0];
    v[0] = v[end];
    v[end] = top;
    sift(v, 0, end, before, o);
  }
}

// ------------------------------------------------------------------ groups

// A spot is usable unless the world has a navigation grid and the spot lies outside it or
// on a blocked cell, or (`mesh`: a mesh world routing its agents, by simulation version 8's
// rules, FXS_RULES_MESH_MOVE_SPOTS) the spot lies outside the bounds or nearer a live wall than
// the routing radius, or nearer a live obstacle's centre than its radius and the routing radius
// (as the grid blocks the cells round them).
static bool usable(const fxs_world *world, const fxs_nav_grid *g, bool mesh, fxs_vec2 p) {
  if (mesh) {
    const fxs_world_def *d = &world->def;
    if (p.x < d->bounds_min.x || p.y < d->bounds_min.y || p.x > d->bounds_max.x ||
        p.y > d->bounds_max.y) {
      return false;
    }
    uint64_t r = (uint64_t)fxs_max(world->nav.radius, 0);
    fxs_u128 r2 = fxs_u128_mul(r, r);
    for (uint32_t i = 0; i < world->capacity.walls; ++i) {
      if (!world->wall_alive[i]) continue;
      const fxs_wall *w = &world->walls[i];
      // Beyond the radius of the wall's box on an axis: beyond the radius of the wall (no
      // division for the walls far off).
      int64_t lo_x = w->a.x < w->b.x ? w->a.x : w->b.x, hi_x = w->a.x < w->b.x ? w->b.x : w->a.x;
      int64_t lo_y = w->a.y < w->b.y ? w->a.y : w->b.y, hi_y = w->a.y < w->b.y ? w->b.y : w->a.y;
      if (p.x + (int64_t)r < lo_x || p.x - (int64_t)r > hi_x || p.y + (int64_t)r < lo_y ||
          p.y - (int64_t)r > hi_y)
        continue;
      fxs_vec2 c = fxs_vec2_closest_on_segment(p, w->a, w->b);
      if (fxs_u128_compare(fxs_distance_sq_exact(p, c), r2) < 0) return false;
    }
    for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
      if (!world->obstacle_alive[i]) continue;
      uint64_t o = r + (uint64_t)fxs_max(world->obstacles[i].radius, 0);
      fxs_u128 o2 = fxs_u128_mul(o, o);
      if (fxs_u128_compare(fxs_distance_sq_exact(p, world->obstacles[i].center), o2) < 0)
        return false;
    }
    return true;
  }
  if (!g) return true;
  uint32_t cx, cy;
  if (!fxs_nav_grid_cell_of(g, p, &cx, &cy)) return false;
  return g->cost[cy * g->width + cx] != FXS_NAV_BLOCKED;
}

// Tier of the spots found by the second pass (unusable ones): after every usable ring.
#define FILL_TIER 0x80000000u

// The group's spots, m of them, in spots[] with their tiers in tier[]: the usable ones among
// the first 8m + 64 of the lattice in index order (tier: their ring), then, when those are
// too few, the unusable ones in index order (tier: FILL_TIER + ring).
static void find_spots(fxs_world *world, fxs_vec2 to, fix16_t pitch, uint32_t m, fxs_vec2 *spots,
                       uint32_t *tier) {
  const fxs_nav_grid *g = fxs_world_nav_grid(world);
  bool mesh = fxs_world_is_mesh(&world->capacity) && world->nav.budget != 0 &&
              fxs_rules_since(world, FXS_RULES_MESH_MOVE_SPOTS);
  uint64_t tried = 8u * (uint64_t)m + 64u;
  uint32_t limit = tried > UINT32_MAX ? UINT32_MAX : (uint32_t)tried, found = 0;
  for (uint32_t pass = 0; pass < 2 && found < m; ++pass) {
    for (uint32_t i = 0; i < limit && found < m; ++i) {
      fxs_vec2 p = fxs_world_move_spot(to, pitch, i);
      if (usable(world, g, mesh, p) != (pass == 0)) continue;
      spots[found] = p;
      tier[found++] = pass * FILL_TIER + ring_of(i);
    }
  }
}

// One group: members[0, m) are agent slots in canonical command order, all with the same
// destination and gap. The members nearest the destination are served first, each taking
// the spot nearest to it in the innermost tier with a spot free (ties: the lower spot), so
// the spots fill from the destination outward in about the order the members get there.
// Scratch: the view's positions hold the spots, cell_start their tiers, the view's
// velocities mark the spots taken.
static void move_group(fxs_world *world, order *o, uint32_t *members, uint32_t m) {
  const fxs_command *first = &o->commands[o->mark[members[0]]];
  o->to = fxs_vec2_make(first->arg[0], first->arg[1]);
  int64_t radius = 0;
  for (uint32_t i = 0; i < m; ++i) {
    const fxs_agent *a = &world->agents[members[i]].body;
    if (a->radius > radius) radius = a->radius;
  }
  int64_t pitch = 2 * radius + first->arg[2];
  fxs_vec2 *spots = world->internal->view_position, *taken = world->internal->view_velocity;
  uint32_t *tier = world->internal->cell_start;
  find_spots(world, o->to, pitch > FXS_MAX ? FXS_MAX : (fix16_t)pitch, m, spots, tier);
  for (uint32_t k = 0; k < m; ++k) taken[k].x = 0;
  sort(members, m, nearer_before, o);
  // By simulation version 6's rules a group of FXS_NAV_FIELD_GROUP or more, in a world with
  // group fields, shares a field toward its destination (world_nav_fields.h, "Moves").
  const fxs_nav_grid *g = fxs_world_nav_grid(world);
  uint32_t cx = 0, cy = 0, cell = FXS_NAV_NO_MOVE;
  if (g && world->capacity.nav_fields != 0 && m >= FXS_NAV_FIELD_GROUP &&
      fxs_rules_since(world, FXS_RULES_MOVE_FIELDS) && fxs_nav_grid_cell_of(g, o->to, &cx, &cy)) {
    cell = cy * g->width + cx;
  }
  // By version 8's, so does one in a mesh world with group fields and routing on
  // (world_nav_mesh_fields.h, "Moves").
  bool mesh = fxs_world_is_mesh(&world->capacity) && world->capacity.nav_fields != 0 &&
              world->nav.budget != 0 && m >= FXS_NAV_FIELD_GROUP &&
              fxs_rules_since(world, FXS_RULES_MESH_MOVE_FIELDS);
  uint32_t open = 0; // spots before it are taken
  for (uint32_t i = 0; i < m; ++i) {
    while (taken[open].x) ++open;
    fxs_agent_slot *s = &world->agents[members[i]];
    uint32_t best = open;
    fxs_u128 best_d = fxs_distance_sq_exact(s->body.position, spots[open]);
    for (uint32_t k = open + 1u; k < m && tier[k] == tier[open]; ++k) {
      if (taken[k].x) continue;
      fxs_u128 d = fxs_distance_sq_exact(s->body.position, spots[k]);
      if (fxs_u128_compare(d, best_d) < 0) best = k, best_d = d;
    }
    taken[best].x = 1;
    s->target_point = spots[best];
    s->target_agent = 0;
    if (cell != FXS_NAV_NO_MOVE) fxs_world_nav_fields_move(world, members[i], cell);
    else if (mesh) fxs_world_mesh_fields_move(world, members[i], o->to);
    else fxs_world_nav_fields_forget(world, members[i]);
  }
}

// A move takes a formation whole: a member of a formation (a `formation` behavior) with a
// live leader (its target agent) hands its move to the leader, which the command's source
// must be allowed to move (FXS_ERR_NOT_OWNER otherwise); the member keeps its slot round the
// leader. One level: a leader that is itself a member is moved itself.
static fxs_result formation_leader(const fxs_world *world, const fxs_command *c, uint32_t *slot) {
  const fxs_agent_slot *s = &world->agents[*slot];
  bool member = false;
  for (uint8_t b = 0; b < s->behavior_count; ++b) {
    if (s->behaviors[b].kind == FXS_BEHAVIOR_FORMATION) member = true;
  }
  int32_t leader = member && s->target_agent ? fxs_world_slot_of(world, s->target_agent) : -1;
  if (leader < 0 || (uint32_t)leader == *slot) return FXS_OK;
  const fxs_agent_slot *l = &world->agents[leader];
  if (l->owned && c->source != l->owner) return FXS_ERR_NOT_OWNER;
  *slot = (uint32_t)leader;
  return FXS_OK;
}

void fxs_world_moves(fxs_world *world, const fxs_command *commands, uint32_t count,
                     fxs_result *results, uint32_t *first_index, fxs_result *first_result) {
  uint32_t i = 0;
  while (i < count && commands[i].type != FXS_CMD_MOVE) ++i;
  if (i == count) return;
  uint32_t *mark = world->internal->slot_cell; // per agent slot: its last valid move, or NO_MOVE
  for (uint32_t s = 0; s < world->capacity.agents; ++s) mark[s] = NO_MOVE;
  for (; i < count; ++i) {
    if (commands[i].type != FXS_CMD_MOVE) continue;
    uint32_t slot = 0;
    fxs_result r = fxs_world_move_check(world, &commands[i], &slot);
    if (r == FXS_OK) r = formation_leader(world, &commands[i], &slot);
    if (results) results[i] = r;
    if (r == FXS_OK) {
      mark[slot] = i; // a later move of the same agent replaces it
    } else if (i < *first_index) {
      *first_index = i, *first_result = r;
    }
  }
  uint32_t *members = world->internal->view_slot, m = 0;
  for (uint32_t s = 0; s < world->capacity.agents; ++s) {
    if (mark[s] != NO_MOVE) members[m++] = s;
  }
  order o = {world, commands, mark, {0, 0}};
  sort(members, m, member_before, &o);
  for (uint32_t b = 0; b < m;) {
    uint32_t e = b + 1u;
    while (e < m && same_group(&o, members[b], members[e])) ++e;
    move_group(world, &o, members + b, e - b);
    b = e;
  }
}
