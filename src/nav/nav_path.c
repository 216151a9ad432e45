#include "fixsteer/nav_path.h"
#include "nav_sight.h"

#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "nav_state.h"

// Bits of a cell's state byte.
#define DIR_MASK 0x07u
#define HAS_PARENT 0x08u
#define OPEN 0x10u
#define CLOSED 0x20u
// Set only while a saved heap is read: the cell is in it (read_open clears it after).
#define IN_HEAP 0x40u

// The largest g a restored cell may carry: the most a path of fewer steps than cells costs.
// With at most FXS_NAV_MAX_CELLS cells, g + one more step + h stays below 2^32.
#define MAX_STEP (FXS_NAV_DIAGONAL * FXS_NAV_MAX_COST)

static const int8_t step_x[FXS_NAV_DIRECTIONS] = {1, 0, -1, 0, 1, -1, -1, 1};
static const int8_t step_y[FXS_NAV_DIRECTIONS] = {0, 1, 0, -1, 1, 1, -1, -1};

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

size_t fxs_nav_search_memory_size(uint32_t cell_capacity, uint32_t open_capacity) {
  if (cell_capacity == 0 || cell_capacity > FXS_NAV_MAX_CELLS || open_capacity == 0 ||
      open_capacity > cell_capacity) {
    return 0;
  }
  // Below 2^25 bytes: no overflow even in a 32-bit size_t.
  size_t cells = cell_capacity;
  return 3u * align8(cells * sizeof(uint32_t)) + align8(cells) +
         align8((size_t)open_capacity * sizeof(fxs_nav_open));
}

static void clear_cells(fxs_nav_search *s) {
  // Array by array: three block clears (a world restore clears every free search's cells).
  // A checking search (fxs_nav_check_init) has no open_at.
  memset(s->state, 0, s->cell_capacity);
  if (s->open_at) memset(s->open_at, 0, (size_t)s->cell_capacity * sizeof *s->open_at);
  memset(s->g, 0, (size_t)s->cell_capacity * sizeof *s->g);
}

static void make_idle(fxs_nav_search *s) {
  s->width = s->height = 0;
  s->start = s->goal = s->end = 0;
  s->status = FXS_NAV_IDLE;
  s->expanded = s->open_count = s->touched_count = 0;
}

fxs_result fxs_nav_search_init(fxs_nav_search *search, void *memory, size_t size,
                               uint32_t cell_capacity, uint32_t open_capacity) {
  size_t need = fxs_nav_search_memory_size(cell_capacity, open_capacity);
  if (need == 0 || memory == NULL) return FXS_ERR_BAD_VALUE;
  if (size < need) return FXS_ERR_BUFFER_TOO_SMALL;
  uint8_t *p = (uint8_t *)memory;
  size_t words = align8((size_t)cell_capacity * sizeof(uint32_t));
  search->cell_capacity = cell_capacity;
  search->open_capacity = open_capacity;
  search->g = (uint32_t *)(void *)p;
  search->open_at = (uint32_t *)(void *)(p + words);
  search->touched = (uint32_t *)(void *)(p + 2u * words);
  search->open = (fxs_nav_open *)(void *)(p + 3u * words);
  search->state = p + 3u * words + align8((size_t)open_capacity * sizeof(fxs_nav_open));
  clear_cells(search);
  make_idle(search);
  return FXS_OK;
}

void fxs_nav_check_init(fxs_nav_search *search, uint32_t *g, uint8_t *state, uint32_t cell_capacity,
                        uint32_t open_capacity) {
  search->cell_capacity = cell_capacity;
  search->open_capacity = open_capacity;
  search->g = g;
  search->state = state;
  search->open_at = NULL;
  search->touched = NULL;
  search->open = NULL;
  clear_cells(search);
  make_idle(search);
}

// Octile distance from (cx, cy) to the goal (gx, gy), with the least weight.
static inline uint32_t octile(uint32_t cx, uint32_t cy, uint32_t gx, uint32_t gy) {
  uint32_t dx = cx > gx ? cx - gx : gx - cx, dy = cy > gy ? cy - gy : gy - cy;
  uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return FXS_NAV_STRAIGHT * hi + (FXS_NAV_DIAGONAL - FXS_NAV_STRAIGHT) * lo;
}

// The same for a cell index.
static uint32_t heuristic(uint32_t cell, uint32_t width, uint32_t gx, uint32_t gy) {
  return octile(cell % width, cell / width, gx, gy);
}

// The heap's order, (f, h, cell). An entry keeps no h: under one f, h = f - g is the lower
// for the greater g.
// `before`: entry a, whose cell's g is ga, comes before b (the sifts load a's g once).
static inline bool before(const fxs_nav_search *s, fxs_nav_open a, uint32_t ga,
                          const fxs_nav_open *b) {
  if (a.f != b->f) return a.f < b->f;
  uint32_t gb = s->g[b->cell];
  if (ga != gb) return ga > gb;
  return a.cell < b->cell;
}

static bool less(const fxs_nav_search *s, const fxs_nav_open *a, const fxs_nav_open *b) {
  return a->f != b->f ? a->f < b->f : before(s, *a, s->g[a->cell], b);
}

static void heap_place(fxs_nav_search *s, uint32_t at, fxs_nav_open e) {
  s->open[at] = e;
  s->open_at[e.cell] = at + 1u;
}

static void sift_up(fxs_nav_search *s, uint32_t at) {
  fxs_nav_open e = s->open[at];
  uint32_t eg = s->g[e.cell];
  while (at > 0) {
    uint32_t parent = (at - 1u) / 2u;
    if (!before(s, e, eg, &s->open[parent])) break;
    heap_place(s, at, s->open[parent]);
    at = parent;
  }
  heap_place(s, at, e);
}

static void sift_down(fxs_nav_search *s, uint32_t at) {
  fxs_nav_open e = s->open[at];
  uint32_t eg = s->g[e.cell], n = s->open_count;
  for (;;) {
    uint32_t child = 2u * at + 1u;
    if (child >= n) break;
    if (child + 1u < n && less(s, &s->open[child + 1u], &s->open[child])) child++;
    // Entries are distinct (their cells are): not after the child is before it.
    if (before(s, e, eg, &s->open[child])) break;
    heap_place(s, at, s->open[child]);
    at = child;
  }
  heap_place(s, at, e);
}

static uint32_t pop_min(fxs_nav_search *s) {
  uint32_t cell = s->open[0].cell;
  s->open_at[cell] = 0;
  if (--s->open_count > 0) {
    s->open[0] = s->open[s->open_count];
    sift_down(s, 0);
  }
  return cell;
}

fxs_result fxs_nav_search_begin(fxs_nav_search *search, const fxs_nav_grid *grid, uint32_t sx,
                                uint32_t sy, uint32_t gx, uint32_t gy) {
  if ((uint64_t)grid->width * grid->height > search->cell_capacity) return FXS_ERR_CAPACITY;
  if (sx >= grid->width || sy >= grid->height || gx >= grid->width || gy >= grid->height) {
    return FXS_ERR_OUTSIDE_GRID;
  }
  for (uint32_t i = 0; i < search->touched_count; ++i) {
    uint32_t c = search->touched[i];
    search->state[c] = 0;
    search->open_at[c] = 0;
  }
  make_idle(search);
  search->width = grid->width;
  search->height = grid->height;
  search->start = sy * grid->width + sx;
  search->goal = gy * grid->width + gx;
  search->end = search->start;
  search->status = FXS_NAV_SEARCHING;
  uint32_t start = search->start;
  search->g[start] = 0;
  search->state[start] = OPEN;
  search->touched[search->touched_count++] = start;
  fxs_nav_open e = {heuristic(start, grid->width, gx, gy), start};
  search->open_count = 1;
  heap_place(search, 0, e);
  return FXS_OK;
}

// Whether cell a (octile distance ha to the goal) is nearer the goal than cell b (hb) by
// (h, g, index).
static bool nearer(const fxs_nav_search *s, uint32_t a, uint32_t ha, uint32_t b, uint32_t hb) {
  if (ha != hb) return ha < hb;
  if (s->g[a] != s->g[b]) return s->g[a] < s->g[b];
  return a < b;
}

// Opens or improves neighbour n (at nx, ny) reached by direction dir at cost ng. False
// when the open list is full.
static bool relax(fxs_nav_search *s, uint32_t n, uint32_t dir, uint32_t ng, uint32_t h) {
  uint8_t st = s->state[n];
  if (st & CLOSED) return true;
  if (st & OPEN) {
    if (ng >= s->g[n]) return true;
    s->g[n] = ng;
    s->state[n] = (uint8_t)(OPEN | HAS_PARENT | dir);
    uint32_t at = s->open_at[n] - 1u;
    s->open[at].f = ng + h;
    sift_up(s, at);
    return true;
  }
  if (s->open_count >= s->open_capacity) return false;
  s->g[n] = ng;
  s->state[n] = (uint8_t)(OPEN | HAS_PARENT | dir);
  s->touched[s->touched_count++] = n;
  fxs_nav_open e = {ng + h, n};
  s->open_count++;
  heap_place(s, s->open_count - 1u, e);
  sift_up(s, s->open_count - 1u);
  return true;
}

// Expands cell c at (cx, cy): every neighbour a step may reach (nav_grid.h), in direction
// order.
static bool expand(fxs_nav_search *s, const fxs_nav_grid *grid, uint32_t c, uint32_t cx,
                   uint32_t cy, uint32_t gx, uint32_t gy) {
  uint32_t w = s->width, h = s->height;
  const uint8_t *cost = grid->cost;
  uint32_t g = s->g[c];
  for (uint32_t dir = 0; dir < FXS_NAV_DIRECTIONS; ++dir) {
    uint32_t nx = cx + (uint32_t)(int32_t)step_x[dir], ny = cy + (uint32_t)(int32_t)step_y[dir];
    if (nx >= w || ny >= h) continue; // also -1, wrapped
    uint32_t n = ny * w + nx;
    if (s->state[n] & CLOSED) continue;
    uint32_t k = cost[n];
    if (k == FXS_NAV_BLOCKED) continue;
    if (dir >= 4 &&
        (cost[cy * w + nx] == FXS_NAV_BLOCKED || cost[ny * w + cx] == FXS_NAV_BLOCKED)) {
      continue;
    }
    uint32_t ng = g + (dir < 4 ? FXS_NAV_STRAIGHT : FXS_NAV_DIAGONAL) * k;
    if (!relax(s, n, dir, ng, octile(nx, ny, gx, gy))) return false;
  }
  return true;
}

fxs_nav_status fxs_nav_search_step(fxs_nav_search *search, const fxs_nav_grid *grid,
                                   uint32_t budget) {
  fxs_nav_search *s = search;
  if (s->status != FXS_NAV_SEARCHING) return (fxs_nav_status)s->status;
  FXS_ASSERT(grid->width == s->width && grid->height == s->height);
  if (grid->width != s->width || grid->height != s->height) {
    s->end = s->start;
    s->status = FXS_NAV_NEAREST;
    return FXS_NAV_NEAREST;
  }
  uint32_t gx = s->goal % s->width, gy = s->goal / s->width;
  uint32_t end_h = heuristic(s->end, s->width, gx, gy);
  for (uint32_t done = 0; done < budget; ++done) {
    if (s->open_count == 0) {
      s->status = FXS_NAV_NEAREST;
      break;
    }
    uint32_t h = s->open[0].f - s->g[s->open[0].cell];
    uint32_t c = pop_min(s);
    s->state[c] = (uint8_t)((s->state[c] & ~OPEN) | CLOSED);
    s->expanded++;
    if (c == s->goal) {
      s->end = c;
      s->status = FXS_NAV_FOUND;
      break;
    }
    if (s->expanded == 1u || nearer(s, c, h, s->end, end_h)) s->end = c, end_h = h;
    if (!expand(s, grid, c, c % s->width, c / s->width, gx, gy)) {
      s->status = FXS_NAV_OPEN_FULL;
      break;
    }
  }
  return (fxs_nav_status)s->status;
}

static bool finished(const fxs_nav_search *s) {
  return s->status == FXS_NAV_FOUND || s->status == FXS_NAV_NEAREST ||
         s->status == FXS_NAV_OPEN_FULL;
}

// The parent of a touched cell with a parent.
static uint32_t parent_of(const fxs_nav_search *s, uint32_t c) {
  uint32_t dir = s->state[c] & DIR_MASK;
  uint32_t cx = c % s->width, cy = c / s->width;
  return (uint32_t)((int64_t)cy - step_y[dir]) * s->width + (uint32_t)((int64_t)cx - step_x[dir]);
}

uint32_t fxs_nav_search_path(const fxs_nav_search *search, uint32_t *cells, uint32_t capacity) {
  const fxs_nav_search *s = search;
  if (!finished(s)) return 0;
  // g falls strictly along parents (checked on restore), so the walk ends at the start;
  // the bound only guards it.
  uint32_t length = 1;
  for (uint32_t c = s->end; (s->state[c] & HAS_PARENT) && length <= s->touched_count;
       c = parent_of(s, c)) {
    length++;
  }
  uint32_t at = length;
  for (uint32_t c = s->end;; c = parent_of(s, c)) {
    --at;
    if (cells && at < capacity) cells[at] = c;
    if (at == 0 || !(s->state[c] & HAS_PARENT)) break;
  }
  return length;
}

uint32_t fxs_nav_search_cost(const fxs_nav_search *search) {
  return finished(search) ? search->g[search->end] : 0;
}

// ---------------------------------------------------------------- save and restore

void fxs_nav_search_write(const fxs_nav_search *s, fxs_writer *w) {
  fxs_put_u32(w, s->width);
  fxs_put_u32(w, s->height);
  fxs_put_u32(w, s->start);
  fxs_put_u32(w, s->goal);
  fxs_put_u32(w, s->status);
  fxs_put_u32(w, s->end);
  fxs_put_u32(w, s->expanded);
  fxs_put_u32(w, s->open_count);
  fxs_put_u32(w, s->touched_count);
  for (uint32_t i = 0; i < s->touched_count; ++i) {
    uint32_t c = s->touched[i];
    fxs_put_u32(w, c);
    fxs_put_u32(w, s->g[c]);
    fxs_put_u8(w, s->state[c]);
  }
  for (uint32_t i = 0; i < s->open_count; ++i) fxs_put_u32(w, s->open[i].cell);
}

size_t fxs_nav_search_save(const fxs_nav_search *search, uint8_t *buffer, size_t capacity) {
  fxs_writer w = fxs_writer_make(buffer, capacity, 0);
  if (buffer) {
    fxs_writer probe = fxs_writer_make(0, 0, 0);
    fxs_nav_search_write(search, &probe);
    if (probe.position > capacity) return probe.position;
  }
  fxs_nav_search_write(search, &w);
  return w.position;
}

// The cell that opens record i of the `stride`-byte records that begin at `base` in the
// bytes of r (records already read, so within them).
static uint32_t cell_at(const fxs_reader *r, size_t base, uint32_t i, size_t stride) {
  fxs_reader at = fxs_reader_make(r->data, r->size);
  at.position = base + (size_t)i * stride;
  return fxs_get_u32(&at);
}

// Checks of the touched cells once all are read (the `touched_count` records of 9 bytes
// from `base` in r's bytes, in their order): parents closed with a lower g, the start
// without a parent and g 0, the closed count equal to `expanded`. Counts the open ones.
static fxs_result check_tree(const fxs_nav_search *s, const fxs_reader *r, size_t base,
                             uint32_t *opened) {
  uint32_t closed = 0;
  *opened = 0;
  for (uint32_t i = 0; i < s->touched_count; ++i) {
    uint32_t c = cell_at(r, base, i, 9u);
    uint8_t st = s->state[c];
    closed += (st & CLOSED) != 0;
    *opened += (st & OPEN) != 0;
    if (!(st & HAS_PARENT)) {
      if (c != s->start || s->g[c] != 0) return FXS_ERR_BAD_VALUE;
      continue;
    }
    if (c == s->start) return FXS_ERR_BAD_VALUE;
    uint32_t p = parent_of(s, c);
    if (!(s->state[p] & CLOSED) || s->g[p] >= s->g[c]) return FXS_ERR_BAD_VALUE;
  }
  if (closed != s->expanded || !(s->state[s->start] & (OPEN | CLOSED))) return FXS_ERR_BAD_VALUE;
  if (!(s->state[s->end] & (OPEN | CLOSED))) return FXS_ERR_BAD_VALUE;
  if (s->status == FXS_NAV_FOUND && s->end != s->goal) return FXS_ERR_BAD_VALUE;
  return FXS_OK;
}

// Reads one touched cell. Its parent must lie inside the grid; the state has one of open
// and closed and no unknown bits.
static fxs_result read_touched(fxs_nav_search *s, fxs_reader *r, uint32_t cells) {
  uint32_t c = fxs_get_u32(r), g = fxs_get_u32(r);
  uint8_t st = fxs_get_u8(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  if (c >= cells || s->state[c] != 0 || (st & ~(DIR_MASK | HAS_PARENT | OPEN | CLOSED)) ||
      ((st & OPEN) != 0) == ((st & CLOSED) != 0) || g > MAX_STEP * cells) {
    return FXS_ERR_BAD_VALUE;
  }
  if (st & HAS_PARENT) {
    uint32_t dir = st & DIR_MASK;
    int64_t px = (int64_t)(c % s->width) - step_x[dir], py = (int64_t)(c / s->width) - step_y[dir];
    if (px < 0 || py < 0 || px >= (int64_t)s->width || py >= (int64_t)s->height) {
      return FXS_ERR_BAD_VALUE;
    }
  } else if (st & DIR_MASK) {
    return FXS_ERR_BAD_VALUE;
  }
  s->g[c] = g;
  s->state[c] = st;
  if (s->touched) s->touched[s->touched_count] = c;
  s->touched_count++;
  return FXS_OK;
}

// The heap entry of an open cell, as begin and relax make it.
static fxs_nav_open entry_of(const fxs_nav_search *s, uint32_t c, uint32_t gx, uint32_t gy) {
  fxs_nav_open e = {s->g[c] + heuristic(c, s->width, gx, gy), c};
  return e;
}

// Reads the heap: every open cell once, each entry after its parent in the order. The
// parent's cell is read again from the bytes, so that a checking search needs no heap.
static fxs_result read_open(fxs_nav_search *s, fxs_reader *r, uint32_t open_count,
                            uint32_t opened) {
  uint32_t gx = s->goal % s->width, gy = s->goal / s->width;
  if (opened != open_count) return FXS_ERR_BAD_VALUE;
  size_t base = r->position;
  for (uint32_t i = 0; i < open_count; ++i) {
    uint32_t c = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (c >= s->width * s->height || !(s->state[c] & OPEN) || (s->state[c] & IN_HEAP)) {
      return FXS_ERR_BAD_VALUE;
    }
    s->state[c] |= IN_HEAP;
    fxs_nav_open e = entry_of(s, c, gx, gy);
    if (s->open) heap_place(s, i, e);
    s->open_count = i + 1u;
    if (i > 0) {
      fxs_nav_open up = entry_of(s, cell_at(r, base, (i - 1u) / 2u, 4u), gx, gy);
      if (less(s, &e, &up)) return FXS_ERR_BAD_VALUE;
    }
  }
  for (uint32_t i = 0; i < open_count; ++i) s->state[cell_at(r, base, i, 4u)] &= ~IN_HEAP;
  return FXS_OK;
}

static fxs_result read_search(fxs_nav_search *s, fxs_reader *r) {
  uint32_t v[9];
  for (int i = 0; i < 9; ++i) v[i] = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  uint32_t width = v[0], height = v[1], status = v[4], open_count = v[7], touched = v[8];
  if (width == 0 && height == 0) {
    for (int i = 2; i < 9; ++i) {
      if (v[i] != 0) return FXS_ERR_BAD_VALUE;
    }
    return FXS_OK; // idle
  }
  if (width == 0 || height == 0 || width > FXS_NAV_MAX_SIDE || height > FXS_NAV_MAX_SIDE) {
    return FXS_ERR_BAD_VALUE;
  }
  uint64_t cells = (uint64_t)width * height;
  if (cells > s->cell_capacity) return FXS_ERR_CAPACITY;
  if (open_count > s->open_capacity) return FXS_ERR_CAPACITY;
  if (status < FXS_NAV_SEARCHING || status > FXS_NAV_OPEN_FULL || v[2] >= cells || v[3] >= cells ||
      v[5] >= cells || touched > cells || touched == 0 || open_count > touched) {
    return FXS_ERR_BAD_VALUE;
  }
  s->width = width, s->height = height, s->start = v[2], s->goal = v[3];
  s->status = status, s->end = v[5], s->expanded = v[6];
  size_t records = r->position;
  for (uint32_t i = 0; i < touched; ++i) {
    fxs_result res = read_touched(s, r, (uint32_t)cells);
    if (res != FXS_OK) return res;
  }
  uint32_t opened = 0;
  fxs_result res = check_tree(s, r, records, &opened);
  return res != FXS_OK ? res : read_open(s, r, open_count, opened);
}

fxs_result fxs_nav_search_read(fxs_nav_search *search, fxs_reader *r) {
  clear_cells(search);
  make_idle(search);
  fxs_result res = read_search(search, r);
  if (res != FXS_OK) {
    clear_cells(search);
    make_idle(search);
  }
  return res;
}

fxs_result fxs_nav_search_restore(fxs_nav_search *search, const uint8_t *data, size_t size) {
  fxs_reader r = fxs_reader_make(data, size);
  fxs_result res = fxs_nav_search_read(search, &r);
  if (res == FXS_OK && r.position != size) {
    clear_cells(search);
    make_idle(search);
    return FXS_ERR_BAD_LENGTH;
  }
  return res;
}

// ---------------------------------------------------------------- line of sight

uint32_t fxs_nav_sight_blocker(const fxs_nav_grid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                               uint32_t y1) {
  if (x0 >= grid->width || y0 >= grid->height || x1 >= grid->width || y1 >= grid->height) {
    return FXS_NAV_SIGHT_OFF_GRID;
  }
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1, ny = y1 > y0 ? y1 - y0 : y0 - y1;
  // The walk stays in the box of its two end cells, corners included (a corner is met only
  // with steps left on both axes): a pointer to the cell steps a byte or a row at a time.
  ptrdiff_t across = x1 > x0 ? 1 : -1;
  ptrdiff_t down = y1 > y0 ? (ptrdiff_t)grid->width : -(ptrdiff_t)grid->width;
  const uint8_t *cell = grid->cost + (size_t)y0 * grid->width + x0;
  // The segment between the centres crosses the next column line at (1 + 2 ix) / (2 nx) of
  // its length and the next row line at (1 + 2 iy) / (2 ny): whichever comes first is the
  // next cell; both at once is a corner, whose two side cells it touches too. `decision` is
  // (1 + 2 ix) ny - (1 + 2 iy) nx, kept up to date by sums (a column more adds 2 ny, a row
  // more takes 2 nx) so that no product lies on the walk's chain of steps.
  int64_t decision = ny - nx;
  for (int64_t ix = 0, iy = 0; ix < nx || iy < ny;) {
    if (decision == 0) {
      if (cell[across] == FXS_NAV_BLOCKED) return (uint32_t)(cell + across - grid->cost);
      if (cell[down] == FXS_NAV_BLOCKED) return (uint32_t)(cell + down - grid->cost);
      cell += across + down, ix++, iy++, decision += 2 * (ny - nx);
    } else if (decision < 0) {
      cell += across, ix++, decision += 2 * ny;
    } else {
      cell += down, iy++, decision -= 2 * nx;
    }
    if (*cell == FXS_NAV_BLOCKED) return (uint32_t)(cell - grid->cost);
  }
  return FXS_NAV_SIGHT_CLEAR;
}

bool fxs_nav_line_of_sight(const fxs_nav_grid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                           uint32_t y1) {
  return fxs_nav_sight_blocker(grid, x0, y0, x1, y1) == FXS_NAV_SIGHT_CLEAR;
}

static bool sight(const fxs_nav_grid *grid, uint32_t a, uint32_t b) {
  uint32_t w = grid->width;
  uint64_t cells = (uint64_t)w * grid->height;
  if (a >= cells || b >= cells) return false;
  return fxs_nav_line_of_sight(grid, a % w, a / w, b % w, b / w);
}

uint32_t fxs_nav_pull_string(const fxs_nav_grid *grid, uint32_t *cells, uint32_t count) {
  if (count <= 2) return count;
  // Each kept cell comes from an index at or after the slot it is written to, so writing in
  // place never overwrites a cell still to be read.
  uint32_t kept = 1, anchor = cells[0];
  for (uint32_t i = 1; i < count;) {
    if (sight(grid, anchor, cells[i])) {
      ++i;
      continue;
    }
    // cells[i - 1] was in sight and cells[i] is not: the turn is at cells[i - 1], and
    // cells[i] is checked again from there. When even the next cell is out of sight (not
    // a path of nav_path's rules) that cell is kept.
    uint32_t turn = cells[i - 1] != anchor ? cells[i - 1] : cells[i];
    if (turn == cells[i]) ++i;
    anchor = turn;
    cells[kept++] = turn;
  }
  if (cells[kept - 1] != cells[count - 1]) cells[kept++] = cells[count - 1];
  // Sight along the path is not monotone: a kept cell may be droppable once the cells
  // around it are known. Drop such cells, first ones first, until none is.
  for (bool dropped = true; dropped && kept > 2;) {
    dropped = false;
    uint32_t out = 1;
    for (uint32_t i = 1; i + 1 < kept; ++i) {
      if (sight(grid, cells[out - 1], cells[i + 1])) {
        dropped = true;
        continue;
      }
      cells[out++] = cells[i];
    }
    cells[out++] = cells[kept - 1];
    kept = out;
  }
  return kept;
}
