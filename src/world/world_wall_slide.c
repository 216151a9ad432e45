// ORCA alone round a wall (world_wall_slide.h).
#include "world_wall_slide.h"

#include "exact.h"
#include "fixsteer/vec2.h"
#include "world_internal.h"
#include "world_rules.h"
#include "world_walls.h"

// The live walls whose box meets `box`, through the step's wall grid, into the worker's scratch:
// how many; *all when there are too many for it (then every live wall, by live index).
static uint32_t walls_near(const fxs_steer_context *ctx, const fxs_box *box, bool *all) {
  const fxs_step_context *step = ctx->step;
  uint32_t n = fxs_wall_grid_find(ctx->world, &step->wall_grid, box, ctx->scratch->near_obstacles,
                                  FXS_NEAR_WALLS);
  *all = n == FXS_ALL_WALLS;
  return *all ? step->wall_count : n;
}

static const fxs_wall *wall_at(const fxs_steer_context *ctx, bool all, uint32_t k) {
  return &ctx->world->internal->live_walls[all ? k : ctx->scratch->near_obstacles[k]];
}

// Whether segment [p, q] meets wall w (touching counts).
static inline bool crosses(fxs_vec2 p, fxs_vec2 q, const fxs_wall *w) {
  return fxs_exact_segments_meet(p, q, w->a, w->b);
}

// Whether `end`, an end of wall w (a copy), is joined: another live wall ends there too (a
// corner, or a wall going on): then it is no way round.
static bool joined(const fxs_steer_context *ctx, const fxs_wall *w, fxs_vec2 end) {
  fxs_box box = {end.x, end.y, end.x, end.y};
  bool all;
  uint32_t n = walls_near(ctx, &box, &all);
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_wall *o = wall_at(ctx, all, k);
    bool same = fxs_vec2_equal(o->a, w->a) && fxs_vec2_equal(o->b, w->b);
    if (!same && (fxs_vec2_equal(o->a, end) || fxs_vec2_equal(o->b, end))) return true;
  }
  return false;
}

// Whether a body of radius `r` going straight from p to g meets wall w: the segment crosses it
// or passes one of its ends nearer than r.
static bool blocks(fxs_vec2 p, fxs_vec2 g, const fxs_wall *w, fix16_t r) {
  if (crosses(p, g, w)) return true;
  fxs_u128 r_sq = fxs_u128_mul((uint64_t)r, (uint64_t)r);
  return fxs_u128_compare(fxs_distance_sq_exact(fxs_vec2_closest_on_segment(w->a, p, g), w->a),
                          r_sq) < 0 ||
         fxs_u128_compare(fxs_distance_sq_exact(fxs_vec2_closest_on_segment(w->b, p, g), w->b),
                          r_sq) < 0;
}

// Whether walls w and o join the same two points (either way round).
static bool same_wall(const fxs_wall *w, const fxs_wall *o) {
  return (fxs_vec2_equal(o->a, w->a) && fxs_vec2_equal(o->b, w->b)) ||
         (fxs_vec2_equal(o->a, w->b) && fxs_vec2_equal(o->b, w->a));
}

// How many other live walls (not points) end at `end`, an end of wall w: 0, 1 or 2 (two or
// more: a fork). Where one does, it into *next turned to start there (next->a == end).
static int next_in_chain(const fxs_steer_context *ctx, const fxs_wall *w, fxs_vec2 end,
                         fxs_wall *next) {
  fxs_box box = {end.x, end.y, end.x, end.y};
  bool all;
  int found = 0;
  uint32_t n = walls_near(ctx, &box, &all);
  for (uint32_t k = 0; k < n && found < 2; ++k) {
    const fxs_wall *o = wall_at(ctx, all, k);
    if (fxs_vec2_equal(o->a, o->b) || same_wall(w, o)) continue;
    bool at_a = fxs_vec2_equal(o->a, end), at_b = fxs_vec2_equal(o->b, end);
    if (!at_a && !at_b) continue;
    if (found++ == 0) next->a = end, next->b = at_a ? o->b : o->a;
  }
  return found;
}

// The unit normal of direction d (nonzero) toward side s (1 left, -1 right).
static fxs_vec2 normal_toward(fxs_vec2 d, int s) {
  fxs_vec2 u = fxs_vec2_normalize(d);
  return s > 0 ? fxs_vec2_make(-u.y, u.x) : fxs_vec2_make(u.y, -u.x);
}

// A waypoint out of corner c, k from the lines of both walls meeting there (outward unit
// normals n1 and n2; k (n1 + n2), at least k from c where the corner is sharp), so that the way
// along the first wall at k from it clears the corner.
static fxs_vec2 corner_waypoint(fxs_vec2 c, fxs_vec2 n1, fxs_vec2 n2, fix16_t k) {
  fxs_vec2 sum = fxs_vec2_add(n1, n2);
  int64_t bx = ((int64_t)sum.x * k) / FXS_ONE, by = ((int64_t)sum.y * k) / FXS_ONE;
  if (fxs_vec2_length(sum) < FXS_ONE) {
    fxs_vec2 b = fxs_vec2_set_length(sum, k);
    bx = b.x, by = b.y;
  }
  int64_t x = (int64_t)c.x + bx, y = (int64_t)c.y + by;
  x = x > FXS_MAX ? FXS_MAX : (x < -FXS_MAX ? -FXS_MAX : x);
  y = y > FXS_MAX ? FXS_MAX : (y < -FXS_MAX ? -FXS_MAX : y);
  return fxs_vec2_make((fix16_t)x, (fix16_t)y);
}

// The most walls of a chain walked round a block (a closed chain round the target is walked
// round twice at most and gives no way).
#define BLOCK_CHAIN_WALLS 8
// How far out of the pressed band a block's face still turns the way (round_block): 3 radii.
#define BLOCK_BAND(r) (3 * (int64_t)(r))

// The way round a block from agent p on side s of wall w, walked from w->a to w->b, to its
// target g: the waypoint *way k out of the first outer corner from which g lies on p's side of
// the next wall (or of the first free end); false where the chain forks, turns toward the agent
// (a room's corner), or runs longer than BLOCK_CHAIN_WALLS.
static bool block_way(const fxs_steer_context *ctx, fxs_wall w, int s, fxs_vec2 g, fix16_t k,
                      fxs_vec2 *way) {
  for (int i = 0; i < BLOCK_CHAIN_WALLS; ++i) {
    fxs_vec2 d1 = fxs_exact_direction(w.a, w.b), n1 = normal_toward(d1, s);
    fxs_wall next = w; // set by next_in_chain wherever it finds one
    int joining = next_in_chain(ctx, &w, w.b, &next);
    if (joining == 2) return false;
    if (joining == 0) {
      *way = corner_waypoint(w.b, n1, fxs_vec2_normalize(d1), k); // a free end: round its tip
      return true;
    }
    int turn = fxs_exact_orientation(w.a, w.b, next.b);
    if (turn == s) return false; // toward the agent: inside a room's corner
    if (turn != 0 && fxs_exact_orientation(next.a, next.b, g) == s) {
      *way = corner_waypoint(w.b, n1, normal_toward(fxs_exact_direction(next.a, next.b), s), k);
      return true;
    }
    w = next;
  }
  return false;
}

// The preferred velocity `preferred` of agent p turned toward the waypoint of its way round
// the block whose wall w lies `d` from it, or `preferred` where there is none. The way keeps
// the block on the agent's left (counter-clockwise, y up) as traffic round a roundabout does,
// whatever the target, so that all going round one block go the same way: no two meet head on
// pressed against one face (where ORCA stops both), and the choice never flips as the agent
// is jostled; only where that way has no corner to leave by (a fork, a room's corner) the
// other. Within `inner` of the wall it heads for the waypoint; from there out to `outer` the
// direction turns gradually back to the preferred one.
static fxs_vec2 round_block(const fxs_steer_context *ctx, const fxs_wall *w, fxs_vec2 near,
                            int64_t inner, int64_t outer, fxs_vec2 preferred) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_vec2 p = a->position, g = ctx->target_point, way;
  int s = fxs_exact_orientation(w->a, w->b, p);
  // Beside the face only, with the target beyond its line: off the face's ends the side of its
  // line says nothing of the block's (ORCA goes round the corner), and a target on the agent's
  // side of it is not behind the face (only its end is too near the way).
  if (s == 0 || fxs_exact_orientation(w->a, w->b, g) == s) return preferred;
  int64_t k64 = (int64_t)fxs_max(a->radius, 0) + fxs_agent_touch(a);
  fix16_t k = (fix16_t)(k64 > FXS_MAX ? FXS_MAX : k64);
  fxs_wall ab = *w, ba = {w->b, w->a};
  // walked with the agent on the right of the walk (side -1): the block on its left
  fxs_wall left = s < 0 ? ab : ba, right = s < 0 ? ba : ab;
  if (!block_way(ctx, left, -1, g, k, &way) && !block_way(ctx, right, 1, g, k, &way))
    return preferred;
  if (fxs_vec2_equal(way, p)) return preferred;
  fxs_vec2 u = fxs_vec2_normalize(fxs_exact_direction(p, way));
  int64_t d = fxs_vec2_distance(near, p);
  if (d > inner && outer > inner) {
    int64_t t = ((outer - d) * FXS_ONE) / (outer - inner); // the waypoint's share, Q16.16
    fxs_vec2 v = fxs_vec2_normalize(preferred);
    u = fxs_vec2_make((fix16_t)((u.x * t + v.x * (FXS_ONE - t)) / FXS_ONE),
                      (fix16_t)((u.y * t + v.y * (FXS_ONE - t)) / FXS_ONE));
    if (fxs_vec2_is_zero(u)) return preferred;
  }
  return fxs_vec2_set_length(u, fxs_vec2_length(preferred));
}

fxs_vec2 fxs_wall_slide(const fxs_steer_context *ctx, fxs_vec2 preferred) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_vec2 p = a->position, g = ctx->target_point;
  if (ctx->step->wall_count == 0 || fxs_vec2_is_zero(preferred) || fxs_vec2_equal(p, g))
    return preferred;
  fix16_t r = fxs_max(a->radius, 0);
  int64_t reach = 2 * (int64_t)r + fxs_agent_touch(a);
  if (reach > FXS_MAX) reach = FXS_MAX;
  // Since version 11 a block's face is looked for farther out (round_block's outer band).
  bool round = fxs_rules_since(ctx->world, FXS_RULES_BLOCK_ROUND);
  int64_t outer = round ? reach + BLOCK_BAND(r) : reach;
  if (outer > FXS_MAX) outer = FXS_MAX;
  fxs_box box = {(int64_t)p.x - outer, (int64_t)p.y - outer, (int64_t)p.x + outer,
                 (int64_t)p.y + outer};
  fxs_u128 reach_sq = fxs_u128_mul((uint64_t)reach, (uint64_t)reach);
  fxs_u128 best = fxs_u128_mul((uint64_t)outer, (uint64_t)outer);
  fxs_vec2 near = p;
  fxs_wall w;
  bool found = false, all;
  uint32_t n = walls_near(ctx, &box, &all);
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_wall *c = wall_at(ctx, all, k);
    if (fxs_vec2_equal(c->a, c->b)) continue; // a point: no way along it (ORCA's)
    if ((c->a.x < box.lo_x && c->b.x < box.lo_x) || (c->a.x > box.hi_x && c->b.x > box.hi_x) ||
        (c->a.y < box.lo_y && c->b.y < box.lo_y) || (c->a.y > box.hi_y && c->b.y > box.hi_y))
      continue;
    fxs_vec2 q = fxs_vec2_closest_on_segment(p, c->a, c->b);
    fxs_u128 d = fxs_distance_sq_exact(q, p);
    if (fxs_u128_compare(d, best) > 0 || (found && fxs_u128_compare(d, best) == 0)) continue;
    // Into the wall (toward its nearest point) and the body's straight way to the target across
    // it or past an end too near. No overflow: |q - p| <= outer <= FXS_MAX on each axis (the
    // distance test above) and |preferred| < 2^31, so each product is below 2^62.
    int64_t into =
        (int64_t)preferred.x * ((int64_t)q.x - p.x) + (int64_t)preferred.y * ((int64_t)q.y - p.y);
    if (into <= 0 || !blocks(p, g, c, r)) continue;
    w = *c, best = d, near = q, found = true;
  }
  if (!found) return preferred;
  bool open_a = !joined(ctx, &w, w.a), open_b = !joined(ctx, &w, w.b);
  if (!open_a && !open_b)
    return round ? round_block(ctx, &w, near, reach, outer, preferred) : preferred;
  if (fxs_u128_compare(best, reach_sq) > 0) return preferred; // a free end: only pressed
  // Both open: the shorter way round (ties: a).
  bool to_b = !open_a;
  if (open_a && open_b) {
    int64_t via_a = (int64_t)fxs_vec2_distance(p, w.a) + fxs_vec2_distance(w.a, g);
    int64_t via_b = (int64_t)fxs_vec2_distance(p, w.b) + fxs_vec2_distance(w.b, g);
    to_b = via_b < via_a;
  }
  fxs_vec2 along = to_b ? fxs_exact_direction(w.a, w.b) : fxs_exact_direction(w.b, w.a);
  return fxs_vec2_set_length(along, fxs_vec2_length(preferred));
}

// Whether `found` holds for a live wall near the segment from agent `ctx`'s centre p to its
// target g (a wall of the spatial index whose cells the segment's box touches); `found` may
// refill the walls' scratch (the list is asked for again after each call). False in a step
// without walls.
static bool any_wall_across(const fxs_steer_context *ctx,
                            bool (*found)(const fxs_steer_context *, fxs_wall, fxs_vec2,
                                          fxs_vec2)) {
  fxs_vec2 p = ctx->slot->body.position, g = ctx->target_point;
  if (ctx->step->wall_count == 0) return false;
  fxs_box box = {fxs_min(p.x, g.x), fxs_min(p.y, g.y), fxs_max(p.x, g.x), fxs_max(p.y, g.y)};
  bool all;
  uint32_t n = walls_near(ctx, &box, &all);
  for (uint32_t k = 0; k < n; ++k) {
    if (found(ctx, *wall_at(ctx, all, k), p, g)) return true;
    n = walls_near(ctx, &box, &all); // the same list again
  }
  return false;
}

// fxs_wall_hides_target's test of one wall w: it crosses [p, g] and is joined at both ends.
static bool hides(const fxs_steer_context *ctx, fxs_wall w, fxs_vec2 p, fxs_vec2 g) {
  // the boxes overlap (the segments' test alone takes two disjoint pieces of one line)
  if (fxs_max(w.a.x, w.b.x) < fxs_min(p.x, g.x) || fxs_min(w.a.x, w.b.x) > fxs_max(p.x, g.x) ||
      fxs_max(w.a.y, w.b.y) < fxs_min(p.y, g.y) || fxs_min(w.a.y, w.b.y) > fxs_max(p.y, g.y))
    return false;
  return crosses(p, g, &w) && joined(ctx, &w, w.a) && joined(ctx, &w, w.b);
}

bool fxs_wall_hides_target(const fxs_steer_context *ctx) { return any_wall_across(ctx, hides); }

// The most walls of a closed chain fxs_wall_encloses_target walks round (a box, a block, a room
// without a door drawn in up to 16 pieces); a longer chain does not count.
#define ENCLOSURE_WALLS 16

// Whether segment [p, g] crosses wall [a, b], counting an end of the wall on the segment's line,
// or p or g on the wall's line, on the negative side only (exact): so a crossing through the
// joint of two walls of a chain counts once, and the count round a closed chain is odd exactly
// when the chain separates p from g.
static bool crosses_half_open(fxs_vec2 p, fxs_vec2 g, fxs_vec2 a, fxs_vec2 b) {
  if ((fxs_exact_orientation(p, g, a) > 0) == (fxs_exact_orientation(p, g, b) > 0)) return false;
  return (fxs_exact_orientation(a, b, p) > 0) != (fxs_exact_orientation(a, b, g) > 0);
}

// Whether the chain of walls through w, followed from w.b, closes back on w.a within
// ENCLOSURE_WALLS walls without a fork or a free end, its walls crossing [p, g] an odd number
// of times.
static bool chain_separates(const fxs_steer_context *ctx, fxs_wall w, fxs_vec2 p, fxs_vec2 g) {
  fxs_vec2 start = w.a;
  unsigned crossings = 0;
  for (int i = 0; i < ENCLOSURE_WALLS; ++i) {
    crossings += crosses_half_open(p, g, w.a, w.b) ? 1u : 0u;
    if (fxs_vec2_equal(w.b, start)) return (crossings & 1u) != 0;
    fxs_wall next = w; // set by next_in_chain where it finds one
    if (next_in_chain(ctx, &w, w.b, &next) != 1) return false;
    w = next;
  }
  return false;
}

// fxs_wall_encloses_target's test of one wall w: it crosses [p, g] (half open) and its chain
// separates them.
static bool encloses(const fxs_steer_context *ctx, fxs_wall w, fxs_vec2 p, fxs_vec2 g) {
  return !fxs_vec2_equal(w.a, w.b) && crosses_half_open(p, g, w.a, w.b) &&
         chain_separates(ctx, w, p, g);
}

bool fxs_wall_encloses_target(const fxs_steer_context *ctx) {
  return any_wall_across(ctx, encloses);
}
