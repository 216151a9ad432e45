// The neighbor search over the grid of the tick (world_grid.h): the k nearest within a
// radius, sorted or left unsorted, and every neighbor within the world's radius. The grid
// itself (its shape, the view of the tick in cell order) is built by world_grid.c.
#include "world_grid.h"
#include "world_internal.h"

#include <stddef.h>
#include <string.h>

#include "isqrt.h"
#include "vec2_scale.h"

// rank_keys pads the keys of a search to a multiple of 4 within FXS_GRID_FOUND.
typedef char fxs_found_is_a_multiple_of_4[(FXS_GRID_FOUND % 4u) == 0 ? 1 : -1];

// 1 when candidate a comes before b in the search's order (squared distance, then slot),
// else 0. The sorted list branches on it anyway (short-circuit, cheapest on Cortex-M);
// before_no_branch is the same order for the ranking.
static inline uint32_t before(const fxs_world_candidate *a, const fxs_world_candidate *b) {
  return a->dist_sq < b->dist_sq || (a->dist_sq == b->dist_sq && a->slot < b->slot);
}

static inline uint32_t before_no_branch(const fxs_world_candidate *a,
                                        const fxs_world_candidate *b) {
  return (uint32_t)(a->dist_sq < b->dist_sq) |
         ((uint32_t)(a->dist_sq == b->dist_sq) & (uint32_t)(a->slot < b->slot));
}

// Inserts a candidate into the list of the k nearest, sorted by (squared distance, slot).
static void offer(fxs_world_candidate *list, uint32_t *n, uint32_t k, fxs_world_candidate c) {
  uint32_t at = *n;
  if (at == k) {
    if (!before(&c, &list[at - 1u])) return;
    --at; // replaces the farthest
  } else {
    ++*n;
  }
  while (at > 0 && before(&c, &list[at - 1u])) {
    list[at] = list[at - 1u];
    --at;
  }
  list[at] = c;
}

// One neighbor search: the k nearest within r. Agents within the radius are first collected,
// unsorted and without a branch on the test, in out->found; at the end they are ranked
// against each other, which has no data-dependent branch either. Only when
// flush_at(k) have been found do they go, a buffer at a time, through the sorted list by
// insertion (on Cortex-M always, one at a time: see FXS_GRID_BRANCH_FREE); once that list
// holds k, the radius shrinks to its farthest, so fewer are collected.
typedef struct search {
  const fxs_world *world;
  const fxs_grid *grid;
  fxs_world_worker *out;
  uint32_t k;            // most results, [1, FXS_MAX_NEIGHBORS]
  uint32_t cap;          // found ones that make a flush, flush_at(k)
  uint64_t r2;           // squared radius: candidates farther are not collected
  uint32_t found;        // entries in out->found
  uint32_t sorted;       // entries in out->nearest, the sorted list (used after a first flush)
  bool flushed;          // the sorted list is in use
  uint32_t rows, agents; // the rows of cells visited and the agents in them (fxs_search_tally)
#if !FXS_GRID_BRANCH_FREE
  uint64_t grid_r; // the radius (the per-axis test)
#endif
} search;

// How many found agents make a flush: 2k, at most the buffer. A search for fewer than the
// buffer holds (ORCA's 10 nearest in a crowd) so shrinks its radius sooner; measured on
// RVO2's Circle, 1.5k flushed too often and 32 shrank too late.
static inline uint32_t flush_at(uint32_t k) {
  return 2u * k < FXS_GRID_FOUND ? 2u * k : FXS_GRID_FOUND;
}

// Found entry i as a candidate.
static inline fxs_world_candidate found_at(const fxs_world_worker *w, uint32_t i) {
  fxs_world_candidate c;
  c.dist_sq = w->found_dist_sq[i];
  c.slot = w->found_slot[i];
  c.view = w->found_view[i];
  return c;
}

static void set_slots(const search *s) {
  const uint32_t *view_slot = s->world->internal->view_slot;
  for (uint32_t i = 0; i < s->found; ++i) s->out->found_slot[i] = view_slot[s->out->found_view[i]];
}

// True once the sorted list holds k agents on the very spot: nothing left can enter it
// (agents on one spot share one cell, which lists them in slot order, so every later one
// has a higher slot). The search then stops, which bounds the cost of a crowd piled on one
// point.
static bool full_on_the_spot(const search *s) {
  return s->sorted == s->k && s->out->nearest[s->sorted - 1u].dist_sq == 0;
}

// A full sorted list: nothing farther than its last can enter it (one at the same distance
// with a lower slot can, so the comparison stays <=).
static void shrink(search *s) {
  if (s->sorted == s->k) s->r2 = s->out->nearest[s->sorted - 1u].dist_sq;
}

// Moves the found agents into the sorted list. Returns false when the search can stop.
static bool flush(search *s) {
  set_slots(s);
  for (uint32_t i = 0; i < s->found; ++i) {
    offer(s->out->nearest, &s->sorted, s->k, found_at(s->out, i));
  }
  s->found = 0;
  s->flushed = true;
  shrink(s);
  return !full_on_the_spot(s);
}

// The packed keys of one search, padded to a multiple of 4 with FXS_KEY_PAD (above every
// key). With GCC and Clang they are stored two to a 128-bit vector, on which the ranking
// below computes with one instruction per operation where the target has integer vectors
// (SSE2 on x86-64), and one half after the other where it has not; the results are the same.
#define FXS_KEY_PAD (UINT64_MAX >> 1)

// m keys padded to a multiple of 4.
static inline uint32_t padded_keys(uint32_t m) { return (m + 3u) & ~3u; }
#if defined(__GNUC__) || defined(__clang__)
typedef uint64_t fxs_key_pair __attribute__((vector_size(16)));
typedef struct key_list {
  fxs_key_pair pair[FXS_GRID_FOUND / 2u];
} key_list;
static inline void set_key(key_list *l, uint32_t i, uint64_t k) { l->pair[i / 2u][i % 2u] = k; }
static inline uint64_t key_at(const key_list *l, uint32_t i) { return l->pair[i / 2u][i % 2u]; }
#else
typedef struct key_list {
  uint64_t key[FXS_GRID_FOUND];
} key_list;
static inline void set_key(key_list *l, uint32_t i, uint64_t k) { l->key[i] = k; }
static inline uint64_t key_at(const key_list *l, uint32_t i) { return l->key[i]; }
#endif

// rank[i] = how many of the m distinct keys are below key i. Keys are below 2^63, where
// a < b exactly when a - b wraps, that is when the top bit of (a - b) is set: every key
// meets every other by a subtraction and a shift, with no branch on the keys, and the loops'
// lengths repeat for all m keys, so a core predicts them after the first.
static void rank_keys(const key_list *l, uint32_t m, uint32_t *rank) {
  uint32_t padded = padded_keys(m);
  for (uint32_t i = 0; i < m; ++i) {
    uint64_t k = key_at(l, i);
#if defined(__GNUC__) || defined(__clang__)
    fxs_key_pair kk = {k, k}, below = {0, 0};
    for (uint32_t j = 0; j < padded / 2u; j += 2u)
      below += ((l->pair[j] - kk) >> 63) + ((l->pair[j + 1u] - kk) >> 63);
    rank[i] = (uint32_t)(below[0] + below[1]);
#else
    uint64_t below = 0;
    for (uint32_t j = 0; j < padded; j += 4u) {
      below += ((l->key[j] - k) >> 63) + ((l->key[j + 1u] - k) >> 63) +
               ((l->key[j + 2u] - k) >> 63) + ((l->key[j + 3u] - k) >> 63);
    }
    rank[i] = (uint32_t)below;
#endif
  }
}

// Batcher's odd-even merge sort of 16 keys: 63 comparators, each putting two keys in order by
// conditional moves, no branch on them. Its first 5 sort keys 0..3, its first 19 keys 0..7
// (sort 0..3, sort 4..7, merge). Keys n..15 padded above every key never move (a comparator
// (a, b), a < b, leaves the larger at b), so for n keys the comparators that reach b >= n are
// left out: 5, 12, 19, 32, 42 and 63 of them for 4, 6, 8, 10, 12 and 16 keys (each checked
// by the 0-1 principle over all 2^n inputs, test_world_step).
static const uint8_t batcher_16[63][2] = {
    {0, 1},   {2, 3},   {0, 2},   {1, 3},  {1, 2},   {4, 5},   {6, 7},   {4, 6},   {5, 7},
    {5, 6},   {0, 4},   {1, 5},   {2, 6},  {3, 7},   {2, 4},   {3, 5},   {1, 2},   {3, 4},
    {5, 6},   {8, 9},   {10, 11}, {8, 10}, {9, 11},  {9, 10},  {12, 13}, {14, 15}, {12, 14},
    {13, 15}, {13, 14}, {8, 12},  {9, 13}, {10, 14}, {11, 15}, {10, 12}, {11, 13}, {9, 10},
    {11, 12}, {13, 14}, {0, 8},   {1, 9},  {2, 10},  {3, 11},  {4, 12},  {5, 13},  {6, 14},
    {7, 15},  {4, 8},   {5, 9},   {6, 10}, {7, 11},  {2, 4},   {3, 5},   {6, 8},   {7, 9},
    {10, 12}, {11, 13}, {1, 2},   {3, 4},  {5, 6},   {7, 8},   {9, 10},  {11, 12}, {13, 14}};

// k[0..n-1] in order, n <= 16 a constant where it is called (the loop unrolled, its tests
// folded): the network of 4, 8 or 16 keys, the smallest that holds n, without the
// comparators that reach b >= n.
FXS_ALWAYS_INLINE void sort_keys(uint64_t *k, unsigned n) {
  unsigned used = n <= 4u ? 5u : n <= 8u ? 19u : 63u;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 63
#elif defined(__clang__)
#pragma clang loop unroll(full)
#endif
  for (unsigned c = 0; c < 63u; ++c) {
    if (c < used && batcher_16[c][1] < n) {
      unsigned a = batcher_16[c][0], b = batcher_16[c][1];
      uint64_t lo = k[a] < k[b] ? k[a] : k[b], hi = k[a] < k[b] ? k[b] : k[a];
      k[a] = lo, k[b] = hi;
    }
  }
}

// The pad of a network's keys: above every indexed key, whose slot field is never all ones
// (a slot is below the capacity, which is below 2^slot_bits).
#define FXS_SORT_PAD UINT64_MAX

// A network for each count a search in a crowd finds often (0 to 4, 6, 8, 10 to 12), and a
// few more keys for the rarer counts (5, 7, 9, 13 to 16: the keys past m padded).
FXS_ALWAYS_INLINE void sort_found(uint64_t *k, uint32_t m) {
  uint32_t size = m <= 4u ? m : m <= 10u ? (m + 1u) & ~1u : m <= 12u ? m : 16u;
  for (uint32_t i = m; i < size; ++i) k[i] = FXS_SORT_PAD;
  switch (size) {
    case 0:
    case 1:
      break;
    case 2:
      sort_keys(k, 2u);
      break;
    case 3:
      sort_keys(k, 3u);
      break;
    case 4:
      sort_keys(k, 4u);
      break;
    case 6:
      sort_keys(k, 6u);
      break;
    case 8:
      sort_keys(k, 8u);
      break;
    case 10:
      sort_keys(k, 10u);
      break;
    case 11:
      sort_keys(k, 11u);
      break;
    case 12:
      sort_keys(k, 12u);
      break;
    default:
      sort_keys(k, 16u);
      break;
  }
}

#if FXS_GRID_BRANCH_FREE
void fxs_grid_sort_keys(uint64_t k[16], uint32_t m) { sort_found(k, m); }
#endif

// Entry k of the result: the agent of view entry `view` in slot `slot`, at squared
// distance dist_sq.
static inline void emit(const fxs_world *world, fxs_world_worker *out, uint32_t k, uint32_t view,
                        uint32_t slot, uint64_t dist_sq) {
  fxs_neighbor *nb = &out->neighbors[k];
  nb->position = world->internal->view_position[view];
  nb->velocity = world->internal->view_velocity[view];
  nb->id = slot;
  out->dist_sq[k] = dist_sq;
}

// The result from the sorted list out->nearest.
static uint32_t emit_nearest(const search *s, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_world_candidate *c = &s->out->nearest[k];
    emit(s->world, s->out, k, c->view, c->slot, c->dist_sq);
  }
  return n;
}

// finish for at most FXS_SORTED_FOUND found agents on a grid whose keys are indexed: each
// one's key, (squared distance, slot, index into the found list), is sorted by a network
// (padded with FXS_SORT_PAD), and the first n name their agents. About a third of the
// ranking's work for the 10 to 12 agents ORCA's searches find in a crowd.
static uint32_t finish_sorted(const search *s, uint32_t m, uint32_t n) {
  fxs_world_worker *w = s->out;
  unsigned bits = s->grid->slot_bits;
  uint64_t k[16];
  const uint32_t *view_slot = s->world->internal->view_slot;
  for (uint32_t i = 0; i < m; ++i) {
    uint64_t slot = view_slot[w->found_view[i]];
    k[i] = (w->found_dist_sq[i] << (bits + FXS_FOUND_BITS)) | (slot << FXS_FOUND_BITS) | i;
  }
  sort_found(k, m);
  uint64_t slot_mask = (UINT64_C(1) << bits) - 1u, index_mask = (1u << FXS_FOUND_BITS) - 1u;
  for (uint32_t r = 0; r < n; ++r) {
    uint32_t i = (uint32_t)(k[r] & index_mask);
    emit(s->world, w, r, w->found_view[i], (uint32_t)((k[r] >> FXS_FOUND_BITS) & slot_mask),
         w->found_dist_sq[i]);
  }
  return n;
}

// The nearest FXS_MAX_NEIGHBORS of the search, sorted, into out->neighbors and
// out->dist_sq. Returns how many.
static uint32_t finish(search *s) {
  fxs_world_worker *w = s->out;
  uint32_t m = s->found, n = m < s->k ? m : s->k, rank[FXS_GRID_FOUND];
  if (s->flushed) {
    flush(s);
    return emit_nearest(s, s->sorted);
  }
  // Up to 16 sorted by a network where the keys have room for the index (on Cortex-M the
  // scan inserts into the sorted list at once: only an empty search comes here unflushed,
  // and the network's keys stay off its stack).
  if (FXS_GRID_BRANCH_FREE && s->grid->indexed && m <= FXS_SORTED_FOUND)
    return finish_sorted(s, m, n);
  // Else each one's rank is the number of others before it; the order is total (slots
  // differ), so the ranks are 0..m-1.
  if (s->grid->packed) {
    // The key holds the slot in its low slot_bits bits: each agent goes straight from the
    // found list to its place in the result.
    key_list keys; // FXS_GRID_FOUND is a multiple of 4: room for the padding
    unsigned bits = s->grid->slot_bits;
    const uint32_t *view_slot = s->world->internal->view_slot;
    for (uint32_t i = 0; i < m; ++i)
      set_key(&keys, i, (w->found_dist_sq[i] << bits) | view_slot[w->found_view[i]]);
    for (uint32_t i = m; i < padded_keys(m); ++i) set_key(&keys, i, FXS_KEY_PAD);
    rank_keys(&keys, m, rank);
    uint64_t slot_mask = (UINT64_C(1) << bits) - 1u;
    for (uint32_t i = 0; i < m; ++i) {
      if (rank[i] < s->k)
        emit(s->world, w, rank[i], w->found_view[i], (uint32_t)(key_at(&keys, i) & slot_mask),
             w->found_dist_sq[i]);
    }
    return n;
  }
  // Every pair once: the one that comes second gains a rank.
  set_slots(s);
  for (uint32_t i = 0; i < m; ++i) rank[i] = 0;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = i + 1u; j < m; ++j) {
      fxs_world_candidate cj = found_at(w, j), ci = found_at(w, i);
      uint32_t j_first = before_no_branch(&cj, &ci);
      rank[i] += j_first;
      rank[j] += 1u - j_first;
    }
  }
  for (uint32_t i = 0; i < m; ++i) {
    if (rank[i] < s->k) w->nearest[rank[i]] = found_at(w, i);
  }
  return emit_nearest(s, n);
}

#if FXS_GRID_BRANCH_FREE
// The candidates of view entries [j, stop) into the found arrays from entry m on: every one
// is stored at the end, and the arrays grow by one (a carry, no branch) when it is within
// (its squared distance below `beyond`). Returns the new m. Unsigned squares of the
// differences (below 2^32 in magnitude) are exact; their sum can wrap past 2^64 only when one
// of them has its top bit set (only when `far`), and r^2 < 2^62, so that bit put into the sum
// keeps every such candidate out. `masked`: entry self may lie in the run, and its top bit
// keeps it out the same way. Not unrolled: a loop unrolled by two has fewer instructions,
// but a run's odd or even length is one more branch a core cannot predict (measured on
// RVO2's Circle, 3 % of the time at 10,000 agents).
FXS_ALWAYS_INLINE size_t collect(const fxs_vec2 *pos, fxs_vec2 p, size_t j, size_t stop,
                                 size_t self, uint64_t beyond, uint64_t *found_dist_sq,
                                 uint32_t *found_view, size_t m, bool masked, bool far) {
  for (; j < stop; ++j) {
    uint64_t dx = (uint64_t)((int64_t)pos[j].x - p.x), dy = (uint64_t)((int64_t)pos[j].y - p.y);
    uint64_t xx = dx * dx, yy = dy * dy, dist_sq = xx + yy;
    found_dist_sq[m] = dist_sq;
    found_view[m] = (uint32_t)j;
    if (far) dist_sq |= (xx | yy) & (UINT64_C(1) << 63);
    if (masked) dist_sq |= (uint64_t)(j == self) << 63;
    m += dist_sq < beyond;
  }
  return m;
}
#endif

// Collects every agent of view entries [begin, end) within the search's radius of p, except
// entry self (the agent itself). Returns false when the search can stop (see flush).
// `far`: a candidate may lie 2^31 raw or more from p in an axis (see box_is_near).
FXS_ALWAYS_INLINE bool scan(search *s, uint32_t begin, uint32_t end, uint32_t self, fxs_vec2 p,
                            bool far) {
  const fxs_vec2 *pos = s->world->internal->view_position;
#if FXS_GRID_BRANCH_FREE
  uint64_t *found_dist_sq = s->out->found_dist_sq;
  uint32_t *found_view = s->out->found_view;
  size_t m = s->found;          // the width of an address: no widening in the loop
  uint64_t beyond = s->r2 + 1u; // r2 < 2^62: no wrap
  while (begin < end) {
    // At most cap - m more fit: that many candidates need no test of the buffer. The run
    // that holds the agent itself masks it out rather than being cut in two (one loop exit
    // fewer to predict).
    size_t stop = end - begin < s->cap - m ? end : begin + (s->cap - m);
    if (self >= begin && self < stop) {
      m = collect(pos, p, begin, stop, self, beyond, found_dist_sq, found_view, m, true, far);
    } else {
      m = collect(pos, p, begin, stop, self, beyond, found_dist_sq, found_view, m, false, far);
    }
    begin = (uint32_t)stop;
    if (m == s->cap) {
      s->found = (uint32_t)m;
      if (!flush(s)) return false;
      m = 0;
      beyond = s->r2 + 1u;
    }
  }
  s->found = (uint32_t)m;
#else
  (void)far; // the per-axis test below keeps far candidates out
  uint64_t r = s->grid_r, width = 2u * r, r2 = s->r2;
  for (uint32_t j = begin; j < end; ++j) {
    uint64_t dx = (uint64_t)((int64_t)pos[j].x - p.x), dy = (uint64_t)((int64_t)pos[j].y - p.y);
    // Within |dx| <= r and |dy| <= r (one unsigned comparison each) the squares are exact.
    if (dx + r > width || dy + r > width) continue;
    fxs_world_candidate c;
    c.dist_sq = dx * dx + dy * dy;
    if (c.dist_sq > r2 || j == self) continue;
    c.slot = s->world->internal->view_slot[j];
    c.view = j;
    offer(s->out->nearest, &s->sorted, s->k, c);
    s->flushed = true;
    if (c.dist_sq == 0 && full_on_the_spot(s)) return false;
    // No shrinking of r2 here: on these cores a test after every insertion cost more than it
    // saved (Cortex-M3 flock, make bench-m3).
  }
#endif
  return true;
}

// scan, and with `count` the run counted in the search's rows and agents (fxs_search_tally).
FXS_ALWAYS_INLINE bool scan_run(search *s, uint32_t begin, uint32_t end, uint32_t self, fxs_vec2 p,
                                bool far, bool count) {
  if (count) s->rows++, s->agents += end - begin;
  return scan(s, begin, end, self, p, far);
}

// Scans the cells x0..x1 of row y: one run of the view. On a grid that wraps, they are cells
// of the plane: the row and columns wrap round, and columns that pass the last one are two
// runs (they number fewer than the row's cells, so none comes twice).
FXS_ALWAYS_INLINE bool scan_row(search *s, const fxs_grid *g, int32_t y, int32_t x0, int32_t x1,
                                uint32_t self, fxs_vec2 p, bool wrapped, bool far, bool count) {
  const uint32_t *start = s->world->internal->cell_start;
  uint32_t w = g->w;
  if (!wrapped) {
    uint32_t row = (uint32_t)y * w;
    return scan_run(s, start[row + (uint32_t)x0], start[row + (uint32_t)x1 + 1u], self, p, far,
                    count);
  }
  uint32_t row = fxs_grid_wrap(y, g->h) * w, c0 = fxs_grid_wrap(x0, w);
  uint32_t c1 = c0 + (uint32_t)(x1 - x0);
  if (c1 < w) return scan_run(s, start[row + c0], start[row + c1 + 1u], self, p, far, count);
  if (!scan_run(s, start[row + c0], start[row + w], self, p, far, count)) return false;
  return scan_run(s, start[row], start[row + c1 - w + 1u], self, p, far, count);
}

// True when every agent in the cells x0..x1 of rows y0..y1 of a grid that does not wrap lies
// less than 2^31 raw from any point of them in each axis: none of them is an edge cell
// (which also holds the agents beyond the bounds, wherever they are) and they span at most
// 2^31 raw. A search whose box is such (the agent's own point lies in it) meets no squared
// distance of 2^63 or more, and its scan needs no test for one.
static inline bool box_is_near(const fxs_grid *g, int32_t x0, int32_t x1, int32_t y0, int32_t y1) {
  uint64_t span = (uint64_t)(x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0) + 1u;
  return x0 > 0 && y0 > 0 && (uint32_t)x1 + 1u < g->w && (uint32_t)y1 + 1u < g->h &&
         (span << g->shift) <= (UINT64_C(1) << 31);
}

// The column or row of the search's box that holds raw coordinate v: the grid's own
// (clamped into it), or on a grid that wraps, the plane's (scan_row wraps it).
FXS_ALWAYS_INLINE int32_t box_line(const fxs_grid *g, int64_t v, int64_t min, uint32_t cells,
                                   bool wrapped) {
  if (wrapped) return fxs_grid_index(v, min, g->shift);
  return (int32_t)fxs_grid_coord_shift(v, min, g->shift, cells);
}

// Visits the rows y0..y1 of the box of cells x0..x1 within r of p (view entry self).
FXS_ALWAYS_INLINE void visit_rows(search *s, fxs_vec2 p, uint32_t self, int32_t x0, int32_t x1,
                                  int32_t y0, int32_t y1, bool wrapped, bool far, bool count) {
  const fxs_grid *g = s->grid;
#if FXS_GRID_BRANCH_FREE
  // The agent's own row goes first, so that the sorted list fills with near agents early;
  // then the others from the lowest. Once the list is full the radius shrinks (see flush):
  // the rows and columns left to visit are then cut to it, widened to a whole unit above
  // its square root, so they still hold every agent that could enter the list. The order of
  // the visit never changes the result (a total order), only how many agents are collected.
  int32_t own = box_line(g, p.y, g->min_y, g->h, wrapped);
  uint64_t covered = s->r2;
  for (int32_t y = own, next = y0; y <= y1; y = next == own ? own + 1 : next, next = y + 1) {
    if (!scan_row(s, g, y, x0, x1, self, p, wrapped, far, count)) break;
    if (s->r2 < covered) {
      covered = s->r2;
      int64_t reach = (int64_t)fxs_isqrt_estimate(covered) + 2; // > sqrt(covered)
      x0 = box_line(g, (int64_t)p.x - reach, g->min_x, g->w, wrapped);
      x1 = box_line(g, (int64_t)p.x + reach, g->min_x, g->w, wrapped);
      y1 = box_line(g, (int64_t)p.y + reach, g->min_y, g->h, wrapped);
      int32_t low = box_line(g, (int64_t)p.y - reach, g->min_y, g->h, wrapped);
      if (next < low) next = low;
    }
  }
#else
  // The radius never shrinks on this path (see scan): the rows in order.
  for (int32_t y = y0; y <= y1; ++y) {
    if (!scan_row(s, g, y, x0, x1, self, p, wrapped, far, count)) break;
  }
#endif
}

// Visits the box of cells within r of p (view entry self), row by row. Its scan tests for a
// squared distance past 2^64 unless the agents are close (fxs_grid_measure_spread) or the
// box is near (box_is_near: it only shrinks as the search goes, so it stays near). `count`:
// its runs counted (scan_run).
FXS_ALWAYS_INLINE void visit(search *s, fxs_vec2 p, uint32_t self, int64_t r, bool wrapped,
                             bool count) {
  const fxs_grid *g = s->grid;
  int32_t x0 = box_line(g, (int64_t)p.x - r, g->min_x, g->w, wrapped);
  int32_t x1 = box_line(g, (int64_t)p.x + r, g->min_x, g->w, wrapped);
  int32_t y0 = box_line(g, (int64_t)p.y - r, g->min_y, g->h, wrapped);
  int32_t y1 = box_line(g, (int64_t)p.y + r, g->min_y, g->h, wrapped);
  if (FXS_GRID_BRANCH_FREE && (g->close || (!wrapped && box_is_near(g, x0, x1, y0, y1)))) {
    visit_rows(s, p, self, x0, x1, y0, y1, wrapped, false, count);
  } else {
    visit_rows(s, p, self, x0, x1, y0, y1, wrapped, true, count);
  }
}

// visit on a grid that wraps round: a call, so that the common grid keeps its own loop.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
visit_wrapped(search *s, fxs_vec2 p, uint32_t self, int64_t r, bool count) {
  visit(s, p, self, r, true, count);
}

// A slot's reach after a search whose k-th nearest lies at squared distance d2 (< 2^62):
// beyond that distance (the root is its floor or one less, so + 2 passes it), widened by
// 1/32 so that the next tick's search usually still holds k after the agents have moved.
// At most 33/32 of 2^31 + 2: within 32 bits.
static inline uint32_t reach_after(uint64_t d2) {
  uint32_t root = fxs_isqrt_estimate(d2);
  return root + root / 32u + 2u;
}

// A search's set-up: the k nearest (1 <= k <= FXS_MAX_NEIGHBORS) within r >= 0, into out.
FXS_ALWAYS_INLINE void begin_search(search *s, const fxs_world *world, const fxs_grid *g,
                                    uint32_t k, int64_t r, fxs_world_worker *out) {
  s->world = world, s->grid = g, s->out = out, s->found = 0, s->sorted = 0, s->flushed = false;
  s->rows = 0, s->agents = 0;
  s->k = k;
  s->cap = flush_at(k);
  s->r2 = (uint64_t)r * (uint64_t)r;
#if !FXS_GRID_BRANCH_FREE
  s->grid_r = (uint64_t)r;
#endif
}

// Visits the box within r of view entry v; `count`: its runs counted (scan_run).
FXS_ALWAYS_INLINE void search_around(search *s, uint32_t v, int64_t r, bool count) {
  fxs_vec2 p = s->world->internal->view_position[v];
  if (s->grid->wraps) {
    visit_wrapped(s, p, v, r, count);
  } else {
    visit(s, p, v, r, false, count);
  }
}

#if FXS_GRID_BRANCH_FREE
// finish, where a search that may leave its agents unsorted or ranks them later needs it: a
// call (nearest_within keeps it inline).
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t
finish_later(search *s) {
  return finish(s);
}
#endif

// The k nearest of view entry v within r, into out. A call: one copy of the search, which
// its callers share.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t
nearest_within(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k, int64_t r,
               fxs_world_worker *out) {
  search s;
  begin_search(&s, world, g, k, r, out);
  search_around(&s, v, r, false);
  return finish(&s);
}

// nearest_within for the FXS_MAX_NEIGHBORS nearest within the world's radius, its runs and
// agents counted into the worker's tally, which sizes the next grid's cells (fxs_grid_of).
// Only these searches count: one for ORCA's k nearest starts within its slot's reach and
// shrinks as its list fills, a cost the sizing does not weigh.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t
all_within(const fxs_world *world, const fxs_grid *g, uint32_t v, int64_t r,
           fxs_world_worker *out) {
  search s;
  begin_search(&s, world, g, FXS_MAX_NEIGHBORS, r, out);
  search_around(&s, v, r, true);
  fxs_search_tally *t = &out->searched;
  t->searches++, t->rows += s.rows, t->agents += s.agents;
  return finish(&s);
}

// nearest_within, leaving at most k found unsorted (*few: fxs_grid_nearest_few).
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t
nearest_within_few(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k, int64_t r,
                   fxs_world_worker *out, bool *few) {
#if FXS_GRID_BRANCH_FREE
  search s;
  begin_search(&s, world, g, k, r, out);
  search_around(&s, v, r, false);
  if ((*few = !s.flushed && s.found <= k)) return s.found;
  return finish_later(&s);
#else
  // The search ranks as it goes (scan): nothing is left unsorted, and the one search keeps
  // its ranking inline.
  *few = false;
  return nearest_within(world, g, v, k, r, out);
#endif
}

// The largest of the n >= 1 squared distances of a search left unsorted: the k-th nearest's
// when n = k.
static uint64_t farthest_found(const fxs_world_worker *out, uint32_t n) {
  uint64_t d2 = 0;
  for (uint32_t i = 0; i < n; ++i) d2 = out->found_dist_sq[i] > d2 ? out->found_dist_sq[i] : d2;
  return d2;
}

static uint32_t nearest(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k,
                        fix16_t radius, fxs_world_worker *out, bool *few) {
  int64_t r = radius < world->def.neighbor_radius ? radius : world->def.neighbor_radius;
  if (few) *few = false;
  if (r < 0 || k == 0) return 0; // no distance is within a negative radius
  if (k > FXS_MAX_NEIGHBORS) k = FXS_MAX_NEIGHBORS;
  // The slot's reach first: k found within it are the k nearest within r (every agent not
  // found is farther than all of them). Fewer: the search again at r.
  uint32_t *reach = &world->internal->slot_reach[world->internal->view_slot[v]];
  int64_t within = *reach != 0 && *reach < r ? *reach : r;
  uint32_t n = few ? nearest_within_few(world, g, v, k, within, out, few)
                   : nearest_within(world, g, v, k, within, out);
  if (n < k && within < r) {
    n = few ? nearest_within_few(world, g, v, k, r, out, few)
            : nearest_within(world, g, v, k, r, out);
  }
  if (n == k) {
    *reach = reach_after(few && *few ? farthest_found(out, n) : out->dist_sq[n - 1u]);
  } else {
    *reach = 0u;
  }
  return n;
}

uint32_t fxs_grid_nearest(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k,
                          fix16_t radius, fxs_world_worker *out) {
  return nearest(world, g, v, k, radius, out, 0);
}

uint32_t fxs_grid_nearest_few(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k,
                              fix16_t radius, fxs_world_worker *out, bool *few) {
  return nearest(world, g, v, k, radius, out, few);
}

uint32_t fxs_grid_rank_few(const fxs_world *world, const fxs_grid *g, uint32_t k, uint32_t n,
                           fxs_world_worker *out) {
#if FXS_GRID_BRANCH_FREE
  search s;
  begin_search(&s, world, g, k > FXS_MAX_NEIGHBORS ? FXS_MAX_NEIGHBORS : k, 0, out);
  s.found = n;
  return finish_later(&s);
#else
  // fxs_grid_nearest_few never leaves a list unsorted here: nothing to rank.
  (void)world, (void)g, (void)k, (void)out;
  FXS_ASSERT(n == 0);
  return 0;
#endif
}

uint32_t fxs_grid_neighbors(const fxs_world *world, const fxs_grid *g, uint32_t v,
                            fxs_world_worker *out) {
  int64_t r = world->def.neighbor_radius;
  if (r < 0) return 0;
  return all_within(world, g, v, r, out);
}
