// A scene file's navigation section (scenario_sections.h, scene_navigation): the grid's shape
// and capacities from the section's keys, or derived from the scene when they are left out.
#include "scenario_sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Defaults of a navigation section (docs/navigation.md).
#define NAV_DEFAULT_BUDGET 4096u
#define NAV_DEFAULT_SEARCHES 4u
#define NAV_DEFAULT_WAYPOINTS 64u
#define NAV_DEFAULT_MAX_CELLS 262144u // 512 x 512: a default cell size grows until it fits

// The largest radius of the agents the file spawns (0 without agents), and whether one of
// them navigates.
static fix16_t largest_radius(const loaded *L, bool *navigates) {
  fix16_t r = 0;
  *navigates = false;
  for (uint32_t i = 0; i < L->event_count; ++i) {
    const fxs_command *cmd = &L->events[i].command;
    if (cmd->type == FXS_CMD_SPAWN && cmd->arg[7] > r) r = cmd->arg[7];
    if (cmd->type == FXS_CMD_ADD_BEHAVIOR && (cmd->ref & 0xFFu) == FXS_BEHAVIOR_NAVIGATE) {
      *navigates = true;
    }
  }
  return r;
}

// Cells of `size` that cover [lo, hi] from lo: ceil((hi - lo) / size), at least 1.
static uint64_t cells_over(fix16_t lo, fix16_t hi, fix16_t size) {
  uint64_t span = (uint64_t)((int64_t)hi - lo);
  uint64_t n = (span + (uint64_t)size - 1u) / (uint64_t)size;
  return n ? n : 1u;
}

// The grid's shape: cells of `size` over the bounds from `origin`; a default size doubles
// until the grid has at most NAV_DEFAULT_MAX_CELLS cells.
static void nav_shape(const loaded *L, fxs_vec2 origin, fix16_t *size, bool sized, uint32_t *w,
                      uint32_t *h) {
  uint64_t columns, rows;
  for (;;) {
    columns = cells_over(origin.x, fxs_max(L->def.bounds_max.x, origin.x), *size);
    rows = cells_over(origin.y, fxs_max(L->def.bounds_max.y, origin.y), *size);
    if (sized || columns * rows <= NAV_DEFAULT_MAX_CELLS || *size > FXS_INT(8192)) break;
    *size *= 2;
  }
  *w = (uint32_t)(columns > FXS_NAV_MAX_SIDE ? FXS_NAV_MAX_SIDE + 1u : columns);
  *h = (uint32_t)(rows > FXS_NAV_MAX_SIDE ? FXS_NAV_MAX_SIDE + 1u : rows);
}

// navigation: every key optional: the grid covers the world's bounds from bounds_min with
// cells of the largest agent radius (4 units when no agent has one; doubled until at most
// 512 x 512 cells), radius the largest agent radius, budget 4096 cells a tick, 4 searches, 64
// waypoints, no integration fields for groups; open-list entries one a cell here, which the
// loader lowers to (4 cells + 4) / 5 when `open` is left out (scenario_file.c: no search can
// hold more). A file whose agents navigate and that has no section gets these defaults.
bool scene_navigation(ctx *c, const ynode *n) {
  loaded *L = c->L;
  bool navigates;
  fix16_t radius = largest_radius(L, &navigates);
  if (!n && !navigates) return true;
  static const char *const keys[] = {"cell_size", "origin", "columns",  "rows",
                                     "radius",    "budget", "searches", "waypoints",
                                     "open",      "fields", "kind",     0};
  if (n && !sr_only_keys(c, n, "navigation", keys)) return false;
  const ynode *x;
  if ((x = sr_get(c, n, "kind"))) { // grid (the default) or mesh (docs/navigation.md)
    const char *kind = sr_text(c, x);
    if (!kind || (strcmp(kind, "grid") != 0 && strcmp(kind, "mesh") != 0))
      return sr_fail(c, x, "navigation: kind must be grid or mesh");
    L->nav_mesh = strcmp(kind, "mesh") == 0;
    if (L->nav_mesh && !FXS_NAV_MESH)
      return sr_fail(c, x,
                     "navigation: kind mesh: this build leaves mesh worlds out (FXS_NAV_MESH 0)");
  }
  fxs_vec2 origin = L->def.bounds_min;
  // Cells of the largest radius whatever the unit of length (4 units only without a body to
  // measure): a scene scaled by K gets cells scaled by K.
  fix16_t size = radius > 0 ? radius : FXS_INT(4);
  bool sized = false;
  if ((x = sr_get(c, n, "origin")) && !sr_vec2(c, x, "origin", &origin)) return false;
  if ((x = sr_get(c, n, "cell_size"))) {
    if (!sr_fix16(c, x, "cell_size", &size)) return false;
    if (size <= 0) return sr_fail(c, x, "navigation: cell_size must be greater than 0");
    sized = true;
  }
  uint32_t w, h;
  nav_shape(L, origin, &size, sized, &w, &h);
  uint32_t budget = NAV_DEFAULT_BUDGET, searches = NAV_DEFAULT_SEARCHES;
  uint32_t waypoints = NAV_DEFAULT_WAYPOINTS;
  if ((x = sr_get(c, n, "columns")) && !sr_u32(c, x, "columns", FXS_NAV_MAX_SIDE, &w)) return false;
  if ((x = sr_get(c, n, "rows")) && !sr_u32(c, x, "rows", FXS_NAV_MAX_SIDE, &h)) return false;
  if ((x = sr_get(c, n, "radius"))) {
    if (!sr_fix16(c, x, "radius", &radius)) return false;
    if (radius < 0) return sr_fail(c, x, "navigation: radius must not be negative");
  }
  if ((x = sr_get(c, n, "budget")) && !sr_u32(c, x, "budget", FXS_NAV_MAX_BUDGET, &budget)) {
    return false;
  }
  if ((x = sr_get(c, n, "searches")) &&
      !sr_u32(c, x, "searches", FXS_NAV_MAX_SEARCHES, &searches)) {
    return false;
  }
  if ((x = sr_get(c, n, "waypoints")) &&
      !sr_u32(c, x, "waypoints", FXS_NAV_MAX_WAYPOINTS, &waypoints)) {
    return false;
  }
  if (budget < 1 || searches < 1 || waypoints < 2) {
    return sr_fail(c, n,
                   "navigation: budget and searches must be at least 1, waypoints at least 2");
  }
  fxs_result r = fxs_nav_grid_check(origin, size, w, h);
  if (r != FXS_OK) {
    return sr_fail(c, n,
                   "navigation: a grid of %u x %u cells of %.5f units from (%.5f, %.5f) is %s "
                   "(at most %u a side and %u cells, inside the Q16.16 range)",
                   w, h, size / 65536.0, origin.x / 65536.0, origin.y / 65536.0,
                   r == FXS_ERR_LIMIT ? "too large" : "out of range", FXS_NAV_MAX_SIDE,
                   FXS_NAV_MAX_CELLS);
  }
  uint32_t fields = 0;
  if ((x = sr_get(c, n, "fields")) && !sr_u32(c, x, "fields", FXS_NAV_MAX_FIELDS, &fields)) {
    return false;
  }
  uint32_t open = w * h;
  if ((x = sr_get(c, n, "open")) && !sr_u32(c, x, "open", FXS_NAV_MAX_CELLS, &open)) return false;
  if (open < 1 || open > w * h) {
    return sr_fail(c, x, "navigation: open must lie in [1, columns x rows]");
  }
  fxs_command *cmd = sr_add_event(c, 0, FXS_CMD_SET_NAV_GRID, 1);
  if (!cmd) return false;
  *cmd = fxs_command_set_nav_grid(origin, size, w, h, radius, budget);
  cmd->source = 1;
  L->nav_cells = w * h, L->nav_searches = searches, L->nav_waypoints = waypoints;
  L->nav_columns = w, L->nav_rows = h;
  L->nav_open = open, L->nav_fields = fields;
  return true;
}
