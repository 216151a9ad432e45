#include "world_grid.h"
#include "world_internal.h"

#include <stddef.h>
#include <string.h>

#include "isqrt.h"
#include "vec2_scale.h"
#include "world_prefetch.h"

// Two workers' neighbor lists never share a cache line.
typedef char fxs_worker_size_is_a_multiple_of_64[(sizeof(fxs_world_worker) % 64u) == 0 ? 1 : -1];
// The behavior scratch holds each of its members.
typedef char fxs_behavior_scratch_is_large_enough
    [sizeof(fxs_behavior_scratch) == FXS_BEHAVIOR_SCRATCH_BYTES ? 1 : -1];

uint32_t fxs_grid_max_cells(const fxs_world_capacity *capacity) {
  uint32_t n = 8u * capacity->agents; // agents <= FXS_MAX_AGENTS (< 2^22): no overflow
  return n < 64u ? 64u : n;
}

// Cells of `size` (raw, >= FXS_ONE) from lo to hi, at least 1 (at most 2^32 / 2^16: their
// products fit in 64 bits).
static uint64_t cells_across(fix16_t lo, fix16_t hi, int64_t size) {
  int64_t extent = (int64_t)hi - lo;
  return extent < 1 ? 1u : (uint64_t)((extent + size - 1) / size);
}

int64_t fxs_grid_fit(const fxs_world_def *d, int64_t size, uint32_t max_cells, uint32_t *w,
                     uint32_t *h) {
  for (;;) {
    uint64_t cw = cells_across(d->bounds_min.x, d->bounds_max.x, size);
    uint64_t ch = cells_across(d->bounds_min.y, d->bounds_max.y, size);
    if (cw * ch <= max_cells) {
      *w = (uint32_t)cw, *h = (uint32_t)ch;
      return size;
    }
    size *= 2;
  }
}

// Cells of 2^shift doubled at most twice while they number more than max_cells (a grid that
// still does not fit then wraps round): the shift and, into *w and *h, the columns and rows
// over the bounds.
static unsigned fitted_shift(const fxs_world_def *d, unsigned shift, uint32_t max_cells,
                             uint64_t *w, uint64_t *h) {
  *w = cells_across(d->bounds_min.x, d->bounds_max.x, INT64_C(1) << shift);
  *h = cells_across(d->bounds_min.y, d->bounds_max.y, INT64_C(1) << shift);
  for (int doubled = 0; doubled < 2 && *w * *h > max_cells; ++doubled) {
    ++shift;
    *w = cells_across(d->bounds_min.x, d->bounds_max.x, INT64_C(1) << shift);
    *h = cells_across(d->bounds_min.y, d->bounds_max.y, INT64_C(1) << shift);
  }
  return shift;
}

// Sizing the cells to the searches. A search visits the rows of its box of cells, each a run
// of the view, and tests every agent in them: in cells of side c a box of side 2r + c (in
// whole cells) has about 2r / c + 1 rows. From the mean rows R and agents A of the searches
// counted in cells of side m (2r = (R - 1) m), cells of side c = 2^k m would give
// (R - 1) / 2^k + 1 rows and A ((R - 1) + 2^k)^2 / R^2 agents: large cells mean fewer rows
// and more agents to test. A row costs about as much as GRID_ROW_WEIGHT / GRID_AGENT_WEIGHT
// agents: the search's own instructions are about 43 a row against 17 an agent (counted on
// the rts kernel), and a row starts a run of the view elsewhere in memory. The ratio is the
// one that did best in time on the rts kernel at 50,000 and 100,000 agents (cells of twice
// the size there); RVO2's Circle, whose ORCA searches are not tallied, keeps its cells.
#define GRID_ROW_WEIGHT 4u
#define GRID_AGENT_WEIGHT 1u
// The cells tried: from one size smaller than those of the radius alone to two larger, each
// as fitted_shift doubles it.
#define GRID_SHIFT_BELOW 1
#define GRID_SHIFT_ABOVE 2
// Every cells tried and the tally's own are within this many doublings of each other: from one
// size below the radius's to two above it, doubled twice.
#define GRID_SHIFT_REACH (GRID_SHIFT_BELOW + GRID_SHIFT_ABOVE + 2)

// The work of a search (in the weights' units, Q8) in cells of 2^k times those of the tally
// (|k| <= GRID_SHIFT_REACH), whose searches had `rows` and `agents` a search (Q8; rows in
// [1, 2^16) rows, agents below 2^24).
static uint64_t search_work(uint64_t rows, uint64_t agents, int k) {
  uint64_t gaps = rows - 256u;                                    // R - 1, Q8, < 2^24
  uint64_t rows_k = (k >= 0 ? gaps >> k : gaps << -k) + 256u;     // Q8, < 2^30
  uint64_t side_k = gaps + (k >= 0 ? 256u << k : 256u >> -k);     // Q8, < 2^25
  uint64_t agents_k = agents * ((side_k * side_k) / rows) / rows; // side^2 / rows < 2^30
  return GRID_ROW_WEIGHT * rows_k + GRID_AGENT_WEIGHT * agents_k; // < 2^55
}

// The shift of the cells for the workers' searches since the last grid (their tallies, then
// cleared), from `base` (cells of half the radius): of base - GRID_SHIFT_BELOW to base +
// GRID_SHIFT_ABOVE, the one whose cells, as fitted_shift doubles them, take the least
// search_work (base on a tie); base without a tally. Not yet doubled.
static unsigned searched_shift(fxs_world *world, unsigned base, uint32_t max_cells) {
  fxs_world_internal *in = world->internal;
  fxs_search_tally t = {0, 0, 0};
  for (uint32_t w = 0; w < in->worker_capacity; ++w) {
    fxs_search_tally *own = &in->workers[w].searched;
    t.searches += own->searches, t.rows += own->rows, t.agents += own->agents;
    own->searches = own->rows = own->agents = 0;
  }
  int m = (int)in->searched_shift;
  in->searched_shift = 0;
  if (t.searches == 0 || m < 16) return base;
  // Means a search, Q8 (a tick's tallies are below 2^46: their means fit).
  uint64_t rows = (t.rows << 8) / t.searches, agents = (t.agents << 8) / t.searches;
  if (rows < 256u) rows = 256u;
  if (rows >= UINT64_C(1) << 24) rows = (UINT64_C(1) << 24) - 1u;
  if (agents >= UINT64_C(1) << 32) agents = (UINT64_C(1) << 32) - 1u;
  unsigned best = base;
  uint64_t least = UINT64_MAX, w, h;
  for (int s = (int)base - GRID_SHIFT_BELOW; s <= (int)base + GRID_SHIFT_ABOVE; ++s) {
    if (s < 16 || s > 32) continue;
    int k = (int)fitted_shift(&world->def, (unsigned)s, max_cells, &w, &h) - m;
    if (k < -GRID_SHIFT_REACH || k > GRID_SHIFT_REACH) continue;
    uint64_t work = search_work(rows, agents, k);
    if (work < least || (work == least && (unsigned)s == base)) least = work, best = (unsigned)s;
  }
  return best;
}

fxs_grid fxs_grid_of(fxs_world *world) {
  fxs_grid g;
  const fxs_world_def *d = &world->def;
  g.min_x = d->bounds_min.x, g.min_y = d->bounds_min.y;
  g.slot_bits = 0;
  while (g.slot_bits < 32u && (world->capacity.agents >> g.slot_bits) != 0) ++g.slot_bits;
  uint64_t r = d->neighbor_radius > 0 ? (uint64_t)d->neighbor_radius : 0u;
  // Packed keys stay below 2^63 (see rank_keys), indexed ones below 2^64 (a network compares
  // them unsigned); slot_bits <= 32, so the shifts are at most 63.
  g.packed = ((r * r) >> (63u - g.slot_bits)) == 0;
  g.indexed = ((r * r) >> (64u - FXS_FOUND_BITS - g.slot_bits)) == 0;
  g.close = false;
  // Cells of about half the radius, the power of two nearest it (from a third to two thirds
  // of the radius: a search spans 4 to 8 of them a side), or from one size smaller to two
  // larger as the last tick's searches show less work in them (searched_shift), doubled at
  // most twice while they do not fit (fitted_shift): coarser cells would put more agents in
  // each search than wrapping the grid round does (measured on RVO2's Circle, fitted and on a
  // large map). Cells of about a sixth of the radius at least (a third, halved; the halving
  // of an odd radius can take them just below) doubled twice span at most 5 of a wrapped
  // grid's cells a side, below FXS_GRID_MIN_SIDE.
  uint32_t max_cells = fxs_grid_max_cells(&world->capacity);
  int64_t half = d->neighbor_radius / 2 > FXS_ONE ? d->neighbor_radius / 2 : FXS_ONE;
  g.shift = 16;
  while ((INT64_C(1) << (g.shift + 1u)) <= half) ++g.shift; // 2^shift <= half < 2^(shift + 1)
  if (half - (INT64_C(1) << g.shift) > (INT64_C(1) << (g.shift + 1u)) - half) ++g.shift;
  uint64_t w, h;
  g.shift = fitted_shift(d, searched_shift(world, g.shift, max_cells), max_cells, &w, &h);
  g.wraps = w * h > max_cells;
  if (g.wraps) {
    // Sides of powers of two (a cell of the plane wraps into them by a mask, fxs_grid_wrap):
    // each side's cells rounded up to one, then the longer halved (at least
    // FXS_GRID_MIN_SIDE) until they fit, which a square of FXS_GRID_MIN_SIDE^2 <= 64 <=
    // max_cells always does.
    uint64_t pw = FXS_GRID_MIN_SIDE, ph = FXS_GRID_MIN_SIDE;
    while (pw < w) pw *= 2u;
    while (ph < h) ph *= 2u;
    w = pw, h = ph;
    while (w * h > max_cells) {
      uint64_t *side = w >= h ? &w : &h;
      *side /= 2u;
      if (*side < FXS_GRID_MIN_SIDE) *side = FXS_GRID_MIN_SIDE;
    }
  }
  g.w = (uint32_t)w, g.h = (uint32_t)h;
  world->internal->searched_shift = g.shift; // the searches from now on are in these cells
  return g;
}

// The cell of position p in a grid that covers the bounds (clamped into it) or wraps round.
static inline uint32_t cell_clamped(const fxs_grid *g, fxs_vec2 p) {
  return fxs_grid_coord_shift(p.y, g->min_y, g->shift, g->h) * g->w +
         fxs_grid_coord_shift(p.x, g->min_x, g->shift, g->w);
}
static inline uint32_t cell_wrapped(const fxs_grid *g, fxs_vec2 p) {
  return fxs_grid_wrap(fxs_grid_index(p.y, g->min_y, g->shift), g->h) * g->w +
         fxs_grid_wrap(fxs_grid_index(p.x, g->min_x, g->shift), g->w);
}

void fxs_grid_place(fxs_world *world, const fxs_grid *g, uint32_t begin, uint32_t end) {
  // One loop for each kind of grid: no test of the kind per agent.
  uint32_t *slot_cell = world->internal->slot_cell;
  if (g->wraps) {
    for (uint32_t i = begin; i < end; ++i) {
      FXS_PREFETCH_SLOT(world, i, end, body.position);
      const fxs_agent_slot *s = &world->agents[i];
      slot_cell[i] = s->alive ? cell_wrapped(g, s->body.position) : FXS_GRID_NO_CELL;
    }
    return;
  }
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, body.position);
    const fxs_agent_slot *s = &world->agents[i];
    slot_cell[i] = s->alive ? cell_clamped(g, s->body.position) : FXS_GRID_NO_CELL;
  }
}

// A counting sort: stable, so agents of one cell stay in slot order.
void fxs_grid_sort(fxs_world *world, const fxs_grid *g) {
  uint32_t cells = g->w * g->h, n = 0, slots = world->capacity.agents;
  fxs_world_internal *in = world->internal;
  uint32_t *start = in->cell_start, *view_slot = in->view_slot;
  const uint32_t *cell = in->slot_cell;
  memset(start, 0, sizeof(uint32_t) * (cells + 1u));
  for (uint32_t i = 0; i < slots; ++i) {
    if (cell[i] != FXS_GRID_NO_CELL) start[cell[i]]++;
  }
  for (uint32_t c = 1; c < cells; ++c) start[c] += start[c - 1u];
  // start[c] now counts the agents of cells 0..c, the end of cell c; it serves as the write
  // cursor of cell c, filled from its end with the slots taken in descending order (so a
  // cell still lists its agents in slot order), and ends as the start of cell c.
  for (uint32_t i = slots; i-- > 0;) {
    if (cell[i] == FXS_GRID_NO_CELL) continue;
    view_slot[--start[cell[i]]] = i;
    ++n;
  }
  start[cells] = n;
  in->view_count = n;
}

void fxs_view_list_live(fxs_world *world) {
  uint32_t n = 0, *view_slot = world->internal->view_slot;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    if (world->agents[i].alive) view_slot[n++] = i;
  }
  world->internal->view_count = n;
}

void fxs_grid_copy_view(fxs_world *world, uint32_t begin, uint32_t end) {
  const fxs_world_internal *in = world->internal;
  for (uint32_t v = begin; v < end; ++v) {
    const fxs_agent *a = &world->agents[in->view_slot[v]].body;
    in->view_position[v] = a->position;
    in->view_velocity[v] = a->velocity;
  }
}

void fxs_grid_measure_spread(const fxs_world *world, fxs_grid *g) {
  const fxs_vec2 *pos = world->internal->view_position;
  uint32_t count = world->internal->view_count;
  if (count == 0) {
    g->close = true;
    return;
  }
  int32_t lo_x = pos[0].x, hi_x = pos[0].x, lo_y = pos[0].y, hi_y = pos[0].y;
  for (uint32_t v = 1; v < count; ++v) {
    lo_x = pos[v].x < lo_x ? pos[v].x : lo_x, hi_x = pos[v].x > hi_x ? pos[v].x : hi_x;
    lo_y = pos[v].y < lo_y ? pos[v].y : lo_y, hi_y = pos[v].y > hi_y ? pos[v].y : hi_y;
  }
  g->close = (int64_t)hi_x - lo_x < INT64_C(1) << 31 && (int64_t)hi_y - lo_y < INT64_C(1) << 31;
}

bool fxs_view_velocities_within(const fxs_world *world, fix16_t limit) {
  // c + limit, taken mod 2^32, lies in [0, 2 limit] exactly when c is within: the largest of
  // these over every component decides, without a branch per agent.
  const fxs_vec2 *vel = world->internal->view_velocity;
  uint32_t top = 0, shift = (uint32_t)limit, count = world->internal->view_count;
  for (uint32_t v = 0; v < count; ++v) {
    uint32_t x = (uint32_t)vel[v].x + shift, y = (uint32_t)vel[v].y + shift;
    top = x > top ? x : top;
    top = y > top ? y : top;
  }
  return top <= 2u * shift;
}
