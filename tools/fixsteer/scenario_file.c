// Scenario files (scenario_file.h): the top level of the file and the scenario it makes. The
// YAML tree is read by the helpers of scenario_read.c and the sections of scenario_sections.c.
#include "scenario_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_read.h"
#include "scenario_sections.h"

// ------------------------------------------------------------------ the scenario

static void file_configure(const scenario *self, fxs_world_def *def) {
  *def = ((const loaded *)self->data)->def;
}

// What the scene holds before tick 0: its paths, then what its sections describe (agents,
// obstacles, walls, the field), applied in the order tick 0's step would apply them (spawns,
// then the set-up, each in file order). It is the replay's initial snapshot, not its input.
static void file_initial_state(const scenario *self, fxs_world *world) {
  const loaded *L = (const loaded *)self->data;
  for (uint32_t i = 0; i < L->path_count; ++i) {
    const file_path *p = &L->paths[i];
    uint16_t index;
    if (fxs_world_add_path(world, &L->nodes[p->first], (uint16_t)p->count, (fxs_path_mode)p->mode,
                           p->radius, &index) == FXS_OK) {
      world->paths[index].slowing_radius = p->slowing_radius;
    }
  }
  for (uint32_t i = 0; i < L->setup_count; ++i) fxs_world_apply(world, &L->setup[i], 0);
}

static uint32_t file_commands(const scenario *self, const fxs_world *world, scenario_state *state,
                              fxs_command *out) {
  const loaded *L = (const loaded *)self->data;
  uint32_t n = 0;
  while (state->cursor < L->event_count && L->events[state->cursor].tick < world->tick)
    state->cursor++;
  while (state->cursor < L->event_count && L->events[state->cursor].tick == world->tick) {
    out[n++] = L->events[state->cursor++].command;
  }
  return n;
}

// Events in tick order (stable), then sequence numbers per tick and source in file order.
// Sorts events by tick, keeping file order within a tick (a bottom-up merge sort: stable, and
// O(n log n) however many events aliases produced).
static bool sort_events(ctx *c) {
  loaded *L = c->L;
  uint32_t n = L->event_count;
  if (n < 2) return true;
  event *tmp = malloc((size_t)n * sizeof *tmp);
  if (!tmp) return sr_fail(c, 0, "out of memory");
  event *from = L->events, *to = tmp;
  for (uint32_t width = 1; width < n; width *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * width) {
      uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      uint32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) to[k++] = from[b].tick < from[a].tick ? from[b++] : from[a++];
      while (a < mid) to[k++] = from[a++];
      while (b < hi) to[k++] = from[b++];
    }
    event *swap = from;
    from = to, to = swap;
  }
  if (from != L->events) memcpy(L->events, from, (size_t)n * sizeof *from);
  free(tmp);
  return true;
}

// Takes the sections' commands of tick 0 out of the events: spawns (source 0), then the rest
// of the set-up (source 1), each in file order, as tick 0's step would order them.
static bool take_setup(ctx *c) {
  loaded *L = c->L;
  uint32_t n = 0;
  while (n < L->event_count && L->events[n].tick == 0) ++n;
  L->setup = malloc((n ? n : 1u) * sizeof *L->setup);
  if (!L->setup) return sr_fail(c, 0, "out of memory");
  for (uint8_t source = 0; source < 2; ++source) {
    for (uint32_t i = 0; i < n; ++i) {
      if (L->events[i].command.source == source) L->setup[L->setup_count++] = L->events[i].command;
    }
  }
  uint32_t kept = 0;
  for (uint32_t i = 0; i < L->event_count; ++i) {
    if (i >= n || L->events[i].command.source >= 2) L->events[kept++] = L->events[i];
  }
  L->event_count = kept;
  return true;
}

static bool finish_events(ctx *c) {
  loaded *L = c->L;
  if (!sort_events(c) || !take_setup(c)) return false;
  uint16_t seq[3] = {0, 0, 0};
  uint32_t per_tick = 0;
  for (uint32_t i = 0; i < L->event_count; ++i) {
    if (i > 0 && L->events[i].tick != L->events[i - 1].tick)
      memset(seq, 0, sizeof seq), per_tick = 0;
    fxs_command *cmd = &L->events[i].command;
    cmd->sequence = seq[cmd->source]++;
    if (++per_tick > SCENARIO_MAX_COMMANDS) {
      return sr_fail(c, 0, "more than %d commands at tick %u; spread the events over more ticks",
                     SCENARIO_MAX_COMMANDS, L->events[i].tick);
    }
  }
  return true;
}

// The most open-list entries an A* search of a grid of `cells` cells can hold, so that its
// list never fills and the scene behaves as with one entry a cell: the closed cells (e of
// them) are 8-connected through their parents, so the cells bordering them, the open ones
// among them, number at most 4 e + 4 (the first has 8 neighbours, each next one adds at most
// 5 and stops bordering); and the open and closed cells share the grid, so open <= cells - e.
// Both hold at every e: open <= (4 cells + 4) / 5 (docs/navigation.md, "Sizing a world").
static uint32_t nav_open_bound(uint32_t cells) {
  return (uint32_t)((4u * (uint64_t)cells + 4u) / 5u);
}

static bool top_level(ctx *c, const ynode *root) {
  loaded *L = c->L;
  static const char *const keys[] = {"name",   "summary",   "ticks",      "world",
                                     "paths",  "obstacles", "walls",      "field",
                                     "agents", "events",    "navigation", 0};
  if (!sr_only_keys(c, root, "the scenario", keys)) return false;
  const char *name = sr_text(c, sr_get(c, root, "name"));
  const char *summary = sr_text(c, sr_get(c, root, "summary"));
  snprintf(L->name, sizeof L->name, "%s", name ? name : c->file);
  snprintf(L->summary, sizeof L->summary, "%s", summary ? summary : "scenario file");
  uint32_t ticks = 1000;
  const ynode *t = sr_get(c, root, "ticks");
  if (t && !sr_u32(c, t, "ticks", 10000000u, &ticks)) return false;
  // As for --ticks: a replay of no tick proves nothing, and verify refuses one.
  if (ticks == 0)
    return sr_fail(
        c, t,
        "ticks: expected a whole number from 1 to 10000000 (a replay holds at least one tick)");
  const ynode *obstacles = sr_get(c, root, "obstacles");
  uint32_t wall_count = 0;
  if (!scene_world(c, sr_get(c, root, "world")) || !scene_paths(c, sr_get(c, root, "paths")) ||
      !scene_agents(c, sr_get(c, root, "agents")) || !scene_obstacles(c, obstacles) ||
      !scene_walls(c, sr_get(c, root, "walls"), &wall_count) ||
      !scene_navigation(c, sr_get(c, root, "navigation")) ||
      !scene_field(c, sr_get(c, root, "field")) || !scene_events(c, sr_get(c, root, "events")) ||
      !finish_events(c)) {
    return false;
  }
  uint32_t obstacle_count = (obstacles ? obstacles->count : 0) + L->event_obstacles;
  wall_count += L->event_walls;
  if (obstacle_count > FXS_MAX_SMALL_CAPACITY || L->path_count > FXS_MAX_SMALL_CAPACITY ||
      wall_count > FXS_MAX_SMALL_CAPACITY) {
    return sr_fail(c, root, "too many obstacles, walls or paths");
  }
  if (!scene_resolve_removals(c, wall_count, obstacle_count)) return false;
  scenario *sc = &L->sc;
  sc->name = L->name, sc->summary = L->summary, sc->default_ticks = ticks;
  sc->capacity.agents = L->agent_count;
  sc->capacity.obstacles = obstacle_count;
  sc->capacity.paths = L->path_count;
  sc->capacity.path_nodes = L->node_count;
  sc->capacity.walls = wall_count;
  sc->capacity.field_cells =
      L->field_columns * L->field_rows; // at most FXS_DEFAULT_MAX_FIELD_CELLS
  sc->capacity.nav_cells = L->nav_cells, sc->capacity.nav_open = L->nav_open;
  // open left out: the most entries a search can hold, not one a cell (the section's value).
  if (L->nav_cells && !sr_get(c, sr_get(c, root, "navigation"), "open"))
    sc->capacity.nav_open = nav_open_bound(L->nav_cells);
  sc->capacity.nav_searches = L->nav_cells ? L->nav_searches : 0;
  sc->capacity.nav_waypoints = L->nav_cells ? L->nav_waypoints : 0;
  sc->capacity.nav_fields = L->nav_cells ? L->nav_fields : 0;
  if (L->nav_cells && L->nav_mesh) { // the grid's keys, but a mesh of the world's walls
    fxs_world_capacity *cap = &sc->capacity;
    cap->nav_kind = FXS_NAV_KIND_MESH, cap->nav_cells = 0;
    uint64_t v = FXS_NAV_MESH_DEFAULT_VERTICES(wall_count, obstacle_count);
    uint32_t triangles =
        v > FXS_NAV_MESH_MAX_VERTICES ? 2u * FXS_NAV_MESH_MAX_VERTICES - 6u : 2u * (uint32_t)v - 6u;
    if (cap->nav_open > triangles) cap->nav_open = triangles; // a search holds no more
  }
  sc->configure = file_configure, sc->add_paths = file_initial_state, sc->commands = file_commands;
  sc->data = L;
  return true;
}

void scenario_file_free(const scenario *sc) {
  if (!sc) return;
  loaded *L = (loaded *)(uintptr_t)sc; // the scenario is the first member of its loaded file
  free(L->nodes);
  free(L->paths);
  free(L->path_names);
  free(L->path_sorted);
  free(L->agent_names);
  free(L->agent_radius);
  free(L->agent_max_force);
  free(L->agent_sorted);
  free(L->events);
  free(L->setup);
  free(L);
}

const scenario *scenario_file_from_document(const char *name, const ydoc *doc, char *error,
                                            size_t error_size) {
  error[0] = '\0';
  loaded *L = calloc(1, sizeof *L);
  ctx c = {name, doc, error, error_size, L};
  const ynode *root = ydoc_root(doc);
  bool ok = L && root && top_level(&c, root);
  if (!root && L) snprintf(error, error_size, "%s:1: the file is empty", name);
  if (!ok) {
    if (L) scenario_file_free(&L->sc);
    if (!error[0]) snprintf(error, error_size, "%s: out of memory", name);
    return 0;
  }
  return &L->sc;
}

scenario_file_limits scenario_file_default_limits(void) {
  scenario_file_limits l;
  l.max_bytes = SCENARIO_FILE_MAX_BYTES;
  l.max_nodes = SCENARIO_FILE_MAX_NODES;
  l.max_depth = SCENARIO_FILE_MAX_DEPTH;
  return l;
}

const scenario *scenario_file_load_buffer(const char *name, const unsigned char *data, size_t size,
                                          const scenario_file_limits *limits, char *error,
                                          size_t error_size) {
  scenario_file_limits d = scenario_file_default_limits();
  ydoc doc;
  if (!ydoc_read(&doc, name, data, size, limits ? limits : &d, error, error_size)) return 0;
  const scenario *sc = scenario_file_from_document(name, &doc, error, error_size);
  ydoc_free(&doc);
  return sc;
}

const scenario *scenario_file_load(const char *path, const scenario_file_limits *limits,
                                   char *error, size_t error_size) {
  scenario_file_limits d = scenario_file_default_limits();
  ydoc doc;
  if (!ydoc_read_file(&doc, path, limits ? limits : &d, error, error_size)) return 0;
  const scenario *sc = scenario_file_from_document(path, &doc, error, error_size);
  ydoc_free(&doc);
  return sc;
}
