#include "world_escape.h"

#include "fixsteer/escape.h"
#include "fixsteer/hide.h"
#include "fixsteer/interpose.h"
#include "world_internal.h"
#include "world_slots.h"

// The hide behavior of a slot, or NULL.
static const fxs_behavior_slot *hide_behavior_of(const fxs_agent_slot *s) {
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    if (s->behaviors[i].kind == FXS_BEHAVIOR_HIDE) return &s->behaviors[i];
  }
  return 0;
}

// The hiders of lower slots hiding from the same hunter (the same target agent, or the same
// target point without one), the first FXS_HIDE_MAX_RIVALS of them in slot order, from the
// start-of-tick state.
static uint32_t hide_rivals(const fxs_steer_context *ctx, fxs_hider *rivals) {
  const fxs_world *world = ctx->world;
  const fxs_agent_slot *me = ctx->slot;
  uint32_t n = 0;
  for (uint32_t j = 0; j < ctx->index && n < FXS_HIDE_MAX_RIVALS; ++j) {
    const fxs_agent_slot *s = &world->agents[j];
    const fxs_behavior_slot *b = s->alive ? hide_behavior_of(s) : 0;
    if (!b || s->target_agent != me->target_agent) continue;
    if (!me->target_agent && !fxs_vec2_equal(s->target_point, me->target_point)) continue;
    rivals[n].position = s->body.position;
    rivals[n++].distance_from_boundary = b->p[FXS_PARAM(HIDE, distance_from_boundary)];
  }
  return n;
}

// Hide from the target agent, or from a hunter standing still on the target point, behind
// the world's obstacles, on a spot no hider of a lower slot has taken.
fxs_vec2 fxs_world_hide_steering(const fxs_steer_context *ctx, const fix16_t *p) {
  fxs_agent still = fxs_default_agent();
  still.position = ctx->target_point;
  const fxs_agent *hunter = ctx->target ? ctx->target : &still;
  fxs_hide_def d = {p[FXS_PARAM(HIDE, distance_from_boundary)], p[FXS_PARAM(HIDE, slowing_radius)],
                    p[FXS_PARAM(HIDE, max_prediction)]};
  fxs_hider *rivals = ctx->scratch->behavior.rivals;
  uint32_t n = hide_rivals(ctx, rivals);
  return fxs_hide_among(&ctx->slot->body, hunter, ctx->world->internal->live_obstacles,
                        ctx->step->obstacle_count, &d, rivals, n);
}

// What flee and evade keep room from: the live walls, and the bounds when the world clamps.
static fxs_escape_room escape_room(const fxs_steer_context *ctx) {
  const fxs_world *world = ctx->world;
  fxs_escape_room room = {world->internal->live_walls, ctx->step->wall_count,
                          world->def.clamp_to_bounds, world->def.bounds_min, world->def.bounds_max};
  return room;
}

fxs_vec2 fxs_world_flee_steering(const fxs_steer_context *ctx, const fix16_t *p) {
  fxs_escape_room room = escape_room(ctx);
  return fxs_flee_within(&ctx->slot->body, ctx->target_point, p[FXS_PARAM(FLEE, panic_radius)],
                         &room);
}

fxs_vec2 fxs_world_evade_steering(const fxs_steer_context *ctx, const fix16_t *p) {
  fxs_escape_room room = escape_room(ctx);
  return fxs_evade_within(&ctx->slot->body, ctx->target, p[FXS_PARAM(EVADE, max_prediction)],
                          p[FXS_PARAM(EVADE, panic_radius)], &room);
}

// Interpose between the target agent (or a still agent on the target point) and the second
// target agent; no force without a live second target.
fxs_vec2 fxs_world_interpose_steering(const fxs_steer_context *ctx, const fix16_t *p) {
  const fxs_world *world = ctx->world;
  uint32_t second = ctx->slot->second_target;
  int32_t j = second ? fxs_world_slot_of(world, second) : -1;
  if (j < 0) return fxs_vec2_zero();
  fxs_agent still = fxs_default_agent();
  still.position = ctx->target_point;
  fxs_interpose_def d = {p[FXS_PARAM(INTERPOSE, slowing_radius)],
                         p[FXS_PARAM(INTERPOSE, max_prediction)]};
  return fxs_interpose(&ctx->slot->body, ctx->target ? ctx->target : &still, &world->agents[j].body,
                       &d);
}
