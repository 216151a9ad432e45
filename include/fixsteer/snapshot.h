/// @file snapshot.h
/// The world's state as bytes: one serializer writes every field that matters (tick,
/// agent slots in index order with their generations, random streams, behavior sets and
/// progress, obstacles, paths, walls, and the flow field of a world with a field capacity)
/// in an explicit little-endian layout. fxs_world_hash() is the
/// state hash (v2, hash.h) of exactly those bytes, so hash and snapshot always cover the same
/// state.
#ifndef FIXSTEER_SNAPSHOT_H
#define FIXSTEER_SNAPSHOT_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/result.h"
#include "fixsteer/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// "FXSW", first bytes of every snapshot.
#define FXS_SNAPSHOT_MAGIC 0x57535846u
/// Snapshot layout version of a world without a field capacity (capacity.field_cells = 0).
#define FXS_SNAPSHOT_VERSION 3u
/// Layout of a world with a field capacity: layout 3 plus that capacity (u32, never 0) after
/// the other capacities and the flow field (origin, cell size, columns, rows as u32, then
/// columns x rows cells, row by row) after the walls. Readers take both.
#define FXS_SNAPSHOT_VERSION_FIELD 4u
/// Layout of a world with navigation (capacity.nav_cells > 0): layout 4 whose field capacity
/// may be 0 (then no field section), followed by nav_cells (never 0), nav_searches,
/// nav_open and nav_waypoints, and after the field (or the walls) the navigation section
/// (docs/navigation.md). Worlds without navigation keep writing layouts 3 and 4.
#define FXS_SNAPSHOT_VERSION_NAV 5u
/// Layout of a world with integration fields for groups (capacity.nav_fields > 0): layout 5
/// with nav_fields (never 0) after nav_waypoints and the fields section (world_nav_fields.h)
/// at the end of the navigation section. Worlds with nav_fields 0 keep writing layout 5.
#define FXS_SNAPSHOT_VERSION_NAV_FIELDS 6u
/// Layout of a mesh world (capacity.nav_kind FXS_NAV_KIND_MESH): layout 4 whose field capacity
/// may be 0, followed by the mesh's vertex capacity (resolved, never 0), nav_searches, nav_open
/// and nav_waypoints, and after the field (or the walls) the mesh navigation section
/// (docs/navigation-mesh.md, "In the world"): the mesh itself, the routes and the searches.
#define FXS_SNAPSHOT_VERSION_NAV_MESH 7u
/// Layout of a world with group fields in which some agent follows a move's field
/// (fxs_world_nav.moves, simulation version 6): layout 6 with, after the fields section, per
/// agent slot its move's cell (u32, 0xFFFFFFFF none). A world where none does writes layout 6.
#define FXS_SNAPSHOT_VERSION_NAV_MOVES 8u
/// Layout of a mesh world with group fields (capacity.nav_fields > 0,
/// world_nav_mesh_fields.h): layout 7 with nav_fields (never 0) after nav_waypoints and, at the
/// end of the mesh navigation section, the fields section of layout 6 (its goals triangles). A
/// mesh world with nav_fields 0 keeps writing layout 7.
#define FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS 9u
/// Layout of a mesh world with group fields in which some agent follows a move's tree
/// (simulation version 8, world_nav_mesh_fields.h "Moves"): layout 9 with, after the fields
/// section, per agent slot u8 1 and its move's destination (x, y) or u8 0. A mesh world where
/// none does writes layout 9.
#define FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES 10u

/// 64-bit state hash (FXS_STATE_HASH_VERSION, hash.h) of the snapshot bytes, computed
/// without a buffer.
FXS_API uint64_t fxs_world_hash(const fxs_world *world);

/// The state hash of the snapshot bytes in the given version of the state hash
/// (FXS_STATE_HASH_V2, the hash of replay format 2, or FXS_STATE_HASH_V3, the one
/// fxs_world_hash computes) into *hash: for checking hashes recorded with an older version.
/// FXS_ERR_BAD_VERSION (and *hash untouched) for any other version.
FXS_API fxs_result fxs_world_hash_as(const fxs_world *world, uint32_t version, uint64_t *hash);

/// True when `data` is exactly the snapshot fxs_world_save would write for `world` now;
/// else *mismatch (when not NULL) receives the first differing byte offset. No buffer needed.
FXS_API bool fxs_world_matches_snapshot(const fxs_world *world, const uint8_t *data, size_t size,
                                        size_t *mismatch);

/// Bytes fxs_world_save needs for the current state.
FXS_API size_t fxs_world_snapshot_size(const fxs_world *world);

/// The most bytes fxs_world_save can need for a world of these capacities, whatever its
/// state (every agent alive with a full behavior set, every obstacle and wall standing, every
/// route full, every search at its largest): the size of a scratch buffer that never runs
/// out. SIZE_MAX when the bound does not fit a size_t.
FXS_API size_t fxs_world_snapshot_bound(const fxs_world_capacity *capacity);

/// Writes the state into buffer; FXS_ERR_BUFFER_TOO_SMALL when it does not fit (nothing
/// useful is written then). *written receives the size when not NULL.
FXS_API fxs_result fxs_world_save(const fxs_world *world, uint8_t *buffer, size_t capacity,
                                  size_t *written);

/// fxs_world_save and fxs_world_hash in one pass over the state: the bytes fxs_world_save
/// writes, and in *hash (when not NULL) the value fxs_world_hash returns, even when the
/// buffer is too small. For callers that keep a snapshot and a hash of every tick
/// (rollback, desync checks): one pass costs about what the hash alone costs.
FXS_API fxs_result fxs_world_save_hashed(const fxs_world *world, uint8_t *buffer, size_t capacity,
                                         size_t *written, uint64_t *hash);

/// Replaces the state of `world` (already initialised with the same capacities) with a
/// snapshot. On failure the world is left unchanged and *error_offset (when not NULL) names
/// the byte where the offending field or record starts (the end of the data if it is short).
FXS_API fxs_result fxs_world_restore(fxs_world *world, const uint8_t *data, size_t size,
                                     size_t *error_offset);

/// Reads the capacities a snapshot was taken with (to size the world that will restore it).
FXS_API fxs_result fxs_snapshot_capacity(const uint8_t *snapshot, size_t size,
                                         fxs_world_capacity *out);

/// The first difference between two worlds of equal capacity, for reports.
typedef struct fxs_world_difference {
  int32_t agent;     ///< Slot index, or -1 when the difference is not in an agent.
  const char *field; ///< Name of the field ("position.x", "rng.s[2]", "tick", ...).
  ///@{
  int64_t a, b; ///< The two values (raw).
  ///@}
} fxs_world_difference;

/// Finds the first differing field (agents in slot order, then obstacles, then the tick).
/// Returns false when the states are equal.
FXS_API bool fxs_world_first_difference(const fxs_world *a, const fxs_world *b,
                                        fxs_world_difference *out);

#ifdef __cplusplus
}
#endif

#endif
