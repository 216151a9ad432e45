#include "world_obstacles.h"
#include "world_internal.h"

#include <string.h>

#include "world_grid.h"

uint32_t fxs_obstacle_grid_max_cells(const fxs_world_capacity *capacity) {
  uint32_t n = 2u * capacity->obstacles; // obstacles <= FXS_MAX_SMALL_CAPACITY: no overflow
  return n < 16u ? 16u : n;
}

static uint32_t cell_of(const fxs_obstacle_grid *g, fxs_vec2 p) {
  return fxs_grid_coord(p.y, g->min_y, g->size, g->h) * g->w +
         fxs_grid_coord(p.x, g->min_x, g->size, g->w);
}

// Cells as wide as the largest obstacle, coarsened until they fit.
static fxs_obstacle_grid shape(const fxs_world *world, fix16_t max_radius) {
  const fxs_world_def *d = &world->def;
  fxs_obstacle_grid g;
  g.min_x = d->bounds_min.x, g.min_y = d->bounds_min.y;
  g.max_radius = max_radius;
  g.size = fxs_grid_fit(d, max_radius > FXS_ONE ? max_radius : FXS_ONE,
                        world->internal->obstacle_max_cells, &g.w, &g.h);
  return g;
}

// A counting sort by cell: stable, so each cell lists its obstacles in index order.
fxs_obstacle_grid fxs_obstacle_grid_build(fxs_world *world, uint32_t live) {
  const fxs_obstacle *o = world->internal->live_obstacles;
  fix16_t max_radius = 0;
  for (uint32_t i = 0; i < live; ++i) {
    if (o[i].radius > max_radius) max_radius = o[i].radius;
  }
  fxs_obstacle_grid g = shape(world, max_radius);
  uint32_t cells = g.w * g.h, *start = world->internal->obstacle_cell_start;
  uint32_t *order = world->internal->obstacle_order;
  memset(start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t i = 0; i < live; ++i) start[cell_of(&g, o[i].center) + 1u]++;
  for (uint32_t c = 0; c < cells; ++c) start[c + 1u] += start[c];
  // start[c] serves as the write cursor of cell c and ends as the start of cell c + 1.
  for (uint32_t i = 0; i < live; ++i) order[start[cell_of(&g, o[i].center)]++] = i;
  for (uint32_t c = cells; c > 0; --c) start[c] = start[c - 1u];
  start[0] = 0;
  return g;
}

uint32_t fxs_obstacle_grid_find(const fxs_world *world, const fxs_obstacle_grid *g,
                                const fxs_box *box, uint32_t *out, uint32_t room) {
  uint32_t x0 = fxs_grid_coord(box->lo_x, g->min_x, g->size, g->w);
  uint32_t x1 = fxs_grid_coord(box->hi_x, g->min_x, g->size, g->w);
  uint32_t y0 = fxs_grid_coord(box->lo_y, g->min_y, g->size, g->h);
  uint32_t y1 = fxs_grid_coord(box->hi_y, g->min_y, g->size, g->h);
  const uint32_t *start = world->internal->obstacle_cell_start;
  const uint32_t *order = world->internal->obstacle_order;
  uint32_t n = 0;
  // The cells x0..x1 of one row are consecutive: one run of the order per row.
  for (uint32_t cy = y0; cy <= y1; ++cy) {
    uint32_t first = start[cy * g->w + x0], end = start[cy * g->w + x1 + 1u];
    if (end - first > room - n) return FXS_ALL_OBSTACLES;
    for (uint32_t k = first; k < end; ++k) {
      // Insertion into the ascending list (runs of later rows interleave with earlier ones).
      uint32_t i = order[k], at = n++;
      while (at > 0 && out[at - 1u] > i) {
        out[at] = out[at - 1u];
        --at;
      }
      out[at] = i;
    }
  }
  return n;
}
