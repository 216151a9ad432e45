// Internal: path following in the world (phase 4 of fxs_world_step, world_steer.c). The
// follower sees the live walls and keeps apart by its separation's radius; on a stop path it
// holds still (velocity scale 0: no creep) at the end, or queued behind a follower of its
// path resting on the way there (fxs_path_hold). Reads the start-of-tick view only.
#ifndef FIXSTEER_WORLD_FOLLOW_H
#define FIXSTEER_WORLD_FOLLOW_H

#include "world_steer.h"

// The path behavior's force for the agent of ctx; writes 0 to *velocity_scale when it holds.
fxs_vec2 fxs_world_path_steering(fxs_steer_context *ctx, fix16_t *velocity_scale);

#endif
