#include "world_grid.h"

#include <string.h>

// Two workers' neighbor lists never share a cache line.
typedef char fxs_worker_size_is_a_multiple_of_64[(sizeof(fxs_world_worker) % 64u) == 0 ? 1 : -1];

uint32_t fxs_grid_max_cells(const fxs_world_capacity *capacity) {
  uint32_t n = 2u * capacity->agents; // agents <= FXS_MAX_AGENTS: no overflow
  return n < 64u ? 64u : n;
}

fxs_grid fxs_grid_of(const fxs_world *world) {
  fxs_grid g;
  const fxs_world_def *d = &world->def;
  int64_t width = (int64_t)d->bounds_max.x - d->bounds_min.x;
  int64_t height = (int64_t)d->bounds_max.y - d->bounds_min.y;
  if (width < 1) width = 1;
  if (height < 1) height = 1;
  g.min_x = d->bounds_min.x, g.min_y = d->bounds_min.y;
  g.size = d->neighbor_radius / 2 > FXS_ONE ? d->neighbor_radius / 2 : FXS_ONE;
  for (;;) {
    uint64_t w = (uint64_t)((width + g.size - 1) / g.size);
    uint64_t h = (uint64_t)((height + g.size - 1) / g.size);
    if (w * h <= world->grid_max_cells) {
      g.w = (uint32_t)w, g.h = (uint32_t)h;
      return g;
    }
    g.size *= 2;
  }
}

// Cell coordinate of a raw coordinate: monotone, clamped into [0, cells - 1].
static uint32_t cell_coord(int64_t v, int64_t min, int64_t size, uint32_t cells) {
  int64_t c = v < min ? 0 : (v - min) / size;
  return c >= (int64_t)cells ? cells - 1u : (uint32_t)c;
}

static uint32_t cell_of(const fxs_grid *g, fxs_vec2 p) {
  return cell_coord(p.y, g->min_y, g->size, g->h) * g->w + cell_coord(p.x, g->min_x, g->size, g->w);
}

// A counting sort: stable, so agents of one cell stay in slot order.
void fxs_grid_sort(fxs_world *world, const fxs_grid *g) {
  uint32_t cells = g->w * g->h, n = 0;
  uint32_t *start = world->cell_start;
  memset(start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    if (!world->agents[i].alive) continue;
    uint32_t c = cell_of(g, world->agents[i].body.position);
    world->live_slot[n] = i;
    world->live_cell[n++] = c;
    start[c + 1u]++;
  }
  for (uint32_t c = 0; c < cells; ++c) start[c + 1u] += start[c];
  // start[c] now counts the agents of the cells before c; it serves as the write cursor of
  // cell c and ends as the start of cell c + 1, so it is shifted back afterwards.
  for (uint32_t k = 0; k < n; ++k) {
    world->view_slot[start[world->live_cell[k]]++] = world->live_slot[k];
  }
  for (uint32_t c = cells; c > 0; --c) start[c] = start[c - 1u];
  start[0] = 0;
  world->view_count = n;
}

void fxs_grid_copy_view(fxs_world *world, uint32_t begin, uint32_t end) {
  for (uint32_t v = begin; v < end; ++v) {
    const fxs_agent *a = &world->agents[world->view_slot[v]].body;
    world->view_position[v] = a->position;
    world->view_velocity[v] = a->velocity;
  }
}

// Inserts a candidate into the list of the nearest, sorted by (squared distance, slot).
static void offer(fxs_world_candidate *list, uint32_t *n, fxs_world_candidate c) {
  uint32_t at = *n;
  if (at == FXS_MAX_NEIGHBORS) {
    const fxs_world_candidate *far = &list[at - 1u];
    if (c.dist_sq > far->dist_sq || (c.dist_sq == far->dist_sq && c.slot > far->slot)) return;
    --at; // replaces the farthest
  } else {
    ++*n;
  }
  while (at > 0 && (list[at - 1u].dist_sq > c.dist_sq ||
                    (list[at - 1u].dist_sq == c.dist_sq && list[at - 1u].slot > c.slot))) {
    list[at] = list[at - 1u];
    --at;
  }
  list[at] = c;
}

// True once the list holds FXS_MAX_NEIGHBORS agents on the very spot: nothing left can
// enter it. Agents on one spot share one cell, which lists them in slot order, so every
// later one has a higher slot. This bounds the cost of a crowd piled on one point.
static bool full_on_the_spot(const fxs_world_candidate *list, uint32_t n) {
  return n == FXS_MAX_NEIGHBORS && list[n - 1u].dist_sq == 0;
}

// Offers every agent of view entries [begin, end) within radius r of p, except entry self.
// Returns false when the search can stop (full_on_the_spot).
static bool scan(const fxs_world *world, uint32_t begin, uint32_t end, uint32_t self, fxs_vec2 p,
                 int64_t r, fxs_world_candidate *list, uint32_t *n) {
  const fxs_vec2 *pos = world->view_position;
  uint64_t r2 = (uint64_t)r * (uint64_t)r, width = 2u * (uint64_t)r;
  for (uint32_t j = begin; j < end; ++j) {
    int64_t dx = (int64_t)pos[j].x - p.x, dy = (int64_t)pos[j].y - p.y;
    // |dx| <= r and |dy| <= r, one unsigned comparison each
    if ((uint64_t)(dx + r) > width || (uint64_t)(dy + r) > width) continue;
    fxs_world_candidate c;
    c.dist_sq = (uint64_t)(dx * dx) + (uint64_t)(dy * dy); // each square <= r^2 < 2^62
    if (c.dist_sq > r2 || j == self) continue;
    c.slot = world->view_slot[j];
    c.view = j;
    offer(list, n, c);
    if (c.dist_sq == 0 && full_on_the_spot(list, *n)) return false;
  }
  return true;
}

uint32_t fxs_grid_neighbors(const fxs_world *world, const fxs_grid *g, uint32_t v,
                            fxs_world_worker *out) {
  int64_t r = world->def.neighbor_radius;
  if (r < 0) return 0; // no distance is within a negative radius
  fxs_vec2 p = world->view_position[v];
  uint32_t x0 = cell_coord((int64_t)p.x - r, g->min_x, g->size, g->w);
  uint32_t x1 = cell_coord((int64_t)p.x + r, g->min_x, g->size, g->w);
  uint32_t y0 = cell_coord((int64_t)p.y - r, g->min_y, g->size, g->h);
  uint32_t y1 = cell_coord((int64_t)p.y + r, g->min_y, g->size, g->h);
  uint32_t n = 0;
  // The cells x0..x1 of one row are consecutive in the view: one run per row.
  for (uint32_t cy = y0; cy <= y1; ++cy) {
    uint32_t row = cy * g->w;
    if (!scan(world, world->cell_start[row + x0], world->cell_start[row + x1 + 1u], v, p, r,
              out->nearest, &n)) {
      break;
    }
  }
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_world_candidate *c = &out->nearest[k];
    fxs_neighbor *nb = &out->neighbors[k];
    nb->position = world->view_position[c->view];
    nb->velocity = world->view_velocity[c->view];
    nb->id = c->slot;
    out->dist_sq[k] = c->dist_sq;
  }
  return n;
}
