/// @file escape.h
/// Escape directions that keep room to move: flee and evade among walls and world bounds.
///
/// Plain flee runs straight away from the threat, into whatever wall or bound lies behind
/// the agent, and a cornered agent presses into the corner while the threat closes in. Here
/// the away direction is kept while the agent has room to run along it; otherwise it is bent
/// toward the open side:
/// - The look-ahead is max_speed * FXS_ESCAPE_LOOK_TICKS, clamped to
///   [FXS_ESCAPE_MIN_LOOK, FXS_ESCAPE_MAX_LOOK] units.
/// - The run along a direction is how far the agent's centre can travel along it before it
///   crosses a wall (less the agent's radius) or comes within twice its radius of a bound
///   (the band fxs_containment keeps clear; bounds count only when the world clamps to
///   them), capped at the look-ahead. Ray casts are done on coordinates rounded to 1/16 unit.
///   A direction that would take the agent past the threat (the threat ahead within 45
///   degrees of it) runs only up to the threat's distance along it less twice the radius.
/// - When the away direction's run reaches the look-ahead, the behavior is exactly plain
///   flee (or evade). Otherwise FXS_ESCAPE_DIRECTIONS directions are sampled, the away
///   direction turned by multiples of 22.5 degrees, in the order 0, +22.5, -22.5, +45,
///   -45, ..., 180 (+ is counter-clockwise). Each scores run^2 * (4 (1 + cos a) + (1 + cos b)),
///   run in 1/256 units, a its angle to the away direction, b its angle to the velocity
///   (cos b = 0 at rest: the velocity term keeps an agent on the side it is already running
///   to). The run counts squared so that a short run toward a corner loses to a long one
///   along a wall even when it leads further from the threat. The highest score wins; equal
///   scores keep the earlier direction in that order.
/// - Bounded work: walls are first filtered by their bounding box against the square of the
///   look-ahead round the agent; only the first FXS_ESCAPE_MAX_WALLS walls that pass (in
///   wall index order) are cast against, so an agent does at most
///   FXS_ESCAPE_DIRECTIONS * FXS_ESCAPE_MAX_WALLS ray casts a tick.
/// Circular obstacles do not count (obstacle avoidance and the world's contact keep the
/// agent out of them).
#ifndef FIXSTEER_ESCAPE_H
#define FIXSTEER_ESCAPE_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Look-ahead of an escape in ticks of travel at max speed.
#define FXS_ESCAPE_LOOK_TICKS 40
/// Least look-ahead, world units.
#define FXS_ESCAPE_MIN_LOOK FXS_INT(16)
/// Greatest look-ahead, world units.
#define FXS_ESCAPE_MAX_LOOK FXS_INT(1024)
/// Directions sampled when the away direction is blocked.
#define FXS_ESCAPE_DIRECTIONS 16
/// Walls near the agent that the ray casts consider (the first ones in index order).
#define FXS_ESCAPE_MAX_WALLS 32

/// What an escape must keep room from: walls (may be NULL when wall_count is 0) and, when
/// bounded is 1, the world's bounds.
typedef struct fxs_escape_room {
  const fxs_wall *walls; ///< Walls, in index order.
  uint32_t wall_count;   ///< Entries of walls.
  uint8_t bounded;       ///< 1: the bounds count (a world that clamps to its bounds).
  fxs_vec2 bounds_min;   ///< Lower corner, world units.
  fxs_vec2 bounds_max;   ///< Upper corner, world units.
} fxs_escape_room;

/// The look-ahead of an escape: max_speed * FXS_ESCAPE_LOOK_TICKS, clamped as above.
FXS_API fix16_t fxs_escape_look_ahead(const fxs_agent *self);

/// How far the agent can run along the unit direction before a wall or bound, in [0, limit]
/// (see the file comment).
FXS_API fix16_t fxs_escape_run(const fxs_agent *self, fxs_vec2 direction,
                               const fxs_escape_room *room, fix16_t limit);

/// The escape direction from `threat` for the unit away direction: `away` itself when it has
/// the whole look-ahead of room, else the best sampled direction (unit, each component within
/// 2 LSB).
FXS_API fxs_vec2 fxs_escape_direction(const fxs_agent *self, fxs_vec2 threat, fxs_vec2 away,
                                      const fxs_escape_room *room);

/// fxs_flee that keeps room to move; room NULL is plain fxs_flee.
FXS_API fxs_vec2 fxs_flee_within(const fxs_agent *self, fxs_vec2 target, fix16_t panic_radius,
                                 const fxs_escape_room *room);

/// fxs_evade that keeps room to move (flees the predicted position with fxs_flee_within);
/// room NULL is plain fxs_evade.
FXS_API fxs_vec2 fxs_evade_within(const fxs_agent *self, const fxs_agent *target,
                                  fix16_t max_prediction, fix16_t panic_radius,
                                  const fxs_escape_room *room);

#ifdef __cplusplus
}
#endif

#endif
