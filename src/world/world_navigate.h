// Internal: the navigate behavior's steering in the step (phase 4): the route's move
// (world_nav.h), ORCA toward it among the neighbors, and on the last leg the goal's pile or
// cluster lattice (world_cluster.h) and the crowd's rules of way (world_way.h). Not part of
// the API.
#ifndef FIXSTEER_WORLD_NAVIGATE_H
#define FIXSTEER_WORLD_NAVIGATE_H

#include "world_steer.h"

/// The steering force of a navigate behavior with parameters `p` (its slot's) for the agent
/// of `ctx`.
fxs_vec2 fxs_world_navigate_steering(fxs_steer_context *ctx, const fix16_t *p);

#endif
