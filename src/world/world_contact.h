// Internal: solid walls and obstacles. After an agent has steered (or moved kinematically),
// its move of the tick is checked against the walls and obstacles near it: no body ends a
// tick inside one, whatever its behaviors asked, and a move into one slides along it. Not
// part of the API; the rule is documented in docs/concepts.md ("Contact").
//
// The rule. Each wall or obstacle within reach of the move gives one constraint, a half-plane
// of allowed moves: its closest point c to the agent's start position p and the unit normal n
// from c toward p (a wall's own normal when c lies inside the segment) bound the moves m with
// (p + m - c) . n >= radius (+ the obstacle's radius) + the agent's contact slack (agent.h). The
// wall (the obstacle) lies wholly on the far side of the line through c across n, so every point of
// a move inside the constraint, not only its end, keeps the body off it: a fast agent cannot pass
// through. The move kept is the asked move projected into every constraint (a few passes, in a
// fixed order); the part into a wall is removed and the part along it kept, so an agent pressed
// into a wall slides along it, and one pressed straight in stops (as does one whose slide would be
// no faster than its rest speed, agent.h: static friction). The agent's velocity becomes the move
// it made, so it reports no speed it lacks and its steering sees that it has stopped. An agent that
// starts inside a wall or obstacle (spawned there) is moved out by up to max(max_speed, its
// touching distance) a tick. Every one of these lengths derives from the agent (agent.h), so the
// rule is the same in any unit.
#ifndef FIXSTEER_WORLD_CONTACT_H
#define FIXSTEER_WORLD_CONTACT_H

#include <stdint.h>

#include "fixsteer/world.h"
#include "world_obstacles.h"
#include "world_walls.h"

/// Most constraints one move is checked against: the tightest are kept.
#define FXS_CONTACT_MAX 16u
/// Passes of projection over the constraints; a move still outside one after them is
/// dropped (the agent stays where it is, which every constraint allows).
#define FXS_CONTACT_PASSES 4
/// Longest move checked, raw (8192 units a tick): a longer one is shortened to it along its
/// direction when there are walls or obstacles (the world's extent is 65536 units).
#define FXS_CONTACT_MAX_MOVE (INT64_C(8192) << 16)

/// Another agent's body near the agent, at its start-of-tick position: contact keeps the
/// agent off it as off an obstacle. Where the other keeps off this agent too (`halves`: both
/// run a crowd behavior, ORCA or navigate), each closes at most half the gap between them,
/// so that the two moves together leave the bodies apart (their offset along the normal
/// shrinks by at most the gap), and two that overlap each move out by half the overlap.
/// Two agents' bodies may overlap by at most (r1 + r2) / FXS_CONTACT_GIVE_DIVISOR (1/20 of a
/// radius between equals; a body's r1 includes its slack). ORCA keeps the whole radii apart:
/// where a crush leaves no velocity that does, it pushes overlapping pairs apart, and this
/// give lets it, so a crowd pressed together keeps flowing instead of stalling (with none,
/// the crowds of the scenes stall in their crushes for good).
#define FXS_CONTACT_GIVE_DIVISOR 40
typedef struct fxs_contact_body {
  fxs_vec2 position;
  fix16_t radius;
  uint8_t halves;
} fxs_contact_body;

/// What contact needs of a step: the live walls and obstacles and their grids, and the
/// agent's nearby bodies (or none).
typedef struct fxs_contact_world {
  const fxs_world *world;
  const fxs_obstacle_grid *grid;
  uint32_t obstacle_count, wall_count;
  const fxs_contact_body *bodies;
  uint32_t body_count;
  const fxs_wall_grid *walls; ///< The step's wall grid, or NULL: test every wall.
  /// Walls already found near the agent this tick (ORCA's), or NULL: where they cover the
  /// move's reach they are taken instead of a lookup in the grid.
  const fxs_walls_found *found;
} fxs_contact_world;

/// Resolves the move of `next` (from `before`, the agent's start-of-tick body) against the
/// walls, obstacles and bodies: next's position and velocity are changed only when the move
/// touched one. A move that contact turned by more than 90 degrees from before's velocity stops
/// instead (calm rest, as in fxs_agent_integrate). scratch has room for `room` obstacle
/// indices. True when it changed them.
bool fxs_contact_resolve(const fxs_contact_world *cw, const fxs_agent *before, fxs_agent *next,
                         uint32_t *scratch, uint32_t room);

#endif
