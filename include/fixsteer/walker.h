/// @file walker.h
/// The random walker of seed 003: it reaches a target through random waypoints. Each
/// waypoint lies step = clamp(distance * 0.5, min_step, max_step) toward the target, turned
/// by a random angle within a field of view that narrows as the walker nears the target:
/// half-FOV = lerp(0, pi/2, clamp(distance, 0, aggro_radius) / aggro_radius) * 0.5, on a
/// random side. Within min_step it walks straight to the target. Seeded, never clock-based.
#ifndef FIXSTEER_WALKER_H
#define FIXSTEER_WALKER_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Walker parameters (seed 003's 1.0f, 10.0f and walkerAggroRadius = 30).
typedef struct fxs_walker_def {
  fix16_t min_step;       ///< World units, > 0. Default 1.
  fix16_t max_step;       ///< World units, >= min_step. Default 10.
  fix16_t aggro_radius;   ///< World units, > 0: the field of view narrows inside it. Default 30.
  fix16_t reach_radius;   ///< A waypoint within this counts as reached; keep it above the
                          ///< max speed or the walker can step over its waypoint. Default 4.
  fix16_t slowing_radius; ///< Arrival slowing radius on the final target. Default 8.
} fxs_walker_def;

/// Per-agent walker progress.
typedef struct fxs_walker_state {
  fxs_vec2 waypoint;    ///< The walk-to position being sought.
  uint8_t has_waypoint; ///< 0 until the first pick.
} fxs_walker_state;

/// The defaults listed on each field.
FXS_API fxs_walker_def fxs_default_walker_def(void);

/// PickRandomTarget: the next walk-to position from `position` toward `target`. Draws from
/// rng: first the angle in [0, half-FOV), then the side (0: turn by -angle, 1: by +angle).
FXS_API fxs_vec2 fxs_walker_pick(fxs_vec2 position, fxs_vec2 target, const fxs_walker_def *def,
                                 fxs_rng *rng);

/// The walker force: picks a new waypoint at the start and whenever the current one is
/// reached, seeks it, and arrives when the waypoint is the target itself. Its steps are at
/// least twice reach_radius (min_step is raised to that when smaller): a shorter step would
/// count as reached as soon as it is picked and the walker would pick again every tick;
/// with it, 003's "within the minimum step, go straight to the target" takes over.
FXS_API fxs_vec2 fxs_random_walker(const fxs_agent *self, fxs_vec2 target,
                                   const fxs_walker_def *def, fxs_walker_state *state,
                                   fxs_rng *rng);

#ifdef __cplusplus
}
#endif

#endif
