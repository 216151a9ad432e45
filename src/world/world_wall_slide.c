// ORCA alone round a wall (world_wall_slide.h).
#include "world_wall_slide.h"

#include "exact.h"
#include "fixsteer/vec2.h"
#include "world_internal.h"
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

fxs_vec2 fxs_wall_slide(const fxs_steer_context *ctx, fxs_vec2 preferred) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_vec2 p = a->position, g = ctx->target_point;
  if (ctx->step->wall_count == 0 || fxs_vec2_is_zero(preferred) || fxs_vec2_equal(p, g))
    return preferred;
  fix16_t r = fxs_max(a->radius, 0);
  int64_t reach = 2 * (int64_t)r + fxs_agent_touch(a);
  if (reach > FXS_MAX) reach = FXS_MAX;
  fxs_box box = {(int64_t)p.x - reach, (int64_t)p.y - reach, (int64_t)p.x + reach,
                 (int64_t)p.y + reach};
  fxs_u128 reach_sq = fxs_u128_mul((uint64_t)reach, (uint64_t)reach), best = reach_sq;
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
    // it or past an end too near. No overflow: |q - p| <= reach <= FXS_MAX on each axis (the
    // distance test above) and |preferred| < 2^31, so each product is below 2^62.
    int64_t into =
        (int64_t)preferred.x * ((int64_t)q.x - p.x) + (int64_t)preferred.y * ((int64_t)q.y - p.y);
    if (into <= 0 || !blocks(p, g, c, r)) continue;
    w = *c, best = d, found = true;
  }
  if (!found) return preferred;
  bool open_a = !joined(ctx, &w, w.a), open_b = !joined(ctx, &w, w.b);
  if (!open_a && !open_b) return preferred;
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

bool fxs_wall_hides_target(const fxs_steer_context *ctx) {
  fxs_vec2 p = ctx->slot->body.position, g = ctx->target_point;
  if (ctx->step->wall_count == 0) return false;
  fxs_box box = {fxs_min(p.x, g.x), fxs_min(p.y, g.y), fxs_max(p.x, g.x), fxs_max(p.y, g.y)};
  bool all;
  uint32_t n = walls_near(ctx, &box, &all);
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_wall *w = wall_at(ctx, all, k);
    // the boxes overlap (the segments' test alone takes two disjoint pieces of one line)
    if (fxs_max(w->a.x, w->b.x) < box.lo_x || fxs_min(w->a.x, w->b.x) > box.hi_x ||
        fxs_max(w->a.y, w->b.y) < box.lo_y || fxs_min(w->a.y, w->b.y) > box.hi_y)
      continue;
    if (!crosses(p, g, w)) continue;
    fxs_wall c = *w;
    if (joined(ctx, &c, c.a) && joined(ctx, &c, c.b)) return true;
    n = walls_near(ctx, &box, &all); // joined() refilled the scratch: the same list again
  }
  return false;
}
