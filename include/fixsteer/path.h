/// @file path.h
/// Path following (seed 004, with Reynolds' projection): the path is the polyline through its
/// nodes. Each tick the agent's position predicted FXS_PATH_PREDICT_TICKS ticks ahead is
/// projected on the segments from its current one to FXS_PATH_WINDOW - 1 segments further,
/// and the agent seeks the point `lead` further along the path from that projection, so a
/// follower pushed off the path heads back to it diagonally and cuts no corner it cannot see
/// round. Progress (current_node) only moves forward in travel order: a node whose segment
/// the projection has left behind is never sought again, except as loop or patrol order
/// brings it round. With walls, a target point the agent cannot see (the line to it crosses
/// a wall or passes within the body radius of a wall's end) is pulled back along the path
/// toward the projection until it can; never a node across a wall. At the end the agent
/// stops (arrives on the last node), loops to the first, or patrols back and forth with
/// path_dir = +1 / -1.
#ifndef FIXSTEER_PATH_H
#define FIXSTEER_PATH_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Ticks ahead at the current velocity of the position that is projected on the path.
#define FXS_PATH_PREDICT_TICKS 8

/// Segments searched for the projection: the current one and the ones after it.
#define FXS_PATH_WINDOW 3

/// What happens at the end of the path.
typedef enum fxs_path_mode {
  FXS_PATH_STOP_AT_END = 0, ///< Arrive on the last node and stay.
  FXS_PATH_LOOP = 1,        ///< After the last node, the first.
  FXS_PATH_PATROL = 2,      ///< Reverse path_dir at either end (seed 004's back and forth).
} fxs_path_mode;

/// A path: nodes joined by lines, and how to follow it.
typedef struct fxs_path_def {
  const fxs_vec2 *nodes;  ///< count nodes, world units.
  uint16_t count;         ///< Number of nodes.
  uint8_t mode;           ///< An fxs_path_mode.
  fix16_t radius;         ///< Path radius: a node within it counts as reached. Default 10.
  fix16_t slowing_radius; ///< Arrival slowing radius at the end (STOP_AT_END). Default 60.
  const fxs_wall *walls;  ///< wall_count walls that block the line of sight; NULL: none.
  uint32_t wall_count;    ///< Number of walls. Default 0.
  fix16_t keep_apart;     ///< How far apart the follower's other behaviors (its separation)
                          ///< keep it from neighbors, centre to centre, world units; at the end
                          ///< of a stop path it holds this close to a resting follower
                          ///< (fxs_path_hold). Default 0: only a body about to touch holds.
} fxs_path_def;

/// Progress along a path (per agent).
typedef struct fxs_path_state {
  uint16_t current_node; ///< Index of the node being approached (the end of the current segment).
  int8_t path_dir;       ///< +1 toward the end, -1 toward the start.
  uint8_t finished;      ///< 1 once the last node of a STOP_AT_END path was reached.
} fxs_path_state;

/// A follower of the same path at rest, as fxs_path_hold sees it.
typedef struct fxs_path_rest {
  fxs_vec2 position; ///< World units.
  fix16_t radius;    ///< Body radius, world units.
} fxs_path_rest;

/// A path definition over `nodes` with the defaults listed on each field.
FXS_API fxs_path_def fxs_default_path_def(const fxs_vec2 *nodes, uint16_t count,
                                          fxs_path_mode mode);

/// Progress at the first node, moving forward.
FXS_API fxs_path_state fxs_path_start(void);

/// How far ahead of the projection the target point lies: the larger of the path radius and
/// 8 ticks of travel at max speed, world units.
FXS_API fix16_t fxs_path_lead(const fxs_agent *self, const fxs_path_def *path);

/// The point of the path nearest to `point` on the current segment or the next
/// FXS_PATH_WINDOW - 1 ones; advances *state to the segment it lies on when that segment is
/// a later one the agent sees (walls). Before the first node (no segment leads to it) the
/// current "segment" is that node alone.
FXS_API fxs_vec2 fxs_path_project(const fxs_agent *self, const fxs_path_def *path,
                                  fxs_path_state *state, fxs_vec2 point);

/// The point the agent steers to: `lead` along the path from the projection of its predicted
/// position, pulled back toward the projection (by quarters of lead) while the agent cannot
/// see it. *at_end is set when it is the last node of a STOP_AT_END path.
FXS_API fxs_vec2 fxs_path_target(const fxs_agent *self, const fxs_path_def *path,
                                 fxs_path_state *state, bool *at_end);

/// True when the segment from `from` to `to` crosses none of the path's walls and passes no
/// wall end closer than `clearance` (a wall end within `clearance` of `from` does not count:
/// the agent already touches it). Coordinates lose their 2 lowest bits in the crossing test.
FXS_API bool fxs_path_sees(const fxs_path_def *path, fxs_vec2 from, fxs_vec2 to, fix16_t clearance);

/// The path-following force: seek fxs_path_target, or arrive on the last node of a
/// STOP_AT_END path. Advances *state as fxs_path_project does, and by one node when the
/// current node is within the path radius (patrol turns, loop wraps). Empty path: zero force.
FXS_API fxs_vec2 fxs_follow_path(const fxs_agent *self, const fxs_path_def *path,
                                 fxs_path_state *state);

/// fxs_follow_path, also giving the point it steers to (the agent's position for an empty path).
FXS_API fxs_vec2 fxs_follow_path_toward(const fxs_agent *self, const fxs_path_def *path,
                                        fxs_path_state *state, fxs_vec2 *target);

/// True when a follower of a STOP_AT_END path should hold still (velocity exactly 0): on its
/// last segment, it is within 1/4 unit of the last node, or within the path radius of it and
/// not closing in on it (velocity . (node - position) <= 0); on any segment, its body would
/// touch within one tick a resting follower of the same path that lies within 45 degrees of
/// the direction to its `target` (fxs_follow_path_toward), or it is within path->keep_apart
/// (+ 1/2 unit) of one. Before the last segment a resting follower counts only when it is
/// nearer than the agent to the node the agent heads for. So followers queue back from the end,
/// round corners if the queue is long, instead of piling on it or pushing round each other. A
/// resting follower held this way stays held while the one it queues on rests.
FXS_API bool fxs_path_hold(const fxs_agent *self, const fxs_path_def *path,
                           const fxs_path_state *state, fxs_vec2 target,
                           const fxs_path_rest *resting, uint32_t count);

/// fxs_path_hold for packed queues (simulation version 6): the same end rules, but a follower
/// that comes near a resting follower of the same path farther along (within path->keep_apart,
/// or within a tick of touching it) first looks for room beside it, across the path a spacing
/// away (keep_apart, at least the two radii and a touching distance apart), on its own side
/// first: room lies within the path radius of the path, in sight of the resting follower and
/// clear of every other resting one. With room, *target (in: where path following steers,
/// fxs_follow_path_toward) becomes that room and the follower holds once there (within two
/// touching distances); without, it holds once about to touch the resting one or almost
/// stopped (speed at most max_speed / 128). So the followers fill the path's width from its end
/// back, several abreast, instead of queueing in single file.
FXS_API bool fxs_path_hold_packed(const fxs_agent *self, const fxs_path_def *path,
                                  const fxs_path_state *state, fxs_vec2 *target,
                                  const fxs_path_rest *resting, uint32_t count);

/// fxs_path_hold_packed for room in reach (simulation version 11): a follower almost stopped
/// (speed at most max_speed / 128) whose nearest room lies behind a resting follower (the
/// straight way there passes within that one's radius of its centre) holds where it is. Its
/// separation from that one cancelled the pull to the room and could swing it to and fro for
/// good; a follower under way still goes for the nearest room, steering round resting ones.
FXS_API bool fxs_path_hold_reachable(const fxs_agent *self, const fxs_path_def *path,
                                     const fxs_path_state *state, fxs_vec2 *target,
                                     const fxs_path_rest *resting, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
