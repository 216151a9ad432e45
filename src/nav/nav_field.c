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
#define LIST_END 0u
#define OUT (UINT32_MAX - 2u) // next of an entry in no list (a list ends with LIST_END)

static const int8_t step_x[FXS_NAV_DIRECTIONS] = {1, 0, -1, 0, 1, -1, -1, 1};
static const int8_t step_y[FXS_NAV_DIRECTIONS] = {0, 1, 0, -1, 1, 1, -1, -1};

uint32_t fxs_nav_field_cells(uint32_t width, uint32_t height) {
  if (fxs_nav_grid_check(fxs_vec2_zero(), FXS_ONE, width, height) != FXS_OK) return 0;
  return (width + 2u) * (height + 2u); // below 2^20 + 2 * (32767 + 32) + 4
}

size_t fxs_nav_field_memory_size(uint32_t cell_capacity) {
  if (cell_capacity == 0 || cell_capacity > FXS_NAV_FIELD_MAX_CELLS) return 0;
  // 16 bytes an entry and the buckets; below 2^26.
  return (size_t)cell_capacity * sizeof(fxs_nav_field_entry) +
         (size_t)FXS_NAV_BUCKETS * sizeof(uint32_t);
}

static void make_idle(fxs_nav_field *f) {
  f->width = f->height = 0;
  f->status = FXS_NAV_FIELD_IDLE;
  f->current = f->queued = f->settled = 0;
}

// The list links are byte offsets from the entries' base: entry e is at offset e * 16, so
// the build finds an entry with no multiplication and a neighbour's link is its address
// less the base.
#define SIZE ((uint32_t)sizeof(fxs_nav_field_entry))
#define AT(base, offset) ((fxs_nav_field_entry *)(void *)((char *)(base) + (offset)))

fxs_result fxs_nav_field_init(fxs_nav_field *field, void *memory, size_t size,
                              uint32_t cell_capacity) {
  size_t need = fxs_nav_field_memory_size(cell_capacity);
  if (need == 0 || memory == NULL) return FXS_ERR_BAD_VALUE;
  if (size < need) return FXS_ERR_BUFFER_TOO_SMALL;
  // The buckets just before the entries: the build reaches both from one base.
  fxs_nav_field_attach(field, memory, cell_capacity);
  for (uint32_t i = 0; i < cell_capacity; ++i) {
    fxs_nav_field_entry *e = &field->entry[i];
    e->value = 0, e->straight = e->diagonal = 0, e->next = OUT, e->prev = LIST_END;
  }
  for (uint32_t b = 0; b < FXS_NAV_BUCKETS; ++b) field->bucket[b] = LIST_END;
  return FXS_OK;
}

void fxs_nav_field_attach(fxs_nav_field *field, void *memory, uint32_t cell_capacity) {
  field->cell_capacity = cell_capacity;
  field->bucket = (uint32_t *)memory;
  field->entry = (fxs_nav_field_entry *)(void *)(field->bucket + FXS_NAV_BUCKETS);
  field->packed = NULL, field->cost = NULL;
  make_idle(field);
}

// Entry of grid cell i of a width-w grid.
static inline uint32_t entry_of(uint32_t i, uint32_t w) { return i + w + 3u + 2u * (i / w); }

// The entry of a cell of cost k (0: blocked, as the border) in no list, as laid out.
static inline fxs_nav_field_entry laid(uint32_t k) {
  fxs_nav_field_entry e;
  e.value = 0u - (uint32_t)(k != 0); // UNREACHED, or 0 blocked
  e.straight = (uint16_t)(FXS_NAV_STRAIGHT * k);
  e.diagonal = (uint16_t)(FXS_NAV_DIAGONAL * k);
  e.next = OUT, e.prev = LIST_END;
  return e;
}

// Lays the grid's costs out with a blocked border, every entry in no list, and empties the
// buckets: O(entries). Eight cells in a row are one copy of eight entries of `run_cost`,
// the cost of the last eight cells of one cost (most of a map), and the few cells of
// another cost among them are written anew.
static void lay_out(fxs_nav_field *f, const fxs_nav_grid *grid) {
  uint32_t w = grid->width, h = grid->height, stride = w + 2u;
  fxs_nav_field_entry *restrict entry = f->entry;
  const fxs_nav_field_entry blocked = laid(0);
  for (uint32_t i = 0; i < stride; ++i) entry[i] = blocked;
  uint32_t run_cost = 0;
  fxs_nav_field_entry run[8]; // eight entries of cost run_cost
  for (int j = 0; j < 8; ++j) run[j] = blocked;
  for (uint32_t y = 0; y < h; ++y) {
    const uint8_t *restrict cost = grid->cost + (size_t)y * w, *end = cost + w;
    fxs_nav_field_entry *restrict e = entry + (size_t)(y + 1u) * stride;
    *e++ = blocked;
    for (; end - cost >= 8; cost += 8, e += 8) {
      uint64_t eight;
      memcpy(&eight, cost, sizeof eight);
      uint32_t k = cost[0];
      if (eight == k * UINT64_C(0x0101010101010101) && k != run_cost) {
        run_cost = k;
        for (int j = 0; j < 8; ++j) run[j] = laid(k);
      }
      memcpy(e, run, sizeof run);
      if (eight != k * UINT64_C(0x0101010101010101)) { // a wall, or where two costs meet
                                                       // Written out: a test a cell, no loop.
#define PATCH(j) \
  if (cost[j] != run_cost) e[j] = laid(cost[j])
        PATCH(0);
        PATCH(1);
        PATCH(2);
        PATCH(3);
        PATCH(4);
        PATCH(5);
        PATCH(6);
        PATCH(7);
#undef PATCH
      }
    }
    for (; cost < end; ++cost) *e++ = laid(*cost);
    *e = blocked;
  }
  fxs_nav_field_entry *last = entry + (size_t)(h + 1u) * stride;
  for (uint32_t i = 0; i < stride; ++i) last[i] = blocked;
  for (uint32_t b = 0; b < FXS_NAV_BUCKETS; ++b) f->bucket[b] = LIST_END;
  f->packed = NULL, f->cost = NULL;
  f->width = w, f->height = h;
  f->current = 1;
  f->queued = f->settled = 0;
}

// Puts entry e (in no list) at the head of the list of stored value v.
static void link_cell(fxs_nav_field *f, uint32_t e, uint32_t v) {
  uint32_t *head = &f->bucket[v & MASK];
  uint32_t first = *head;
  f->entry[e].next = first;
  if (first != LIST_END) AT(f->entry, first)->prev = e * SIZE;
  *head = e * SIZE;
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
    if (field->entry[e].value != FXS_NAV_UNREACHED) continue; // blocked, or given already
    field->entry[e].value = 1;
    link_cell(field, e, 1);
    field->queued++;
  }
  field->status = field->queued ? FXS_NAV_FIELD_BUILDING : FXS_NAV_FIELD_READY;
  return FXS_OK;
}

// The build works from `base`, the entries' address: the entry at byte offset x is
// AT(base, x), the list head of stored value v at HEAD_OF(v), just before the entries.
#define E(x) AT(base, x)
#define HEAD_OF(v) ((uint32_t *)(void *)base - FXS_NAV_BUCKETS + ((v)&MASK))

// Puts the entry at offset x at the head of the list of stored value v.
static inline void push(char *restrict base, size_t x, uint32_t v) {
  uint32_t *head = HEAD_OF(v);
  uint32_t first = *head;
  E(x)->next = first;
  E(first)->prev = (uint32_t)x; // entry 0's prev when the list was empty: never read
  *head = (uint32_t)x;
}

#if defined(__GNUC__) || defined(__clang__)
#define FXS_NOINLINE __attribute__((noinline))
#else
#define FXS_NOINLINE
#endif

// Moves queued entry q to the list of the lower stored value v (a list's first entry is the
// one its bucket names; its prev is not kept). Out of line: a few in a hundred offers move
// an entry, and the loop that calls it keeps its registers.
static FXS_NOINLINE void move(char *restrict base, fxs_nav_field_entry *q, uint32_t v) {
  size_t x = (size_t)((char *)q - base);
  uint32_t n = q->next;
  uint32_t *from = HEAD_OF(q->value);
  if (*from == x) {
    *from = n;
  } else {
    uint32_t p = q->prev;
    E(p)->next = n;
    E(n)->prev = p;
  }
  q->value = v;
  push(base, x, v);
}

// Gives entry q the stored value v, below its own; counts it in *fresh when it was not
// queued before (its next is OUT, as laid out). Blocked entries (0) and settled ones (at
// most current, below any offer: a step costs at least 10) are never offered less, so the
// entry is new or queued (moved).
static inline void improve(char *restrict base, fxs_nav_field_entry *q, uint32_t v,
                           uint32_t *fresh) {
  if (q->next != OUT) {
    move(base, q, v);
    return;
  }
  q->value = v;
  push(base, (size_t)((char *)q - base), v);
  ++*fresh;
}

// True when entries a and b are both walkable (values non-zero): their product in 64 bits,
// one multiplication where two tests would take two loads more.
static inline bool walkable(const fxs_nav_field_entry *a, const fxs_nav_field_entry *b) {
  return (uint64_t)a->value * b->value != 0;
}

// Settles entry `at` (stored value v): its neighbours are offered v + the cost of the step
// from them into it, those whose value that lowers; a diagonal one only when both straight
// entries beside the step are walkable (no corner cutting), looked at only for an offer
// that lowers its value. Offers land in lists other than current's (a step costs 10 to
// 3556, less than the ring). Counts the entries it queues in *fresh.
static inline void settle(char *restrict base, fxs_nav_field_entry *at, uint32_t v, ptrdiff_t row,
                          uint32_t *fresh) {
  uint32_t straight = v + at->straight, diagonal = v + at->diagonal;
  fxs_nav_field_entry *up = at + row, *down = at - row;
  if (straight < at[1].value) improve(base, at + 1, straight, fresh);
  if (straight < up->value) improve(base, up, straight, fresh);
  if (straight < at[-1].value) improve(base, at - 1, straight, fresh);
  if (straight < down->value) improve(base, down, straight, fresh);
  if (diagonal < up[1].value && walkable(at + 1, up)) {
    improve(base, up + 1, diagonal, fresh);
  }
  if (diagonal < up[-1].value && walkable(at - 1, up)) {
    improve(base, up - 1, diagonal, fresh);
  }
  if (diagonal < down[-1].value && walkable(at - 1, down)) {
    improve(base, down - 1, diagonal, fresh);
  }
  if (diagonal < down[1].value && walkable(at + 1, down)) {
    improve(base, down + 1, diagonal, fresh);
  }
}

fxs_nav_field_status fxs_nav_field_step(fxs_nav_field *field, uint32_t budget) {
  fxs_nav_field *f = field;
  if (f->status != FXS_NAV_FIELD_BUILDING) return (fxs_nav_field_status)f->status;
  char *restrict base = (char *)(void *)f->entry;
  ptrdiff_t row = (ptrdiff_t)f->width + 2;
  // Queued now: f->queued + fresh - (budget - left).
  uint32_t current = f->current, left = budget, fresh = 0;
  while (left > 0 && f->queued + fresh != budget - left) {
    // A queued value lies within MAX_STEP of current: the scan ends within that many lists.
    while (*HEAD_OF(current) == LIST_END) current++;
    // The list is taken from its head as it stands: settling adds to other lists only, and
    // moves none of its entries (they hold the least value, current).
    size_t c = *HEAD_OF(current);
    do {
      settle(base, E(c), current, row, &fresh);
      c = E(c)->next;
    } while (--left > 0 && c != LIST_END);
    *HEAD_OF(current) = (uint32_t)c;
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

// The value of grid cell i of a packed field: the costs of the steps along the directions
// to the goal (each the cost of the step into the next cell, as the build added them: a
// reached cell's direction names a neighbour whose value plus that step is its own). The
// path only meets reached walkable cells, each of lower value, so it ends at the goal.
static uint32_t packed_value(const fxs_nav_field *f, uint32_t i) {
  if (f->cost[i] == 0) return FXS_NAV_UNREACHED; // blocked: no value, whatever its direction
  const int32_t row = (int32_t)f->width;
  uint32_t v = 0;
  for (;;) {
    uint32_t code = f->packed[i] & 15u;
    if (code == FXS_NAV_PACK_GOAL) return v;
    if (code >= FXS_NAV_DIRECTIONS) return FXS_NAV_UNREACHED; // cut off (only where it began)
    i = (uint32_t)((int32_t)i + step_x[code] + step_y[code] * row);
    v += (code < 4 ? FXS_NAV_STRAIGHT : FXS_NAV_DIAGONAL) * f->cost[i];
  }
}

uint32_t fxs_nav_field_value(const fxs_nav_field *field, uint32_t cx, uint32_t cy) {
  if (cx >= field->width || cy >= field->height) return FXS_NAV_UNREACHED;
  if (field->packed) return packed_value(field, cy * field->width + cx);
  if (!field->entry) return FXS_NAV_UNREACHED; // a world's field not held in memory
  return real(field->entry[entry_of(cy * field->width + cx, field->width)].value);
}

uint32_t fxs_nav_field_direction(const fxs_nav_field *field, uint32_t cx, uint32_t cy) {
  if (cx >= field->width || cy >= field->height) return FXS_NAV_DIRECTIONS;
  if (field->packed) {
    uint32_t code = field->packed[cy * field->width + cx] & 15u;
    return code < FXS_NAV_DIRECTIONS ? code : FXS_NAV_DIRECTIONS;
  }
  if (!field->entry) return FXS_NAV_DIRECTIONS;
  uint32_t stride = field->width + 2u, c = entry_of(cy * field->width + cx, field->width);
  const fxs_nav_field_entry *entry = field->entry;
  if (entry[c].value == 1) return FXS_NAV_DIRECTIONS; // a goal
  uint32_t best = FXS_NAV_DIRECTIONS;
  uint64_t best_total = UINT64_MAX;
  for (uint32_t dir = 0; dir < FXS_NAV_DIRECTIONS; ++dir) {
    uint32_t n = (uint32_t)((int64_t)c + step_x[dir] + (int64_t)step_y[dir] * stride);
    uint32_t v = entry[n].value;
    if (v == 0 || v == FXS_NAV_UNREACHED) continue;
    if (dir >= 4 && (entry[(uint32_t)((int64_t)c + step_x[dir])].value == 0 ||
                     entry[(uint32_t)((int64_t)c + (int64_t)step_y[dir] * stride)].value == 0)) {
      continue;
    }
    uint64_t total = (uint64_t)v + (dir < 4 ? entry[n].straight : entry[n].diagonal);
    if (total < best_total) best_total = total, best = dir;
  }
  return best;
}

// The packed code of entry `at` (a grid cell's) of a field: fxs_nav_field_direction's
// answer from its neighbours at offsets off[dir], FXS_NAV_PACK_GOAL for a goal.
static inline uint8_t pack_code(const fxs_nav_field_entry *at, const ptrdiff_t off[8]) {
  uint32_t own = at->value;
  if (own == 1) return (uint8_t)FXS_NAV_PACK_GOAL;
  if (own != 0 && own != FXS_NAV_UNREACHED) {
    // Reached and walkable: no allowed step gives less than its own value (each neighbour
    // offered it that much when settled) and one gives exactly it (the offer it kept), so
    // the first direction, in order, whose step gives its value is the least, ties to the
    // lower direction. (A real value plus a step stays below 2^32.)
    for (uint32_t dir = 0; dir < 4; ++dir) {
      const fxs_nav_field_entry *n = at + off[dir];
      if (n->value != 0 && n->value != FXS_NAV_UNREACHED && n->value + n->straight == own) {
        return (uint8_t)dir;
      }
    }
    for (uint32_t dir = 4; dir < FXS_NAV_DIRECTIONS; ++dir) {
      const fxs_nav_field_entry *n = at + off[dir];
      if (n->value != 0 && n->value != FXS_NAV_UNREACHED && n->value + n->diagonal == own &&
          at[step_x[dir]].value != 0 && at[off[dir] - step_x[dir]].value != 0) {
        return (uint8_t)dir;
      }
    }
  }
  uint32_t best = FXS_NAV_PACK_NONE;
  uint64_t best_total = UINT64_MAX;
  for (uint32_t dir = 0; dir < FXS_NAV_DIRECTIONS; ++dir) {
    const fxs_nav_field_entry *n = at + off[dir];
    uint32_t v = n->value;
    if (v == 0 || v == FXS_NAV_UNREACHED) continue;
    if (dir >= 4 && (at[step_x[dir]].value == 0 || at[off[dir] - step_x[dir]].value == 0)) {
      continue;
    }
    uint64_t total = (uint64_t)v + (dir < 4 ? n->straight : n->diagonal);
    if (total < best_total) best_total = total, best = dir;
  }
  return (uint8_t)best;
}

void fxs_nav_field_pack(const fxs_nav_field *from, const fxs_nav_grid *grid, uint8_t *memory,
                        fxs_nav_field *to) {
  uint32_t w = from->width, h = from->height;
  ptrdiff_t off[8], row = (ptrdiff_t)w + 2;
  for (uint32_t dir = 0; dir < FXS_NAV_DIRECTIONS; ++dir)
    off[dir] = step_x[dir] + step_y[dir] * row;
  for (uint32_t cy = 0; cy < h; ++cy) {
    uint8_t *out = memory + (size_t)cy * w;
    const fxs_nav_field_entry *e = from->entry + entry_of(cy * w, w);
    for (uint32_t cx = 0; cx < w; ++cx) out[cx] = pack_code(e + cx, off);
  }
  fxs_nav_field packed = *from;
  packed.entry = NULL, packed.bucket = NULL;
  packed.packed = memory, packed.cost = grid->cost;
  *to = packed;
}

void fxs_nav_field_pack_empty(fxs_nav_field *field, const fxs_nav_grid *grid, uint8_t *memory) {
  memset(memory, FXS_NAV_PACK_NONE, (size_t)grid->width * grid->height);
  field->width = grid->width, field->height = grid->height;
  field->status = FXS_NAV_FIELD_READY;
  field->current = 1, field->queued = 0, field->settled = 0;
  field->entry = NULL, field->bucket = NULL;
  field->packed = memory, field->cost = grid->cost;
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
  if (!f->packed && !f->entry) { // a world's field not held in memory: written as idle
    for (int i = 0; i < 6; ++i) fxs_put_u32(w, 0);
    return;
  }
  fxs_put_u32(w, f->width);
  fxs_put_u32(w, f->height);
  fxs_put_u32(w, f->status);
  fxs_put_u32(w, f->current);
  fxs_put_u32(w, f->queued);
  fxs_put_u32(w, f->settled);
  uint32_t cells = f->width * f->height;
  for (uint32_t i = 0; i < cells; ++i) {
    fxs_put_u32(w, f->packed ? packed_value(f, i) : real(f->entry[entry_of(i, f->width)].value));
  }
  if (f->queued == 0) return;
  // Each list from its tail, so that restoring by pushing at the head rebuilds it; cells
  // as grid indices.
  uint32_t stride = f->width + 2u;
  for (uint32_t k = 0; k < FXS_NAV_BUCKETS; ++k) {
    uint32_t x = f->bucket[(f->current + k) & MASK];
    if (x == LIST_END) continue;
    uint32_t first = x;
    while (AT(f->entry, x)->next != LIST_END) x = AT(f->entry, x)->next;
    for (;; x = AT(f->entry, x)->prev) {
      uint32_t e = x / SIZE;
      fxs_put_u32(w, (e / stride - 1u) * f->width + e % stride - 1u);
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
    if (f->entry[e].value == 0 || v > most) return FXS_ERR_BAD_VALUE;
    f->entry[e].value = v + 1u;
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
    uint32_t e = entry_of(x, f->width), v = f->entry[e].value;
    if (f->entry[e].next != OUT || v == 0 || v == FXS_NAV_UNREACHED || v < f->current ||
        v - f->current > MAX_STEP) {
      return FXS_ERR_BAD_VALUE;
    }
    link_cell(f, e, v);
  }
  f->queued = queued;
  // Settled cells: a value, not queued, never above current.
  for (uint32_t e = 0; e < entries; ++e) {
    uint32_t v = f->entry[e].value;
    if (f->entry[e].next == OUT && v != 0 && v != FXS_NAV_UNREACHED && v > f->current) {
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
  lay_out(f, grid); // every entry in no list
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
