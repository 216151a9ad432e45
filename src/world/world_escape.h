// Internal: the escape family in the world (phase 4 of fxs_world_step, world_steer.c): flee
// and evade keep room from the live walls and the clamped bounds, hide picks a spot behind
// the world's obstacles that no hider of a lower slot took, interpose stands between the
// target and the second target. Each reads the start-of-tick view only.
#ifndef FIXSTEER_WORLD_ESCAPE_H
#define FIXSTEER_WORLD_ESCAPE_H

#include "world_steer.h"

// Each takes the behavior slot's parameters p (FXS_PARAM(HIDE, ...), ...).
fxs_vec2 fxs_world_hide_steering(const fxs_steer_context *ctx, const fix16_t *p);
fxs_vec2 fxs_world_flee_steering(const fxs_steer_context *ctx, const fix16_t *p);
fxs_vec2 fxs_world_evade_steering(const fxs_steer_context *ctx, const fix16_t *p);
fxs_vec2 fxs_world_interpose_steering(const fxs_steer_context *ctx, const fix16_t *p);

#endif
