#include "world_nav_raster.h"
#include "world_internal.h"

#include <string.h>

#include "nav_grid_spans.h"
#include "world_nav_aims.h"

// What a run does to the cells it covers.
typedef struct run_context {
  uint32_t *cover;
  uint8_t *cost;
  const uint8_t *base;
  uint32_t width;
  uint16_t *blocked; // the blocked counts (fxs_world_nav_blocked), or NULL
  uint32_t blocks_wide;
} run_context;

size_t fxs_world_nav_cover_words(uint32_t cells) {
  return (size_t)cells + (fxs_world_nav_sight_blocks(cells) + 1u) / 2u +
         fxs_world_nav_sight_sums(cells);
}

uint16_t *fxs_world_nav_blocked(const fxs_world *world) {
  uint32_t cells = world->capacity.nav_cells;
  if (fxs_world_nav_sight_blocks(cells) == 0) return 0;
  return (uint16_t *)(void *)(world->internal->nav.raster->cover + cells);
}

uint32_t *fxs_world_nav_blocked_sums(const fxs_world *world) {
  uint32_t cells = world->capacity.nav_cells, blocks = fxs_world_nav_sight_blocks(cells);
  if (blocks == 0) return 0;
  return world->internal->nav.raster->cover + cells + (blocks + 1u) / 2u;
}

// The sides' bound of fxs_world_nav_sight_blocks: w + h <= it for any grid of at most `cells`
// cells (each side at most FXS_NAV_MAX_SIDE, below cells).
static uint64_t sides_bound(uint32_t cells) {
  return FXS_NAV_MAX_SIDE + cells / FXS_NAV_MAX_SIDE + 2u;
}

uint32_t fxs_world_nav_sight_sums(uint32_t cells) {
  uint32_t blocks = fxs_world_nav_sight_blocks(cells);
  if (blocks == 0) return 0;
  // (wide + 1)(high + 1) = wide high + wide + high + 1, with wide high <= blocks and
  // wide + high <= (w + h + 2 (B - 1)) / B.
  const uint64_t b = FXS_NAV_SIGHT_BLOCK;
  return blocks + (uint32_t)((sides_bound(cells) + 2u * (b - 1u)) / b) + 1u;
}

uint32_t fxs_world_nav_sight_blocks(uint32_t cells) {
  if (cells < FXS_NAV_SIGHT_MIN_CELLS) return 0;
  // A grid of w x h <= cells cells (each side at most FXS_NAV_MAX_SIDE, below cells) has
  // ceil(w / B) ceil(h / B) <= (w h + (B - 1)(w + h) + (B - 1)^2) / B^2 blocks, and
  // w + h <= FXS_NAV_MAX_SIDE + ceil(cells / FXS_NAV_MAX_SIDE).
  const uint64_t b = FXS_NAV_SIGHT_BLOCK;
  uint64_t sides = sides_bound(cells);
  return (uint32_t)(((uint64_t)cells + (b - 1u) * sides + (b - 1u) * (b - 1u)) / (b * b) + 1u);
}

// The blocked counts of the row of blocks holding row cy of the grid, or NULL.
static uint16_t *blocks_row(const run_context *k, uint32_t cy) {
  if (!k->blocked) return 0;
  return k->blocked + (size_t)(cy >> FXS_NAV_SIGHT_BLOCK_BITS) * k->blocks_wide;
}

// The cost of cell `at` (column x) becomes c: its block's count follows.
static inline void set_cost(const run_context *k, uint16_t *blocks, size_t at, uint32_t x,
                            uint8_t c) {
  if (blocks) {
    uint16_t *b = &blocks[x >> FXS_NAV_SIGHT_BLOCK_BITS];
    *b = (uint16_t)(*b + (c == FXS_NAV_BLOCKED) - (k->cost[at] == FXS_NAV_BLOCKED));
  }
  k->cost[at] = c;
}

static void add_run(void *context, uint32_t cy, uint32_t c0, uint32_t c1) {
  run_context *k = (run_context *)context;
  size_t row = (size_t)cy * k->width;
  uint16_t *blocks = blocks_row(k, cy);
  // Every cell of the run is blocked now: the counts go up and the costs to 0, each a plain
  // loop the compiler can vectorize (a loop of set_cost where blocks are counted).
  for (size_t i = row + c0; i <= row + c1; ++i) k->cover[i]++;
  if (!blocks) {
    memset(k->cost + row + c0, FXS_NAV_BLOCKED, (size_t)(c1 - c0) + 1u);
    return;
  }
  for (uint32_t x = c0; x <= c1; ++x) set_cost(k, blocks, row + x, x, FXS_NAV_BLOCKED);
}

static void remove_run(void *context, uint32_t cy, uint32_t c0, uint32_t c1) {
  run_context *k = (run_context *)context;
  size_t row = (size_t)cy * k->width;
  uint16_t *blocks = blocks_row(k, cy);
  // The run's cells were blocked (cost 0): those no other shape covers get their base back.
  for (uint32_t x = c0; x <= c1; ++x) {
    uint32_t left = --k->cover[row + x];
    set_cost(k, blocks, row + x, x, left != 0 ? (uint8_t)FXS_NAV_BLOCKED : k->base[row + x]);
  }
}

static run_context context_of(fxs_world *world) {
  run_context k;
  fxs_nav_raster *t = world->internal->nav.raster;
  k.cover = t->cover;
  k.cost = world->nav.grid.cost;
  k.base = world->nav.base;
  k.width = world->nav.grid.width;
  k.blocked = fxs_world_nav_blocked(world);
  k.blocks_wide = fxs_world_nav_blocks_wide(k.width);
  return k;
}

// The blocked counts taken afresh from grid.cost (a full rasterization's start).
static void count_blocks(fxs_world *world) {
  uint16_t *blocked = fxs_world_nav_blocked(world);
  const fxs_nav_grid *g = &world->nav.grid;
  if (!blocked) return;
  uint32_t wide = fxs_world_nav_blocks_wide(g->width), high = fxs_world_nav_blocks_wide(g->height);
  memset(blocked, 0, (size_t)wide * high * sizeof *blocked);
  for (uint32_t y = 0; y < g->height; ++y) {
    uint16_t *blocks = blocked + (size_t)(y >> FXS_NAV_SIGHT_BLOCK_BITS) * wide;
    const uint8_t *row = g->cost + (size_t)y * g->width;
    for (uint32_t x = 0; x < g->width; ++x)
      blocks[x >> FXS_NAV_SIGHT_BLOCK_BITS] += row[x] == FXS_NAV_BLOCKED;
  }
}

// The blocked counts' sums taken again from the counts (after any update that may have
// changed one: a few thousand additions).
static void sum_blocks(fxs_world *world) {
  const uint16_t *blocked = fxs_world_nav_blocked(world);
  uint32_t *sums = fxs_world_nav_blocked_sums(world);
  const fxs_nav_grid *g = &world->nav.grid;
  if (!blocked) return;
  uint32_t wide = fxs_world_nav_blocks_wide(g->width), high = fxs_world_nav_blocks_wide(g->height);
  uint32_t across = wide + 1u;
  for (uint32_t bx = 0; bx <= wide; ++bx) sums[bx] = 0;
  for (uint32_t by = 0; by < high; ++by) {
    uint32_t *above = sums + (size_t)by * across, *row = above + across, left = 0;
    row[0] = 0;
    for (uint32_t bx = 0; bx < wide; ++bx) {
      left += blocked[(size_t)by * wide + bx];
      row[bx + 1u] = above[bx + 1u] + left;
    }
  }
}

void fxs_world_nav_raster_reset(fxs_world *world) {
  if (world->internal->nav.raster) world->internal->nav.raster->valid = 0;
}

void fxs_world_nav_raster_base_changed(fxs_world *world, uint32_t x, uint32_t y, uint32_t w,
                                       uint32_t h) {
  fxs_nav_raster *t = world->internal->nav.raster;
  uint32_t x1 = x + w - 1u, y1 = y + h - 1u;
  if (!t->base_changed) {
    t->base_changed = 1, t->bx0 = x, t->by0 = y, t->bx1 = x1, t->by1 = y1;
    return;
  }
  if (x < t->bx0) t->bx0 = x;
  if (y < t->by0) t->by0 = y;
  if (x1 > t->bx1) t->bx1 = x1;
  if (y1 > t->by1) t->by1 = y1;
}

static bool same_shape(const fxs_nav_raster *t, const fxs_world_nav *n) {
  return t->valid && fxs_vec2_equal(t->origin, n->grid.origin) &&
         t->cell_size == n->grid.cell_size && t->width == n->grid.width &&
         t->height == n->grid.height && t->radius == n->radius;
}

// Every live shape rasterized afresh over the base costs (slot order; the order is free).
static void rebuild(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  fxs_nav_raster *t = world->internal->nav.raster;
  size_t cells = (size_t)n->grid.width * n->grid.height;
  memset(t->cover, 0, cells * sizeof *t->cover);
  memcpy(n->grid.cost, n->base, cells);
  count_blocks(world);
  run_context k = context_of(world);
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    t->wall_on[i] = world->wall_alive[i] ? 1u : 0u;
    if (!t->wall_on[i]) continue;
    t->walls[i] = world->walls[i];
    fxs_nav_grid_wall_spans(&n->grid, &t->walls[i], n->radius, add_run, &k);
  }
  for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
    t->obstacle_on[i] = world->obstacle_alive[i] ? 1u : 0u;
    if (!t->obstacle_on[i]) continue;
    t->obstacles[i] = world->obstacles[i];
    fxs_nav_grid_obstacle_spans(&n->grid, &t->obstacles[i], n->radius, add_run, &k);
  }
  t->origin = n->grid.origin, t->cell_size = n->grid.cell_size;
  t->width = n->grid.width, t->height = n->grid.height, t->radius = n->radius;
  t->base_changed = 0;
  t->valid = 1;
  t->revision++;
  sum_blocks(world);
}

static bool same_wall(const fxs_wall *a, const fxs_wall *b) {
  return fxs_vec2_equal(a->a, b->a) && fxs_vec2_equal(a->b, b->b);
}

static bool same_obstacle(const fxs_obstacle *a, const fxs_obstacle *b) {
  return fxs_vec2_equal(a->center, b->center) && a->radius == b->radius;
}

// The slots whose shape differs from the one rasterized: the old one out, the new one in.
// True when there was one.
static bool update_shapes(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  fxs_nav_raster *t = world->internal->nav.raster;
  run_context k = context_of(world);
  bool changed = false;
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    bool alive = world->wall_alive[i] != 0;
    if (alive == (t->wall_on[i] != 0) && (!alive || same_wall(&t->walls[i], &world->walls[i]))) {
      continue;
    }
    changed = true;
    if (t->wall_on[i]) fxs_nav_grid_wall_spans(&n->grid, &t->walls[i], n->radius, remove_run, &k);
    t->wall_on[i] = alive ? 1u : 0u;
    if (!alive) continue;
    t->walls[i] = world->walls[i];
    fxs_nav_grid_wall_spans(&n->grid, &t->walls[i], n->radius, add_run, &k);
  }
  for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
    bool alive = world->obstacle_alive[i] != 0;
    if (alive == (t->obstacle_on[i] != 0) &&
        (!alive || same_obstacle(&t->obstacles[i], &world->obstacles[i]))) {
      continue;
    }
    changed = true;
    if (t->obstacle_on[i]) {
      fxs_nav_grid_obstacle_spans(&n->grid, &t->obstacles[i], n->radius, remove_run, &k);
    }
    t->obstacle_on[i] = alive ? 1u : 0u;
    if (!alive) continue;
    t->obstacles[i] = world->obstacles[i];
    fxs_nav_grid_obstacle_spans(&n->grid, &t->obstacles[i], n->radius, add_run, &k);
  }
  return changed;
}

// The changed base block read again: blocked where a shape covers the cell, base elsewhere.
// True when a cell's cost differs from what it was.
static bool update_base(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  fxs_nav_raster *t = world->internal->nav.raster;
  if (!t->base_changed) return false;
  t->base_changed = 0;
  uint32_t x1 = t->bx1 < n->grid.width ? t->bx1 : n->grid.width - 1u;
  uint32_t y1 = t->by1 < n->grid.height ? t->by1 : n->grid.height - 1u;
  uint8_t differ = 0; // any bit set: a cell changed (or-ed, no branch: the loops vectorize)
  run_context k = context_of(world);
  for (uint32_t y = t->by0; y <= y1; ++y) {
    size_t row = (size_t)y * n->grid.width;
    uint8_t in_row = 0;
    for (size_t i = row + t->bx0; i <= row + x1; ++i) {
      uint8_t c = t->cover[i] != 0 ? (uint8_t)FXS_NAV_BLOCKED : n->base[i];
      in_row |= (uint8_t)(c ^ n->grid.cost[i]);
    }
    differ |= in_row;
    if (in_row == 0) continue; // the row as it was (a restore of the same map: every row)
    uint16_t *blocks = blocks_row(&k, y);
    for (uint32_t x = t->bx0; x <= x1; ++x) {
      uint8_t c = t->cover[row + x] != 0 ? (uint8_t)FXS_NAV_BLOCKED : n->base[row + x];
      set_cost(&k, blocks, row + x, x, c);
    }
  }
  return differ != 0;
}

void fxs_world_nav_raster_update(fxs_world *world) {
  fxs_world_nav *n = &world->nav;
  world->internal->nav.dirty = 0;
  fxs_world_nav_aims_forget(world); // the aims see through the costs
  if (n->grid.width == 0) return;
  if (!same_shape(world->internal->nav.raster, n)) {
    rebuild(world);
    return;
  }
  bool shapes = update_shapes(world);
  bool base = update_base(world);
  if (shapes || base) {
    world->internal->nav.raster->revision++;
    sum_blocks(world);
  }
}
