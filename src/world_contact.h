// Internal: solid walls and obstacles. After an agent has steered (or moved kinematically),
// its move of the tick is checked against the walls and obstacles near it: no body ends a
// tick inside one, whatever its behaviors asked, and a move into one slides along it. Not
// part of the API; the rule is documented in docs/concepts.md ("Contact").
//
// The rule. Each wall or obstacle within reach of the move gives one constraint, a half-plane
// of allowed moves: its closest point c to the agent's start position p and the unit normal n
// from c toward p (a wall's own normal when c lies inside the segment) bound the moves m with
// (p + m - c) . n >= radius (+ the obstacle's radius) + FXS_CONTACT_SLACK. The wall (the
// obstacle) lies wholly on the far side of the line through c across n, so every point of a
// move inside the constraint, not only its end, keeps the body off it: a fast agent cannot
// pass through. The move kept is the asked move projected into every constraint (a few
// passes, in a fixed order); the part into a wall is removed and the part along it kept, so
// an agent pressed into a wall slides along it, and one pressed straight in stops (as does
// one whose slide would be slower than FXS_CONTACT_REST: static friction). The
// agent's velocity becomes the move it made, so it reports no speed it lacks and its
// steering sees that it has stopped. An agent that starts inside a wall or obstacle (spawned
// there) is moved out by up to max(max_speed, 1) a tick.
#ifndef FIXSTEER_WORLD_CONTACT_H
#define FIXSTEER_WORLD_CONTACT_H

#include <stdint.h>

#include "fixsteer/world.h"
#include "world_obstacles.h"

/// Space kept between a body and a wall or obstacle at contact, raw (1/64 unit): it absorbs
/// the rounding of the constraints (a few LSB), so bodies never overlap.
#define FXS_CONTACT_SLACK ((fix16_t)1024)
/// Most constraints one move is checked against: the tightest are kept.
#define FXS_CONTACT_MAX 16u
/// Passes of projection over the constraints; a move still outside one after them is
/// dropped (the agent stays where it is, which every constraint allows).
#define FXS_CONTACT_PASSES 4
/// Static friction: a move left by contact whose components are both at most this (raw,
/// 1/64 unit a tick) is no move, so a body pressed into a wall does not creep along it
/// toward a target it cannot reach (nor by the rounding of a normal).
#define FXS_CONTACT_REST 1024
/// Longest move checked, raw (8192 units a tick): a longer one is shortened to it along its
/// direction when there are walls or obstacles (the world's extent is 65536 units).
#define FXS_CONTACT_MAX_MOVE (INT64_C(8192) << 16)

/// What contact needs of a step: the live walls and obstacles and the obstacle grid.
typedef struct fxs_contact_world {
  const fxs_world *world;
  const fxs_obstacle_grid *grid;
  uint32_t obstacle_count, wall_count;
} fxs_contact_world;

/// Resolves the move of `next` (from `before`, the agent's start-of-tick body) against the
/// walls and obstacles: next's position and velocity are changed only when the move touched
/// one. A move that contact turned by more than 90 degrees from before's velocity stops
/// instead (calm rest, as in fxs_agent_integrate). scratch has room for `room` obstacle
/// indices. True when it changed them.
bool fxs_contact_resolve(const fxs_contact_world *cw, const fxs_agent *before, fxs_agent *next,
                         uint32_t *scratch, uint32_t room);

#endif
