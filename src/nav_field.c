#include "fixsteer/nav_field.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "nav_state.h"

#define MASK (FXS_NAV_BUCKETS - 1u)
// The dearest step: every queued value lies within this of `current`.
#define MAX_STEP (FXS_NAV_DIAGONAL * FXS_NAV_MAX_COST)
// Link marks. Entry 0 is a corner of the blocked border, never queued: it ends a list (and
// marks an empty bucket), so a list's links need no test for the end when they are set.
#define NONE 0u
#define HEAD (UINT32_MAX - 1u)    // prev of a restored list's first cell (only a mark)
#define OUT (UINT32_MAX - 2u)     // prev of a cell in no list

static const int8_t step_x[FXS_NAV_DIRECTIONS] = {1, 0, -1, 0, 1, -1, -1, 1};
static const int8_t step_y[FXS_NAV_DIRECTIONS] = {0, 1, 0, -1, 1, 1, -1, -1};

uint32_t fxs_nav_field_cells(uint32_t width, uint32_t height) {
  if (fxs_nav_grid_check(fxs_vec2_zero(), FXS_ONE, width, height) != FXS_OK) return 0;
  return (width + 2u) * (height + 2u); // below 2^20 + 2 * (32767 + 32) + 4
}

size_t fxs_nav_field_memory_size(uint32_t cell_capacity) {
  if (cell_capacity == 0 || cell_capacity > FXS_NAV_FIELD_MAX_CELLS) return 0;
  // 16 bytes an entry (13 used: value, next, prev, weight) and the buckets; below 2^26.
  return (size_t)cell_capacity * 16u + (size_t)FXS_NAV_BUCKETS * sizeof(uint32_t);
}

static void make_idle(fxs_nav_field *f) {
  f->width = f->height = 0;
  f->status = FXS_NAV_FIELD_IDLE;
  f->current = f->queued = f->settled = 0;
}

fxs_result fxs_nav_field_init(fxs_nav_field *field, void *memory, size_t size,
                              uint32_t cell_capacity) {
  size_t need = fxs_nav_field_memory_size(cell_capacity);
  if (need == 0 || memory == NULL) return FXS_ERR_BAD_VALUE;
  if (size < need) return FXS_ERR_BUFFER_TOO_SMALL;
  // The buckets just before the values: the build reaches both from one base.
  field->cell_capacity = cell_capacity;
  field->bucket = (uint32_t *)memory;
  field->value = field->bucket + FXS_NAV_BUCKETS;
  field->link = (fxs_nav_field_link *)(void *)(field->value + cell_capacity);
  field->weight = (uint8_t *)(void *)(field->link + cell_capacity);
  for (uint32_t i = 0; i < cell_capacity; ++i) {
    field->value[i] = 0, field->weight[i] = 0;
    field->link[i].next = NONE, field->link[i].prev = OUT;
  }
  for (uint32_t b = 0; b < FXS_NAV_BUCKETS; ++b) field->bucket[b] = NONE;
  make_idle(field);
  return FXS_OK;
}

// Entry of grid cell i of a width-w grid.
static inline uint32_t entry_of(uint32_t i, uint32_t w) { return i + w + 3u + 2u * (i / w); }

// True when one of the 8 bytes of w is 0 (exact for "any": a borrow starts at a zero byte).
static inline bool has_zero_byte(uint64_t w) {
  return ((w - UINT64_C(0x0101010101010101)) & ~w & UINT64_C(0x8080808080808080)) != 0;
}

// Lays the grid's costs out with a blocked border and empties the buckets: O(entries).
// Values are written eight at a time where eight costs in a row are all walkable. The
// links need no clearing: an entry's are written when it is queued and read only while it
// is.
static void lay_out(fxs_nav_field *f, const fxs_nav_grid *grid) {
  uint32_t w = grid->width, h = grid->height, stride = w + 2u;
  uint32_t *restrict value = f->value;
  uint8_t *restrict weight = f->weight;
  for (uint32_t i = 0; i < stride; ++i) value[i] = 0, weight[i] = 0;
  for (uint32_t y = 0; y < h; ++y) {
    const uint8_t *restrict row = grid->cost + (size_t)y * w;
    uint32_t at = (y + 1u) * stride;
    value[at] = 0, weight[at] = 0;
    memcpy(weight + at + 1u, row, w);
    uint32_t *restrict v = value + at + 1u;
    uint32_t x = 0;
    for (; x + 8u <= w; x += 8u) {
      uint64_t eight;
      memcpy(&eight, row + x, sizeof eight);
      if (!has_zero_byte(eight)) {
        static const uint32_t unreached[8] = {FXS_NAV_UNREACHED, FXS_NAV_UNREACHED,
                                              FXS_NAV_UNREACHED, FXS_NAV_UNREACHED,
                                              FXS_NAV_UNREACHED, FXS_NAV_UNREACHED,
                                              FXS_NAV_UNREACHED, FXS_NAV_UNREACHED};
        memcpy(v + x, unreached, sizeof unreached); // a few wide stores
      } else {
        for (uint32_t j = 0; j < 8u; ++j) v[x + j] = 0u - (uint32_t)(row[x + j] != 0);
      }
    }
    for (; x < w; ++x) v[x] = 0u - (uint32_t)(row[x] != 0); // UNREACHED, or 0 blocked
    value[at + stride - 1u] = 0, weight[at + stride - 1u] = 0;
  }
  uint32_t last = (h + 1u) * stride;
  for (uint32_t i = 0; i < stride; ++i) value[last + i] = 0, weight[last + i] = 0;
  for (uint32_t b = 0; b < FXS_NAV_BUCKETS; ++b) f->bucket[b] = NONE;
  f->width = w, f->height = h;
  f->current = 1;
  f->queued = f->settled = 0;
}

// Marks every entry as in no list (restore checks queued entries against it).
static void unlink_all(fxs_nav_field *f) {
  uint32_t entries = (f->width + 2u) * (f->height + 2u);
  for (uint32_t i = 0; i < entries; ++i) f->link[i].prev = OUT;
}

// Puts entry x (in no list) at the head of the list of stored value v.
static void link_cell(fxs_nav_field *f, uint32_t x, uint32_t v) {
  uint32_t *head = &f->bucket[v & MASK];
  uint32_t first = *head;
  f->link[x].next = first;
  f->link[x].prev = HEAD; // marks it queued for restore's checks; the step never reads it
  if (first != NONE) f->link[first].prev = x;
  *head = x;
}

fxs_result fxs_nav_field_begin(fxs_nav_field *field, const fxs_nav_grid *grid,
                               const uint32_t *goals, uint32_t count) {
  uint32_t entries = fxs_nav_field_cells(grid->width, grid->height);
  if (entries == 0 || entries > field->cell_capacity) return FXS_ERR_CAPACITY;
  for (uint32_t i = 0; i < count; ++i) {
    if (goals[i] >= grid->width * grid->height) return FXS_ERR_OUTSIDE_GRID;
  }
  lay_out(field, grid);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t e = entry_of(goals[i], grid->width);
    if (field->value[e] != FXS_NAV_UNREACHED) continue; // blocked, or given already
    field->value[e] = 1;
    link_cell(field, e, 1);
    field->queued++;
  }
  field->status = field->queued ? FXS_NAV_FIELD_BUILDING : FXS_NAV_FIELD_READY;
  return FXS_OK;
}

// The build's arrays: `value` (the buckets at value - FXS_NAV_BUCKETS) and `link`; an
// entry's links are link[x].
#define NEXT(x) link[x].next
#define PREV(x) link[x].prev
#define HEAD_OF(v) (value - FXS_NAV_BUCKETS + ((v) & MASK))

// Puts entry x at the head of the list of stored value v.
static inline void push(uint32_t *restrict value, fxs_nav_field_link *restrict link,
                        uint32_t x, uint32_t v) {
  uint32_t *head = HEAD_OF(v);
  uint32_t first = *head;
  NEXT(x) = first;
  PREV(first) = x; // entry 0's prev when the list was empty: never read
  *head = x;
}

#if defined(__GNUC__) || defined(__clang__)
#define FXS_NOINLINE __attribute__((noinline))
#else
#define FXS_NOINLINE
#endif

// Moves a queued entry (stored value old) to the list of the lower stored value v. A
// list's first entry is the one its bucket names (its prev is not kept). Out of line: a
// few in a hundred offers move an entry, and the loop that calls it keeps its registers.
static FXS_NOINLINE void move(uint32_t *restrict value, fxs_nav_field_link *restrict link,
                              uint32_t x, uint32_t old, uint32_t v) {
  uint32_t n = NEXT(x);
  uint32_t *from = HEAD_OF(old);
  if (*from == x) {
    *from = n;
  } else {
    uint32_t p = PREV(x);
    NEXT(p) = n;
    PREV(n) = p;
  }
  value[x] = v;
  push(value, link, x, v);
}

// Offers entry x (stored value old) the stored value v < old; 1 when it was not queued
// before (counted in *fresh). Blocked entries (0) and settled ones (at most current, below
// any offer: a step costs at least 10) are never offered less, so the entry is new or
// queued (moved).
static inline void improve(uint32_t *restrict value, fxs_nav_field_link *restrict link,
                           uint32_t x, uint32_t old, uint32_t v, uint32_t *fresh) {
  if (old != FXS_NAV_UNREACHED) {
    move(value, link, x, old, v);
    return;
  }
  value[x] = v;
  push(value, link, x, v);
  ++*fresh;
}

// Settles entry c: its neighbours are offered value(c) + the cost of the step from them
// into c. A diagonal neighbour needs both straight ones beside the step walkable (non-zero).
// Offers land in lists other than current's (a step costs 10 to 3556, less than the ring).
// Neighbours are read through pointers (no index arithmetic); an entry's index is worked
// out only when it is offered a value. Counts the entries it queues in *fresh.
static inline void settle(uint32_t *restrict value, fxs_nav_field_link *restrict link,
                          const uint8_t *restrict weight, uint32_t c, ptrdiff_t stride,
                          uint32_t *fresh) {
  const uint32_t *at = value + c, *up = at + stride, *down = at - stride;
  uint32_t v = *at, k = weight[c];
  uint32_t straight = v + FXS_NAV_STRAIGHT * k, diagonal = v + FXS_NAV_DIAGONAL * k;
  uint32_t ve = at[1], vn = *up, vw = at[-1], vs = *down;
#define OFFER(p, old, to) improve(value, link, (uint32_t)((p) - value), old, to, fresh)
  if (straight < ve) OFFER(at + 1, ve, straight);
  if (straight < vn) OFFER(up, vn, straight);
  if (straight < vw) OFFER(at - 1, vw, straight);
  if (straight < vs) OFFER(down, vs, straight);
  uint32_t vx, lo = ve < vn ? ve : vn, lo2 = vw < vs ? vw : vs;
  if ((lo < lo2 ? lo : lo2) != 0) { // no wall beside: every diagonal step is allowed
    if (diagonal < (vx = up[1])) OFFER(up + 1, vx, diagonal);
    if (diagonal < (vx = up[-1])) OFFER(up - 1, vx, diagonal);
    if (diagonal < (vx = down[-1])) OFFER(down - 1, vx, diagonal);
    if (diagonal < (vx = down[1])) OFFER(down + 1, vx, diagonal);
    return;
  }
  if (ve && vn && diagonal < (vx = up[1])) OFFER(up + 1, vx, diagonal);
  if (vw && vn && diagonal < (vx = up[-1])) OFFER(up - 1, vx, diagonal);
  if (vw && vs && diagonal < (vx = down[-1])) OFFER(down - 1, vx, diagonal);
  if (ve && vs && diagonal < (vx = down[1])) OFFER(down + 1, vx, diagonal);
#undef OFFER
}

fxs_nav_field_status fxs_nav_field_step(fxs_nav_field *field, uint32_t budget) {
  fxs_nav_field *f = field;
  if (f->status != FXS_NAV_FIELD_BUILDING) return (fxs_nav_field_status)f->status;
  uint32_t *restrict value = f->value;
  fxs_nav_field_link *restrict link = f->link;
  const uint8_t *restrict weight = f->weight;
  ptrdiff_t stride = (ptrdiff_t)f->width + 2;
  // Queued now: f->queued + fresh - (budget - left).
  uint32_t current = f->current, left = budget, fresh = 0;
  while (left > 0 && f->queued + fresh != budget - left) {
    // A queued value lies within MAX_STEP of current: the scan ends within that many lists.
    while (*HEAD_OF(current) == NONE) current++;
    // The list is taken from its head as it stands: settling adds to other lists only, and
    // moves none of its entries (they hold the least value).
    uint32_t c = *HEAD_OF(current);
    do {
      settle(value, link, weight, c, stride, &fresh);
      c = NEXT(c);
    } while (--left > 0 && c != NONE);
    *HEAD_OF(current) = c;
  }
  f->current = current;
  f->queued = f->queued + fresh - (budget - left);
  f->settled += budget - left;
  if (f->queued == 0) f->status = FXS_NAV_FIELD_READY;
  return (fxs_nav_field_status)f->status;
}

// The real value of a stored one.
static inline uint32_t real(uint32_t stored) {
  return stored == 0 || stored == FXS_NAV_UNREACHED ? FXS_NAV_UNREACHED : stored - 1u;
}

uint32_t fxs_nav_field_value(const fxs_nav_field *field, uint32_t cx, uint32_t cy) {
  if (cx >= field->width || cy >= field->height) return FXS_NAV_UNREACHED;
  return real(field->value[entry_of(cy * field->width + cx, field->width)]);
}

uint32_t fxs_nav_field_direction(const fxs_nav_field *field, uint32_t cx, uint32_t cy) {
  if (cx >= field->width || cy >= field->height) return FXS_NAV_DIRECTIONS;
  uint32_t stride = field->width + 2u, c = entry_of(cy * field->width + cx, field->width);
  const uint32_t *value = field->value;
  if (value[c] == 1) return FXS_NAV_DIRECTIONS; // a goal
  uint32_t best = FXS_NAV_DIRECTIONS;
  uint64_t best_total = UINT64_MAX;
  for (uint32_t dir = 0; dir < FXS_NAV_DIRECTIONS; ++dir) {
    uint32_t n = (uint32_t)((int64_t)c + step_x[dir] + (int64_t)step_y[dir] * stride);
    uint32_t v = value[n];
    if (v == 0 || v == FXS_NAV_UNREACHED) continue;
    if (dir >= 4 && (value[(uint32_t)((int64_t)c + step_x[dir])] == 0 ||
                     value[(uint32_t)((int64_t)c + (int64_t)step_y[dir] * stride)] == 0)) {
      continue;
    }
    uint32_t step = dir < 4 ? FXS_NAV_STRAIGHT : FXS_NAV_DIAGONAL;
    uint64_t total = (uint64_t)v + (uint64_t)step * field->weight[n];
    if (total < best_total) best_total = total, best = dir;
  }
  return best;
}

fxs_result fxs_nav_field_fill_flow(const fxs_nav_field *field, fxs_flow_field *flow) {
  if (flow->width != field->width || flow->height != field->height || flow->cells == NULL ||
      field->width == 0) {
    return FXS_ERR_BAD_VALUE;
  }
  const fix16_t diagonal = 46341; // 1/sqrt(2) rounded
  for (uint32_t cy = 0; cy < field->height; ++cy) {
    for (uint32_t cx = 0; cx < field->width; ++cx) {
      uint32_t dir = fxs_nav_field_direction(field, cx, cy);
      fxs_vec2 v = fxs_vec2_zero();
      if (dir < 4) {
        v = fxs_vec2_make(step_x[dir] * FXS_ONE, step_y[dir] * FXS_ONE);
      } else if (dir < FXS_NAV_DIRECTIONS) {
        v = fxs_vec2_make(step_x[dir] * diagonal, step_y[dir] * diagonal);
      }
      flow->cells[cy * field->width + cx] = v;
    }
  }
  return FXS_OK;
}

// ---------------------------------------------------------------- save and restore

void fxs_nav_field_write(const fxs_nav_field *f, fxs_writer *w) {
  fxs_put_u32(w, f->width);
  fxs_put_u32(w, f->height);
  fxs_put_u32(w, f->status);
  fxs_put_u32(w, f->current);
  fxs_put_u32(w, f->queued);
  fxs_put_u32(w, f->settled);
  uint32_t cells = f->width * f->height;
  for (uint32_t i = 0; i < cells; ++i) fxs_put_u32(w, real(f->value[entry_of(i, f->width)]));
  if (f->queued == 0) return;
  // Each list from its tail, so that restoring by pushing at the head rebuilds it; cells
  // as grid indices.
  uint32_t stride = f->width + 2u;
  for (uint32_t k = 0; k < FXS_NAV_BUCKETS; ++k) {
    uint32_t x = f->bucket[(f->current + k) & MASK];
    if (x == NONE) continue;
    uint32_t first = x;
    while (f->link[x].next != NONE) x = f->link[x].next;
    for (;; x = f->link[x].prev) {
      fxs_put_u32(w, (x / stride - 1u) * f->width + x % stride - 1u);
      if (x == first) break; // the first entry's prev is not kept
    }
  }
}

size_t fxs_nav_field_save(const fxs_nav_field *field, uint8_t *buffer, size_t capacity) {
  if (buffer) {
    fxs_writer probe = fxs_writer_make(0, 0, 0);
    fxs_nav_field_write(field, &probe);
    if (probe.position > capacity) return probe.position;
  }
  fxs_writer w = fxs_writer_make(buffer, capacity, 0);
  fxs_nav_field_write(field, &w);
  return w.position;
}

// Values of every grid cell: UNREACHED on blocked cells, at most the dearest path otherwise.
static fxs_result read_values(fxs_nav_field *f, fxs_reader *r, uint32_t *finite) {
  uint32_t cells = f->width * f->height;
  uint64_t most = (uint64_t)MAX_STEP * cells;
  *finite = 0;
  for (uint32_t i = 0; i < cells; ++i) {
    uint32_t v = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    uint32_t e = entry_of(i, f->width);
    if (v == FXS_NAV_UNREACHED) continue; // blocked (0) or unreached, as laid out
    if (f->value[e] == 0 || v > most) return FXS_ERR_BAD_VALUE;
    f->value[e] = v + 1u;
    ++*finite;
  }
  return FXS_OK;
}

static fxs_result read_queue(fxs_nav_field *f, fxs_reader *r, uint32_t queued) {
  uint32_t cells = f->width * f->height, entries = (f->width + 2u) * (f->height + 2u);
  for (uint32_t i = 0; i < queued; ++i) {
    uint32_t x = fxs_get_u32(r);
    if (r->failed) return FXS_ERR_TRUNCATED;
    if (x >= cells) return FXS_ERR_BAD_VALUE;
    uint32_t e = entry_of(x, f->width), v = f->value[e];
    if (f->link[e].prev != OUT || v == 0 || v == FXS_NAV_UNREACHED || v < f->current ||
        v - f->current > MAX_STEP) {
      return FXS_ERR_BAD_VALUE;
    }
    link_cell(f, e, v);
  }
  f->queued = queued;
  // Settled cells: a value, not queued, never above current.
  for (uint32_t e = 0; e < entries; ++e) {
    uint32_t v = f->value[e];
    if (f->link[e].prev == OUT && v != 0 && v != FXS_NAV_UNREACHED && v > f->current) {
      return FXS_ERR_BAD_VALUE;
    }
  }
  return FXS_OK;
}

static fxs_result read_field(fxs_nav_field *f, const fxs_nav_grid *grid, fxs_reader *r) {
  uint32_t v[6];
  for (int i = 0; i < 6; ++i) v[i] = fxs_get_u32(r);
  if (r->failed) return FXS_ERR_TRUNCATED;
  uint32_t width = v[0], height = v[1], status = v[2], queued = v[4], settled = v[5];
  if (width == 0 && height == 0) {
    for (int i = 2; i < 6; ++i) {
      if (v[i] != 0) return FXS_ERR_BAD_VALUE;
    }
    return FXS_OK;
  }
  if (width != grid->width || height != grid->height) return FXS_ERR_BAD_VALUE;
  uint32_t entries = fxs_nav_field_cells(width, height);
  if (entries == 0) return FXS_ERR_BAD_VALUE;
  if (entries > f->cell_capacity) return FXS_ERR_CAPACITY;
  if (status != FXS_NAV_FIELD_BUILDING && status != FXS_NAV_FIELD_READY) return FXS_ERR_BAD_VALUE;
  if ((status == FXS_NAV_FIELD_READY) != (queued == 0) || v[3] == 0) return FXS_ERR_BAD_VALUE;
  lay_out(f, grid);
  unlink_all(f);
  uint32_t finite;
  fxs_result res = read_values(f, r, &finite);
  if (res != FXS_OK) return res;
  if ((uint64_t)queued + settled != finite) return FXS_ERR_BAD_VALUE;
  f->status = status, f->current = v[3], f->settled = settled;
  return read_queue(f, r, queued);
}

fxs_result fxs_nav_field_read(fxs_nav_field *field, const fxs_nav_grid *grid, fxs_reader *r) {
  make_idle(field);
  fxs_result res = read_field(field, grid, r);
  if (res != FXS_OK) make_idle(field);
  return res;
}

fxs_result fxs_nav_field_restore(fxs_nav_field *field, const fxs_nav_grid *grid,
                                 const uint8_t *data, size_t size) {
  fxs_reader r = fxs_reader_make(data, size);
  fxs_result res = fxs_nav_field_read(field, grid, &r);
  if (res == FXS_OK && r.position != size) {
    make_idle(field);
    return FXS_ERR_BAD_LENGTH;
  }
  return res;
}
