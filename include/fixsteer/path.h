/// @file path.h
/// Path following (seed 004): the agent seeks its current node; once within the path
/// radius of it, the next node becomes current. Progress advances at most one node per tick,
/// so no node is ever skipped. At the end of the path the agent stops (arrives on the last
/// node), loops to the first, or patrols back and forth with path_dir = +1 / -1.
#ifndef FIXSTEER_PATH_H
#define FIXSTEER_PATH_H

#include <stdint.h>

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

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
} fxs_path_def;

/// Progress along a path (per agent).
typedef struct fxs_path_state {
  uint16_t current_node; ///< Index of the node being sought.
  int8_t path_dir;       ///< +1 toward the end, -1 toward the start.
  uint8_t finished;      ///< 1 once the last node of a STOP_AT_END path was reached.
} fxs_path_state;

/// A path definition over `nodes` with the defaults listed on each field.
fxs_path_def fxs_default_path_def(const fxs_vec2 *nodes, uint16_t count, fxs_path_mode mode);

/// Progress at the first node, moving forward.
fxs_path_state fxs_path_start(void);

/// The path-following force; advances *state when the current node is reached, in which
/// case the force already points at the next node. Empty path: zero force.
fxs_vec2 fxs_follow_path(const fxs_agent *self, const fxs_path_def *path, fxs_path_state *state);

#ifdef __cplusplus
}
#endif

#endif
