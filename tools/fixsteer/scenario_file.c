#include "scenario_file.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/behavior_params.h"
#include "fixsteer/command_build.h"
#include "fixsteer/manager.h"

#define NAME_LEN 48

typedef struct event {
  uint32_t tick;
  fxs_command command;
} event;

typedef struct file_path {
  uint32_t first, count;
  uint8_t mode;
  fix16_t radius, slowing_radius;
} file_path;

// Everything a loaded file describes. sc.data points back to it.
typedef struct loaded {
  scenario sc;
  char name[NAME_LEN];
  char summary[160];
  fxs_world_def def;
  fxs_vec2 *nodes;
  uint32_t node_count, node_capacity;
  file_path *paths;
  char (*path_names)[NAME_LEN];
  const char **path_sorted; // path_names in strcmp order, for find_name
  uint32_t path_count;
  char (*agent_names)[NAME_LEN];
  const char **agent_sorted;
  uint32_t agent_count;
  uint32_t field_columns, field_rows; // 0 x 0: no field section
  uint32_t nav_cells, nav_searches, nav_waypoints, nav_open; // 0: no navigation
  event *events; // in tick order, and in file order within a tick
  uint32_t event_count, event_capacity;
} loaded;

typedef struct ctx {
  const char *file;
  const ydoc *doc;
  char *error;
  size_t error_size;
  loaded *L;
} ctx;

// ------------------------------------------------------------------ numbers without floats

int scenario_parse_fix16(const char *t, fix16_t *out) {
  bool negative = *t == '-';
  if (*t == '-' || *t == '+') ++t;
  int64_t whole = 0, frac = 0, scale = 1;
  int digits = 0;
  for (; *t >= '0' && *t <= '9'; ++t, ++digits) {
    whole = whole * 10 + (*t - '0');
    if (whole > 32767) return -1;
  }
  if (*t == '.') {
    for (++t; *t >= '0' && *t <= '9'; ++t, ++digits) {
      if (scale == 1000000000) return -1; // more than 9 decimals
      frac = frac * 10 + (*t - '0');
      scale *= 10;
    }
  }
  if (*t != '\0' || digits == 0) return -1;
  int64_t raw = whole * 65536 + (frac * 65536 + scale / 2) / scale; // round half up on |x|
  if (raw > 0x7FFFFFFF) return -1;
  *out = (fix16_t)(negative ? -raw : raw);
  return 0;
}

// ------------------------------------------------------------------ YAML helpers

static bool fail(ctx *c, const ynode *node, const char *fmt, ...) {
  if (c->error[0]) return false; // keep the first error
  int n = snprintf(c->error, c->error_size, "%s:%lu: ", c->file,
                   node ? (unsigned long)node->line : 1ul);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->error_size) vsnprintf(c->error + n, c->error_size - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

static const char *scalar(ctx *c, const ynode *n) { return ydoc_text(c->doc, n); }

// The value of `key` in a mapping, or NULL.
static const ynode *get(ctx *c, const ynode *map, const char *key) {
  if (!map || map->kind != YNODE_MAPPING) return 0;
  for (uint32_t i = 0; i < map->count; i += 2) {
    const char *k = scalar(c, ydoc_child(c->doc, map, i));
    if (k && strcmp(k, key) == 0) return ydoc_child(c->doc, map, i + 1);
  }
  return 0;
}

// Every key of `map` must be one of `allowed` (NULL-terminated): a typo is an error.
static bool only_keys(ctx *c, const ynode *map, const char *what, const char *const *allowed) {
  if (!map || map->kind != YNODE_MAPPING) return fail(c, map, "%s must be a mapping", what);
  for (uint32_t at = 0; at < map->count; at += 2) {
    const ynode *kn = ydoc_child(c->doc, map, at);
    const char *k = scalar(c, kn);
    bool ok = false;
    for (int i = 0; k && allowed[i]; ++i) ok = ok || strcmp(k, allowed[i]) == 0;
    if (!ok) return fail(c, kn, "unknown key '%s' in %s", k ? k : "?", what);
  }
  return true;
}

static bool get_fix16(ctx *c, const ynode *n, const char *what, fix16_t *out) {
  const char *s = scalar(c, n);
  if (!s || scenario_parse_fix16(s, out) != 0) {
    return fail(c, n, "%s: expected a number in [-32767, 32767] with at most 9 decimals", what);
  }
  return true;
}

static bool get_u32(ctx *c, const ynode *n, const char *what, uint32_t max, uint32_t *out) {
  const char *s = scalar(c, n);
  char *end = 0;
  unsigned long long v = s ? strtoull(s, &end, 10) : 0;
  if (!s || !*s || *end || s[0] == '-' || v > max) return fail(c, n, "%s: expected a whole number up to %u", what, max);
  *out = (uint32_t)v;
  return true;
}

static bool get_bool(ctx *c, const ynode *n, const char *what, bool *out) {
  const char *s = scalar(c, n);
  if (s && strcmp(s, "true") == 0) return *out = true, true;
  if (s && strcmp(s, "false") == 0) return *out = false, true;
  return fail(c, n, "%s: expected true or false", what);
}

// A sequence of `count` numbers, e.g. [x, y].
static bool get_numbers(ctx *c, const ynode *n, const char *what, fix16_t *out, int count) {
  if (!n || n->kind != YNODE_SEQUENCE || n->count != (uint32_t)count) {
    return fail(c, n, "%s: expected a list of %d numbers", what, count);
  }
  for (int i = 0; i < count; ++i) {
    if (!get_fix16(c, ydoc_child(c->doc, n, (uint32_t)i), what, &out[i])) return false;
  }
  return true;
}

static bool get_vec2(ctx *c, const ynode *n, const char *what, fxs_vec2 *out) {
  fix16_t v[2];
  if (!get_numbers(c, n, what, v, 2)) return false;
  *out = fxs_vec2_make(v[0], v[1]);
  return true;
}

static int get_choice(ctx *c, const ynode *n, const char *what, const char *const *names, int count) {
  const char *s = scalar(c, n);
  for (int i = 0; s && i < count; ++i) {
    if (strcmp(s, names[i]) == 0) return i;
  }
  fail(c, n, "%s: '%s' is not one of the accepted values", what, s ? s : "?");
  return -1;
}

static bool get_name(ctx *c, const ynode *n, const char *what, char out[NAME_LEN]) {
  const char *s = scalar(c, n);
  if (!s || !*s || strlen(s) >= NAME_LEN) return fail(c, n, "%s: expected a name of 1 to %d characters", what, NAME_LEN - 1);
  strcpy(out, s);
  return true;
}

static int by_text(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int by_name(const void *a, const void *b) { // equal names in file order
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  int c = strcmp(x, y);
  return c ? c : (x > y) - (x < y);
}

// Sorts pointers to the names into *sorted, so that a lookup costs O(log n) however many
// events name agents. Returns the index of the first name given twice (its second place), -1
// when none, -2 out of memory.
static long sort_names(char (*names)[NAME_LEN], uint32_t count, const char ***sorted) {
  *sorted = malloc((count ? count : 1u) * sizeof **sorted);
  if (!*sorted) return -2;
  for (uint32_t i = 0; i < count; ++i) (*sorted)[i] = names[i];
  qsort(*sorted, count, sizeof **sorted, by_name);
  long twice = -1;
  for (uint32_t i = 1; i < count; ++i) {
    long at = (long)(((*sorted)[i] - names[0]) / NAME_LEN);
    if (strcmp((*sorted)[i - 1], (*sorted)[i]) == 0 && (twice < 0 || at < twice)) twice = at;
  }
  return twice;
}

static int find_name(const char **sorted, char (*names)[NAME_LEN], uint32_t count, const char *name) {
  const char **hit = name && count ? bsearch(&name, sorted, count, sizeof *sorted, by_text) : 0;
  return hit ? (int)((*hit - names[0]) / NAME_LEN) : -1;
}

// Visits the nodes of a sequence; `it` names the cursor so that loops can nest.
#define FOR_EACH_ITEM(c, seq, it, item) \
  for (uint32_t it = 0; it < (seq)->count && ((item) = ydoc_child((c)->doc, (seq), it)) != 0; ++it)

static bool is_list(ctx *c, const ynode *n, const char *what) {
  return (n && n->kind == YNODE_SEQUENCE) || fail(c, n, "%s must be a list", what);
}

// ------------------------------------------------------------------ events

// A new command at `tick` from `source`; sequence numbers are given once all are read.
static fxs_command *add_event(ctx *c, uint32_t tick, fxs_command_type type, uint8_t source) {
  loaded *L = c->L;
  if (L->event_count == L->event_capacity) {
    uint32_t cap = L->event_capacity ? L->event_capacity * 2 : 64;
    event *grown = realloc(L->events, cap * sizeof *grown);
    if (!grown) return fail(c, 0, "out of memory"), (fxs_command *)0;
    L->events = grown, L->event_capacity = cap;
  }
  event *e = &L->events[L->event_count++];
  e->tick = tick;
  e->command = fxs_command_make(type, source, 0);
  return &e->command;
}

static const char *const path_modes[] = {"stop", "loop", "patrol"};
static const char *const combine_modes[] = {"weighted_sum", "prioritized_sum", "priority_groups"};
static const char *const orient_modes[] = {"fixed", "look_where_going", "steered"};
static const char *const formation_shapes[] = {"line", "column", "wedge", "box", "user"};

// A parameter's value: a number, or for a formation's shape also its name (line, column,
// wedge, box, user: 0..4).
static bool get_param(ctx *c, const ynode *v, int kind, uint32_t index, const char *name,
                      fix16_t *out) {
  const char *s = scalar(c, v);
  bool named = s && (*s < '0' || *s > '9') && *s != '-' && *s != '.';
  if (kind == FXS_BEHAVIOR_FORMATION && index == 0 && named) {
    int shape = get_choice(c, v, "shape of formation (line, column, wedge, box, user)",
                           formation_shapes, 5);
    if (shape < 0) return false;
    *out = FXS_INT(shape);
    return true;
  }
  return get_fix16(c, v, name, out);
}

// One behavior entry: {kind: NAME, weight, priority, <parameters by name>}.
static bool behavior_event(ctx *c, const ynode *n, uint32_t tick, uint8_t src, uint32_t agent) {
  if (!n || n->kind != YNODE_MAPPING) return fail(c, n, "a behavior must be a mapping with a 'kind'");
  const char *kind_name = scalar(c, get(c, n, "kind"));
  int kind = -1;
  for (int k = FXS_BEHAVIOR_SEEK; kind_name && k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
    if (strcmp(kind_name, fxs_behavior_name((fxs_behavior)k)) == 0) kind = k;
  }
  if (kind < 0) return fail(c, n, "behavior kind '%s' is unknown (fixsteer's names, e.g. seek, path_following)", kind_name ? kind_name : "?");
  uint32_t count = fxs_behavior_param_count((fxs_behavior)kind);
  const char *names[FXS_BEHAVIOR_PARAMS];
  const char *allowed[FXS_BEHAVIOR_PARAMS + 4] = {"kind", "weight", "priority"};
  int a = 3;
  for (uint32_t i = 0; i < count; ++i) allowed[a++] = names[i] = fxs_behavior_param_info((fxs_behavior)kind, i)->name;
  allowed[a] = 0;
  if (!only_keys(c, n, kind_name, allowed)) return false;
  fxs_behavior_slot b = fxs_behavior_slot_default((fxs_behavior)kind);
  uint32_t priority = 0;
  if (get(c, n, "weight") && !get_fix16(c, get(c, n, "weight"), "weight", &b.weight)) return false;
  if (get(c, n, "priority") && !get_u32(c, get(c, n, "priority"), "priority", 255, &priority)) return false;
  for (uint32_t i = 0; i < count; ++i) {
    const ynode *v = get(c, n, names[i]);
    if (v && !get_param(c, v, kind, i, names[i], &b.p[i])) return false;
    const fxs_behavior_param *info = fxs_behavior_param_info((fxs_behavior)kind, i);
    if (b.p[i] < info->minimum || b.p[i] > info->maximum) {
      return fail(c, v, "%s of %s out of range: %s must lie in [%.5f, %.5f] %s", names[i], kind_name,
                  names[i], info->minimum / 65536.0, info->maximum / 65536.0, info->unit);
    }
  }
  uint32_t bad = 0;
  if (fxs_behavior_params_check((uint32_t)kind, b.weight, b.p, &bad) != FXS_OK) {
    const char *what = bad == FXS_BAD_PARAM_WEIGHT ? "weight" : bad < count ? names[bad] : "parameter";
    return fail(c, n, "%s of %s out of range (weight >= 0; random_walker: max_step >= min_step; counts are whole numbers; a formation's shape is a whole number or a name)", what, kind_name);
  }
  fxs_command *cmd = add_event(c, tick, FXS_CMD_ADD_BEHAVIOR, src);
  if (!cmd) return false;
  cmd->agent = agent;
  cmd->ref = (uint32_t)kind | (priority << 8);
  cmd->arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) cmd->arg[1 + i] = b.p[i];
  return true;
}

// A behavior set: clear with the combine mode, then each behavior.
static bool behavior_set(ctx *c, const ynode *list, const ynode *combine, uint32_t tick, uint8_t src, uint32_t agent) {
  int mode = combine ? get_choice(c, combine, "combine", combine_modes, 3) : 0;
  if (mode < 0) return false;
  fxs_command *cmd = add_event(c, tick, FXS_CMD_CLEAR_BEHAVIORS, src);
  if (!cmd) return false;
  cmd->agent = agent, cmd->ref = (uint32_t)mode;
  if (!list) return true;
  if (!is_list(c, list, "behaviors")) return false;
  const ynode *item;
  uint32_t count = 0;
  bool kinematic = false;
  FOR_EACH_ITEM(c, list, it1, item) {
    if (!behavior_event(c, item, tick, src, agent)) return false;
    fxs_behavior kind = (fxs_behavior)(c->L->events[c->L->event_count - 1].command.ref & 0xFFu);
    kinematic = kinematic || fxs_behavior_is_kinematic(kind);
    if (++count > 1 && kinematic) {
      return fail(c, item, "a kinematic behavior (kinematic_seek, kinematic_arrive, kinematic_wander) "
                           "must be an agent's only behavior");
    }
  }
  return true;
}

// target / target_agent / path / apply_force / despawn keys shared by agents and events.
static bool agent_targets(ctx *c, const ynode *n, uint32_t tick, uint8_t src, uint32_t agent) {
  fxs_vec2 v;
  const ynode *x;
  fxs_command *cmd;
  if ((x = get(c, n, "target"))) {
    if (!get_vec2(c, x, "target", &v) || !(cmd = add_event(c, tick, FXS_CMD_SET_TARGET_POINT, src))) return false;
    cmd->agent = agent, cmd->arg[0] = v.x, cmd->arg[1] = v.y;
  }
  if ((x = get(c, n, "target_agent"))) {
    int i = find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, scalar(c, x));
    if (i < 0) return fail(c, x, "target_agent: no agent named '%s'", scalar(c, x) ? scalar(c, x) : "?");
    if (!(cmd = add_event(c, tick, FXS_CMD_SET_TARGET_AGENT, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i + 1u;
  }
  if ((x = get(c, n, "second_target"))) { // interpose's other agent
    int i = find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, scalar(c, x));
    if (i < 0) return fail(c, x, "second_target: no agent named '%s'", scalar(c, x) ? scalar(c, x) : "?");
    if (!(cmd = add_event(c, tick, FXS_CMD_SET_SECOND_TARGET, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i + 1u;
  }
  if ((x = get(c, n, "path"))) {
    int i = find_name(c->L->path_sorted, c->L->path_names, c->L->path_count, scalar(c, x));
    if (i < 0) return fail(c, x, "path: no path named '%s'", scalar(c, x) ? scalar(c, x) : "?");
    if (!(cmd = add_event(c, tick, FXS_CMD_SET_PATH, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i;
  }
  if ((x = get(c, n, "apply_force"))) {
    if (!get_vec2(c, x, "apply_force", &v) || !(cmd = add_event(c, tick, FXS_CMD_APPLY_FORCE, src))) return false;
    cmd->agent = agent, cmd->arg[0] = v.x, cmd->arg[1] = v.y;
  }
  bool despawn = false;
  if ((x = get(c, n, "despawn")) && !get_bool(c, x, "despawn", &despawn)) return false;
  if (despawn) {
    if (!(cmd = add_event(c, tick, FXS_CMD_DESPAWN, src))) return false;
    cmd->agent = agent;
  }
  return true;
}

// ------------------------------------------------------------------ sections

static bool world_section(ctx *c, const ynode *n) {
  loaded *L = c->L;
  L->def = fxs_default_world_def();
  if (!n) return true;
  static const char *const keys[] = {"seed", "bounds", "clamp", "neighbor_radius", 0};
  if (!only_keys(c, n, "world", keys)) return false;
  const ynode *x;
  uint32_t seed = 1;
  fix16_t b[4];
  bool clamp = false;
  if ((x = get(c, n, "seed"))) {
    if (!get_u32(c, x, "seed", 0xFFFFFFFFu, &seed)) return false;
    L->def.seed = seed;
  }
  if ((x = get(c, n, "bounds"))) {
    if (!get_numbers(c, x, "bounds", b, 4)) return false;
    if (b[0] >= b[2] || b[1] >= b[3]) return fail(c, x, "bounds: expected [min_x, min_y, max_x, max_y] with min < max");
    L->def.bounds_min = fxs_vec2_make(b[0], b[1]), L->def.bounds_max = fxs_vec2_make(b[2], b[3]);
  }
  if ((x = get(c, n, "clamp"))) {
    if (!get_bool(c, x, "clamp", &clamp)) return false;
    L->def.clamp_to_bounds = clamp;
  }
  if ((x = get(c, n, "neighbor_radius"))) {
    if (!get_fix16(c, x, "neighbor_radius", &L->def.neighbor_radius)) return false;
    if (L->def.neighbor_radius < 0) return fail(c, x, "neighbor_radius must not be negative");
  }
  // Whatever else the library refuses in a world definition is refused here, with the file's
  // line, rather than when the world is built.
  fxs_result r = fxs_world_def_check(&L->def);
  return r == FXS_OK || fail(c, n, "world: %s", fxs_result_message(r));
}

static bool paths_section(ctx *c, const ynode *list) {
  loaded *L = c->L;
  if (!list) return true;
  if (!is_list(c, list, "paths")) return false;
  size_t count = (size_t)list->count;
  L->paths = calloc(count + 1, sizeof *L->paths);
  L->path_names = calloc(count + 1, sizeof *L->path_names);
  if (!L->paths || !L->path_names) return fail(c, list, "out of memory");
  static const char *const keys[] = {"name", "mode", "radius", "slowing_radius", "nodes", 0};
  const ynode *p;
  FOR_EACH_ITEM(c, list, it2, p) {
    if (!only_keys(c, p, "a path", keys) || !get_name(c, get(c, p, "name"), "path name", L->path_names[L->path_count])) return false;
    file_path *fp = &L->paths[L->path_count];
    int mode = get(c, p, "mode") ? get_choice(c, get(c, p, "mode"), "mode", path_modes, 3) : FXS_PATH_PATROL;
    if (mode < 0) return false;
    fp->mode = (uint8_t)mode, fp->radius = FXS_INT(10), fp->slowing_radius = FXS_INT(60);
    if (get(c, p, "radius") && !get_fix16(c, get(c, p, "radius"), "radius", &fp->radius)) return false;
    if (get(c, p, "slowing_radius") && !get_fix16(c, get(c, p, "slowing_radius"), "slowing_radius", &fp->slowing_radius)) return false;
    const ynode *nodes = get(c, p, "nodes");
    if (!nodes || !is_list(c, nodes, "nodes")) return fail(c, p, "a path needs a list of nodes");
    fp->first = L->node_count;
    const ynode *node;
    FOR_EACH_ITEM(c, nodes, it3, node) {
      if (L->node_count == L->node_capacity) {
        uint32_t cap = L->node_capacity ? L->node_capacity * 2 : 64;
        fxs_vec2 *grown = realloc(L->nodes, cap * sizeof *grown);
        if (!grown) return fail(c, node, "out of memory");
        L->nodes = grown, L->node_capacity = cap;
      }
      if (!get_vec2(c, node, "node", &L->nodes[L->node_count])) return false;
      L->node_count++;
    }
    fp->count = L->node_count - fp->first;
    if (fp->count == 0 || fp->count > 0xFFFF) return fail(c, nodes, "a path needs 1 to 65535 nodes");
    L->path_count++;
  }
  long twice = sort_names(L->path_names, L->path_count, &L->path_sorted);
  if (twice == -2) return fail(c, list, "out of memory");
  return twice < 0 || fail(c, ydoc_child(c->doc, list, (uint32_t)twice), "two paths are named '%s'", L->path_names[twice]);
}

static bool obstacles_section(ctx *c, const ynode *list) {
  if (!list) return true;
  if (!is_list(c, list, "obstacles")) return false;
  const ynode *o;
  FOR_EACH_ITEM(c, list, it4, o) {
    fix16_t v[3];
    if (!get_numbers(c, o, "obstacle [x, y, radius]", v, 3)) return false;
    if (v[2] < 0) return fail(c, o, "obstacle radius must not be negative");
    fxs_command *cmd = add_event(c, 0, FXS_CMD_ADD_OBSTACLE, 1);
    if (!cmd) return false;
    cmd->arg[0] = v[0], cmd->arg[1] = v[1], cmd->arg[2] = v[2];
  }
  return true;
}

static bool walls_section(ctx *c, const ynode *list, uint32_t *count) {
  *count = 0;
  if (!list) return true;
  if (!is_list(c, list, "walls")) return false;
  const ynode *w;
  FOR_EACH_ITEM(c, list, itw, w) {
    fix16_t v[4];
    if (!get_numbers(c, w, "wall [ax, ay, bx, by]", v, 4)) return false;
    fxs_command *cmd = add_event(c, 0, FXS_CMD_ADD_WALL, 1);
    if (!cmd) return false;
    cmd->arg[0] = v[0], cmd->arg[1] = v[1], cmd->arg[2] = v[2], cmd->arg[3] = v[3];
    ++*count;
  }
  return true;
}

// ------------------------------------------------------------------ the flow field

static const char *const fill_kinds[] = {"uniform", "toward", "vortex", "goal"};

// A fill: {kind: uniform, direction: [x, y]} | {kind: toward, point: [x, y]} |
// {kind: vortex, center: [x, y], swirl: S, inward: I} (swirl 1 and inward 0 by default).
static bool field_fill(ctx *c, const ynode *n, uint32_t tick, uint8_t src) {
  static const char *const keys[][5] = {{"kind", "direction", 0}, {"kind", "point", 0},
                                        {"kind", "center", "swirl", "inward", 0}, {"kind", "point", 0}};
  static const char *const where[] = {"direction", "point", "center", "point"};
  if (!n || n->kind != YNODE_MAPPING) return fail(c, n, "field fill: expected a mapping with a 'kind'");
  int kind = get_choice(c, get(c, n, "kind"), "field fill kind (uniform, toward, vortex, goal)", fill_kinds, 4);
  if (kind < 0 || !only_keys(c, n, "a field fill", keys[kind])) return false;
  fxs_vec2 at;
  fix16_t swirl = FXS_ONE, inward = 0;
  if (!get(c, n, where[kind])) return fail(c, n, "field fill %s needs a '%s'", fill_kinds[kind], where[kind]);
  if (!get_vec2(c, get(c, n, where[kind]), where[kind], &at)) return false;
  if (get(c, n, "swirl") && !get_fix16(c, get(c, n, "swirl"), "swirl", &swirl)) return false;
  if (get(c, n, "inward") && !get_fix16(c, get(c, n, "inward"), "inward", &inward)) return false;
  fxs_command *cmd = add_event(c, tick, FXS_CMD_FILL_FIELD, src);
  if (!cmd) return false;
  cmd->ref = (uint32_t)kind, cmd->arg[0] = at.x, cmd->arg[1] = at.y;
  if (kind == FXS_FLOW_FILL_VORTEX) cmd->arg[2] = swirl, cmd->arg[3] = inward;
  return true;
}

// Explicit cells: a list of {column, row, columns (1), rows (1), flow: [x, y]} blocks that
// must lie inside the grid.
static bool field_cells(ctx *c, const ynode *list, uint32_t tick, uint8_t src) {
  static const char *const keys[] = {"column", "row", "columns", "rows", "flow", 0};
  const loaded *L = c->L;
  if (!is_list(c, list, "field cells")) return false;
  const ynode *b;
  FOR_EACH_ITEM(c, list, itc, b) {
    uint32_t at[4] = {0, 0, 1, 1};
    static const char *const names[] = {"column", "row", "columns", "rows"};
    fxs_vec2 flow;
    if (!only_keys(c, b, "a block of field cells", keys)) return false;
    for (int i = 0; i < 4; ++i) {
      const ynode *x = get(c, b, names[i]);
      if (i < 2 && !x) return fail(c, b, "a block of field cells needs a '%s'", names[i]);
      if (x && !get_u32(c, x, names[i], FXS_MAX_FIELD_SIDE, &at[i])) return false;
    }
    if (!get(c, b, "flow")) return fail(c, b, "a block of field cells needs a 'flow' [x, y]");
    if (!get_vec2(c, get(c, b, "flow"), "flow", &flow)) return false;
    if (at[2] == 0 || at[3] == 0 || at[0] >= L->field_columns || at[1] >= L->field_rows ||
        at[2] > L->field_columns - at[0] || at[3] > L->field_rows - at[1]) {
      return fail(c, b, "field cells: columns [%u, %u) x rows [%u, %u) do not lie inside the %u x %u grid",
                  at[0], at[0] + at[2], at[1], at[1] + at[3], L->field_columns, L->field_rows);
    }
    fxs_command *cmd = add_event(c, tick, FXS_CMD_SET_FIELD_CELLS, src);
    if (!cmd) return false;
    for (int i = 0; i < 4; ++i) cmd->arg[i] = (fix16_t)(at[i] << 16);
    cmd->arg[4] = flow.x, cmd->arg[5] = flow.y;
  }
  return true;
}

// field: {origin: [x, y], cell_size, columns, rows, fill, cells}: the grid (at most
// FXS_DEFAULT_MAX_FIELD_CELLS cells, what a replay reader accepts by default), then the fill,
// then the blocks of cells in order.
static bool field_section(ctx *c, const ynode *n) {
  loaded *L = c->L;
  if (!n) return true;
  static const char *const keys[] = {"origin", "cell_size", "columns", "rows", "fill", "cells", 0};
  if (!only_keys(c, n, "field", keys)) return false;
  fxs_vec2 origin = fxs_vec2_zero();
  fix16_t size = 0;
  if (get(c, n, "origin") && !get_vec2(c, get(c, n, "origin"), "origin", &origin)) return false;
  if (!get(c, n, "cell_size") || !get(c, n, "columns") || !get(c, n, "rows")) {
    return fail(c, n, "field: needs cell_size, columns and rows");
  }
  if (!get_fix16(c, get(c, n, "cell_size"), "cell_size", &size)) return false;
  if (size <= 0) return fail(c, get(c, n, "cell_size"), "field: cell_size must be greater than 0");
  if (!get_u32(c, get(c, n, "columns"), "columns", FXS_MAX_FIELD_SIDE, &L->field_columns) ||
      !get_u32(c, get(c, n, "rows"), "rows", FXS_MAX_FIELD_SIDE, &L->field_rows)) {
    return false;
  }
  uint64_t cells = (uint64_t)L->field_columns * L->field_rows;
  if (cells == 0 || cells > FXS_DEFAULT_MAX_FIELD_CELLS) {
    return fail(c, n, "field: columns x rows = %llu cells; expected 1 to %u", (unsigned long long)cells,
                FXS_DEFAULT_MAX_FIELD_CELLS);
  }
  fxs_command *cmd = add_event(c, 0, FXS_CMD_SET_FIELD_GRID, 1);
  if (!cmd) return false;
  cmd->arg[0] = origin.x, cmd->arg[1] = origin.y, cmd->arg[2] = size;
  cmd->arg[3] = (fix16_t)(L->field_columns << 16), cmd->arg[4] = (fix16_t)(L->field_rows << 16);
  if (get(c, n, "fill") && !field_fill(c, get(c, n, "fill"), 0, 1)) return false;
  return !get(c, n, "cells") || field_cells(c, get(c, n, "cells"), 0, 1);
}

// ------------------------------------------------------------------ navigation

// Defaults of a navigation section (docs/navigation.md).
#define NAV_DEFAULT_BUDGET 4096u
#define NAV_DEFAULT_SEARCHES 4u
#define NAV_DEFAULT_WAYPOINTS 64u
#define NAV_DEFAULT_MAX_CELLS 262144u // 512 x 512: a default cell size grows until it fits

// The largest radius of the agents the file spawns (0 without agents), and whether one of
// them navigates.
static fix16_t largest_radius(const loaded *L, bool *navigates) {
  fix16_t r = 0;
  *navigates = false;
  for (uint32_t i = 0; i < L->event_count; ++i) {
    const fxs_command *cmd = &L->events[i].command;
    if (cmd->type == FXS_CMD_SPAWN && cmd->arg[7] > r) r = cmd->arg[7];
    if (cmd->type == FXS_CMD_ADD_BEHAVIOR && (cmd->ref & 0xFFu) == FXS_BEHAVIOR_NAVIGATE) *navigates = true;
  }
  return r;
}

// Cells of `size` that cover [lo, hi] from lo: ceil((hi - lo) / size), at least 1.
static uint64_t cells_over(fix16_t lo, fix16_t hi, fix16_t size) {
  uint64_t span = (uint64_t)((int64_t)hi - lo);
  uint64_t n = (span + (uint64_t)size - 1u) / (uint64_t)size;
  return n ? n : 1u;
}

// navigation: {cell_size, origin, columns, rows, radius, budget, searches, waypoints, open}, every
// key optional: the grid covers the world's bounds from bounds_min with cells of the largest
// agent radius (at least 4 units; doubled until at most 512 x 512 cells), radius the largest
// agent radius, budget 4096 cells a tick, 4 searches, 64 waypoints, open-list entries one a
// cell. A file whose agents
// navigate and that has no section gets these defaults.
static bool navigation_section(ctx *c, const ynode *n) {
  loaded *L = c->L;
  bool navigates;
  fix16_t radius = largest_radius(L, &navigates);
  if (!n && !navigates) return true;
  static const char *const keys[] = {"cell_size", "origin", "columns", "rows", "radius", "budget",
                                     "searches", "waypoints", "open", 0};
  if (n && !only_keys(c, n, "navigation", keys)) return false;
  const ynode *x;
  fxs_vec2 origin = L->def.bounds_min;
  fix16_t size = fxs_max(radius, FXS_INT(4));
  bool sized = false;
  if ((x = get(c, n, "origin")) && !get_vec2(c, x, "origin", &origin)) return false;
  if ((x = get(c, n, "cell_size"))) {
    if (!get_fix16(c, x, "cell_size", &size)) return false;
    if (size <= 0) return fail(c, x, "navigation: cell_size must be greater than 0");
    sized = true;
  }
  uint64_t columns = cells_over(origin.x, fxs_max(L->def.bounds_max.x, origin.x), size);
  uint64_t rows = cells_over(origin.y, fxs_max(L->def.bounds_max.y, origin.y), size);
  while (!sized && columns * rows > NAV_DEFAULT_MAX_CELLS && size <= FXS_INT(8192)) {
    size *= 2;
    columns = cells_over(origin.x, fxs_max(L->def.bounds_max.x, origin.x), size);
    rows = cells_over(origin.y, fxs_max(L->def.bounds_max.y, origin.y), size);
  }
  uint32_t w = (uint32_t)(columns > FXS_NAV_MAX_SIDE ? FXS_NAV_MAX_SIDE + 1u : columns);
  uint32_t h = (uint32_t)(rows > FXS_NAV_MAX_SIDE ? FXS_NAV_MAX_SIDE + 1u : rows);
  uint32_t budget = NAV_DEFAULT_BUDGET, searches = NAV_DEFAULT_SEARCHES, waypoints = NAV_DEFAULT_WAYPOINTS;
  if ((x = get(c, n, "columns")) && !get_u32(c, x, "columns", FXS_NAV_MAX_SIDE, &w)) return false;
  if ((x = get(c, n, "rows")) && !get_u32(c, x, "rows", FXS_NAV_MAX_SIDE, &h)) return false;
  if ((x = get(c, n, "radius"))) {
    if (!get_fix16(c, x, "radius", &radius)) return false;
    if (radius < 0) return fail(c, x, "navigation: radius must not be negative");
  }
  if ((x = get(c, n, "budget")) && !get_u32(c, x, "budget", FXS_NAV_MAX_BUDGET, &budget)) return false;
  if ((x = get(c, n, "searches")) && !get_u32(c, x, "searches", FXS_NAV_MAX_SEARCHES, &searches)) return false;
  if ((x = get(c, n, "waypoints")) && !get_u32(c, x, "waypoints", FXS_NAV_MAX_WAYPOINTS, &waypoints)) return false;
  uint32_t open = w * h;
  if ((x = get(c, n, "open")) && !get_u32(c, x, "open", FXS_NAV_MAX_CELLS, &open)) return false;
  if (open < 1 || open > w * h) return fail(c, x, "navigation: open must lie in [1, columns x rows]");
  if (budget < 1 || searches < 1 || waypoints < 2) {
    return fail(c, n, "navigation: budget and searches must be at least 1, waypoints at least 2");
  }
  fxs_result r = fxs_nav_grid_check(origin, size, w, h);
  if (r != FXS_OK) {
    return fail(c, n, "navigation: a grid of %u x %u cells of %.5f units from (%.5f, %.5f) is %s "
                "(at most %u a side and %u cells, inside the Q16.16 range)", w, h, size / 65536.0,
                origin.x / 65536.0, origin.y / 65536.0, fxs_result_message(r), FXS_NAV_MAX_SIDE,
                FXS_NAV_MAX_CELLS);
  }
  fxs_command *cmd = add_event(c, 0, FXS_CMD_SET_NAV_GRID, 1);
  if (!cmd) return false;
  *cmd = fxs_command_set_nav_grid(origin, size, w, h, radius, budget);
  cmd->source = 1;
  L->nav_cells = w * h, L->nav_searches = searches, L->nav_waypoints = waypoints, L->nav_open = open;
  return true;
}

static const char *const agent_keys[] = {
    "name", "position", "velocity", "max_speed", "max_force", "mass", "radius", "max_rotation",
    "max_angular_acceleration", "max_turn_rate", "orientation", "combine", "behaviors", "target",
    "target_agent", "second_target", "path", 0};

// The limits of one agent, defaults where the file is silent.
static bool agent_limits(ctx *c, const ynode *a, fxs_agent *d, int *orient) {
  static const char *const names[] = {"max_speed", "max_force", "mass", "radius", "max_rotation",
                                      "max_angular_acceleration", "max_turn_rate"};
  fix16_t *fields[] = {&d->max_speed, &d->max_force, &d->mass, &d->radius, &d->max_rotation,
                       &d->max_angular_acceleration, &d->max_turn_rate};
  *d = fxs_default_agent();
  for (int i = 0; i < 7; ++i) {
    const ynode *x = get(c, a, names[i]);
    if (x && !get_fix16(c, x, names[i], fields[i])) return false;
    if (*fields[i] < 0 || (i == 2 && *fields[i] == 0)) return fail(c, x, "%s out of range", names[i]);
  }
  *orient = get(c, a, "orientation") ? get_choice(c, get(c, a, "orientation"), "orientation", orient_modes, 3)
                                     : FXS_ORIENT_LOOK_WHERE_GOING;
  return *orient >= 0;
}

static bool agent_entry(ctx *c, const ynode *a, uint32_t index) {
  uint32_t handle = index + 1u; // spawned on tick 0 into slot `index` of a fresh world
  fxs_agent d;
  int orient = 0;
  fxs_vec2 pos = fxs_vec2_zero(), vel = fxs_vec2_zero();
  if (!only_keys(c, a, "an agent", agent_keys) || !agent_limits(c, a, &d, &orient)) return false;
  if (!get(c, a, "position")) return fail(c, a, "agent '%s' needs a position", c->L->agent_names[index]);
  if (!get_vec2(c, get(c, a, "position"), "position", &pos)) return false;
  if (get(c, a, "velocity") && !get_vec2(c, get(c, a, "velocity"), "velocity", &vel)) return false;
  fxs_command *cmd = add_event(c, 0, FXS_CMD_SPAWN, 0);
  if (!cmd) return false;
  cmd->arg[0] = pos.x, cmd->arg[1] = pos.y, cmd->arg[2] = vel.x, cmd->arg[3] = vel.y;
  cmd->arg[4] = d.max_speed, cmd->arg[5] = d.max_force, cmd->arg[6] = d.mass, cmd->arg[7] = d.radius;
  if (!(cmd = add_event(c, 0, FXS_CMD_SET_LIMITS, 1))) return false;
  cmd->agent = handle, cmd->ref = (uint32_t)orient;
  cmd->arg[0] = d.max_speed, cmd->arg[1] = d.max_force, cmd->arg[2] = d.mass, cmd->arg[3] = d.radius;
  cmd->arg[4] = d.max_rotation, cmd->arg[5] = d.max_angular_acceleration, cmd->arg[6] = d.max_turn_rate;
  return behavior_set(c, get(c, a, "behaviors"), get(c, a, "combine"), 0, 1, handle) &&
         agent_targets(c, a, 0, 1, handle);
}

static bool agents_section(ctx *c, const ynode *list) {
  loaded *L = c->L;
  if (!list || !is_list(c, list, "agents")) return fail(c, list, "the file needs a list of agents");
  size_t count = (size_t)list->count;
  if (count == 0 || count > FXS_DEFAULT_MAX_AGENTS) {
    return fail(c, list, "agents: expected 1 to %u agents", FXS_DEFAULT_MAX_AGENTS);
  }
  L->agent_names = calloc(count, sizeof *L->agent_names);
  if (!L->agent_names) return fail(c, list, "out of memory");
  const ynode *a;
  FOR_EACH_ITEM(c, list, it5, a) { // names first, so agents may target agents listed later
    if (!get_name(c, get(c, a, "name"), "agent name", L->agent_names[L->agent_count++])) return false;
  }
  long twice = sort_names(L->agent_names, L->agent_count, &L->agent_sorted);
  if (twice == -2) return fail(c, list, "out of memory");
  if (twice >= 0) return fail(c, ydoc_child(c->doc, list, (uint32_t)twice), "two agents are named '%s'", L->agent_names[twice]);
  uint32_t i = 0;
  FOR_EACH_ITEM(c, list, it6, a) {
    if (!agent_entry(c, a, i++)) return false;
  }
  return true;
}

static bool events_section(ctx *c, const ynode *list) {
  if (!list) return true;
  if (!is_list(c, list, "events")) return false;
  static const char *const keys[] = {"tick", "agent", "target", "target_agent", "second_target", "path",
                                     "apply_force", "despawn", "behaviors", "combine", "field_fill",
                                     "field_cells", 0};
  const ynode *e;
  FOR_EACH_ITEM(c, list, it7, e) {
    uint32_t tick = 0; // set by get_u32 before any use; gcc -O3 cannot see it
    if (!only_keys(c, e, "an event", keys) || !get_u32(c, get(c, e, "tick"), "tick", 10000000u, &tick)) return false;
    const ynode *fill = get(c, e, "field_fill"), *cells = get(c, e, "field_cells");
    if ((fill || cells) && c->L->field_columns == 0) return fail(c, e, "a field event needs a 'field' section");
    if (fill && !field_fill(c, fill, tick, 2)) return false;
    if (cells && !field_cells(c, cells, tick, 2)) return false;
    if ((fill || cells) && !get(c, e, "agent")) continue; // a field change only
    int agent = find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, scalar(c, get(c, e, "agent")));
    if (agent < 0) return fail(c, e, "an event needs the 'agent' it acts on, by name");
    if (get(c, e, "behaviors") &&
        !behavior_set(c, get(c, e, "behaviors"), get(c, e, "combine"), tick, 2, (uint32_t)agent + 1u)) {
      return false;
    }
    if (!agent_targets(c, e, tick, 2, (uint32_t)agent + 1u)) return false;
  }
  return true;
}

// ------------------------------------------------------------------ the scenario

static void file_configure(const scenario *self, fxs_world_def *def) {
  *def = ((const loaded *)self->data)->def;
}

static void file_paths(const scenario *self, fxs_world *world) {
  const loaded *L = (const loaded *)self->data;
  for (uint32_t i = 0; i < L->path_count; ++i) {
    const file_path *p = &L->paths[i];
    uint16_t index;
    if (fxs_world_add_path(world, &L->nodes[p->first], (uint16_t)p->count, (fxs_path_mode)p->mode, p->radius, &index) == FXS_OK) {
      world->paths[index].slowing_radius = p->slowing_radius;
    }
  }
}

static uint32_t file_commands(const scenario *self, const fxs_world *world, scenario_state *state, fxs_command *out) {
  const loaded *L = (const loaded *)self->data;
  uint32_t n = 0;
  while (state->cursor < L->event_count && L->events[state->cursor].tick < world->tick) state->cursor++;
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
  if (!tmp) return fail(c, 0, "out of memory");
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

static bool finish_events(ctx *c) {
  loaded *L = c->L;
  if (!sort_events(c)) return false;
  uint16_t seq[3] = {0, 0, 0};
  uint32_t per_tick = 0;
  for (uint32_t i = 0; i < L->event_count; ++i) {
    if (i > 0 && L->events[i].tick != L->events[i - 1].tick) memset(seq, 0, sizeof seq), per_tick = 0;
    fxs_command *cmd = &L->events[i].command;
    cmd->sequence = seq[cmd->source]++;
    if (++per_tick > SCENARIO_MAX_COMMANDS) {
      return fail(c, 0, "more than %d commands at tick %u; spread the events over more ticks",
                  SCENARIO_MAX_COMMANDS, L->events[i].tick);
    }
  }
  return true;
}

static bool top_level(ctx *c, const ynode *root) {
  loaded *L = c->L;
  static const char *const keys[] = {"name", "summary", "ticks", "world", "paths", "obstacles", "walls", "field", "agents",
                                     "events", "navigation", 0};
  if (!only_keys(c, root, "the scenario", keys)) return false;
  const char *name = scalar(c, get(c, root, "name"));
  const char *summary = scalar(c, get(c, root, "summary"));
  snprintf(L->name, sizeof L->name, "%s", name ? name : c->file);
  snprintf(L->summary, sizeof L->summary, "%s", summary ? summary : "scenario file");
  uint32_t ticks = 1000;
  const ynode *t = get(c, root, "ticks");
  if (t && !get_u32(c, t, "ticks", 10000000u, &ticks)) return false;
  // As for --ticks: a replay of no tick proves nothing, and verify refuses one.
  if (ticks == 0) return fail(c, t, "ticks: expected a whole number from 1 to 10000000 (a replay holds at least one tick)");
  const ynode *obstacles = get(c, root, "obstacles");
  uint32_t wall_count = 0;
  if (!world_section(c, get(c, root, "world")) || !paths_section(c, get(c, root, "paths")) ||
      !agents_section(c, get(c, root, "agents")) || !obstacles_section(c, obstacles) ||
      !walls_section(c, get(c, root, "walls"), &wall_count) ||
      !navigation_section(c, get(c, root, "navigation")) || !field_section(c, get(c, root, "field")) ||
      !events_section(c, get(c, root, "events")) || !finish_events(c)) {
    return false;
  }
  uint32_t obstacle_count = obstacles ? obstacles->count : 0;
  if (obstacle_count > FXS_MAX_SMALL_CAPACITY || L->path_count > FXS_MAX_SMALL_CAPACITY ||
      wall_count > FXS_MAX_SMALL_CAPACITY) {
    return fail(c, root, "too many obstacles, walls or paths");
  }
  scenario *sc = &L->sc;
  sc->name = L->name, sc->summary = L->summary, sc->default_ticks = ticks;
  sc->capacity.agents = L->agent_count;
  sc->capacity.obstacles = obstacle_count;
  sc->capacity.paths = L->path_count;
  sc->capacity.path_nodes = L->node_count;
  sc->capacity.walls = wall_count;
  sc->capacity.field_cells = L->field_columns * L->field_rows; // at most FXS_DEFAULT_MAX_FIELD_CELLS
  sc->capacity.nav_cells = L->nav_cells, sc->capacity.nav_open = L->nav_open;
  sc->capacity.nav_searches = L->nav_cells ? L->nav_searches : 0;
  sc->capacity.nav_waypoints = L->nav_cells ? L->nav_waypoints : 0;
  sc->configure = file_configure, sc->add_paths = file_paths, sc->commands = file_commands;
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
  free(L->agent_sorted);
  free(L->events);
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

const scenario *scenario_file_load(const char *path, const scenario_file_limits *limits, char *error,
                                   size_t error_size) {
  scenario_file_limits d = scenario_file_default_limits();
  ydoc doc;
  if (!ydoc_read_file(&doc, path, limits ? limits : &d, error, error_size)) return 0;
  const scenario *sc = scenario_file_from_document(path, &doc, error, error_size);
  ydoc_free(&doc);
  return sc;
}
