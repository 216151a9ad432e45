// The lattice a goal cluster settles on (world_cluster.h).
#include "world_cluster.h"

#include "exact.h"
#include "fixsteer/vec2.h"
#include "world_facts.h"
#include "world_internal.h"
#include "world_obstacles.h"
#include "world_rules.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_sharers.h"
#include "world_walls.h"
#include "world_way.h"
#include "vec2_within.h"

// The nodes within WINDOW steps of a follower's own node, each way, whose cover by bodies is
// kept once found (taken).
#define WINDOW 2
#define WINDOW_SIDE (2 * WINDOW + 1)

// The lattice round one goal for one follower: node (i, j) lies at goal + (i, j) * step,
// in raw units (int64: no rounding on the way). Round its own node (wi, wj), bit
// (i - wi + WINDOW) * WINDOW_SIDE + (j - wj + WINDOW) of `known` is set once taken has looked at
// node (i, j), and the same bit of `covered` holds its answer.
typedef struct lattice {
  int64_t gx, gy, step, radius;
  int64_t wi, wj;
  uint32_t known, covered;
} lattice;

fix16_t fxs_cluster_step(const fxs_agent *a) {
  int64_t step = 2 * (int64_t)fxs_max(a->radius, 0) + fxs_agent_touch(a);
  return step > FXS_MAX ? FXS_MAX : (fix16_t)step;
}

bool fxs_cluster_on_node(const fxs_agent *a, fxs_vec2 goal) {
  int64_t step = fxs_cluster_step(a);
  return step > 0 && ((int64_t)a->position.x - goal.x) % step == 0 &&
         ((int64_t)a->position.y - goal.y) % step == 0;
}

static lattice lattice_of(const fxs_agent *a, fxs_vec2 goal) {
  lattice l = {goal.x, goal.y, fxs_cluster_step(a), fxs_max(a->radius, 0), 0, 0, 0, 0};
  return l;
}

// a / b rounded to the nearest, halves away from zero (b > 0).
static int64_t div_nearest(int64_t a, int64_t b) {
  return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

static bool node_at(const lattice *l, int64_t i, int64_t j, fxs_vec2 *out) {
  int64_t x = l->gx + i * l->step, y = l->gy + j * l->step;
  if (x < FXS_MIN || x > FXS_MAX || y < FXS_MIN || y > FXS_MAX) return false;
  *out = fxs_vec2_make((fix16_t)x, (fix16_t)y);
  return true;
}

// Centres nearer than this overlap the agent's body and neighbour `id`'s: both radii, less
// 1 LSB (-1 for two points).
static int64_t overlap_reach(const fxs_steer_context *ctx, uint32_t id) {
  return (int64_t)fxs_max(ctx->slot->body.radius, 0) +
         fxs_max(fxs_facts_radius(ctx->world, id), 0) - 1;
}

static inline fix16_t saturated(int64_t v) { return (fix16_t)(v > FXS_MAX ? FXS_MAX : v); }

// Whether a body of the agent's radius at lattice node `node` would overlap one of the
// neighbor list (the agent's own excepted); kept in the window round its own node.
static bool taken(const fxs_steer_context *ctx, lattice *l, fxs_vec2 node) {
  int64_t i = ((int64_t)node.x - l->gx) / l->step - l->wi + WINDOW;
  int64_t j = ((int64_t)node.y - l->gy) / l->step - l->wj + WINDOW;
  bool kept = i >= 0 && i < WINDOW_SIDE && j >= 0 && j < WINDOW_SIDE;
  uint32_t bit = kept ? 1u << (i * WINDOW_SIDE + j) : 0;
  if (l->known & bit) return (l->covered & bit) != 0;
  bool covered = false;
  for (uint32_t n = 0; n < ctx->neighbor_count && !covered; ++n) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[n];
    int64_t reach = overlap_reach(ctx, nb->id);
    int64_t dx = (int64_t)nb->position.x - node.x, dy = (int64_t)nb->position.y - node.y;
    if (nb->id == ctx->index || reach < 0 || dx > reach || -dx > reach || dy > reach ||
        -dy > reach) // beyond its reach on an axis: not within it (the exact test below)
      continue;
    covered = fxs_vec2_within_inline(node, nb->position, saturated(reach));
  }
  l->known |= bit;
  if (covered) l->covered |= bit;
  return covered;
}

// Whether the agent's body can go straight from `from` to `node` past the bodies of its
// neighbor list (none within both radii of the segment).
static bool passable(const fxs_steer_context *ctx, fxs_vec2 from, fxs_vec2 node) {
  if (fxs_vec2_equal(from, node)) return true;
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    int64_t reach = overlap_reach(ctx, nb->id);
    if (nb->id == ctx->index || reach < 0) continue;
    // Only bodies that could come near the way: within the reach of its box.
    fxs_vec2 q = nb->position;
    if ((int64_t)q.x + reach < (from.x < node.x ? from.x : node.x) ||
        (int64_t)q.x - reach > (from.x < node.x ? node.x : from.x) ||
        (int64_t)q.y + reach < (from.y < node.y ? from.y : node.y) ||
        (int64_t)q.y - reach > (from.y < node.y ? node.y : from.y))
      continue;
    fxs_vec2 c = fxs_vec2_closest_on_segment(q, from, node);
    if (fxs_vec2_within_inline(c, q, saturated(reach))) return false;
  }
  return true;
}

// Whether segment [p, q] meets wall w (touching counts).
static inline bool crosses(fxs_vec2 p, fxs_vec2 q, const fxs_wall *w) {
  return fxs_exact_segments_meet(p, q, w->a, w->b);
}

// Whether wall w keeps a body of radius r off `node`, or stands between `from` and it.
static bool wall_blocks(const fxs_wall *w, fxs_vec2 from, fxs_vec2 node, fix16_t r) {
  fxs_vec2 c = fxs_vec2_closest_on_segment(node, w->a, w->b);
  fxs_u128 r2 = fxs_u128_mul((uint64_t)r, (uint64_t)r);
  if (fxs_u128_compare(fxs_distance_sq_exact(c, node), r2) < 0) return true;
  return !fxs_vec2_equal(from, node) && crosses(from, node, w);
}

// Whether the walls, obstacles and clamped bounds leave a body of radius r room at `node`
// and a straight way to it from `from`.
static bool clear(const fxs_steer_context *ctx, fxs_vec2 from, fxs_vec2 node) {
  const fxs_world *world = ctx->world;
  const fxs_step_context *step = ctx->step;
  fix16_t r = fxs_max(ctx->slot->body.radius, 0);
  const fxs_world_def *d = &world->def;
  if (d->clamp_to_bounds &&
      ((int64_t)node.x - r < d->bounds_min.x || (int64_t)node.x + r > d->bounds_max.x ||
       (int64_t)node.y - r < d->bounds_min.y || (int64_t)node.y + r > d->bounds_max.y))
    return false;
  // The walls and obstacles near, through their grids, into the worker's scratch (as ORCA's
  // search for them later this step: world_walls.c), else every one.
  uint32_t *near = ctx->scratch->near_obstacles;
  if (step->wall_count > 0) {
    int64_t lo_x = from.x < node.x ? from.x : node.x, hi_x = from.x < node.x ? node.x : from.x;
    int64_t lo_y = from.y < node.y ? from.y : node.y, hi_y = from.y < node.y ? node.y : from.y;
    fxs_box box = {lo_x - r, lo_y - r, hi_x + r, hi_y + r};
    uint32_t n = fxs_wall_grid_find(world, &step->wall_grid, &box, near, FXS_NEAR_WALLS);
    bool all = n == FXS_ALL_WALLS;
    for (uint32_t k = 0; k < (all ? step->wall_count : n); ++k) {
      const fxs_wall *w = &world->internal->live_walls[all ? k : near[k]];
      if ((w->a.x < box.lo_x && w->b.x < box.lo_x) || (w->a.x > box.hi_x && w->b.x > box.hi_x) ||
          (w->a.y < box.lo_y && w->b.y < box.lo_y) || (w->a.y > box.hi_y && w->b.y > box.hi_y))
        continue;
      if (wall_blocks(w, from, node, r)) return false;
    }
  }
  if (step->obstacle_count > 0) {
    int64_t reach = (int64_t)r + step->obstacle_grid.max_radius;
    fxs_box box = {(int64_t)node.x - reach, (int64_t)node.y - reach, (int64_t)node.x + reach,
                   (int64_t)node.y + reach};
    uint32_t n =
        fxs_obstacle_grid_find(world, &step->obstacle_grid, &box, near, FXS_NEAR_OBSTACLES);
    bool all = n == FXS_ALL_OBSTACLES;
    for (uint32_t k = 0; k < (all ? step->obstacle_count : n); ++k) {
      const fxs_obstacle *o = &world->internal->live_obstacles[all ? k : near[k]];
      if (fxs_vec2_within_inline(node, o->center, saturated((int64_t)r + fxs_max(o->radius, 0))))
        return false;
    }
  }
  return true;
}

// (a, b) * m for a 128-bit value below 2^96 and m < 2^32.
static fxs_u128 times(fxs_u128 v, uint64_t m) {
  fxs_u128 lo = fxs_u128_mul(v.lo, m);
  lo.hi += v.hi * m;
  return lo;
}

// Whether a node at squared distance `d` from the goal lies in the room of a group of
// `members`: within the disc that 1.2 members nodes fill (d pi <= 1.2 step^2 members, pi as
// 355 / 113), and within the compact cluster a group of bodies of radius r needs, 1.3 r
// sqrt(members) (100 d <= 169 r^2 members).
static bool in_room(const lattice *l, fxs_u128 d, uint32_t members) {
  fxs_u128 area = times(fxs_u128_mul((uint64_t)l->step, (uint64_t)l->step), members); // < 2^96
  fxs_u128 disc = times(fxs_u128_mul((uint64_t)l->radius, (uint64_t)l->radius), members);
  return fxs_u128_compare(times(times(d, 355), 10), times(area, 113 * 12)) <= 0 &&
         fxs_u128_compare(times(d, 100), times(disc, 169)) <= 0;
}

// Whether another of the group would step down to `node` (nearer the goal than its own node)
// and stands nearer it than the follower (ties: the lower slot): then it is theirs.
static bool claimed(const fxs_steer_context *ctx, const lattice *l, fxs_vec2 goal, fxs_vec2 node) {
  fxs_u128 mine = fxs_distance_sq_exact(ctx->slot->body.position, node);
  fxs_u128 node_d = fxs_distance_sq_exact(node, goal);
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index) continue;
    int c = fxs_u128_compare(fxs_distance_sq_exact(nb->position, node), mine);
    if (c > 0 || (c == 0 && nb->id > ctx->index)) continue;
    if (!fxs_vec2_equal(fxs_facts_goal(ctx->world, nb->id), ctx->target_point)) continue;
    fxs_vec2 theirs;
    if (!node_at(l, div_nearest((int64_t)nb->position.x - l->gx, l->step),
                 div_nearest((int64_t)nb->position.y - l->gy, l->step), &theirs))
      continue;
    if (fxs_u128_compare(node_d, fxs_distance_sq_exact(theirs, goal)) < 0) return true;
  }
  return false;
}

// Whether the follower could take `node`: no body on it, clear of walls, obstacles and the
// bounds, a straight way there past its neighbours from `from` (its position, or since
// simulation version 9 its own node: the same way whichever side of the midway it stands, so a
// follower between two nodes does not turn back at the midway), and no one of its group nearer
// it that would take it.
static bool usable(const fxs_steer_context *ctx, lattice *l, fxs_vec2 goal, fxs_vec2 from,
                   fxs_vec2 node) {
  fxs_vec2 at = ctx->slot->body.position;
  return !taken(ctx, l, node) && clear(ctx, at, node) && passable(ctx, from, node) &&
         !claimed(ctx, l, goal, node);
}

// A node's four neighbours, in the order ties between them go.
static const int8_t round_node[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};

// A step aside (since simulation version 9): of the usable neighbour nodes, the one from which
// a free node nearer the goal than its own lies one step on (clear of walls, obstacles and the
// bounds from there, and no one of the group nearer it stepping down there; from outside the
// room one inside it), the nearest such node winning (ties: the first neighbour in
// round_node's order). Into *node; false where there is none. The step aside itself may lead
// away from the goal: the node one on is nearer than its own, so each step aside and the step
// down after it bring the pile closer round its goal.
// (ci, cj): its own node's; next, on: its neighbours, as fxs_cluster_node found them.
static bool fill_step(const fxs_steer_context *ctx, lattice *l, fxs_vec2 goal, uint32_t members,
                      int64_t ci, int64_t cj, bool inside, const fxs_vec2 next[4], const bool on[4],
                      fxs_vec2 *node) {
  int aside = -1;
  fxs_vec2 own;
  if (!node_at(l, ci, cj, &own)) return false;
  // Squared distances to the goal in squared steps: a node's is step^2 (i^2 + j^2), exactly,
  // so they order as the distances do (|i|, |j| <= 2^31 + 2: below 2^64 summed).
  uint64_t best = (uint64_t)(ci * ci) + (uint64_t)(cj * cj);
  for (int k = 0; k < 4; ++k) {
    // A neighbour a body covers leads nowhere (usable would refuse it): skip it first.
    if (!on[k] || taken(ctx, l, next[k])) continue;
    bool checked = false, ok = false;
    for (int m = 0; m < 4; ++m) {
      int64_t i = ci + round_node[k][0] + round_node[m][0];
      int64_t j = cj + round_node[k][1] + round_node[m][1];
      uint64_t n = (uint64_t)(i * i) + (uint64_t)(j * j);
      fxs_vec2 on_node;
      if (n >= best || !node_at(l, i, j, &on_node)) continue; // (never back to its own)
      if ((!inside && !in_room(l, fxs_u128_mul((uint64_t)(l->step * l->step), n), members)) ||
          taken(ctx, l, on_node) || !clear(ctx, next[k], on_node) ||
          !passable(ctx, next[k], on_node) || claimed(ctx, l, goal, on_node))
        continue;
      if (!checked) ok = usable(ctx, l, goal, own, next[k]), checked = true;
      if (!ok) break;
      best = n, aside = k;
    }
  }
  if (aside < 0) return false;
  *node = next[aside];
  return true;
}

// A step round the pile on the lattice (since simulation version 9): of the usable neighbour
// nodes that lie on round the goal counterclockwise (as FXS_CLUSTER_ROUND_TURN goes: the cross
// product of its own node's offset from the goal and the step is positive), the one nearest the
// goal (ties: the first in round_node's order), so a follower outside the room walks round the
// pile's edge node by node, past nodes that stand out of it, until a node a step or two down is
// free: FXS_CLUSTER_PAST, at full speed. Into *node; false where there is none (then
// FXS_CLUSTER_ROUND, as before).
static bool round_step(const fxs_steer_context *ctx, lattice *l, fxs_vec2 goal, int64_t ci,
                       int64_t cj, const fxs_vec2 next[4], const bool on[4], fxs_vec2 *node) {
  fxs_vec2 own;
  if (!node_at(l, ci, cj, &own)) return false;
  int way = -1;
  fxs_u128 best = {0, 0};
  for (int k = 0; k < 4; ++k) {
    if (!on[k] || ci * round_node[k][1] - cj * round_node[k][0] <= 0) continue;
    fxs_u128 d = fxs_distance_sq_exact(next[k], goal);
    if ((way >= 0 && fxs_u128_compare(d, best) >= 0) || !usable(ctx, l, goal, own, next[k]))
      continue;
    best = d, way = k;
  }
  if (way < 0) return false;
  *node = next[way];
  return true;
}

fxs_cluster_move fxs_cluster_node(const fxs_steer_context *ctx, fxs_vec2 goal, uint32_t members,
                                  fxs_vec2 *node) {
  const fxs_agent *a = &ctx->slot->body;
  if (a->radius <= 0 || a->max_speed <= 0) return FXS_CLUSTER_NONE;
  lattice l = lattice_of(a, goal);
  int64_t ci = div_nearest((int64_t)a->position.x - l.gx, l.step);
  int64_t cj = div_nearest((int64_t)a->position.y - l.gy, l.step);
  fxs_vec2 own;
  if (!node_at(&l, ci, cj, &own)) return FXS_CLUSTER_NONE;
  fxs_u128 own_d = fxs_distance_sq_exact(own, goal);
  l.wi = ci, l.wj = cj;
  bool inside = in_room(&l, own_d, members);
  bool fill = fxs_rules_since(ctx->world, FXS_RULES_CLUSTER_FILL);
  fxs_vec2 from = fill ? own : a->position;
  // Down: the usable neighbour node nearest the goal, nearer than its own (from outside the
  // room, one inside it).
  int down = -1;
  fxs_u128 best = own_d;
  fxs_vec2 next[4];
  bool on[4];
  for (int k = 0; k < 4; ++k) {
    on[k] = node_at(&l, ci + round_node[k][0], cj + round_node[k][1], &next[k]);
    if (!on[k]) continue;
    fxs_u128 d = fxs_distance_sq_exact(next[k], goal);
    if (fxs_u128_compare(d, best) >= 0 || (!inside && !in_room(&l, d, members)) ||
        !usable(ctx, &l, goal, from, next[k]))
      continue;
    best = d, down = k;
  }
  if (down >= 0) {
    *node = next[down];
    return FXS_CLUSTER_NODE;
  }
  if (fill && fill_step(ctx, &l, goal, members, ci, cj, inside, next, on, node))
    return FXS_CLUSTER_NODE;
  if (inside && !taken(ctx, &l, own) && clear(ctx, a->position, own)) {
    *node = own;
    return FXS_CLUSTER_NODE;
  }
  // Its own node taken or walled off: a usable one beside it in the room, else round.
  for (int k = 0; k < 4 && inside; ++k) {
    if (on[k] && in_room(&l, fxs_distance_sq_exact(next[k], goal), members) &&
        usable(ctx, &l, goal, from, next[k])) {
      *node = next[k];
      return FXS_CLUSTER_NODE;
    }
  }
  if (fill && round_step(ctx, &l, goal, ci, cj, next, on, node)) return FXS_CLUSTER_PAST;
  return FXS_CLUSTER_ROUND;
}

fxs_cluster_move fxs_cluster_steer(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t slowing,
                                   fix16_t reach, fxs_vec2 *velocity) {
  const fxs_agent *a = &ctx->slot->body;
  uint32_t sharers = fxs_world_goal_sharers(ctx->world, ctx->index, to);
  int64_t gate = 2 * (int64_t)fxs_max(a->radius, 0); // twice the compact disc
  if (sharers == 0 ||
      !fxs_way_in_cluster(a->position, gate > FXS_MAX ? FXS_MAX : (fix16_t)gate, to, sharers))
    return FXS_CLUSTER_NONE;
  fxs_vec2 node;
  fxs_cluster_move how = fxs_cluster_node(ctx, to, sharers, &node);
  if (how == FXS_CLUSTER_NODE) {
    fxs_nav_move n = fxs_world_nav_last_move(a, node, slowing);
    // Within a step of its node, with no body within both radii of the way there (since
    // simulation version 9): a hop onto it, as landing (no slower than the force it may
    // apply), which ORCA's time horizon and static friction would hold short of the node.
    if (!n.land && fxs_rules_since(ctx->world, FXS_RULES_CLUSTER_FILL) &&
        fxs_vec2_within_inline(a->position, node, fxs_cluster_step(a) / 2) &&
        passable(ctx, a->position, node)) {
      n.land = 1;
      n.velocity =
          fxs_vec2_truncate(fxs_exact_direction(a->position, node), fxs_max(a->max_force, 0));
    }
    *velocity = n.velocity;
    return n.land && !fxs_way_mover_near(ctx, reach) ? FXS_CLUSTER_LAND : FXS_CLUSTER_NODE;
  }
  if (how == FXS_CLUSTER_ROUND || how == FXS_CLUSTER_PAST) {
    fxs_vec2 way = fxs_vec2_rotate(fxs_exact_direction(a->position, to), FXS_CLUSTER_ROUND_TURN);
    // Not into a wall or an obstacle: where one stands a step round, the pile rules.
    fxs_vec2 ahead = fxs_vec2_add(a->position, fxs_vec2_set_length(way, fxs_cluster_step(a)));
    if (!clear(ctx, a->position, ahead)) return FXS_CLUSTER_NONE;
    // Where a body stands in that way a step on (since simulation version 9), round the
    // pile's edge node by node instead of waiting against it (round_step).
    if (how == FXS_CLUSTER_PAST && !passable(ctx, a->position, ahead))
      way = fxs_vec2_sub(node, a->position);
    *velocity = fxs_vec2_set_length(way, fxs_max(a->max_speed, 0));
    return FXS_CLUSTER_ROUND;
  }
  return how;
}
