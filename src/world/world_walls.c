#include "world_walls.h"
#include "world_internal.h"

#include <string.h>

#include "world_grid.h"

bool fxs_wall_grid_kept(const fxs_world_capacity *capacity) {
  return capacity->walls >= FXS_WALL_GRID_MIN_WALLS;
}

uint32_t fxs_wall_grid_max_cells(const fxs_world_capacity *capacity) {
  if (!fxs_wall_grid_kept(capacity)) return 0;
  uint32_t n = 4u * capacity->walls; // walls <= FXS_MAX_SMALL_CAPACITY: no overflow
  return n < 64u ? 64u : n;
}

uint32_t fxs_wall_grid_max_entries(const fxs_world_capacity *capacity) {
  return fxs_wall_grid_kept(capacity) ? 16u * capacity->walls : 0u; // < 2^21
}

uint32_t fxs_wall_grid_walls(const fxs_world_capacity *capacity) {
  return fxs_wall_grid_kept(capacity) ? capacity->walls : 0u;
}

// The cells of the wall's bounding box: columns x0..x1, rows y0..y1.
typedef struct cell_span {
  uint32_t x0, y0, x1, y1;
} cell_span;

static cell_span span_of(const fxs_wall_grid *g, const fxs_wall *w) {
  fix16_t lo_x = w->a.x < w->b.x ? w->a.x : w->b.x, hi_x = w->a.x < w->b.x ? w->b.x : w->a.x;
  fix16_t lo_y = w->a.y < w->b.y ? w->a.y : w->b.y, hi_y = w->a.y < w->b.y ? w->b.y : w->a.y;
  cell_span s;
  s.x0 = fxs_grid_coord_shift(lo_x, g->min_x, g->shift, g->w);
  s.x1 = fxs_grid_coord_shift(hi_x, g->min_x, g->shift, g->w);
  s.y0 = fxs_grid_coord_shift(lo_y, g->min_y, g->shift, g->h);
  s.y1 = fxs_grid_coord_shift(hi_y, g->min_y, g->shift, g->h);
  return s;
}

// Whether the walls' boxes meet at most `limit` cells of g in all.
static bool entries_fit(const fxs_wall_grid *g, const fxs_wall *walls, uint32_t live,
                        uint64_t limit) {
  uint64_t entries = 0;
  for (uint32_t i = 0; i < live && entries <= limit; ++i) {
    cell_span s = span_of(g, &walls[i]);
    entries += (uint64_t)(s.x1 - s.x0 + 1u) * (s.y1 - s.y0 + 1u);
  }
  return entries <= limit;
}

fxs_wall_grid fxs_wall_grid_build(fxs_world *world, uint32_t live) {
  const fxs_world_def *d = &world->def;
  const fxs_wall *walls = world->internal->live_walls;
  fxs_wall_grid g;
  g.min_x = d->bounds_min.x, g.min_y = d->bounds_min.y;
  g.shift = 16u, g.w = 0, g.h = 0;
  if (live == 0 || world->internal->wall_max_cells == 0) return g;
  // The finest cells that fit, coarsened while long walls would overflow the entries (one
  // cell holds each wall once, and live <= capacity.walls <= the entries). One unit doubled:
  // always a power of two.
  for (int64_t size = FXS_ONE;; size *= 2) {
    size = fxs_grid_fit(d, size, world->internal->wall_max_cells, &g.w, &g.h);
    while ((INT64_C(1) << g.shift) < size) g.shift++;
    FXS_ASSERT(size == (INT64_C(1) << g.shift));
    if ((g.w == 1u && g.h == 1u) || entries_fit(&g, walls, live, world->internal->wall_max_entries))
      break;
  }
  uint32_t cells = g.w * g.h, *start = world->internal->wall_cell_start;
  uint32_t *first = world->internal->wall_first, *order = world->internal->wall_order;
  memset(start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t i = 0; i < live; ++i) {
    cell_span s = span_of(&g, &walls[i]);
    first[2u * i] = s.x0, first[2u * i + 1u] = s.y0;
    for (uint32_t y = s.y0; y <= s.y1; ++y) {
      for (uint32_t x = s.x0; x <= s.x1; ++x) start[y * g.w + x + 1u]++;
    }
  }
  for (uint32_t c = 0; c < cells; ++c) start[c + 1u] += start[c];
  // start[c] serves as the write cursor of cell c and ends as the start of cell c + 1; the
  // walls go in index order, so each cell lists its walls ascending.
  for (uint32_t i = 0; i < live; ++i) {
    cell_span s = span_of(&g, &walls[i]);
    for (uint32_t y = s.y0; y <= s.y1; ++y) {
      for (uint32_t x = s.x0; x <= s.x1; ++x) order[start[y * g.w + x]++] = i;
    }
  }
  for (uint32_t c = cells; c > 0; --c) start[c] = start[c - 1u];
  start[0] = 0;
  return g;
}

uint32_t fxs_wall_grid_find(const fxs_world *world, const fxs_wall_grid *g, const fxs_box *box,
                            uint32_t *out, uint32_t room) {
  if (g->w == 0) return FXS_ALL_WALLS;
  uint32_t x0 = fxs_grid_coord_shift(box->lo_x, g->min_x, g->shift, g->w);
  uint32_t x1 = fxs_grid_coord_shift(box->hi_x, g->min_x, g->shift, g->w);
  uint32_t y0 = fxs_grid_coord_shift(box->lo_y, g->min_y, g->shift, g->h);
  uint32_t y1 = fxs_grid_coord_shift(box->hi_y, g->min_y, g->shift, g->h);
  const fxs_world_internal *in = world->internal;
  const uint32_t *start = in->wall_cell_start, *first = in->wall_first, *order = in->wall_order;
  uint32_t n = 0;
  for (uint32_t cy = y0; cy <= y1; ++cy) {
    for (uint32_t cx = x0; cx <= x1; ++cx) {
      uint32_t c = cy * g->w + cx;
      for (uint32_t k = start[c]; k < start[c + 1u]; ++k) {
        uint32_t i = order[k];
        // A wall is taken in the first cell of the box it meets (row by row), once.
        uint32_t fx = first[2u * i], fy = first[2u * i + 1u];
        if ((fx > x0 ? fx : x0) != cx || (fy > y0 ? fy : y0) != cy) continue;
        if (n == room) return FXS_ALL_WALLS;
        // Insertion into the ascending list (cells of one box interleave their indices).
        uint32_t at = n++;
        while (at > 0 && out[at - 1u] > i) {
          out[at] = out[at - 1u];
          --at;
        }
        out[at] = i;
      }
    }
  }
  return n;
}

// ORCA's lookup borrows the worker's obstacle list for the indices.
typedef char fxs_near_walls_fit_near_obstacles[FXS_NEAR_WALLS <= FXS_NEAR_OBSTACLES ? 1 : -1];

void fxs_walls_near_orca(const fxs_world *world, const fxs_wall_grid *g, const fxs_agent *a,
                         const fxs_orca_def *def, struct fxs_world_worker *worker, uint32_t chosen,
                         fxs_orca_statics *st, fxs_walls_found *found) {
  *found = fxs_walls_found_none();
  if (st->wall_count == 0 || g->w == 0) return;
  // Above the reach fxs_orca_wall_line tests (it clamps the speed and rounds the product).
  int64_t horizon = def->obstacle_time_horizon > FXS_ONE ? def->obstacle_time_horizon : FXS_ONE;
  int64_t speed = a->max_speed > 0 ? a->max_speed : 0, radius = a->radius > 0 ? a->radius : 0;
  int64_t reach = ((horizon * speed) >> 16) + radius + 2 * (int64_t)FXS_ONE;
  int64_t x = a->position.x, y = a->position.y;
  // The box widened by each neighbor's offset, in locals: a compiler can keep them in
  // registers and select without a branch (a neighbor widens it in no predictable way).
  int64_t lo_x = x - reach, lo_y = y - reach, hi_x = x + reach, hi_y = y + reach;
  for (uint32_t i = 0; i < chosen; ++i) {
    // The offset as ORCA's side rule takes it (orca.c, near_offset).
    fxs_vec2 p = worker->neighbors[i].position;
    int64_t px = x + (fix16_t)((int64_t)p.x - x), py = y + (fix16_t)((int64_t)p.y - y);
    lo_x = px < lo_x ? px : lo_x, hi_x = px > hi_x ? px : hi_x;
    lo_y = py < lo_y ? py : lo_y, hi_y = py > hi_y ? py : hi_y;
  }
  fxs_box box = {lo_x, lo_y, hi_x, hi_y};
  uint32_t n = fxs_wall_grid_find(world, g, &box, worker->near_obstacles, FXS_NEAR_WALLS);
  if (n == FXS_ALL_WALLS) return;
  fxs_wall *out =
      world->internal->near_walls + (size_t)(worker - world->internal->workers) * FXS_NEAR_WALLS;
  for (uint32_t k = 0; k < n; ++k) out[k] = st->walls[worker->near_obstacles[k]];
  st->walls = out, st->wall_count = n;
  found->walls = out, found->count = n, found->box = box;
}
