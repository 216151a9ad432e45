#include "world_nav_aims.h"
#include "world_internal.h"

#include "fixsteer/nav_field.h"
#include "fixsteer/nav_path.h"
#include "nav_grid_cell.h"
#include "nav_sight.h"
#include "nav_state.h"
#include "world_nav_fields.h"
#include "world_nav_raster.h"
#include "world_prefetch.h"
#include "world_step.h"

// The cell one step in direction dir (0..7, nav_grid.h: E, N, W, S, NE, NW, SW, SE) from
// cell `at` of a width-w grid (a direction never leads off the grid).
static inline uint32_t next_cell(uint32_t at, uint32_t dir, uint32_t w) {
  static const int8_t dx[FXS_NAV_DIRECTIONS] = {1, 0, -1, 0, 1, -1, -1, 1};
  static const int8_t dy[FXS_NAV_DIRECTIONS] = {0, 1, 0, -1, 1, 1, -1, -1};
  return (uint32_t)((int32_t)at + dx[dir] + dy[dir] * (int32_t)w);
}

// floor(p / 2^32).
static inline int64_t floor_2_32(int64_t p) {
  return p >= 0 ? p >> 32 : -(int64_t)(((uint64_t)-p + UINT32_MAX) >> 32);
}

// True when no cell the walk from (x0, y0) to (x1, y1) can touch is blocked, by the raster's
// blocked counts (world_nav_raster.h): at once when the counts' sums show the box of blocks
// of the two cells without a blocked cell; else for each row of blocks, the columns the line
// crosses from a row before the blocks' rows to a row after them, a column more on each side (each
// column within a cell of the line's, and a touched cell within half a cell of the line),
// held to the box of the two cells; every block there without a blocked cell. False answers
// nothing: the walk decides.
// The line's column at a row y, x0 + (y - y0) dx / dy toward zero (c), is found without a
// division a row: x0 + floor((y - y0) m / 2^32), with m = dx 2^32 / dy toward zero, is c or
// c - 1 (its error, below 2^16 / 2^32, is less than the 1 / |dy| between a column that is not
// whole and a whole one), so the range takes one column more on the right. The rows lie
// within 2^15 + 17 of y0 and |dx| < 2^15: the product stays below 2^63.
static bool blocks_clear(const uint16_t *blocked, const uint32_t *sums, uint32_t wide, uint32_t x0,
                         uint32_t y0, uint32_t x1, uint32_t y1) {
  const uint32_t bits = FXS_NAV_SIGHT_BLOCK_BITS, side = FXS_NAV_SIGHT_BLOCK;
  int64_t xmin = x0 < x1 ? x0 : x1, xmax = x0 < x1 ? x1 : x0;
  uint32_t ymin = y0 < y1 ? y0 : y1, ymax = y0 < y1 ? y1 : y0;
  // The box of the two cells' blocks holds every block read below: without a blocked cell
  // (its sum), the line is clear at once.
  size_t across = (size_t)wide + 1u, by0 = ymin >> bits, by1 = (ymax >> bits) + 1u;
  size_t bx0 = (size_t)xmin >> bits, bx1 = ((size_t)xmax >> bits) + 1u;
  if (sums[by1 * across + bx1] - sums[by0 * across + bx1] - sums[by1 * across + bx0] +
          sums[by0 * across + bx0] ==
      0) {
    return true;
  }
  int64_t slope = 0;
  if (y0 != y1) slope = ((int64_t)x1 - x0) * ((int64_t)1 << 32) / ((int64_t)y1 - y0);
  for (uint32_t by = ymin >> bits; by <= ymax >> bits; ++by) {
    int64_t a = xmin, b = xmax;
    if (y0 != y1) {
      int64_t top = (int64_t)(by << bits) - 1 - y0, bottom = (int64_t)(by << bits) + side - y0;
      int64_t ca = x0 + floor_2_32(top * slope), cb = x0 + floor_2_32(bottom * slope);
      a = (ca < cb ? ca : cb) - 1, b = (ca < cb ? cb : ca) + 2;
      if (a < xmin) a = xmin;
      if (b > xmax) b = xmax;
    }
    const uint16_t *row = blocked + (size_t)by * wide;
    for (int64_t bx = a >> bits; bx <= b >> bits; ++bx) {
      if (row[bx] != 0) return false;
    }
  }
  return true;
}

// True when the raster's blocked counts show the line from `from` to `to` clear (false
// answers nothing).
static bool in_sight_by_blocks(const fxs_world *world, uint32_t from, uint32_t to) {
  const fxs_nav_grid *g = &world->nav.grid;
  const fxs_nav_raster *t = world->internal->nav.raster;
  const uint16_t *blocked = fxs_world_nav_blocked(world);
  uint32_t w = g->width, x0 = from % w, y0 = from / w, x1 = to % w, y1 = to / w;
  // The counts only of the grid they were taken on (a restore of another shape leaves them
  // until the next update).
  return blocked && t->valid && t->width == g->width && t->height == g->height && y0 < g->height &&
         y1 < g->height &&
         blocks_clear(blocked, fxs_world_nav_blocked_sums(world), fxs_world_nav_blocks_wide(w), x0,
                      y0, x1, y1);
}

bool fxs_world_nav_cells_in_sight(const fxs_world *world, uint32_t from, uint32_t to) {
  const fxs_nav_grid *g = &world->nav.grid;
  uint32_t w = g->width;
  return in_sight_by_blocks(world, from, to) ||
         fxs_nav_line_of_sight(g, from % w, from / w, to % w, to / w);
}

// Whether the line from cell `here` to `goal` touches a blocked cell among the 3 x 3 round
// `hint` (other than `here`, which the walk never tests): then it is not clear.
static bool hint_blocks(const fxs_nav_grid *g, uint32_t here, uint32_t goal, uint32_t hint) {
  uint32_t w = g->width, h = g->height;
  if (hint >= w * h) return false;
  uint32_t hx = hint % w, hy = hint / w, x0 = here % w, y0 = here / w, x1 = goal % w, y1 = goal / w;
  for (uint32_t y = hy > 0 ? hy - 1u : 0u; y <= hy + 1u && y < h; ++y) {
    for (uint32_t x = hx > 0 ? hx - 1u : 0u; x <= hx + 1u && x < w; ++x) {
      uint32_t c = y * w + x;
      if (g->cost[c] == FXS_NAV_BLOCKED && c != here &&
          fxs_nav_segment_touches_cell(x0, y0, x1, y1, x, y)) {
        return true;
      }
    }
  }
  return false;
}

bool fxs_world_nav_goal_in_sight(const fxs_world *world, uint32_t here, uint32_t goal,
                                 uint32_t *blocker) {
  const fxs_nav_grid *g = &world->nav.grid;
  uint32_t w = g->width, cells = w * g->height;
  if (here >= cells || goal >= cells) return fxs_world_nav_cells_in_sight(world, here, goal);
  if (hint_blocks(g, here, goal, *blocker)) return false;
  if (in_sight_by_blocks(world, here, goal)) return true;
  uint32_t b = fxs_nav_sight_blocker(g, here % w, here / w, goal % w, goal / w);
  if (b != FXS_NAV_SIGHT_CLEAR) *blocker = b;
  return b == FXS_NAV_SIGHT_CLEAR;
}

// The entries lie after agent_field in its block (world.c).
static fxs_nav_aim *aims_of(const fxs_world *world) {
  return (fxs_nav_aim *)(void *)(world->internal->nav.agent_field + world->capacity.agents);
}

// The packed bytes of a step from cell `at` of a width-w grid of `cells` cells, requested
// ahead: the step lands in the row above, at's own row or the one below. A chain's steps
// depend on each other's bytes, each a cache miss on a large map (a row is w bytes away);
// requested as the walk reaches `at`, the next step's byte is on its way while at's loads. The
// batch (AIM_BATCH) walks chains side by side; this lets each chain's next two steps overlap too.
static inline void prefetch_next_step(const uint8_t *packed, uint32_t at, uint32_t w,
                                      uint32_t cells) {
  if (at >= w) FXS_PREFETCH(&packed[at - w]);
  if (at + w < cells) FXS_PREFETCH(&packed[at + w]);
}

// A chain of direction cells from `here` on field k: at most FXS_NAV_FIELD_LOOK of them,
// fewer at the goal or a sink. Its cells are found a step at a time (chain_step), so that the
// steps of several chains can be taken side by side (find_range).
typedef struct aim_chain {
  const uint8_t *packed; // the field's packed bytes
  uint32_t goal, here, at, length;
  bool done;
  uint32_t cells[FXS_NAV_FIELD_LOOK];
} aim_chain;

static void chain_begin(const fxs_world *world, uint32_t k, uint32_t here, aim_chain *c) {
  c->packed = fxs_world_nav_fields_packed(world, k);
  c->goal = world->nav.field_slots[k].goal_cell;
  c->here = here, c->at = here, c->length = 0, c->done = false;
}

// The chain's next cell, or its end (a cell without a direction, the goal, the look's length),
// on a grid of w columns and `cells` cells.
static void chain_step(aim_chain *c, uint32_t w, uint32_t cells) {
  uint32_t dir = c->packed[c->at] & 15u; // fxs_nav_field_direction's, or none or a goal (8, 9)
  if (dir >= FXS_NAV_DIRECTIONS) {
    c->done = true;
    return;
  }
  c->at = next_cell(c->at, dir, w);
  c->cells[c->length++] = c->at;
  c->done = c->at == c->goal || c->length == FXS_NAV_FIELD_LOOK;
  if (!c->done) prefetch_next_step(c->packed, c->at, w, cells);
}

// The aim code of a walked chain: the farthest of its cells in sight of `here` (the first
// when none is), as AIM_STEP + its place; AIM_NONE for an empty chain. The cell into *to.
static uint32_t chain_pick(const fxs_world *world, const aim_chain *c, uint32_t *to) {
  *to = c->here;
  if (c->length == 0) return FXS_NAV_AIM_NONE;
  uint32_t pick = c->length - 1u;
  while (pick > 0 && !fxs_world_nav_cells_in_sight(world, c->here, c->cells[pick])) pick--;
  *to = c->cells[pick];
  return FXS_NAV_AIM_STEP + pick;
}

// AIM_GOAL with the goal's cell in sight, else the farthest in sight of the next
// FXS_NAV_FIELD_LOOK cells of the direction field (the first when none is; fewer at the goal or
// a sink), as AIM_STEP + its place on that path, AIM_NONE without a direction.
uint32_t fxs_world_nav_aim_of(const fxs_world *world, uint32_t k, uint32_t here, uint32_t *to) {
  uint32_t cell = here;
  if (to) *to = here;
  if (fxs_world_nav_cells_in_sight(world, here, world->nav.field_slots[k].goal_cell))
    return FXS_NAV_AIM_GOAL;
  aim_chain c;
  chain_begin(world, k, here, &c);
  const fxs_nav_grid *g = &world->nav.grid;
  while (!c.done) chain_step(&c, g->width, g->width * g->height);
  uint32_t code = chain_pick(world, &c, &cell);
  if (to) *to = cell;
  return code;
}

uint32_t fxs_world_nav_aim_cell(const fxs_world *world, uint32_t k, uint32_t here, uint32_t code) {
  const uint8_t *packed = fxs_world_nav_fields_packed(world, k);
  uint32_t w = world->nav.grid.width, at = here;
  for (uint32_t i = FXS_NAV_AIM_STEP; i <= code; ++i) at = next_cell(at, packed[at] & 15u, w);
  return at;
}

void fxs_world_nav_aims_forget(fxs_world *world) { world->internal->nav.aims_stale = 1; }

const fxs_nav_aim *fxs_world_nav_aim_known(const fxs_world *world, uint32_t index, uint32_t k,
                                           uint32_t here) {
  if (world->internal->nav.aims_stale) return 0;
  const fxs_nav_aim *a = &aims_of(world)[index];
  return a->field == k && a->here == here ? a : 0;
}

// Field slot k of agent slot i's agent_field when it follows a ready field plainly (no move's
// straight leg, no edge step), else FXS_NAV_NO_FIELD.
static uint32_t plain_follower(const fxs_world *world, uint32_t i) {
  uint32_t k = world->internal->nav.agent_field[i];
  if (k == FXS_NAV_NO_FIELD || (k & (FXS_NAV_FIELD_STRAIGHT | FXS_NAV_FIELD_EDGE))) {
    return FXS_NAV_NO_FIELD;
  }
  return world->nav.fields[k].status == FXS_NAV_FIELD_READY ? k : FXS_NAV_NO_FIELD;
}

// Chains walked side by side in find_range. Each step of a chain reads a packed byte a row
// of the grid from the last, a cache miss on a large map; a step of every chain of the batch
// before the next of any lets the core wait for their misses at once (16 measured faster
// than 8 and no slower than 32: docs/performance.md; a batch takes about 1 KiB of stack).
#define AIM_BATCH 16u

typedef struct aim_batch {
  uint32_t count;
  uint32_t slot[AIM_BATCH];
  aim_chain chain[AIM_BATCH];
} aim_batch;

// The batch's chains walked and picked into their agents' entries (their other fields set).
static void batch_finish(const fxs_world *world, aim_batch *b, fxs_nav_aim *aims) {
  uint32_t w = world->nav.grid.width, cells = w * world->nav.grid.height;
  for (bool walking = true; walking;) {
    walking = false;
    for (uint32_t j = 0; j < b->count; ++j) {
      if (b->chain[j].done) continue;
      chain_step(&b->chain[j], w, cells);
      walking = true;
    }
  }
  for (uint32_t j = 0; j < b->count; ++j) {
    fxs_nav_aim *a = &aims[b->slot[j]];
    a->code = (uint8_t)chain_pick(world, &b->chain[j], &a->to);
  }
  b->count = 0;
}

// The batches of a pass over a range: agents whose cell changed, their cells' packed bytes
// being loaded (prefetched) while the next ones are found; the chains of fresh aims. Each
// writes only its agents' entries.
typedef struct aim_pass {
  const fxs_world *world;
  fxs_nav_aim *aims;
  uint32_t pending, slot[AIM_BATCH], field[AIM_BATCH], here[AIM_BATCH];
  aim_batch chains;
} aim_pass;

// Agent slot i's entry on field k found again at cell `here` (its byte loaded by now): the
// packed code, or as fxs_world_nav_aim_of when the cell has none yet (the goal in sight at
// once, else its chain in a batch).
static void find_at(aim_pass *pass, uint32_t i, uint32_t k, uint32_t here) {
  const fxs_world *world = pass->world;
  fxs_nav_aim *a = &pass->aims[i];
  uint8_t byte = fxs_world_nav_fields_packed(world, k)[here];
  uint32_t code = byte >> 4;
  a->here = here, a->field = k, a->to = here;
  a->reaches = (byte & 15u) != FXS_NAV_PACK_NONE;
  if (code != FXS_NAV_AIM_UNKNOWN) {
    a->code = (uint8_t)code;
    if (code >= FXS_NAV_AIM_STEP) a->to = fxs_world_nav_aim_cell(world, k, here, code);
    return;
  }
  a->fresh = 1;
  if (fxs_world_nav_goal_in_sight(world, here, world->nav.field_slots[k].goal_cell, &a->blocker)) {
    a->code = FXS_NAV_AIM_GOAL;
    return;
  }
  aim_batch *b = &pass->chains;
  b->slot[b->count] = i;
  chain_begin(world, k, here, &b->chain[b->count]);
  if (++b->count == AIM_BATCH) batch_finish(world, b, pass->aims);
}

// The pending agents' entries found, in slot order.
static void pending_finish(aim_pass *pass) {
  for (uint32_t j = 0; j < pass->pending; ++j)
    find_at(pass, pass->slot[j], pass->field[j], pass->here[j]);
  pass->pending = 0;
}

// The pass: each agent's entry kept (its cell and field as before, nothing forgotten), found
// again (find_at) or marked none.
static void find_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  aim_pass pass;
  pass.world = (const fxs_world *)context;
  pass.aims = aims_of(pass.world);
  pass.pending = 0, pass.chains.count = 0;
  const fxs_world *world = pass.world;
  const fxs_nav_grid *g = &world->nav.grid;
  bool stale = world->internal->nav.aims_stale != 0;
  (void)worker;
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, body.position);
    fxs_nav_aim *a = &pass.aims[i];
    uint32_t k = plain_follower(world, i), cx, cy;
    a->fresh = 0;
    if (k == FXS_NAV_NO_FIELD) {
      a->field = FXS_NAV_NO_FIELD;
      continue;
    }
    fxs_nav_grid_cell_of_inline(g, world->agents[i].body.position, &cx, &cy);
    uint32_t here = cy * g->width + cx;
    if (!stale && a->field == k && a->here == here) continue;
    FXS_PREFETCH(&fxs_world_nav_fields_packed(world, k)[here]);
    pass.slot[pass.pending] = i, pass.field[pass.pending] = k, pass.here[pass.pending] = here;
    if (++pass.pending == AIM_BATCH) pending_finish(&pass);
  }
  pending_finish(&pass);
  batch_finish(world, &pass.chains, pass.aims);
}

void fxs_world_nav_aims_find(fxs_world *world) {
  fxs_world_run_phase(world, find_range, world->capacity.agents, 256, world);
  world->internal->nav.aims_stale = 0;
  const fxs_nav_aim *aims = aims_of(world);
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    const fxs_nav_aim *a = &aims[i];
    if (!a->fresh) continue;
    uint8_t *cell = &fxs_world_nav_fields_packed(world, a->field)[a->here];
    if (*cell >> 4 == FXS_NAV_AIM_UNKNOWN) *cell = (uint8_t)(*cell | a->code << 4);
  }
}
