/// @file input_limits.h
/// Limits on what untrusted data (replays, snapshots, scenario files, packets) may ask of a
/// reader: world capacities, ticks, total work and bytes. Every reader takes an fxs_limits
/// (NULL meaning fxs_default_limits()) and refuses data beyond it with FXS_ERR_LIMIT and the
/// name of the field, before it allocates or simulates anything. Raise them deliberately.
#ifndef FIXSTEER_INPUT_LIMITS_H
#define FIXSTEER_INPUT_LIMITS_H

#include "fixsteer/api.h"
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fxs_world_capacity;

/// Default of fxs_limits.max_agents.
#define FXS_DEFAULT_MAX_AGENTS 65534u
/// Default of fxs_limits.max_obstacles, max_paths and max_walls.
#define FXS_DEFAULT_MAX_OBJECTS 65535u
/// Default of fxs_limits.max_path_nodes.
#define FXS_DEFAULT_MAX_PATH_NODES 1000000u
/// Default of fxs_limits.max_ticks (about 46 hours at 60 ticks per second).
#define FXS_DEFAULT_MAX_TICKS 10000000u
/// Default of fxs_limits.max_agent_ticks: agent slots times ticks one verification may
/// simulate, about four minutes at 1 microsecond per agent update.
#define FXS_DEFAULT_MAX_AGENT_TICKS 256000000u
/// Default of fxs_limits.max_field_cells (1024 x 1024 cells, 8 MiB of world memory).
#define FXS_DEFAULT_MAX_FIELD_CELLS 1048576u
/// Default of fxs_limits.max_nav_cells (1024 x 1024 cells).
#define FXS_DEFAULT_MAX_NAV_CELLS 1048576u
/// Default of fxs_limits.max_nav_search_cells: searches x cells (at most 21 bytes each, 168 MiB).
#define FXS_DEFAULT_MAX_NAV_SEARCH_CELLS 8388608u
/// Default of fxs_limits.max_nav_route_cells: agent slots x waypoints (4 bytes each, 64 MiB).
#define FXS_DEFAULT_MAX_NAV_ROUTE_CELLS 16777216u
/// Default of fxs_limits.max_nav_field_cells: nav_fields x nav_cells, 32 fields of the largest
/// grid (a byte a cell once packed, 32 MiB, and the fields' build memories, 2 of 16 bytes an
/// entry on that grid, 32 MiB: docs/navigation.md, "Memory").
#define FXS_DEFAULT_MAX_NAV_FIELD_CELLS 33554432u
/// Default of fxs_limits.max_bytes (256 MiB).
#define FXS_DEFAULT_MAX_BYTES (256u * 1024u * 1024u)

/// What a reader accepts.
typedef struct fxs_limits {
  uint32_t max_agents;     ///< World agent capacity. Default FXS_DEFAULT_MAX_AGENTS.
  uint32_t max_obstacles;  ///< Obstacle capacity. Default FXS_DEFAULT_MAX_OBJECTS.
  uint32_t max_paths;      ///< Path capacity. Default FXS_DEFAULT_MAX_OBJECTS.
  uint32_t max_path_nodes; ///< Path node capacity. Default FXS_DEFAULT_MAX_PATH_NODES.
  uint32_t max_walls;      ///< Wall capacity. Default FXS_DEFAULT_MAX_OBJECTS.
  uint32_t max_ticks;      ///< Ticks in one replay. Default FXS_DEFAULT_MAX_TICKS.
  uint64_t
      max_agent_ticks; ///< Agent capacity x ticks simulated. Default FXS_DEFAULT_MAX_AGENT_TICKS.
  uint64_t max_bytes;  ///< Size of one replay or snapshot. Default FXS_DEFAULT_MAX_BYTES.
  uint32_t max_field_cells; ///< Flow-field cell capacity. Default FXS_DEFAULT_MAX_FIELD_CELLS.
  uint32_t max_nav_cells;   ///< Navigation cell capacity. Default FXS_DEFAULT_MAX_NAV_CELLS.
  uint64_t
      max_nav_search_cells; ///< nav_searches x nav_cells. Default FXS_DEFAULT_MAX_NAV_SEARCH_CELLS.
  uint64_t
      max_nav_route_cells; ///< agents x nav_waypoints. Default FXS_DEFAULT_MAX_NAV_ROUTE_CELLS.
  uint64_t
      max_nav_field_cells; ///< nav_fields x nav_cells. Default FXS_DEFAULT_MAX_NAV_FIELD_CELLS.
} fxs_limits;

/// The defaults listed on each field.
FXS_API fxs_limits fxs_default_limits(void);

/// Which limit a check tripped: its field name ("max_agents"), the limit and the value
/// that exceeded it.
typedef struct fxs_limit_error {
  const char *field; ///< Name of the fxs_limits field, or NULL when none tripped.
  uint64_t limit;    ///< Its value.
  uint64_t value;    ///< The value asked for.
} fxs_limit_error;

/// FXS_OK when every capacity is within `limits` (NULL: the defaults); else FXS_ERR_LIMIT
/// and, when `error` is not NULL, which one.
FXS_API fxs_result fxs_limits_check_capacity(const fxs_limits *limits,
                                             const struct fxs_world_capacity *capacity,
                                             fxs_limit_error *error);

#ifdef __cplusplus
}
#endif

#endif
