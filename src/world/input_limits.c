#include "fixsteer/input_limits.h"

#include "world_nav_mesh.h"

#include "fixsteer/world.h"

fxs_limits fxs_default_limits(void) {
  fxs_limits l;
  l.max_agents = FXS_DEFAULT_MAX_AGENTS;
  l.max_obstacles = FXS_DEFAULT_MAX_OBJECTS;
  l.max_paths = FXS_DEFAULT_MAX_OBJECTS;
  l.max_path_nodes = FXS_DEFAULT_MAX_PATH_NODES;
  l.max_walls = FXS_DEFAULT_MAX_OBJECTS;
  l.max_ticks = FXS_DEFAULT_MAX_TICKS;
  l.max_agent_ticks = FXS_DEFAULT_MAX_AGENT_TICKS;
  l.max_bytes = FXS_DEFAULT_MAX_BYTES;
  l.max_field_cells = FXS_DEFAULT_MAX_FIELD_CELLS;
  l.max_nav_cells = FXS_DEFAULT_MAX_NAV_CELLS;
  l.max_nav_field_cells = FXS_DEFAULT_MAX_NAV_FIELD_CELLS;
  l.max_nav_search_cells = FXS_DEFAULT_MAX_NAV_SEARCH_CELLS;
  l.max_nav_route_cells = FXS_DEFAULT_MAX_NAV_ROUTE_CELLS;
  return l;
}

static fxs_result tripped(fxs_limit_error *error, const char *field, uint64_t limit,
                          uint64_t value) {
  if (error) error->field = field, error->limit = limit, error->value = value;
  return FXS_ERR_LIMIT;
}

fxs_result fxs_limits_check_capacity(const fxs_limits *limits, const fxs_world_capacity *c,
                                     fxs_limit_error *error) {
  fxs_limits d = fxs_default_limits();
  const fxs_limits *l = limits ? limits : &d;
  if (error) error->field = 0, error->limit = 0, error->value = 0;
  if (c->agents > l->max_agents) return tripped(error, "max_agents", l->max_agents, c->agents);
  if (c->obstacles > l->max_obstacles) {
    return tripped(error, "max_obstacles", l->max_obstacles, c->obstacles);
  }
  if (c->paths > l->max_paths) return tripped(error, "max_paths", l->max_paths, c->paths);
  if (c->path_nodes > l->max_path_nodes) {
    return tripped(error, "max_path_nodes", l->max_path_nodes, c->path_nodes);
  }
  if (c->walls > l->max_walls) return tripped(error, "max_walls", l->max_walls, c->walls);
  if (c->field_cells > l->max_field_cells) {
    return tripped(error, "max_field_cells", l->max_field_cells, c->field_cells);
  }
  // A mesh world's vertices count as cells (a search keeps about 2 triangles a vertex).
  uint32_t cells = fxs_world_is_mesh(c) ? fxs_world_mesh_vertices(c) : c->nav_cells;
  if (cells > l->max_nav_cells) return tripped(error, "max_nav_cells", l->max_nav_cells, cells);
  uint64_t search_cells = (uint64_t)c->nav_searches * cells;
  if (search_cells > l->max_nav_search_cells) {
    return tripped(error, "max_nav_search_cells", l->max_nav_search_cells, search_cells);
  }
  uint64_t route_cells = cells ? (uint64_t)c->agents * c->nav_waypoints : 0;
  if (route_cells > l->max_nav_route_cells) {
    return tripped(error, "max_nav_route_cells", l->max_nav_route_cells, route_cells);
  }
  uint64_t field_cells = (uint64_t)c->nav_fields * cells; // a mesh: its vertices
  if (field_cells > l->max_nav_field_cells) {
    return tripped(error, "max_nav_field_cells", l->max_nav_field_cells, field_cells);
  }
  return FXS_OK;
}
