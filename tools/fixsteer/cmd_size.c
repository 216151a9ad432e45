// `fixsteer size`: the memory a scene's world and its snapshots take, as a function of every
// capacity, with advice on the navigation capacities. Every figure comes from the library's
// own size functions (fxs_world_memory_size, fxs_world_snapshot_bound,
// fxs_world_snapshot_size), asked again with one capacity changed: the tool knows no layout.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/snapshot.h"
#include "session.h"

typedef size_t (*size_fn)(const fxs_world_capacity *c);

static size_t world_bytes(const fxs_world_capacity *c) { return fxs_world_memory_size(c); }
static size_t snapshot_bytes(const fxs_world_capacity *c) {
  size_t s = fxs_world_snapshot_bound(c);
  return s == SIZE_MAX ? 0 : s;
}

// One capacity: its name, where it lives in the struct, its smallest valid value (0 or 1 or
// 2), and whether it exists only with navigation.
typedef struct capacity_field {
  const char *name;
  size_t offset;
  uint32_t minimum;
  bool nav;
  const char *what;
} capacity_field;

#define FIELD(name, min, nav, what) \
  { #name, offsetof(fxs_world_capacity, name), min, nav, what }
static const capacity_field fields[] = {
    FIELD(agents, 0, false, "agent slots"),
    FIELD(obstacles, 0, false, "obstacle slots"),
    FIELD(walls, 0, false, "wall slots"),
    FIELD(paths, 0, false, "paths"),
    FIELD(path_nodes, 0, false, "path nodes"),
    FIELD(workers, 0, false, "task-system workers (0 means 1)"),
    FIELD(field_cells, 0, false, "flow-field cells"),
    FIELD(nav_cells, 1, true, "navigation grid cells"),
    FIELD(nav_searches, 1, true, "A* searches at once"),
    FIELD(nav_open, 1, true, "open-list entries of each search"),
    FIELD(nav_waypoints, 2, true, "waypoints of one route"),
    FIELD(nav_fields, 0, true, "integration fields for groups"),
};
#define FIELD_COUNT (sizeof fields / sizeof fields[0])

static uint32_t *at(fxs_world_capacity *c, size_t i) {
  return (uint32_t *)(void *)((char *)c + fields[i].offset);
}

// Bytes one more unit of capacity i costs: the slope over the next `step` units (sizes are
// rounded to 8 bytes, so one unit alone can read 0 or 8), or -1 when no larger value is valid.
static double per_unit(const fxs_world_capacity *base, size_t i, size_fn fn) {
  for (uint32_t step = 1024; step >= 1; step /= 4) {
    fxs_world_capacity b = *base, c = *base;
    *at(&c, i) += step;
    if (c.nav_open > c.nav_cells) b.nav_cells = c.nav_cells = c.nav_open; // open <= cells
    if (b.workers == 0) b.workers = 1, c.workers += c.workers == step;    // 0 means 1
    size_t now = fn(&b), more = fn(&c);
    if (more != 0 && now != 0) return ((double)more - (double)now) / step;
  }
  return -1;
}

// Bytes capacity i takes now: the size minus the size with it at its smallest valid value
// (for nav_cells, the smallest grid the open lists fit: nav_open cells).
static double share(const fxs_world_capacity *base, size_t i, size_fn fn) {
  fxs_world_capacity c = *base;
  uint32_t low = fields[i].minimum;
  if (fields[i].offset == offsetof(fxs_world_capacity, nav_cells)) low = c.nav_open;
  bool cells = fields[i].offset == offsetof(fxs_world_capacity, nav_cells);
  if (low > *at(&c, i) || (cells && low >= *at(&c, i))) return -1;
  *at(&c, i) = low;
  size_t now = fn(base), less = fn(&c);
  return now && less ? (double)now - (double)less : -1;
}

// A figure, or "-" where there is none (-1).
static const char *figure(double v, const char *format, char *buf, size_t size) {
  if (v < 0) return "-";
  snprintf(buf, size, format, v);
  return buf;
}

static void table(const fxs_world_capacity *cap, bool nav) {
  printf("  %-14s %10s %12s %12s %14s %14s\n", "capacity", "value", "world", "per unit", "snapshot",
         "per unit");
  for (size_t i = 0; i < FIELD_COUNT; ++i) {
    if (fields[i].nav && !nav) continue;
    fxs_world_capacity c = *cap;
    char b[4][32];
    printf("  %-14s %10u %12s %12s %14s %14s  %s\n", fields[i].name, *at(&c, i),
           figure(share(cap, i, world_bytes), "%.0f", b[0], sizeof b[0]),
           figure(per_unit(cap, i, world_bytes), "%.1f", b[1], sizeof b[1]),
           figure(share(cap, i, snapshot_bytes), "%.0f", b[2], sizeof b[2]),
           figure(per_unit(cap, i, snapshot_bytes), "%.1f", b[3], sizeof b[3]), fields[i].what);
  }
}

// What the searches did over a run, seen after each tick: the largest open list, the most
// cells one search touched, the most searches still running at the end of a tick (a search
// that ends within its tick is not counted), and how many ended on a full open list.
typedef struct nav_peaks {
  uint32_t open, touched, busy, open_full;
  uint32_t last_status[FXS_NAV_MAX_SEARCHES];
} nav_peaks;

static void watch_searches(const fxs_world *w, nav_peaks *p) {
  uint32_t busy = 0;
  for (uint32_t k = 0; k < w->capacity.nav_searches && k < FXS_NAV_MAX_SEARCHES; ++k) {
    const fxs_nav_search *s = &w->nav.searches[k];
    if (w->nav.search_owner[k] != UINT32_MAX) ++busy;
    if (s->open_count > p->open) p->open = s->open_count;
    if (s->touched_count > p->touched) p->touched = s->touched_count;
    if (s->status == FXS_NAV_OPEN_FULL && p->last_status[k] != FXS_NAV_OPEN_FULL) ++p->open_full;
    p->last_status[k] = s->status;
  }
  if (busy > p->busy) p->busy = busy;
}

// The navigation part and what would make it smaller.
static void nav_advice(const fxs_world_capacity *cap, const nav_peaks *peaks) {
  fxs_world_capacity none = *cap;
  none.nav_cells = none.nav_searches = none.nav_open = none.nav_waypoints = none.nav_fields = 0;
  size_t all = fxs_world_memory_size(cap), without = fxs_world_memory_size(&none);
  size_t search = fxs_nav_search_memory_size(cap->nav_cells, cap->nav_open);
  size_t cells_only = fxs_nav_search_memory_size(cap->nav_cells, 1);
  printf("navigation: %zu of the world's %zu bytes (%.0f%%); without it %zu\n", all - without, all,
         100.0 * (double)(all - without) / (double)all, without);
  printf(
      "  searches: nav_searches %u x %zu bytes = %zu: "
      "each %.1f bytes a grid cell, %.1f an open-list entry (fxs_nav_search_memory_size); a "
      "restore checks a snapshot's searches in 1 byte a grid cell and the path scratch\n",
      cap->nav_searches, search, cap->nav_searches * search, (double)cells_only / cap->nav_cells,
      cap->nav_open > 1 ? (double)(search - cells_only) / (cap->nav_open - 1u) : 0.0);
  if (peaks) {
    printf(
        "  over the run: at most %u of %u searches still running at the end of a tick; the "
        "largest open list %u of "
        "%u entries (%.1f%%); one search touched at most %u of %u cells; %u searches ended "
        "on a full open list\n",
        peaks->busy, cap->nav_searches, peaks->open, cap->nav_open,
        100.0 * peaks->open / cap->nav_open, peaks->touched, cap->nav_cells, peaks->open_full);
  }
  printf("advice (docs/navigation.md, \"Sizing a world\"):\n");
  printf(
      "  nav_searches: searches run at once; an agent waiting for one holds still (its first "
      "route) or follows its old route. The budget (cells a tick, all searches together) sets "
      "the pace, not the count: 1 to 4 serve tens of agents. Each one less saves %zu bytes.\n",
      search);
  printf(
      "  nav_open: a search whose open list fills ends at the cell nearest the goal so far "
      "(FXS_NAV_OPEN_FULL) and the agent is planned again from there; a scene file's default, "
      "(4 cells + 4) / 5 entries, the most a search can hold, never fills. Run with --ticks "
      "to see the largest open list of the scene.\n");
  printf(
      "  nav_cells: the grid's area (the default cell is the largest agent radius): doubling "
      "the cell size quarters it and every per-cell cost above.\n");
  printf(
      "  nav_waypoints: routes are string-pulled (corners only); a route cut at this many "
      "is planned again at its last waypoint. 16 to 64 is plenty.\n");
}

int cmd_size(int argc, char **argv) {
  options o;
  int done = command_options("size", argc, argv, 1, &o);
  if (done >= 0) return done;
  const char *name = o.file_count ? o.files[0] : o.scenario;
  if (!name) return fail_usage("size", "a scenario name or a scene file is needed", 0);
  session s;
  int r = session_start(&s, name, &o.yaml);
  if (r) return r;
  const fxs_world_capacity *cap = &s.sc->capacity;
  bool nav = cap->nav_cells != 0;
  printf(
      "size %s: world %zu bytes (fxs_world_memory_size); snapshot at most %zu bytes "
      "(fxs_world_snapshot_bound), %zu at tick 0 (fxs_world_snapshot_size)\n",
      s.sc->name, fxs_world_memory_size(cap), fxs_world_snapshot_bound(cap),
      fxs_world_snapshot_size(&s.world));
  printf(
      "each capacity: the bytes it takes now (the size minus the size at its smallest) and "
      "one more unit's cost, in the world and in the snapshot bound\n");
  table(cap, nav);
  nav_peaks peaks;
  memset(&peaks, 0, sizeof peaks);
  if (o.ticks > 0) {
    size_t largest = fxs_world_snapshot_size(&s.world);
    uint32_t when = 0;
    for (long t = 0; t < o.ticks; ++t) {
      session_tick(&s);
      size_t now = fxs_world_snapshot_size(&s.world);
      if (now > largest) largest = now, when = s.world.tick;
      if (nav) watch_searches(&s.world, &peaks);
    }
    printf("largest snapshot over %ld ticks: %zu bytes (tick %u)\n", o.ticks, largest, when);
  }
  if (nav) nav_advice(cap, o.ticks > 0 ? &peaks : NULL);
  session_end(&s);
  return EXIT_OK;
}
