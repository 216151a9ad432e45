#include "world_way.h"

#include "fixsteer/orca.h"
#include "exact.h"
#include "wide.h"
#include "world_cluster.h"
#include "world_crowd.h"
#include "world_facts.h"
#include "world_internal.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_rules.h"
#include "world_sharers.h"
#include "world_wall_slide.h"
#include "world_slots.h"
#include "vec2_scale.h" // FXS_ALWAYS_INLINE
#include "vec2_within.h"

static inline int64_t magnitude(int64_t v) { return v < 0 ? -v : v; }

// What the making-way rule reads of one agent (start-of-tick state): its facts
// (world_facts.h; FXS_FACT_CRAWLS: a follower pressed into a crowd on its way crawls, as in
// fxs_way_static_friction), the table's entry read in place (or `spare`, read from the slot:
// filled where it stays, never copied), and its position.
typedef struct way_facts {
  const fxs_agent_facts *of;
  fxs_vec2 position;
  fxs_agent_facts spare;
} way_facts;

// The facts of agent `id` at `position` (its start-of-tick position), into *f.
static inline void facts_of(const fxs_world *world, uint32_t id, fxs_vec2 position, way_facts *f) {
  f->of = fxs_facts_at(world, id, &f->spare);
  f->position = position;
}

// The fixed order of goals that settles a crush: by x, then by y (a scale-free order: the
// same at every unit of length).
static inline bool goal_before(fxs_vec2 p, fxs_vec2 q) {
  return p.x < q.x || (p.x == q.x && p.y < q.y);
}

// Whether agent a would make way for agent b (both navigate agents going to different
// points): a rests on a spot of its own and b is not on one (b must pass), or a rests on b's
// spot (at rest, b's goal within both radii of it); or a crush: both crawl (followers of two
// groups pressed into each other), touch (centres within both radii and an eighth of them,
// FXS_TOUCH_DIVISOR) and b's goal comes first in the fixed order (goal_before). An agent
// with none of the flags of those three cases (OWING_FLAGS: most of a crowd on its way)
// owes none.
#define OWING_FLAGS (FXS_FACT_RESTS | FXS_FACT_ON_SPOT | FXS_FACT_CRAWLS)

FXS_ALWAYS_INLINE bool owes_way(const way_facts *a, const way_facts *b) {
  unsigned af = a->of->flags, bf = b->of->flags;
  if (!(af & OWING_FLAGS)) return false;
  if (!(af & bf & FXS_FACT_NAVIGATES) || fxs_vec2_equal(a->of->goal, b->of->goal)) return false;
  int64_t both = (int64_t)fxs_max(a->of->radius, 0) + fxs_max(b->of->radius, 0);
  if ((af & FXS_FACT_RESTS) && fxs_vec2_within_inline(a->position, b->of->goal,
                                                      (fix16_t)(both > FXS_MAX ? FXS_MAX : both))) {
    return true;
  }
  if ((af & FXS_FACT_ON_SPOT) && !(bf & FXS_FACT_ON_SPOT)) return true;
  if ((af & bf & FXS_FACT_CRAWLS) && goal_before(b->of->goal, a->of->goal)) {
    int64_t reach = both + both / FXS_TOUCH_DIVISOR;
    return fxs_vec2_within_inline(a->position, b->position,
                                  (fix16_t)(reach > FXS_MAX ? FXS_MAX : reach));
  }
  return false;
}

// Whether agent a makes way for agent b: it owes b way and b owes it none (two that stand on
// each other's spots keep plain ORCA between them).
static bool makes_way_for(const way_facts *a, const way_facts *b) {
  return owes_way(a, b) && !owes_way(b, a);
}

bool fxs_way_mover_near(const fxs_steer_context *ctx, fix16_t reach) {
  // Only a navigate agent makes way (owes_way): any other is answered without a neighbor's
  // facts (a goal group's lone ORCA agent steers in place, while its neighbors' bodies are
  // written).
  if (!fxs_world_nav_navigates(ctx->slot)) return false;
  // Nor one that owes no agent way (owes_way), whoever its neighbors are.
  way_facts mine, theirs;
  facts_of(ctx->world, ctx->index, ctx->slot->body.position, &mine);
  if (!(mine.of->flags & OWING_FLAGS)) return false;
  uint64_t reach_sq = (uint64_t)fxs_max(reach, 0) * (uint64_t)fxs_max(reach, 0);
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    uint32_t id = ctx->scratch->neighbors[i].id;
    if (id == ctx->index || ctx->scratch->dist_sq[i] > reach_sq) continue;
    if (fxs_vec2_equal(fxs_facts_goal(ctx->world, id), ctx->target_point))
      continue; // a pile's rule, not this one
    facts_of(ctx->world, id, ctx->scratch->neighbors[i].position, &theirs);
    if (makes_way_for(&mine, &theirs)) return true;
  }
  return false;
}

uint32_t fxs_way_make(fxs_steer_context *ctx, uint32_t chosen, fix16_t priority,
                      fix16_t *priorities, bool *all_equal) {
  const fxs_world *world = ctx->world;
  fxs_world_worker *w = ctx->scratch;
  uint32_t kept = 0;
  way_facts mine, theirs;
  bool mine_read = false;
  for (uint32_t i = 0; i < chosen; ++i) {
    uint32_t id = w->neighbors[i].id;
    // Neighbors going to the agent's own goal (a pile, or a group) owe no way either way:
    // only their goal is read.
    bool passes = false, makes_way = false;
    if (!fxs_vec2_equal(fxs_facts_goal(world, id), ctx->target_point)) {
      if (!mine_read)
        facts_of(world, ctx->index, ctx->slot->body.position, &mine), mine_read = true;
      facts_of(world, id, w->neighbors[i].position, &theirs);
      // makes_way_for both ways, each owes_way taken once.
      bool i_owe = owes_way(&mine, &theirs), they_owe = owes_way(&theirs, &mine);
      passes = i_owe && !they_owe;
      makes_way = they_owe && !i_owe;
    }
    if (passes && *all_equal) { // from here on, each neighbor's own priority
      for (uint32_t k = 0; k < chosen; ++k) priorities[k] = priority;
      *all_equal = false;
    }
    if (passes) priorities[i] = FXS_ORCA_PASSIVE;
    if (makes_way) continue;
    if (kept != i) { // stable: the ones kept in their order, the others after them
      fxs_neighbor nb = w->neighbors[i];
      uint64_t dq = w->dist_sq[i];
      fix16_t pr = priorities[i];
      for (uint32_t k = i; k > kept; --k) {
        w->neighbors[k] = w->neighbors[k - 1], w->dist_sq[k] = w->dist_sq[k - 1];
        priorities[k] = priorities[k - 1];
      }
      w->neighbors[kept] = nb, w->dist_sq[kept] = dq, priorities[kept] = pr;
    }
    kept++;
  }
  return kept;
}

// Which side of the way from p to `to` a neighbor at q lies on, when it lies ahead within 60
// degrees of that way: 1 on the left (counter-clockwise), 2 on the right, 0 otherwise (behind,
// beside, or exactly on the way).
static unsigned side_ahead(fxs_vec2 p, fxs_vec2 q, fxs_vec2 to) {
  int64_t ax = (int64_t)q.x - p.x, ay = (int64_t)q.y - p.y;
  int64_t bx = (int64_t)to.x - p.x, by = (int64_t)to.y - p.y;
  while (magnitude(ax) >= (INT64_C(1) << 30) || magnitude(ay) >= (INT64_C(1) << 30))
    ax /= 2, ay /= 2;
  while (magnitude(bx) >= (INT64_C(1) << 30) || magnitude(by) >= (INT64_C(1) << 30))
    bx /= 2, by /= 2;
  int64_t dot = ax * bx + ay * by, cross = bx * ay - by * ax; // < 2^61
  if (dot <= 0 || cross == 0) return 0;
  // cos^2 >= 1/4: 4 dot^2 >= |a|^2 |b|^2, in 128 bits.
  uint64_t d = (uint64_t)dot, la = (uint64_t)(ax * ax + ay * ay),
           lb = (uint64_t)(bx * bx + by * by);
  if (fxs_u128_compare_products(d, 4 * d, la, lb) < 0) return 0;
  return cross > 0 ? 1u : 2u;
}

bool fxs_way_held_in_pile(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t slow, fix16_t gap) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_u128 mine = {0, 0}; // its squared distance to `to`, found once a neighbor needs it
  bool measured = false;
  unsigned sides = 0;
  for (uint32_t i = 0; i < ctx->neighbor_count && sides != 3u; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index || !fxs_vec2_within_inline(nb->velocity, fxs_vec2_zero(), slow))
      continue;
    if (!fxs_vec2_equal(fxs_facts_goal(ctx->world, nb->id), ctx->target_point))
      continue; // its own spot
    int64_t reach =
        (int64_t)fxs_max(a->radius, 0) + fxs_max(fxs_facts_radius(ctx->world, nb->id), 0) + gap;
    if (!fxs_vec2_within_inline(a->position, nb->position,
                                (fix16_t)(reach > FXS_MAX ? FXS_MAX : reach)))
      continue;
    if (!measured) mine = fxs_distance_sq_exact(a->position, to), measured = true;
    if (fxs_u128_compare(fxs_distance_sq_exact(nb->position, to), mine) >= 0) continue;
    if (fxs_vec2_within_inline(nb->position, to, fxs_agent_touch(a)))
      return true; // on the goal itself
    sides |= side_ahead(a->position, nb->position, to);
  }
  return sides == 3u;
}

bool fxs_way_held_in_orca_pile(const fxs_steer_context *ctx) {
  const fxs_agent *a = &ctx->slot->body;
  return fxs_way_held_in_pile(ctx, ctx->target_point, fxs_max(a->max_force, 0), fxs_agent_touch(a));
}

bool fxs_way_in_cluster(fxs_vec2 at, fix16_t radius, fxs_vec2 to, uint32_t members) {
  uint64_t dx = (uint64_t)magnitude((int64_t)at.x - to.x);
  uint64_t dy = (uint64_t)magnitude((int64_t)at.y - to.y); // < 2^33
  uint64_t r = (uint64_t)fxs_max(radius, 0);               // < 2^31
  // |p - to|^2 DEN <= NUM r^2 N, in 128 bits (r^2 NUM < 2^68 is split as r (r NUM)).
  fxs_u128 lhs = fxs_u128_add(fxs_u128_mul(dx, dx * FXS_CLUSTER_AREA_DEN),
                              fxs_u128_mul(dy, dy * FXS_CLUSTER_AREA_DEN));
  fxs_u128 rr = fxs_u128_mul(r, r * FXS_CLUSTER_AREA_NUM);
  // rr < 2^68 times members < 2^32, below 2^100: no overflow.
  fxs_u128 rhs = fxs_u128_mul(rr.lo, members);
  rhs.hi += rr.hi * members;
  return fxs_u128_compare(lhs, rhs) <= 0;
}

bool fxs_way_touches_rest(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t gap) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_u128 mine = {0, 0};
  bool measured = false;
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index || !fxs_vec2_is_zero(nb->velocity)) continue;
    int64_t reach =
        (int64_t)fxs_max(a->radius, 0) + fxs_max(fxs_facts_radius(ctx->world, nb->id), 0) + gap;
    if (!fxs_vec2_within_inline(a->position, nb->position,
                                (fix16_t)(reach > FXS_MAX ? FXS_MAX : reach)))
      continue;
    if (!fxs_vec2_equal(fxs_facts_goal(ctx->world, nb->id), ctx->target_point)) continue;
    if (!measured) mine = fxs_distance_sq_exact(a->position, to), measured = true;
    if (fxs_u128_compare(fxs_distance_sq_exact(nb->position, to), mine) < 0) return true;
  }
  return false;
}

// True when the agent's body overlaps a searched neighbor's (centres closer than the sum of
// the radii), or with `margin` lies within ORCA's margin of it (FXS_ORCA_MARGIN_DIVISOR),
// from the list or, where the search left it unsorted, from what it found
// (fxs_grid_nearest_few). Radii are not changed by steering: reading the slots is safe.
static bool overlaps_a_neighbor(const fxs_steer_context *ctx, bool margin) {
  const fxs_agent *a = &ctx->slot->body;
  const fxs_world *world = ctx->world;
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    uint32_t view = ctx->unsorted ? ctx->scratch->found_view[i] : 0;
    uint32_t id = ctx->unsorted ? world->internal->view_slot[view] : nb->id;
    if (id == ctx->index) continue;
    int64_t sum = (int64_t)fxs_max(a->radius, 0) + fxs_max(fxs_facts_radius(world, id), 0);
    int64_t reach = (margin ? sum + sum / FXS_ORCA_MARGIN_DIVISOR : sum) - 1;
    fxs_vec2 at = ctx->unsorted ? world->internal->view_position[view] : nb->position;
    if (reach >= 0 &&
        fxs_vec2_within_inline(a->position, at, (fix16_t)(reach > FXS_MAX ? FXS_MAX : reach)))
      return true;
  }
  return false;
}

// |v| at most the agent's rest speed (agent.h), exact.
static inline bool at_rest_speed(const fxs_agent *a, fxs_vec2 v) {
  uint64_t rest = (uint64_t)fxs_agent_rest_speed(a);
  return fxs_length_sq_raw(v.x, v.y) <= rest * rest;
}

fxs_vec2 fxs_way_static_friction(const fxs_steer_context *ctx, fxs_vec2 preferred, fxs_vec2 v,
                                 const fxs_way_wait *wait) {
  const fxs_agent *a = &ctx->slot->body;
  if (!at_rest_speed(a, v)) return v;
  if (at_rest_speed(a, preferred)) return overlaps_a_neighbor(ctx, false) ? v : fxs_vec2_zero();
  bool waits =
      wait && (wait->always || (wait->pile && fxs_way_touches_rest(ctx, wait->to, wait->gap)));
  return waits && !overlaps_a_neighbor(ctx, true) ? fxs_vec2_zero() : v;
}

fxs_vec2 fxs_way_walled_friction(const fxs_steer_context *ctx, fxs_vec2 v) {
  // The walls last: they are looked at only for an agent that ORCA leaves crawling.
  if (fxs_vec2_is_zero(v) || !at_rest_speed(&ctx->slot->body, v)) return v;
  if (overlaps_a_neighbor(ctx, false) || !fxs_wall_encloses_target(ctx)) return v;
  return fxs_vec2_zero();
}

// Whether contact may have to keep a move (mx, my) off a body at offset (dx, dy) and squared
// distance dist_sq (raw), whose constraint lies at `reach` (the two radii and the slack, less
// the give: world_contact.c) and closes `halves` of the gap. The move m binds only where
// m . d / |d| > share (|d| - reach), d the offset; since reach |d| <= (reach^2 + |d|^2) / 2,
// it cannot where m . d <= share (|d|^2 - reach^2) / 2: no square root. Bodies within reach
// always may; values too large for 64-bit products are kept (`move_big`: a component of the
// move is, tested once a move).
static inline bool may_bind_move(int64_t dx, int64_t dy, int64_t mx, int64_t my, bool move_big,
                                 uint64_t dist_sq, uint64_t reach, bool halves) {
  const int64_t big = INT64_C(1) << 31;
  if (reach >= (UINT64_C(1) << 32) || dist_sq <= reach * reach) return true;
  if (move_big || magnitude(dx) >= big || magnitude(dy) >= big) return true;
  int64_t toward = dx * mx + dy * my; // |.| < 2^63
  if (toward <= 0) return false;
  uint64_t bound = (dist_sq - reach * reach) >> (halves ? 2 : 1);
  return (uint64_t)toward > bound;
}

// Whether a component of the move (mx, my) is too large for may_bind_move's products.
static inline bool move_is_big(int64_t mx, int64_t my) {
  const int64_t big = INT64_C(1) << 31;
  return magnitude(mx) >= big || magnitude(my) >= big;
}

// The reach of a body's constraint (world_contact.c): both radii and the agent's slack, less
// the give; `own` is the agent's radius (at least 0) and its slack.
static inline uint64_t constraint_reach_from(uint64_t own, fix16_t radius) {
  uint64_t sum = own + (uint64_t)fxs_max(radius, 0);
  return sum - sum / FXS_CONTACT_GIVE_DIVISOR;
}

// The agent's radius (at least 0) and contact slack: constraint_reach_from's `own`.
static inline uint64_t own_reach(const fxs_agent *a) {
  return (uint64_t)fxs_max(a->radius, 0) + (uint64_t)fxs_agent_contact_slack(a);
}

// A bound on squared distances (raw): `d` squared, or UINT64_MAX (no bound) from 2^32 on.
static inline uint64_t bound_sq(uint64_t d) { return d < (UINT64_C(1) << 32) ? d * d : UINT64_MAX; }

uint32_t fxs_way_near_bodies(const fxs_steer_context *ctx, const fxs_agent *a, int64_t mx,
                             int64_t my, int64_t reach, uint32_t *ahead) {
  const fxs_step_context *step = ctx->step;
  const fxs_world_worker *w = ctx->scratch;
  // Read once: the loop's stores into bodies[] could alias them for the compiler.
  const bool unsorted = ctx->unsorted;
  const uint32_t count = ctx->neighbor_count;
  const uint64_t *dists = unsorted ? w->found_dist_sq : w->dist_sq;
  int64_t own = fxs_max(a->radius, 0);
  // No body is farther than the largest one's limit below; in a crowd of one size that is
  // every body's limit, and most neighbors end at this one compare.
  uint64_t farthest_sq = bound_sq((uint64_t)(own + fxs_max(step->radius, 0) + reach)); // < 2^34
  uint32_t i = 0;
  while (i < count && dists[i] > farthest_sq) ++i;
  *ahead = 0;
  if (i == count) return 0; // most agents of a crowd in motion: nobody within reach
  const fxs_world *world = ctx->world;
  fxs_contact_body *bodies = ctx->scratch->behavior.bodies;
  const bool one_radius = step->one_radius, one_priority = step->one_priority;
  const uint32_t self = ctx->index;
  const fxs_vec2 at = a->position;
  const bool move_big = move_is_big(mx, my);
  const uint64_t own_slack = own_reach(a);
  // In a crowd of one size every body's constraint has the same reach.
  const uint64_t one_constraint = constraint_reach_from(own_slack, step->radius);
  uint32_t n = 0, first = 0;
  for (; i < count; ++i) {
    uint64_t dist_sq = dists[i];
    // (No early end on a sorted list: fxs_way_make may have moved near ones behind.)
    if (dist_sq > farthest_sq) continue;
    uint32_t view = unsorted ? w->found_view[i] : 0;
    uint32_t id = unsorted ? world->internal->view_slot[view] : w->neighbors[i].id;
    if (id == self) continue;
    fix16_t radius = one_radius ? step->radius : fxs_facts_radius(world, id);
    if (!one_radius && dist_sq > bound_sq((uint64_t)(own + fxs_max(radius, 0) + reach))) continue;
    fxs_contact_body b;
    b.position = unsorted ? world->internal->view_position[view] : w->neighbors[i].position;
    b.radius = radius;
    b.halves = (uint8_t)(one_priority || fxs_facts_solid(world, id));
    uint64_t constraint = one_radius ? one_constraint : constraint_reach_from(own_slack, radius);
    bool binds = may_bind_move((int64_t)b.position.x - at.x, (int64_t)b.position.y - at.y, mx, my,
                               move_big, dist_sq, constraint, b.halves);
    // The ones the move may bind first, in order; the others after them (in reverse order).
    if (binds) {
      if (first < n) bodies[n] = bodies[first];
      bodies[first++] = b;
    } else {
      bodies[n] = b;
    }
    n++;
  }
  *ahead = first;
  return n;
}

bool fxs_way_bodies_clear(const fxs_agent *a, const fxs_contact_body *bodies, uint32_t count,
                          int64_t mx, int64_t my) {
  for (uint32_t i = 0; i < count; ++i) {
    int64_t dx = (int64_t)bodies[i].position.x - a->position.x;
    int64_t dy = (int64_t)bodies[i].position.y - a->position.y;
    if (magnitude(dx) >= (INT64_C(1) << 31) || magnitude(dy) >= (INT64_C(1) << 31)) return false;
    uint64_t dist_sq = (uint64_t)(dx * dx) + (uint64_t)(dy * dy); // < 2^63
    if (may_bind_move(dx, dy, mx, my, move_is_big(mx, my), dist_sq,
                      constraint_reach_from(own_reach(a), bodies[i].radius), bodies[i].halves)) {
      return false;
    }
  }
  return true;
}

// Whether a neighbor's velocity v is more than 45 degrees from the way p (both raw, within
// 2^31 a component, and p not zero; p_sq its squared length): not going the agent's way
// (crossing it or against it). Exact: the dot product is negative, or 2 dot^2 < |v|^2 |p|^2.
static inline bool not_my_way(fxs_vec2 v, fxs_vec2 p, uint64_t p_sq) {
  if (fxs_vec2_is_zero(v)) return false;
  int64_t dot = (int64_t)v.x * p.x + (int64_t)v.y * p.y;
  if (dot < 0) return true;
  return fxs_u128_compare_products(2 * (uint64_t)dot, (uint64_t)dot, fxs_length_sq_raw(v.x, v.y),
                                   p_sq) < 0;
}

fxs_vec2 fxs_way_keep_right(const fxs_steer_context *ctx, fxs_vec2 preferred, fix16_t reach) {
  if (fxs_vec2_is_zero(preferred)) return preferred;
  // A crawler (no faster than its rest speed) is in a crush, which the crush order settles.
  const fxs_agent *a = &ctx->slot->body;
  uint64_t rest = (uint64_t)fxs_agent_rest_speed(a);
  if (fxs_length_sq_raw(a->velocity.x, a->velocity.y) <= rest * rest) return preferred;
  uint64_t reach_sq = (uint64_t)fxs_max(reach, 0) * (uint64_t)fxs_max(reach, 0);
  uint64_t p_sq = fxs_length_sq_raw(preferred.x, preferred.y);
  bool traffic = false;
  // The goal first: most neighbors of a group's follower are of its group (same goal).
  for (uint32_t i = 0; i < ctx->neighbor_count && !traffic; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index || ctx->scratch->dist_sq[i] > reach_sq) continue;
    traffic = !fxs_vec2_equal(fxs_facts_goal(ctx->world, nb->id), ctx->target_point) &&
              not_my_way(nb->velocity, preferred, p_sq);
  }
  if (!traffic) return preferred;
  // Half way between the way and its right (clockwise, y up: (y, -x)), as long as the way.
  int64_t x = (int64_t)preferred.x + preferred.y, y = (int64_t)preferred.y - preferred.x;
  fxs_vec2 turned = fxs_vec2_make((fix16_t)(x / 2), (fix16_t)(y / 2));
  return fxs_vec2_set_length(turned, fxs_vec2_length(preferred));
}

// fxs_way_round_pile reads a pile from the on-spot fact, which counts the lattice's nodes.
typedef char
    fxs_round_piles_after_lattice_[FXS_RULES_ROUND_PILES > FXS_RULES_CLUSTER_LATTICE ? 1 : -1];

fxs_vec2 fxs_way_round_pile(const fxs_steer_context *ctx, fxs_vec2 preferred, fxs_vec2 to,
                            uint32_t members) {
  const fxs_agent *a = &ctx->slot->body;
  int64_t gate = 2 * (int64_t)fxs_max(a->radius, 0); // twice its compact disc: its own pile
  if (fxs_vec2_is_zero(preferred) ||
      fxs_way_in_cluster(a->position, gate > FXS_MAX ? FXS_MAX : (fix16_t)gate, to, members))
    return preferred;
  fxs_vec2 ahead = a->position; // a step along `preferred`, once a pile's body is met
  bool ahead_found = false;
  for (uint32_t i = 0; i < ctx->neighbor_count; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index || !fxs_vec2_is_zero(nb->velocity)) continue;
    // A pile: one at rest on a spot of its own, on its goal or on its group's lattice round it
    // (its on-spot fact: this rule is younger than the lattice's), not one waiting in a crowd
    // on its way.
    fxs_agent_facts spare;
    const fxs_agent_facts *f = fxs_facts_at(ctx->world, nb->id, &spare);
    if (!(f->flags & FXS_FACT_ON_SPOT) || fxs_vec2_equal(f->goal, ctx->target_point)) continue;
    if (!ahead_found) {
      ahead = fxs_vec2_add(a->position, fxs_vec2_set_length(preferred, fxs_cluster_step(a)));
      ahead_found = true;
    }
    int64_t reach = (int64_t)fxs_max(a->radius, 0) + fxs_max(f->radius, 0);
    fxs_vec2 c = fxs_vec2_closest_on_segment(nb->position, a->position, ahead);
    if (fxs_vec2_within_inline(c, nb->position, (fix16_t)(reach > FXS_MAX ? FXS_MAX : reach)))
      return fxs_vec2_rotate(preferred, FXS_CLUSTER_ROUND_TURN);
  }
  return preferred;
}
