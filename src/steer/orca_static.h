// Internal: ORCA's static lines, the half-planes of walls and obstacles (orca_static.c; the
// public fxs_orca_wall_line and fxs_orca_obstacle_line of orca.h are defined there too).
// Not part of the API.
#ifndef FIXSTEER_ORCA_STATIC_H
#define FIXSTEER_ORCA_STATIC_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/orca.h"
#include "orca_sorted.h"

/// The lines of the walls and obstacles of *st within reach of the agent, at most
/// FXS_ORCA_MAX_STATIC_LINES of them, nearest first (by clearance, then walls before
/// obstacles, then index), into set->lines. Returns how many; 0 for st NULL.
uint32_t fxs_orca_static_lines(const fxs_agent *self, const fxs_orca_statics *st,
                               const fxs_orca_def *def, fxs_orca_scratch *set);

/// True when a wall of *st (or none: st NULL) crosses the segment from the agent to the
/// point (px, py) raw away from it.
bool fxs_orca_wall_between(const fxs_agent *self, int64_t px, int64_t py,
                           const fxs_orca_statics *st);

#endif
