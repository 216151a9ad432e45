// Internal: move commands, the RTS click (command_build.h's fxs_command_move,
// docs/navigation.md). A tick's moves take effect after its other commands: they are
// checked, grouped, and every group's members are given spots round its destination, packed
// on a hexagonal lattice by the members' radii, skipping spots on blocked navigation cells
// (on a mesh, by simulation version 8's rules, spots near walls and in obstacles).
// A move sets its agent's target point (and clears its target agent); it adds no state.
#ifndef FIXSTEER_WORLD_MOVE_H
#define FIXSTEER_WORLD_MOVE_H

#include <stdint.h>

#include "fixsteer/command.h"
#include "fixsteer/world.h"

/// Largest gap between neighbouring spots' bodies a move may ask, units.
#define FXS_MOVE_MAX_GAP FXS_INT(1024)

/// sqrt(3) / 2 in Q16.16 (0.8660254 * 65536 = 56755.8, rounded): the rows of the spot
/// lattice are this many pitches apart.
#define FXS_MOVE_ROW_HEIGHT 56756

/// Spot `index` round `destination` for a lattice of `pitch` units (fxs_command_move): 0 is
/// the destination, ring k >= 1 holds the 6k spots k pitches out on the hexagon, from east
/// counter-clockwise. In axial lattice units (a, b) the spot lies at a * (pitch, 0) +
/// b * (pitch / 2, pitch * FXS_MOVE_ROW_HEIGHT); each coordinate is one rounding (half away
/// from zero) of the exact offset, added to the destination and saturated.
fxs_vec2 fxs_world_move_spot(fxs_vec2 destination, fix16_t pitch, uint32_t index);

/// Checks a move command against the world: FXS_ERR_STALE_HANDLE (no live agent),
/// FXS_ERR_NOT_OWNER (an owned agent, another source), FXS_ERR_BAD_VALUE (gap outside
/// [0, FXS_MOVE_MAX_GAP] or args 3..7 not 0). The agent's slot in *slot on success.
fxs_result fxs_world_move_check(const fxs_world *world, const fxs_command *command, uint32_t *slot);

/// Applies the move commands among `commands` (sorted in canonical order; other types are
/// skipped; a formation member's move is its live leader's, world_move.c): writes each
/// move's result to results[i] (when results is not NULL), and the index and result of the
/// first rejected one to *first_index and *first_result (unchanged when none is rejected).
/// Uses the step's view arrays as scratch: call it before sensing.
void fxs_world_moves(fxs_world *world, const fxs_command *commands, uint32_t count,
                     fxs_result *results, uint32_t *first_index, fxs_result *first_result);

#endif
