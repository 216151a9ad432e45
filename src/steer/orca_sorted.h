// Internal: ORCA on a neighbor list that is already the world's search result (nearest
// first by exact squared distance, then slot; the agent itself left out), so the query of
// fxs_orca_velocity_among need not run again: its choice is a prefix of that list. Results
// are those of fxs_orca_velocity_among on the same list. Not part of the API.
#ifndef FIXSTEER_ORCA_SORTED_H
#define FIXSTEER_ORCA_SORTED_H

#include <stddef.h>
#include <stdint.h>

#include "fixsteer/neighbors.h"
#include "fixsteer/orca.h"
#include "orca_memo.h"

/// cos and sin of -FXS_ORCA_SIDE_TURN, raw, as fxs_cos and fxs_sin give them: the side turn's
/// rotation without their calls (test_orca checks the values).
#define FXS_ORCA_SIDE_TURN_COS 65025
#define FXS_ORCA_SIDE_TURN_SIN (-8171)

/// Lines one ORCA agent can have: the static ones first, then one per neighbor.
#define FXS_ORCA_MAX_LINES (FXS_ORCA_MAX_STATIC_LINES + FXS_NEIGHBORS_MAX_K)

/// The arrays of one ORCA velocity (about 1 KiB): the world keeps one per worker, so that a
/// step's stack does not hold them; the public functions of orca.h put one on the stack.
typedef struct fxs_orca_scratch {
  /// The agent's lines, static ones first. A neighbor's line not built yet holds its pair's
  /// offset in `point` and relative velocity in `direction` (orca.c builds lines as the
  /// program needs them).
  fxs_orca_line lines[FXS_ORCA_MAX_LINES];
  fxs_orca_line projected[FXS_ORCA_MAX_LINES];      ///< Least violation's projected lines.
  fxs_orca_line nearest[FXS_ORCA_MAX_STATIC_LINES]; ///< The nearest static lines so far,
  int64_t nearest_key[FXS_ORCA_MAX_STATIC_LINES];   ///< and their order keys (orca.c).
  uint32_t nearest_count;                           ///< Entries of nearest[].
} fxs_orca_scratch;

/// ORCA's bound on speeds, radii and distances: 1024 units (2^26 raw; fixsteer/orca.h).
#define FXS_ORCA_LIMIT ((fix16_t)(INT32_C(1) << 26))

/// Where ORCA reads its neighbors' body radii (a crowd of mixed sizes): a table of records
/// indexed by the neighbors' ids, the radius of the neighbor with id i at `first` + i *
/// `stride` bytes (a plain array of radii: the array, sizeof(fix16_t)).
typedef struct fxs_orca_radii {
  const void *first; ///< The radius of id 0 (a fix16_t).
  size_t stride;     ///< Bytes from one id's radius to the next's.
} fxs_orca_radii;

/// The radius of the neighbor with id `id`.
static inline fix16_t fxs_orca_radius_of(const fxs_orca_radii *radii, uint32_t id) {
  return *(const fix16_t *)(const void *)((const char *)radii->first + (size_t)id * radii->stride);
}

/// How many of a sorted list (exact squared distances dist_sq, Q32.32, ascending) ORCA
/// takes: those within def->neighbor_distance (clamped to FXS_ORCA_LIMIT), at most
/// def->max_neighbors (at most FXS_NEIGHBORS_MAX_K). The prefix fxs_query_neighbors chooses.
/// Inline: the world's step asks it for every ORCA agent.
static inline uint32_t fxs_orca_sorted_count(const uint64_t *dist_sq, uint32_t count,
                                             const fxs_orca_def *def) {
  uint64_t reach = (uint64_t)fxs_clamp(def->neighbor_distance, 0, FXS_ORCA_LIMIT);
  uint32_t k = def->max_neighbors < FXS_NEIGHBORS_MAX_K ? def->max_neighbors : FXS_NEIGHBORS_MAX_K;
  uint32_t m = count < k ? count : k, n = 0;
  // Ascending: when the last of the m is within reach, all of them are (the common case).
  if (m == 0 || dist_sq[m - 1u] <= reach * reach) return m;
  while (n < m && dist_sq[n] <= reach * reach) ++n;
  return n;
}

/// fxs_orca_velocity_among against neighbors[0..n) in that order, n from
/// fxs_orca_sorted_count; priorities (or NULL) indexed as the neighbors; radii (or NULL:
/// def->neighbor_radius, or the agent's own where that is 0, for every one) gives each
/// neighbor's body radius by its id. `slow`: the caller
/// knows every neighbor's velocity components to be within +-FXS_ORCA_LIMIT, so they need
/// no clamp (the result is the same either way). `memo` (or NULL): the pairs the worker has
/// built lately, which this call reads and adds to (orca_memo.h; the result is the same with
/// any memo or none). The arrays are worked in *scratch (its contents on entry do not matter).
fxs_vec2 fxs_orca_velocity_sorted(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                  const fxs_neighbor *neighbors, const fix16_t *priorities,
                                  const fxs_orca_radii *radii, uint32_t n,
                                  const fxs_orca_statics *statics, const fxs_orca_def *def,
                                  bool slow, const fxs_orca_memo *memo, fxs_orca_scratch *scratch);

/// fxs_orca_velocity_sorted, by the crowd side rule when `crowd` (fixsteer/orca.h,
/// fxs_orca_crowd_side): where the agent is blocked, its neighbors' lines are not all shown
/// to hold at its preferred velocity (the bound of fxs_orca_velocity_open) and, when a wall
/// or an obstacle gives a line, one of its neighbors ahead along the preferred velocity moves
/// against it (a counter-flow: an agent pressed on a wall or a pile by neighbors going its way
/// is not turned), the program starts from the preferred velocity turned aside. The world's
/// orca behavior runs it (simulation version 6; navigate, whose route picks the way, does
/// not); the functions of orca.h do not.
fxs_vec2 fxs_orca_velocity_crowd(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                 const fxs_neighbor *neighbors, const fix16_t *priorities,
                                 const fxs_orca_radii *radii, uint32_t n,
                                 const fxs_orca_statics *statics, const fxs_orca_def *def,
                                 bool slow, const fxs_orca_memo *memo, fxs_orca_scratch *scratch,
                                 bool crowd);

/// Neighbors as a search found them, in no particular order: the agents of view entries
/// views[i], i < count, at exact squared distances dist_sq[i] (Q32.32), their positions and
/// velocities in positions[view] and velocities[view].
typedef struct fxs_orca_found {
  const fxs_vec2 *positions, *velocities;
  const uint32_t *views;
  const uint64_t *dist_sq;
  uint32_t count;
} fxs_orca_found;

/// fxs_orca_velocity_sorted's result for equal shares and no static line, where the bound by
/// which the program skips building lines (orca.c) shows every neighbor's line to hold at the
/// program's start point (a crowd walking apart): the program keeps that point, whatever the
/// neighbors' order. `found`: every agent a search found, unsorted, the neighbors ORCA takes
/// being those within def->neighbor_distance (as fxs_orca_sorted_count). Returns true and
/// *velocity then; false where the bound cannot tell, or where more than def->max_neighbors
/// lie within that distance (which of them ORCA takes depends on their order).
/// `slow` as for fxs_orca_velocity_sorted.
bool fxs_orca_velocity_open(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                            const fxs_orca_found *found, const fxs_orca_def *def, bool slow,
                            fxs_vec2 *velocity);

/// Whether the bound by which the program skips building a neighbor's line (orca.c) answers
/// that fxs_orca_half_plane_shared(self, self_id, neighbor, def, share) holds at velocity x.
/// It answers true only when the line does hold there (tests check the claim).
bool fxs_orca_surely_holds(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbor,
                           const fxs_orca_def *def, fix16_t share, fxs_vec2 x);

#endif
