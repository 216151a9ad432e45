// The sections of a scenario file (scenario_sections.h).
#include "scenario_sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/behavior_params.h"
#include "fixsteer/command_build.h"
#include "fixsteer/manager.h"

// ------------------------------------------------------------------ events

static const char *const path_modes[] = {"stop", "loop", "patrol"};
static const char *const combine_modes[] = {"weighted_sum", "prioritized_sum", "priority_groups"};
static const char *const orient_modes[] = {"fixed", "look_where_going", "steered"};
static const char *const formation_shapes[] = {"line", "column", "wedge", "box", "user"};

// A parameter's value: a number, or for a formation's shape also its name (line, column,
// wedge, box, user: 0..4).
static bool get_param(ctx *c, const ynode *v, int kind, uint32_t index, const char *name,
                      fix16_t *out) {
  const char *s = sr_text(c, v);
  bool named = s && (*s < '0' || *s > '9') && *s != '-' && *s != '.';
  if (kind == FXS_BEHAVIOR_FORMATION && index == 0 && named) {
    int shape =
        sr_choice(c, v, "shape of formation (line, column, wedge, box, user)", formation_shapes, 5);
    if (shape < 0) return false;
    *out = FXS_INT(shape);
    return true;
  }
  return sr_fix16(c, v, name, out);
}

// One behavior entry: {kind: NAME, weight, priority, <parameters by name>}.
static bool behavior_event(ctx *c, const ynode *n, uint32_t tick, uint8_t src, uint32_t agent) {
  if (!n || n->kind != YNODE_MAPPING)
    return sr_fail(c, n, "a behavior must be a mapping with a 'kind'");
  const char *kind_name = sr_text(c, sr_get(c, n, "kind"));
  int kind = -1;
  for (int k = FXS_BEHAVIOR_SEEK; kind_name && k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind((uint32_t)k)) continue;
    if (strcmp(kind_name, fxs_behavior_name((fxs_behavior)k)) == 0) kind = k;
  }
  if (kind < 0)
    return sr_fail(c, n,
                   "behavior kind '%s' is unknown (fixsteer's names, e.g. seek, path_following)",
                   kind_name ? kind_name : "?");
  uint32_t count = fxs_behavior_param_count((fxs_behavior)kind);
  const char *names[FXS_BEHAVIOR_PARAMS];
  const char *allowed[FXS_BEHAVIOR_PARAMS + 4] = {"kind", "weight", "priority"};
  int a = 3;
  for (uint32_t i = 0; i < count; ++i)
    allowed[a++] = names[i] = fxs_behavior_param_info((fxs_behavior)kind, i)->name;
  allowed[a] = 0;
  if (!sr_only_keys(c, n, kind_name, allowed)) return false;
  // The defaults of the agent's own size (agent is its handle, the slot of a fresh world + 1).
  const loaded *L = c->L;
  fxs_behavior_slot b = fxs_behavior_slot_default_for(
      (fxs_behavior)kind, L->agent_radius[agent - 1u], L->agent_max_force[agent - 1u]);
  uint32_t priority = 0;
  if (sr_get(c, n, "weight") && !sr_fix16(c, sr_get(c, n, "weight"), "weight", &b.weight))
    return false;
  if (sr_get(c, n, "priority") && !sr_u32(c, sr_get(c, n, "priority"), "priority", 255, &priority))
    return false;
  for (uint32_t i = 0; i < count; ++i) {
    const ynode *v = sr_get(c, n, names[i]);
    if (v && !get_param(c, v, kind, i, names[i], &b.p[i])) return false;
    const fxs_behavior_param *info = fxs_behavior_param_info((fxs_behavior)kind, i);
    if (b.p[i] < info->minimum || b.p[i] > info->maximum) {
      return sr_fail(c, v, "%s of %s out of range: %s must lie in [%.5f, %.5f] %s", names[i],
                     kind_name, names[i], info->minimum / 65536.0, info->maximum / 65536.0,
                     info->unit);
    }
  }
  uint32_t bad = 0;
  if (fxs_behavior_params_check((uint32_t)kind, b.weight, b.p, &bad) != FXS_OK) {
    const char *what = bad == FXS_BAD_PARAM_WEIGHT ? "weight"
                       : bad < count               ? names[bad]
                                                   : "parameter";
    return sr_fail(c, n,
                   "%s of %s out of range (weight >= 0; random_walker: max_step >= min_step; "
                   "counts are whole numbers; a formation's shape is a whole number or a name)",
                   what, kind_name);
  }
  fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_ADD_BEHAVIOR, src);
  if (!cmd) return false;
  cmd->agent = agent;
  cmd->ref = (uint32_t)kind | (priority << 8);
  cmd->arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) cmd->arg[1 + i] = b.p[i];
  return true;
}

// A behavior set: clear with the combine mode, then each behavior.
static bool behavior_set(ctx *c, const ynode *list, const ynode *combine, uint32_t tick,
                         uint8_t src, uint32_t agent) {
  int mode = combine ? sr_choice(c, combine, "combine", combine_modes, 3) : 0;
  if (mode < 0) return false;
  fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_CLEAR_BEHAVIORS, src);
  if (!cmd) return false;
  cmd->agent = agent, cmd->ref = (uint32_t)mode;
  if (!list) return true;
  if (!sr_is_list(c, list, "behaviors")) return false;
  const ynode *item;
  uint32_t count = 0;
  bool kinematic = false;
  FOR_EACH_ITEM(c, list, it1, item) {
    if (!behavior_event(c, item, tick, src, agent)) return false;
    fxs_behavior kind = (fxs_behavior)(c->L->events[c->L->event_count - 1].command.ref & 0xFFu);
    kinematic = kinematic || fxs_behavior_is_kinematic(kind);
    if (++count > 1 && kinematic) {
      return sr_fail(c, item,
                     "a kinematic behavior (kinematic_seek, kinematic_arrive, kinematic_wander) "
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
  if ((x = sr_get(c, n, "target"))) {
    if (!sr_vec2(c, x, "target", &v) ||
        !(cmd = sr_add_event(c, tick, FXS_CMD_SET_TARGET_POINT, src)))
      return false;
    cmd->agent = agent, cmd->arg[0] = v.x, cmd->arg[1] = v.y;
  }
  if ((x = sr_get(c, n, "target_agent"))) {
    int i = sr_find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, sr_text(c, x));
    if (i < 0)
      return sr_fail(c, x, "target_agent: no agent named '%s'",
                     sr_text(c, x) ? sr_text(c, x) : "?");
    if (!(cmd = sr_add_event(c, tick, FXS_CMD_SET_TARGET_AGENT, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i + 1u;
  }
  if ((x = sr_get(c, n, "second_target"))) { // interpose's other agent
    int i = sr_find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, sr_text(c, x));
    if (i < 0)
      return sr_fail(c, x, "second_target: no agent named '%s'",
                     sr_text(c, x) ? sr_text(c, x) : "?");
    if (!(cmd = sr_add_event(c, tick, FXS_CMD_SET_SECOND_TARGET, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i + 1u;
  }
  if ((x = sr_get(c, n, "path"))) {
    int i = sr_find_name(c->L->path_sorted, c->L->path_names, c->L->path_count, sr_text(c, x));
    if (i < 0)
      return sr_fail(c, x, "path: no path named '%s'", sr_text(c, x) ? sr_text(c, x) : "?");
    if (!(cmd = sr_add_event(c, tick, FXS_CMD_SET_PATH, src))) return false;
    cmd->agent = agent, cmd->ref = (uint32_t)i;
  }
  if ((x = sr_get(c, n, "apply_force"))) {
    if (!sr_vec2(c, x, "apply_force", &v) ||
        !(cmd = sr_add_event(c, tick, FXS_CMD_APPLY_FORCE, src)))
      return false;
    cmd->agent = agent, cmd->arg[0] = v.x, cmd->arg[1] = v.y;
  }
  bool despawn = false;
  if ((x = sr_get(c, n, "despawn")) && !sr_bool(c, x, "despawn", &despawn)) return false;
  if (despawn) {
    if (!(cmd = sr_add_event(c, tick, FXS_CMD_DESPAWN, src))) return false;
    cmd->agent = agent;
  }
  return true;
}

// ------------------------------------------------------------------ sections

bool scene_world(ctx *c, const ynode *n) {
  loaded *L = c->L;
  L->def = fxs_default_world_def();
  if (!n) return true;
  static const char *const keys[] = {"seed", "bounds", "clamp", "neighbor_radius", 0};
  if (!sr_only_keys(c, n, "world", keys)) return false;
  const ynode *x;
  uint32_t seed = 1;
  fix16_t b[4];
  bool clamp = false;
  if ((x = sr_get(c, n, "seed"))) {
    if (!sr_u32(c, x, "seed", 0xFFFFFFFFu, &seed)) return false;
    L->def.seed = seed;
  }
  if ((x = sr_get(c, n, "bounds"))) {
    if (!sr_numbers(c, x, "bounds", b, 4)) return false;
    if (b[0] >= b[2] || b[1] >= b[3])
      return sr_fail(c, x, "bounds: expected [min_x, min_y, max_x, max_y] with min < max");
    L->def.bounds_min = fxs_vec2_make(b[0], b[1]), L->def.bounds_max = fxs_vec2_make(b[2], b[3]);
  }
  if ((x = sr_get(c, n, "clamp"))) {
    if (!sr_bool(c, x, "clamp", &clamp)) return false;
    L->def.clamp_to_bounds = clamp;
  }
  if ((x = sr_get(c, n, "neighbor_radius"))) {
    if (!sr_fix16(c, x, "neighbor_radius", &L->def.neighbor_radius)) return false;
    if (L->def.neighbor_radius < 0) return sr_fail(c, x, "neighbor_radius must not be negative");
  }
  // Whatever else the library refuses in a world definition is refused here, with the file's
  // line, rather than when the world is built.
  fxs_result r = fxs_world_def_check(&L->def);
  return r == FXS_OK || sr_fail(c, n, "world: %s", fxs_result_message(r));
}

bool scene_paths(ctx *c, const ynode *list) {
  loaded *L = c->L;
  if (!list) return true;
  if (!sr_is_list(c, list, "paths")) return false;
  size_t count = (size_t)list->count;
  L->paths = calloc(count + 1, sizeof *L->paths);
  L->path_names = calloc(count + 1, sizeof *L->path_names);
  if (!L->paths || !L->path_names) return sr_fail(c, list, "out of memory");
  static const char *const keys[] = {"name", "mode", "radius", "slowing_radius", "nodes", 0};
  const ynode *p;
  FOR_EACH_ITEM(c, list, it2, p) {
    if (!sr_only_keys(c, p, "a path", keys) ||
        !sr_name(c, sr_get(c, p, "name"), "path name", L->path_names[L->path_count]))
      return false;
    file_path *fp = &L->paths[L->path_count];
    int mode = sr_get(c, p, "mode") ? sr_choice(c, sr_get(c, p, "mode"), "mode", path_modes, 3)
                                    : FXS_PATH_PATROL;
    if (mode < 0) return false;
    fp->mode = (uint8_t)mode, fp->radius = SCENE_PATH_RADIUS,
    fp->slowing_radius = SCENE_PATH_SLOWING_RADIUS;
    if (sr_get(c, p, "radius") && !sr_fix16(c, sr_get(c, p, "radius"), "radius", &fp->radius))
      return false;
    if (sr_get(c, p, "slowing_radius") &&
        !sr_fix16(c, sr_get(c, p, "slowing_radius"), "slowing_radius", &fp->slowing_radius))
      return false;
    const ynode *nodes = sr_get(c, p, "nodes");
    if (!nodes || !sr_is_list(c, nodes, "nodes"))
      return sr_fail(c, p, "a path needs a list of nodes");
    fp->first = L->node_count;
    const ynode *node;
    FOR_EACH_ITEM(c, nodes, it3, node) {
      if (L->node_count == L->node_capacity) {
        uint32_t cap = L->node_capacity ? L->node_capacity * 2 : 64;
        fxs_vec2 *grown = realloc(L->nodes, cap * sizeof *grown);
        if (!grown) return sr_fail(c, node, "out of memory");
        L->nodes = grown, L->node_capacity = cap;
      }
      if (!sr_vec2(c, node, "node", &L->nodes[L->node_count])) return false;
      L->node_count++;
    }
    fp->count = L->node_count - fp->first;
    if (fp->count == 0 || fp->count > 0xFFFF)
      return sr_fail(c, nodes, "a path needs 1 to 65535 nodes");
    L->path_count++;
  }
  long twice = sr_sort_names(L->path_names, L->path_count, &L->path_sorted);
  if (twice == -2) return sr_fail(c, list, "out of memory");
  return twice < 0 || sr_fail(c, ydoc_child(c->doc, list, (uint32_t)twice),
                              "two paths are named '%s'", L->path_names[twice]);
}

bool scene_obstacles(ctx *c, const ynode *list) {
  if (!list) return true;
  if (!sr_is_list(c, list, "obstacles")) return false;
  const ynode *o;
  FOR_EACH_ITEM(c, list, it4, o) {
    fix16_t v[3];
    if (!sr_numbers(c, o, "obstacle [x, y, radius]", v, 3)) return false;
    if (v[2] < 0) return sr_fail(c, o, "obstacle radius must not be negative");
    fxs_command *cmd = sr_add_event(c, 0, FXS_CMD_ADD_OBSTACLE, 1);
    if (!cmd) return false;
    cmd->arg[0] = v[0], cmd->arg[1] = v[1], cmd->arg[2] = v[2];
  }
  return true;
}

bool scene_walls(ctx *c, const ynode *list, uint32_t *count) {
  *count = 0;
  if (!list) return true;
  if (!sr_is_list(c, list, "walls")) return false;
  const ynode *w;
  FOR_EACH_ITEM(c, list, itw, w) {
    fix16_t v[4];
    if (!sr_numbers(c, w, "wall [ax, ay, bx, by]", v, 4)) return false;
    fxs_command *cmd = sr_add_event(c, 0, FXS_CMD_ADD_WALL, 1);
    if (!cmd) return false;
    cmd->arg[0] = v[0], cmd->arg[1] = v[1], cmd->arg[2] = v[2], cmd->arg[3] = v[3];
    ++*count;
  }
  return true;
}

// ------------------------------------------------------------------ the flow field

static const char *const fill_kinds[] = {"uniform", "toward", "vortex", "goal"};

// A fill: {kind: uniform, direction: [x, y]} | {kind: toward, point: [x, y]} |
// {kind: vortex, center: [x, y], swirl: S, inward: I} (swirl 1 and inward 0 by default) |
// {kind: goal, point: [x, y]} (over the navigation grid, which must have the field's shape).
static bool field_fill(ctx *c, const ynode *n, uint32_t tick, uint8_t src) {
  static const char *const keys[][5] = {{"kind", "direction", 0},
                                        {"kind", "point", 0},
                                        {"kind", "center", "swirl", "inward", 0},
                                        {"kind", "point", 0}};
  static const char *const where[] = {"direction", "point", "center", "point"};
  if (!n || n->kind != YNODE_MAPPING)
    return sr_fail(c, n, "field fill: expected a mapping with a 'kind'");
  int kind = sr_choice(c, sr_get(c, n, "kind"), "field fill kind (uniform, toward, vortex, goal)",
                       fill_kinds, 4);
  if (kind < 0 || !sr_only_keys(c, n, "a field fill", keys[kind])) return false;
  fxs_vec2 at;
  fix16_t swirl = FXS_ONE, inward = 0;
  if (!sr_get(c, n, where[kind]))
    return sr_fail(c, n, "field fill %s needs a '%s'", fill_kinds[kind], where[kind]);
  if (!sr_vec2(c, sr_get(c, n, where[kind]), where[kind], &at)) return false;
  if (sr_get(c, n, "swirl") && !sr_fix16(c, sr_get(c, n, "swirl"), "swirl", &swirl)) return false;
  if (sr_get(c, n, "inward") && !sr_fix16(c, sr_get(c, n, "inward"), "inward", &inward))
    return false;
  fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_FILL_FIELD, src);
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
  if (!sr_is_list(c, list, "field cells")) return false;
  const ynode *b;
  FOR_EACH_ITEM(c, list, itc, b) {
    uint32_t at[4] = {0, 0, 1, 1};
    static const char *const names[] = {"column", "row", "columns", "rows"};
    fxs_vec2 flow;
    if (!sr_only_keys(c, b, "a block of field cells", keys)) return false;
    for (int i = 0; i < 4; ++i) {
      const ynode *x = sr_get(c, b, names[i]);
      if (i < 2 && !x) return sr_fail(c, b, "a block of field cells needs a '%s'", names[i]);
      if (x && !sr_u32(c, x, names[i], FXS_MAX_FIELD_SIDE, &at[i])) return false;
    }
    if (!sr_get(c, b, "flow")) return sr_fail(c, b, "a block of field cells needs a 'flow' [x, y]");
    if (!sr_vec2(c, sr_get(c, b, "flow"), "flow", &flow)) return false;
    if (at[2] == 0 || at[3] == 0 || at[0] >= L->field_columns || at[1] >= L->field_rows ||
        at[2] > L->field_columns - at[0] || at[3] > L->field_rows - at[1]) {
      return sr_fail(
          c, b, "field cells: columns [%u, %u) x rows [%u, %u) do not lie inside the %u x %u grid",
          at[0], at[0] + at[2], at[1], at[1] + at[3], L->field_columns, L->field_rows);
    }
    fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_SET_FIELD_CELLS, src);
    if (!cmd) return false;
    for (int i = 0; i < 4; ++i) cmd->arg[i] = (fix16_t)(at[i] << 16);
    cmd->arg[4] = flow.x, cmd->arg[5] = flow.y;
  }
  return true;
}

// field: {origin: [x, y], cell_size, columns, rows, fill, cells}: the grid (at most
// FXS_DEFAULT_MAX_FIELD_CELLS cells, what a replay reader accepts by default), then the fill,
// then the blocks of cells in order.
bool scene_field(ctx *c, const ynode *n) {
  loaded *L = c->L;
  if (!n) return true;
  static const char *const keys[] = {"origin", "cell_size", "columns", "rows", "fill", "cells", 0};
  if (!sr_only_keys(c, n, "field", keys)) return false;
  fxs_vec2 origin = fxs_vec2_zero();
  fix16_t size = 0;
  if (sr_get(c, n, "origin") && !sr_vec2(c, sr_get(c, n, "origin"), "origin", &origin))
    return false;
  if (!sr_get(c, n, "cell_size") || !sr_get(c, n, "columns") || !sr_get(c, n, "rows")) {
    return sr_fail(c, n, "field: needs cell_size, columns and rows");
  }
  if (!sr_fix16(c, sr_get(c, n, "cell_size"), "cell_size", &size)) return false;
  if (size <= 0)
    return sr_fail(c, sr_get(c, n, "cell_size"), "field: cell_size must be greater than 0");
  if (!sr_u32(c, sr_get(c, n, "columns"), "columns", FXS_MAX_FIELD_SIDE, &L->field_columns) ||
      !sr_u32(c, sr_get(c, n, "rows"), "rows", FXS_MAX_FIELD_SIDE, &L->field_rows)) {
    return false;
  }
  uint64_t cells = (uint64_t)L->field_columns * L->field_rows;
  if (cells == 0 || cells > FXS_DEFAULT_MAX_FIELD_CELLS) {
    return sr_fail(c, n, "field: columns x rows = %llu cells; expected 1 to %u",
                   (unsigned long long)cells, FXS_DEFAULT_MAX_FIELD_CELLS);
  }
  fxs_command *cmd = sr_add_event(c, 0, FXS_CMD_SET_FIELD_GRID, 1);
  if (!cmd) return false;
  cmd->arg[0] = origin.x, cmd->arg[1] = origin.y, cmd->arg[2] = size;
  cmd->arg[3] = (fix16_t)(L->field_columns << 16), cmd->arg[4] = (fix16_t)(L->field_rows << 16);
  if (sr_get(c, n, "fill") && !field_fill(c, sr_get(c, n, "fill"), 0, 1)) return false;
  return !sr_get(c, n, "cells") || field_cells(c, sr_get(c, n, "cells"), 0, 1);
}

static const char *const agent_keys[] = {
    "name",          "position",     "velocity",
    "max_speed",     "max_force",    "mass",
    "radius",        "max_rotation", "max_angular_acceleration",
    "max_turn_rate", "orientation",  "combine",
    "behaviors",     "target",       "target_agent",
    "second_target", "path",         0};

// Whether the agent's radius and top speed lie in the library's usable range (agent.h's
// FXS_SCALE_*): outside it the world no longer behaves the same in every unit.
static bool in_usable_range(ctx *c, const ynode *a, const fxs_agent *d) {
  const ynode *r = sr_get(c, a, "radius"), *v = sr_get(c, a, "max_speed");
  if (d->radius != 0 && (d->radius < FXS_SCALE_MIN_RADIUS || d->radius > FXS_SCALE_MAX_RADIUS)) {
    return sr_fail(c, r ? r : a,
                   "radius %.6f is outside the usable range [%g, %g] units (or 0): "
                   "author the scene in other units (docs/crowds.md)",
                   d->radius / 65536.0, FXS_SCALE_MIN_RADIUS / 65536.0,
                   FXS_SCALE_MAX_RADIUS / 65536.0);
  }
  if (d->max_speed != 0 &&
      (d->max_speed < FXS_SCALE_MIN_SPEED || d->max_speed > FXS_SCALE_MAX_SPEED)) {
    return sr_fail(c, v ? v : a,
                   "max_speed %.6f is outside the usable range [%g, %g] units a tick "
                   "(or 0): author the scene in other units (docs/crowds.md)",
                   d->max_speed / 65536.0, FXS_SCALE_MIN_SPEED / 65536.0,
                   FXS_SCALE_MAX_SPEED / 65536.0);
  }
  return true;
}

// The limits of one agent, defaults where the file is silent.
static bool agent_limits(ctx *c, const ynode *a, fxs_agent *d, int *orient) {
  static const char *const names[] = {"max_speed",    "max_force",    "mass",
                                      "radius",       "max_rotation", "max_angular_acceleration",
                                      "max_turn_rate"};
  fix16_t *fields[] = {&d->max_speed,    &d->max_force,    &d->mass,
                       &d->radius,       &d->max_rotation, &d->max_angular_acceleration,
                       &d->max_turn_rate};
  *d = fxs_default_agent();
  for (int i = 0; i < 7; ++i) {
    const ynode *x = sr_get(c, a, names[i]);
    if (x && !sr_fix16(c, x, names[i], fields[i])) return false;
    if (*fields[i] < 0 || (i == 2 && *fields[i] == 0))
      return sr_fail(c, x, "%s out of range", names[i]);
  }
  if (!in_usable_range(c, a, d)) return false;
  *orient = sr_get(c, a, "orientation")
                ? sr_choice(c, sr_get(c, a, "orientation"), "orientation", orient_modes, 3)
                : FXS_ORIENT_LOOK_WHERE_GOING;
  return *orient >= 0;
}

static bool agent_entry(ctx *c, const ynode *a, uint32_t index) {
  uint32_t handle = index + 1u; // spawned on tick 0 into slot `index` of a fresh world
  fxs_agent d;
  int orient = 0;
  fxs_vec2 pos = fxs_vec2_zero(), vel = fxs_vec2_zero();
  if (!sr_only_keys(c, a, "an agent", agent_keys) || !agent_limits(c, a, &d, &orient)) return false;
  c->L->agent_radius[index] = d.radius, c->L->agent_max_force[index] = d.max_force;
  if (!sr_get(c, a, "position"))
    return sr_fail(c, a, "agent '%s' needs a position", c->L->agent_names[index]);
  if (!sr_vec2(c, sr_get(c, a, "position"), "position", &pos)) return false;
  if (sr_get(c, a, "velocity") && !sr_vec2(c, sr_get(c, a, "velocity"), "velocity", &vel))
    return false;
  fxs_command *cmd = sr_add_event(c, 0, FXS_CMD_SPAWN, 0);
  if (!cmd) return false;
  cmd->arg[0] = pos.x, cmd->arg[1] = pos.y, cmd->arg[2] = vel.x, cmd->arg[3] = vel.y;
  cmd->arg[4] = d.max_speed, cmd->arg[5] = d.max_force, cmd->arg[6] = d.mass,
  cmd->arg[7] = d.radius;
  if (!(cmd = sr_add_event(c, 0, FXS_CMD_SET_LIMITS, 1))) return false;
  cmd->agent = handle, cmd->ref = (uint32_t)orient;
  cmd->arg[0] = d.max_speed, cmd->arg[1] = d.max_force, cmd->arg[2] = d.mass,
  cmd->arg[3] = d.radius;
  cmd->arg[4] = d.max_rotation, cmd->arg[5] = d.max_angular_acceleration,
  cmd->arg[6] = d.max_turn_rate;
  return behavior_set(c, sr_get(c, a, "behaviors"), sr_get(c, a, "combine"), 0, 1, handle) &&
         agent_targets(c, a, 0, 1, handle);
}

bool scene_agents(ctx *c, const ynode *list) {
  loaded *L = c->L;
  if (!list || !sr_is_list(c, list, "agents"))
    return sr_fail(c, list, "the file needs a list of agents");
  size_t count = (size_t)list->count;
  // The world's own bound; the YAML limits bound the work before this (--max-yaml-nodes: a
  // scene takes 7 to 30 nodes an agent).
  if (count == 0 || count > FXS_MAX_AGENTS) {
    return sr_fail(c, list, "agents: expected 1 to %u agents", (unsigned)FXS_MAX_AGENTS);
  }
  L->agent_names = calloc(count, sizeof *L->agent_names);
  L->agent_radius = calloc(count, sizeof *L->agent_radius);
  L->agent_max_force = calloc(count, sizeof *L->agent_max_force);
  if (!L->agent_names || !L->agent_radius || !L->agent_max_force)
    return sr_fail(c, list, "out of memory");
  const ynode *a;
  FOR_EACH_ITEM(c, list, it5, a) { // names first, so agents may target agents listed later
    if (!sr_name(c, sr_get(c, a, "name"), "agent name", L->agent_names[L->agent_count++]))
      return false;
  }
  long twice = sr_sort_names(L->agent_names, L->agent_count, &L->agent_sorted);
  if (twice == -2) return sr_fail(c, list, "out of memory");
  if (twice >= 0)
    return sr_fail(c, ydoc_child(c->doc, list, (uint32_t)twice), "two agents are named '%s'",
                   L->agent_names[twice]);
  uint32_t i = 0;
  FOR_EACH_ITEM(c, list, it6, a) {
    if (!agent_entry(c, a, i++)) return false;
  }
  return true;
}

// ------------------------------------------------------------------ map events

// set_costs: [column, row, columns, rows, cost], whole numbers, a block inside the grid.
static bool map_costs(ctx *c, const ynode *n, uint32_t tick) {
  static const char *const names[] = {"set_costs column", "set_costs row", "set_costs columns",
                                      "set_costs rows", "set_costs cost"};
  const loaded *L = c->L;
  if (L->nav_cells == 0)
    return sr_fail(c, n, "set_costs needs navigation (a 'navigation' section or navigate agents)");
  if (!n || n->kind != YNODE_SEQUENCE || n->count != 5)
    return sr_fail(c, n,
                   "set_costs: expected a list of 5 whole numbers [column, row, columns, "
                   "rows, cost]");
  uint32_t v[5];
  for (uint32_t i = 0; i < 5; ++i) {
    uint32_t max = i == 4 ? FXS_NAV_MAX_COST : FXS_NAV_MAX_SIDE;
    if (!sr_u32(c, ydoc_child(c->doc, n, i), names[i], max, &v[i])) return false;
  }
  if (v[2] == 0 || v[3] == 0 || v[0] >= L->nav_columns || v[1] >= L->nav_rows ||
      v[2] > L->nav_columns - v[0] || v[3] > L->nav_rows - v[1]) {
    return sr_fail(c, n,
                   "set_costs: columns [%u, %u) x rows [%u, %u) do not lie inside the %u x %u "
                   "navigation grid",
                   v[0], v[0] + v[2], v[1], v[1] + v[3], L->nav_columns, L->nav_rows);
  }
  fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_SET_NAV_COSTS, 2);
  if (!cmd) return false;
  fxs_command made = fxs_command_set_nav_costs(v[0], v[1], v[2], v[3], v[4]);
  for (int i = 0; i < 5; ++i) cmd->arg[i] = made.arg[i];
  return true;
}

// add_wall / remove_wall: [ax, ay, bx, by]; add_obstacle / remove_obstacle: [x, y, r]. A
// removal names the wall or obstacle by its coordinates; resolve_removals finds its slot.
static bool map_event(ctx *c, const ynode *e, uint32_t tick) {
  static const char *const keys[] = {"add_wall", "remove_wall", "add_obstacle", "remove_obstacle"};
  static const char *const what[] = {"add_wall [ax, ay, bx, by]", "remove_wall [ax, ay, bx, by]",
                                     "add_obstacle [x, y, radius]",
                                     "remove_obstacle [x, y, radius]"};
  static const fxs_command_type types[] = {FXS_CMD_ADD_WALL, FXS_CMD_REMOVE_WALL,
                                           FXS_CMD_ADD_OBSTACLE, FXS_CMD_REMOVE_OBSTACLE};
  for (int k = 0; k < 4; ++k) {
    const ynode *n = sr_get(c, e, keys[k]);
    if (!n) continue;
    fix16_t v[4];
    int count = k < 2 ? 4 : 3;
    if (!sr_numbers(c, n, what[k], v, count)) return false;
    if (k == 2 && v[2] < 0) return sr_fail(c, n, "add_obstacle: radius must not be negative");
    fxs_command *cmd = sr_add_event(c, tick, types[k], 2);
    if (!cmd) return false;
    for (int i = 0; i < count; ++i) cmd->arg[i] = v[i];
    if (k == 1 || k == 3) c->L->events[c->L->event_count - 1].where = n;
    if (k == 0) c->L->event_walls++;
    if (k == 2) c->L->event_obstacles++;
  }
  const ynode *costs = sr_get(c, e, "set_costs");
  return !costs || map_costs(c, costs, tick);
}

static bool same_wall(const fix16_t *a, const fix16_t *b) {
  bool forward = a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
  return forward || (a[0] == b[2] && a[1] == b[3] && a[2] == b[0] && a[3] == b[1]);
}

// Follows the world's slot allocation (an add takes the lowest free slot) through the set-up
// and the events in the order the world applies them, and gives each removal the lowest live
// slot holding its coordinates (a wall's ends in either order).
bool scene_resolve_removals(ctx *c, uint32_t walls, uint32_t obstacles) {
  loaded *L = c->L;
  uint32_t n = walls + obstacles;
  fix16_t(*held)[4] = calloc(n ? n : 1u, sizeof *held);
  unsigned char *alive = calloc(n ? n : 1u, 1);
  bool ok = held && alive;
  if (!ok) sr_fail(c, 0, "out of memory");
  for (uint32_t i = 0; ok && i < L->setup_count + L->event_count; ++i) {
    bool setup = i < L->setup_count;
    fxs_command *cmd = setup ? &L->setup[i] : &L->events[i - L->setup_count].command;
    bool wall = cmd->type == FXS_CMD_ADD_WALL || cmd->type == FXS_CMD_REMOVE_WALL;
    bool add = cmd->type == FXS_CMD_ADD_WALL || cmd->type == FXS_CMD_ADD_OBSTACLE;
    if (!wall && !add && cmd->type != FXS_CMD_REMOVE_OBSTACLE) continue;
    uint32_t first = wall ? 0 : walls, end = wall ? walls : n, s = first;
    if (add) {
      while (s < end && alive[s]) ++s;
      if (s == end) continue; // cannot happen: the capacities count every add
      alive[s] = 1;
      memcpy(held[s], cmd->arg, sizeof held[s]);
      if (!wall) held[s][3] = 0;
      continue;
    }
    while (s < end && !(alive[s] && (wall ? same_wall(held[s], cmd->arg)
                                          : memcmp(held[s], cmd->arg, 3 * sizeof(fix16_t)) == 0)))
      ++s;
    const event *ev = &L->events[i - L->setup_count];
    if (s == end) {
      ok = sr_fail(c, ev->where, "%s: no %s with these coordinates stands at tick %u",
                   wall ? "remove_wall" : "remove_obstacle", wall ? "wall" : "obstacle", ev->tick);
      break;
    }
    alive[s] = 0;
    cmd->ref = s - first;
    memset(cmd->arg, 0, sizeof cmd->arg);
  }
  free(held);
  free(alive);
  return ok;
}

// move: {agents: [NAME, ...], to: [x, y], gap: G}: one move command per agent (command
// order: the list's), all with the same group tag (the event's place among the events) and
// gap, so they form one group (fxs_command_move). The default gap is 2.5 times the largest
// radius the file spawns an agent with (at most 1024): a body then passes between two
// members resting on their spots.
static bool move_event(ctx *c, const ynode *n, uint32_t tick) {
  static const char *const keys[] = {"agents", "to", "gap", 0};
  const ynode *list = sr_get(c, n, "agents"), *to = sr_get(c, n, "to"), *x;
  fxs_vec2 point;
  int64_t radius = 0;
  for (uint32_t i = 0; i < c->L->event_count; ++i) {
    const fxs_command *cmd = &c->L->events[i].command;
    if (cmd->type == FXS_CMD_SPAWN && cmd->arg[7] > radius) radius = cmd->arg[7];
  }
  fix16_t gap = (fix16_t)(radius * 5 / 2 > FXS_INT(1024) ? FXS_INT(1024) : radius * 5 / 2);
  if (!sr_only_keys(c, n, "a move", keys)) return false;
  if (!list || !to) return sr_fail(c, n, "a move needs 'agents' (a list of names) and 'to' [x, y]");
  if (!sr_is_list(c, list, "move: agents") || !sr_vec2(c, to, "move: to", &point)) return false;
  if ((x = sr_get(c, n, "gap"))) {
    if (!sr_fix16(c, x, "move: gap", &gap)) return false;
    if (gap < 0 || gap > FXS_INT(1024)) return sr_fail(c, x, "move: gap must lie in [0, 1024]");
  }
  if (list->count == 0) return sr_fail(c, list, "move: agents must name at least one agent");
  uint32_t group = c->L->event_count;
  const ynode *item;
  FOR_EACH_ITEM(c, list, it8, item) {
    int agent =
        sr_find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count, sr_text(c, item));
    if (agent < 0) {
      const char *name = sr_text(c, item);
      return sr_fail(c, item, "move: no agent named '%s'", name ? name : "?");
    }
    fxs_command *cmd = sr_add_event(c, tick, FXS_CMD_MOVE, 2);
    if (!cmd) return false;
    *cmd = fxs_command_move((fxs_agent_handle){(uint32_t)agent + 1u}, group, point, gap);
    cmd->source = 2;
  }
  return true;
}

bool scene_events(ctx *c, const ynode *list) {
  if (!list) return true;
  if (!sr_is_list(c, list, "events")) return false;
  static const char *const keys[] = {"tick",
                                     "agent",
                                     "target",
                                     "target_agent",
                                     "second_target",
                                     "path",
                                     "apply_force",
                                     "despawn",
                                     "behaviors",
                                     "combine",
                                     "field_fill",
                                     "field_cells",
                                     "add_wall",
                                     "remove_wall",
                                     "add_obstacle",
                                     "remove_obstacle",
                                     "set_costs",
                                     "move",
                                     0};
  const ynode *e;
  FOR_EACH_ITEM(c, list, it7, e) {
    uint32_t tick = 0; // set by get_u32 before any use; gcc -O3 cannot see it
    if (!sr_only_keys(c, e, "an event", keys) ||
        !sr_u32(c, sr_get(c, e, "tick"), "tick", 10000000u, &tick))
      return false;
    const ynode *fill = sr_get(c, e, "field_fill"), *cells = sr_get(c, e, "field_cells");
    if ((fill || cells) && c->L->field_columns == 0)
      return sr_fail(c, e, "a field event needs a 'field' section");
    if (fill && !field_fill(c, fill, tick, 2)) return false;
    if (cells && !field_cells(c, cells, tick, 2)) return false;
    if (!map_event(c, e, tick)) return false;
    if (sr_get(c, e, "move") && !move_event(c, sr_get(c, e, "move"), tick)) return false;
    bool map = sr_get(c, e, "add_wall") || sr_get(c, e, "remove_wall") ||
               sr_get(c, e, "add_obstacle") || sr_get(c, e, "remove_obstacle") ||
               sr_get(c, e, "set_costs");
    if ((fill || cells || map || sr_get(c, e, "move")) && !sr_get(c, e, "agent")) continue;
    int agent = sr_find_name(c->L->agent_sorted, c->L->agent_names, c->L->agent_count,
                             sr_text(c, sr_get(c, e, "agent")));
    if (agent < 0) return sr_fail(c, e, "an event needs the 'agent' it acts on, by name");
    if (sr_get(c, e, "behaviors") &&
        !behavior_set(c, sr_get(c, e, "behaviors"), sr_get(c, e, "combine"), tick, 2,
                      (uint32_t)agent + 1u)) {
      return false;
    }
    if (!agent_targets(c, e, tick, 2, (uint32_t)agent + 1u)) return false;
  }
  return true;
}
