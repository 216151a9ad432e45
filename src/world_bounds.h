// Internal: the world's bounds as the step uses them. fxs_containment (world.h) steers an
// agent away from them; these are the kinematic agent's bounce and the end-of-step clamp.
// Not part of the API.
#ifndef FIXSTEER_WORLD_BOUNDS_H
#define FIXSTEER_WORLD_BOUNDS_H

#include "fixsteer/kinematic.h"
#include "fixsteer/world.h"

/// A kinematic agent's output `out` within twice its radius of a bound (when the world
/// clamps to its bounds): a velocity component into the bound reversed, the agent turned to
/// face its new velocity.
fxs_kinematic_output fxs_world_contain_kinematic(const fxs_agent *a, fxs_kinematic_output out,
                                                 const fxs_world_def *def);

/// Puts a position outside the bounds on the bound it crossed; the velocity into that bound
/// is lost.
void fxs_world_clamp_body(fxs_agent *a, const fxs_world_def *d);

#endif
