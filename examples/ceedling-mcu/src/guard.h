// A guard that patrols a route back and forth between posts and chases an intruder it can
// see: user code built on fixsteer's path following, seek and steering manager. Everything
// is Q16.16, so the guard walks the same steps on a PC and on a Cortex-M3.
#ifndef GUARD_H
#define GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"

/// The posts a guard walks between, back and forth.
typedef struct guard_route {
  fxs_vec2 posts[4]; ///< World units.
  uint16_t count;    ///< Posts used, 2..4.
} guard_route;

/// One guard.
typedef struct guard {
  fxs_agent body;          ///< Position, velocity and limits (max speed 2, max force 0.125).
  fxs_path_def path;       ///< The route as a fixsteer patrol path.
  fxs_path_state progress; ///< Post being walked to and the direction.
  fix16_t sight;           ///< Sees intruders within this distance, world units. Default 40.
  uint32_t turnarounds;    ///< Times the guard reversed at either end of the route.
  bool chasing;            ///< An intruder was in sight at the last step.
} guard;

/// A guard at the first post of `route`, at rest, walking toward the second. The guard keeps
/// a pointer to route->posts: the route must outlive it.
void guard_init(guard *g, const guard_route *route);

/// One tick: chase `intruder` when it is not NULL and within sight, else follow the route.
void guard_step(guard *g, const fxs_vec2 *intruder);

#endif
