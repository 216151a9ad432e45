// Path following in the world (phase 4 of fxs_world_step, world_steer.c): the follower sees
// the live walls, keeps apart by its separation's radius, and on a stop path holds still at
// the end or queued behind followers of its path resting on the way there.
#include "world_follow.h"
#include "world_internal.h"
#include "world_rules.h"

#include "fixsteer/seek.h"

// The radius of the agent's separation (the largest, if it has several), 0 without one.
static fix16_t separation_radius(const fxs_agent_slot *s) {
  fix16_t r = 0;
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    if (s->behaviors[i].kind == FXS_BEHAVIOR_SEPARATION &&
        s->behaviors[i].p[FXS_PARAM(SEPARATION, radius)] > r)
      r = s->behaviors[i].p[FXS_PARAM(SEPARATION, radius)];
  }
  return r;
}

// The resting followers of the agent's path among its neighbors, for fxs_path_hold (packed
// queues: fxs_path_hold_packed, which may move *target to room beside a resting one).
static bool path_holds(fxs_steer_context *ctx, const fxs_path_def *d, fxs_vec2 *target) {
  fxs_world_search_neighbors(ctx);
  fxs_path_rest *rest = ctx->scratch->behavior.rest;
  uint32_t n = 0;
  for (uint32_t i = 0; i < ctx->neighbor_count && n < FXS_MAX_NEIGHBORS; ++i) {
    const fxs_neighbor *nb = &ctx->scratch->neighbors[i];
    if (nb->id == ctx->index || !fxs_vec2_is_zero(nb->velocity)) continue;
    const fxs_agent_slot *other = &ctx->world->agents[nb->id];
    if (other->path_index != ctx->slot->path_index) continue;
    rest[n].position = nb->position;
    rest[n].radius = other->body.radius;
    n++;
  }
  if (fxs_rules_since(ctx->world, FXS_RULES_ROOM_IN_REACH))
    return fxs_path_hold_reachable(&ctx->slot->body, d, &ctx->slot->path, target, rest, n);
  if (fxs_rules_since(ctx->world, FXS_RULES_PACKED_QUEUES))
    return fxs_path_hold_packed(&ctx->slot->body, d, &ctx->slot->path, target, rest, n);
  return fxs_path_hold(&ctx->slot->body, d, &ctx->slot->path, *target, rest, n);
}

// Path following sees the world's walls; on a stop path a follower at the end, or queued
// behind one resting on the way there, holds still (velocity scale 0: no creep).
fxs_vec2 fxs_world_path_steering(fxs_steer_context *ctx, fix16_t *velocity_scale) {
  fxs_agent_slot *s = ctx->slot;
  if (s->path_index >= ctx->world->path_count) return fxs_vec2_zero();
  const fxs_world_path *wp = &ctx->world->paths[s->path_index];
  fxs_path_def d =
      fxs_default_path_def(&ctx->world->nodes[wp->first_node], wp->count, (fxs_path_mode)wp->mode);
  d.radius = wp->radius, d.slowing_radius = wp->slowing_radius;
  d.walls = ctx->world->internal->live_walls, d.wall_count = ctx->step->wall_count;
  d.keep_apart = separation_radius(s);
  fxs_vec2 target;
  fxs_vec2 force = fxs_follow_path_toward(&s->body, &d, &s->path, &target);
  if (d.mode != FXS_PATH_STOP_AT_END) return force;
  fxs_vec2 steer_to = target;
  if (path_holds(ctx, &d, &steer_to)) {
    *velocity_scale = 0;
    return fxs_vec2_zero();
  }
  // Room beside a resting follower: arrive there.
  if (!fxs_vec2_equal(steer_to, target))
    return fxs_arrive(&s->body, steer_to, fxs_path_lead(&s->body, &d));
  return force;
}
