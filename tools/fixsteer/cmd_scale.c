// `fixsteer scale FILE K [--out OUT]`: the scene file with every length multiplied by K, as
// an author working in other units would have written it (positions, targets, bounds, walls,
// obstacles, radii, speeds, forces, cell sizes, path nodes, gaps, and every behavior
// parameter whose unit in the library's table is a length or a force); angles, ticks,
// counts, weights, factors and priorities are kept. The file's own text is edited in place
// (comments and layout stay). Lengths the file leaves to a default of the tool or of the
// agent (an agent's radius, max_speed and max_force, the world's bounds and neighbor radius,
// a path's radii) are written out, scaled: they belong to the scene. Behavior parameters the
// file leaves out are not: their defaults are the library's to make scale-free.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/fixsteer.h"
#include "output.h"
#include "scale_text.h"
#include "scenario_file.h"
#include "scenario_read.h"
#include "scenario_sections.h"

#ifdef FXS_TOOL_NO_YAML
int cmd_scale(int argc, char **argv) {
  (void)argc, (void)argv;
  fprintf(stderr, "fixsteer scale: this fixsteer was built without scenario files (NO_YAML=1)\n");
  return EXIT_BAD;
}
#else

typedef struct job {
  scale_doc d;
  scale_factor k;
  const char *k_text;
  long values, defaults; // numbers scaled, defaults written out
  bool with_defaults;    // --defaults: behavior parameters left out are written out too
} job;

#define ANY_MIN FXS_MIN
#define ANY_MAX FXS_MAX

static const ynode *get(job *j, const ynode *map, const char *key) {
  if (!map || map->kind != YNODE_MAPPING) return 0;
  for (uint32_t i = 0; i + 1 < map->count; i += 2) {
    const char *k = ydoc_text(&j->d.doc, ydoc_child(&j->d.doc, map, i));
    if (k && strcmp(k, key) == 0) return ydoc_child(&j->d.doc, map, i + 1);
  }
  return 0;
}

// The raw value as text for messages.
static const char *shown(fix16_t raw, char *buf) {
  scale_format(raw, buf, 32);
  return buf;
}

// raw * K, refused out of range or below the resolution; `n` and `what` name it.
static bool scaled_value(job *j, const ynode *n, const char *what, fix16_t raw, fix16_t min,
                         fix16_t max, fix16_t *out) {
  char a[32], b[32], lo[32], hi[32];
  if (!scale_raw(raw, j->k, out)) {
    return scale_fail(&j->d, n, "%s: %s times %s is outside Q16.16's range (|x| < 32768)", what,
                      shown(raw, a), j->k_text);
  }
  if (raw != 0 && *out == 0) {
    return scale_fail(&j->d, n, "%s: %s times %s is below Q16.16's resolution (1/65536)", what,
                      shown(raw, a), j->k_text);
  }
  if (*out < min || *out > max) {
    return scale_fail(&j->d, n, "%s: %s times %s = %s lies outside its range [%s, %s]", what,
                      shown(raw, a), j->k_text, shown(*out, b), shown(min, lo),
                      max == ANY_MAX ? "max" : shown(max, hi));
  }
  return true;
}

// One number of the file, multiplied by K in place (once, however many aliases name it).
static bool scale_number(job *j, const ynode *n, const char *what, fix16_t min, fix16_t max) {
  const char *text = ydoc_text(&j->d.doc, n);
  fix16_t raw, v;
  if (!text || scenario_parse_fix16(text, &raw) != 0)
    return scale_fail(&j->d, n, "%s: expected a number in [-32767, 32767]", what);
  size_t index = (size_t)(n - j->d.doc.nodes), at;
  if (j->d.scaled[index]) return true;
  if (!scaled_value(j, n, what, raw, min, max, &v) || !scale_offset(&j->d, n, &at)) return false;
  char buf[32];
  scale_format(v, buf, sizeof buf);
  j->d.scaled[index] = 1, ++j->values;
  return scale_add_edit(&j->d, at, n->count, buf);
}

static bool scale_key(job *j, const ynode *map, const char *key, fix16_t min, fix16_t max) {
  const ynode *n = get(j, map, key);
  return !n || scale_number(j, n, key, min, max);
}

// A list of `count` numbers (0: any number of them), each a length.
static bool scale_list(job *j, const ynode *seq, const char *what, uint32_t count) {
  if (!seq) return true;
  if (seq->kind != YNODE_SEQUENCE || (count && seq->count != count))
    return scale_fail(&j->d, seq, "%s: expected a list of %u numbers", what, count);
  for (uint32_t i = 0; i < seq->count; ++i) {
    if (!scale_number(j, ydoc_child(&j->d.doc, seq, i), what, ANY_MIN, ANY_MAX)) return false;
  }
  return true;
}

static bool scale_list_key(job *j, const ynode *map, const char *key, uint32_t count) {
  return scale_list(j, get(j, map, key), key, count);
}

// Writes `key: value` into a mapping that lacks it: after "{" in a flow mapping, as a line
// of its own before the first key (same column) in a block mapping.
static bool insert_key(job *j, const ynode *map, const char *key, const char *value) {
  size_t at;
  char text[224];
  if (!scale_offset(&j->d, map, &at)) return false;
  if (at < j->d.size && j->d.data[at] == '{') {
    snprintf(text, sizeof text, "%s: %s%s", key, value, map->count ? ", " : "");
    ++j->defaults;
    return scale_add_edit(&j->d, at + 1, 0, text);
  }
  const ynode *first = ydoc_child(&j->d.doc, map, 0);
  if (!first || !scale_offset(&j->d, first, &at)) return false;
  size_t indent = at - j->d.line_start[first->line - 1];
  if (indent > 64) return scale_fail(&j->d, first, "cannot add '%s' here: write it out", key);
  snprintf(text, sizeof text, "%s: %s\n%*s", key, value, (int)indent, "");
  ++j->defaults;
  return scale_add_edit(&j->d, at, 0, text);
}

// A length the file may leave to a default: scaled where given, written out scaled where not.
static bool scale_or_default(job *j, const ynode *map, const char *key, fix16_t fallback) {
  if (get(j, map, key)) return scale_key(j, map, key, 0, ANY_MAX);
  fix16_t v;
  char buf[32];
  if (!scaled_value(j, map, key, fallback, 0, ANY_MAX, &v)) return false;
  scale_format(v, buf, sizeof buf);
  return insert_key(j, map, key, buf);
}

// ------------------------------------------------------------------ behaviors

// 1: a parameter of this unit is a length (or a length a tick, or a force: length a tick
// squared) and scales; 0: it does not; -1: a unit this command does not know, refused rather
// than guessed (the table may grow a unit).
static int unit_scales(const char *unit) {
  if (strncmp(unit, "units", 5) == 0 || strcmp(unit, "force") == 0) return 1;
  static const char *const kept[] = {"ticks", "radians", "factor", "choice", "count"};
  for (size_t i = 0; i < sizeof kept / sizeof kept[0]; ++i) {
    if (strcmp(unit, kept[i]) == 0) return 0;
  }
  return -1;
}

static int behavior_kind(const char *name) {
  for (int k = FXS_BEHAVIOR_SEEK; name && k < FXS_BEHAVIOR_COUNT; ++k) {
    if (fxs_behavior_is_slot_kind((uint32_t)k) &&
        strcmp(name, fxs_behavior_name((fxs_behavior)k)) == 0)
      return k;
  }
  return -1;
}

// {kind, weight, priority, parameters by name}: the parameters in length units scale, each
// kept in the table's range.
static bool scale_behavior(job *j, const ynode *b) {
  const char *name = ydoc_text(&j->d.doc, get(j, b, "kind"));
  int kind = behavior_kind(name);
  if (kind < 0) return scale_fail(&j->d, b, "behavior kind '%s' is unknown", name ? name : "?");
  uint32_t count = fxs_behavior_param_count((fxs_behavior)kind);
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_behavior_param *p = fxs_behavior_param_info((fxs_behavior)kind, i);
    const ynode *v = get(j, b, p->name);
    int scales = unit_scales(p->unit);
    if (scales < 0) {
      return scale_fail(&j->d, v ? v : b,
                        "%s of %s: unit '%s' is neither a length nor known to keep", p->name, name,
                        p->unit);
    }
    if (!scales) continue;
    if (v && !scale_number(j, v, p->name, p->minimum, p->maximum)) return false;
    // A default in radii or max forces follows the agent, scaled with it: left out.
    if (!v && j->with_defaults && p->default_value != 0 && p->basis == FXS_PARAM_ABSOLUTE) {
      fix16_t d;
      char buf[32];
      if (!scaled_value(j, b, p->name, p->default_value, p->minimum, p->maximum, &d)) return false;
      scale_format(d, buf, sizeof buf);
      if (!insert_key(j, b, p->name, buf)) return false;
    }
  }
  return true;
}

static bool scale_behaviors(job *j, const ynode *list) {
  if (!list) return true;
  if (list->kind != YNODE_SEQUENCE) return scale_fail(&j->d, list, "behaviors: expected a list");
  for (uint32_t i = 0; i < list->count; ++i) {
    if (!scale_behavior(j, ydoc_child(&j->d.doc, list, i))) return false;
  }
  return true;
}

// ------------------------------------------------------------------ sections

static bool scale_world(job *j, const ynode *root) {
  const ynode *w = get(j, root, "world");
  fxs_world_def def = fxs_default_world_def();
  if (w) {
    if (!get(j, w, "bounds")) {
      // As a list of four lengths, from the world's defaults.
      fix16_t b[4] = {def.bounds_min.x, def.bounds_min.y, def.bounds_max.x, def.bounds_max.y};
      char text[160], num[4][32];
      for (int i = 0; i < 4; ++i) {
        fix16_t v;
        if (!scaled_value(j, w, "bounds (the default)", b[i], ANY_MIN, ANY_MAX, &v)) return false;
        scale_format(v, num[i], sizeof num[i]);
      }
      snprintf(text, sizeof text, "[%s, %s, %s, %s]", num[0], num[1], num[2], num[3]);
      if (!insert_key(j, w, "bounds", text)) return false;
    }
    return scale_list_key(j, w, "bounds", 4) &&
           scale_or_default(j, w, "neighbor_radius", def.neighbor_radius);
  }
  fix16_t b[5] = {def.bounds_min.x, def.bounds_min.y, def.bounds_max.x, def.bounds_max.y,
                  def.neighbor_radius};
  char num[5][32], text[200];
  for (int i = 0; i < 5; ++i) {
    fix16_t v;
    if (!scaled_value(j, root,
                      i < 4 ? "world bounds (the default)" : "neighbor_radius (the default)", b[i],
                      ANY_MIN, ANY_MAX, &v))
      return false;
    scale_format(v, num[i], sizeof num[i]);
  }
  snprintf(text, sizeof text, "{bounds: [%s, %s, %s, %s], neighbor_radius: %s}", num[0], num[1],
           num[2], num[3], num[4]);
  return insert_key(j, root, "world", text);
}

static bool scale_paths(job *j, const ynode *list) {
  for (uint32_t i = 0; list && list->kind == YNODE_SEQUENCE && i < list->count; ++i) {
    const ynode *p = ydoc_child(&j->d.doc, list, i);
    if (!scale_or_default(j, p, "radius", SCENE_PATH_RADIUS) ||
        !scale_or_default(j, p, "slowing_radius", SCENE_PATH_SLOWING_RADIUS)) {
      return false;
    }
    const ynode *nodes = get(j, p, "nodes");
    for (uint32_t k = 0; nodes && nodes->kind == YNODE_SEQUENCE && k < nodes->count; ++k) {
      if (!scale_list(j, ydoc_child(&j->d.doc, nodes, k), "node", 2)) return false;
    }
  }
  return true;
}

// Every item of a list is a list of `count` lengths (obstacles, walls).
static bool scale_items(job *j, const ynode *list, const char *what, uint32_t count) {
  for (uint32_t i = 0; list && list->kind == YNODE_SEQUENCE && i < list->count; ++i) {
    if (!scale_list(j, ydoc_child(&j->d.doc, list, i), what, count)) return false;
  }
  return true;
}

// A field fill's point or centre is a place; a uniform fill's direction and the cells' flows
// are directions (only their direction is followed) and stay.
static bool scale_fill(job *j, const ynode *fill) {
  return !fill || (scale_list_key(j, fill, "point", 2) && scale_list_key(j, fill, "center", 2));
}

static bool scale_field(job *j, const ynode *f) {
  if (!f) return true;
  return scale_list_key(j, f, "origin", 2) && scale_key(j, f, "cell_size", 1, ANY_MAX) &&
         scale_fill(j, get(j, f, "fill"));
}

static bool scale_navigation(job *j, const ynode *n) {
  if (!n) return true;
  return scale_key(j, n, "cell_size", 1, ANY_MAX) && scale_list_key(j, n, "origin", 2) &&
         scale_key(j, n, "radius", 0, ANY_MAX);
}

static bool scale_agents(job *j, const ynode *list) {
  fxs_agent def = fxs_default_agent();
  for (uint32_t i = 0; list && list->kind == YNODE_SEQUENCE && i < list->count; ++i) {
    const ynode *a = ydoc_child(&j->d.doc, list, i);
    if (!a || a->kind != YNODE_MAPPING) return scale_fail(&j->d, a, "an agent must be a mapping");
    if (!scale_list_key(j, a, "position", 2) || !scale_list_key(j, a, "velocity", 2) ||
        !scale_list_key(j, a, "target", 2) || !scale_or_default(j, a, "max_speed", def.max_speed) ||
        !scale_or_default(j, a, "max_force", def.max_force) ||
        !scale_or_default(j, a, "radius", def.radius) ||
        !scale_behaviors(j, get(j, a, "behaviors"))) {
      return false;
    }
  }
  return true;
}

static bool scale_events(job *j, const ynode *list) {
  static const char *const walls[] = {"add_wall", "remove_wall"};
  static const char *const obstacles[] = {"add_obstacle", "remove_obstacle"};
  for (uint32_t i = 0; list && list->kind == YNODE_SEQUENCE && i < list->count; ++i) {
    const ynode *e = ydoc_child(&j->d.doc, list, i), *move = get(j, e, "move");
    for (int k = 0; k < 2; ++k) {
      if (!scale_list_key(j, e, walls[k], 4) || !scale_list_key(j, e, obstacles[k], 3))
        return false;
    }
    if (!scale_list_key(j, e, "target", 2) || !scale_list_key(j, e, "apply_force", 2) ||
        !scale_behaviors(j, get(j, e, "behaviors")) || !scale_fill(j, get(j, e, "field_fill")) ||
        !scale_list_key(j, move, "to", 2) || !scale_key(j, move, "gap", 0, FXS_INT(1024))) {
      return false;
    }
  }
  return true;
}

static bool scale_scene(job *j) {
  const ynode *root = ydoc_root(&j->d.doc);
  if (!root || root->kind != YNODE_MAPPING)
    return scale_fail(&j->d, root, "expected a scene: a mapping with agents");
  return scale_world(j, root) && scale_paths(j, get(j, root, "paths")) &&
         scale_items(j, get(j, root, "obstacles"), "obstacle [x, y, radius]", 3) &&
         scale_items(j, get(j, root, "walls"), "wall [ax, ay, bx, by]", 4) &&
         scale_field(j, get(j, root, "field")) && scale_navigation(j, get(j, root, "navigation")) &&
         scale_agents(j, get(j, root, "agents")) && scale_events(j, get(j, root, "events"));
}

// ------------------------------------------------------------------ the command

// The scaled text must be a scene the tool accepts (what this file cannot check, the
// navigation grid's size among them, the loader does).
static bool accepted(const char *name, const unsigned char *text, size_t size,
                     const ydoc_limits *limits) {
  char error[512];
  const scenario *sc = scenario_file_load_buffer(name, text, size, limits, error, sizeof error);
  if (!sc)
    return fprintf(stderr, "fixsteer scale: the scaled scene is refused: %s\n", error), false;
  scenario_file_free(sc);
  return true;
}

static bool write_text(const char *out, const unsigned char *text, size_t size) {
  if (!out) return fwrite(text, 1, size, stdout) == size && fflush(stdout) == 0;
  output o;
  if (!output_open(&o, out)) return false;
  bool ok = fwrite(text, 1, size, o.f) == size && fflush(o.f) == 0;
  return output_finish(&o, ok);
}

int cmd_scale(int argc, char **argv) {
  bool missing;
  const char *out = cli_take_value(&argc, argv, "--out", &missing);
  bool with_defaults = cli_take_flag(&argc, argv, "--defaults");
  if (missing) return fail_usage("scale", "missing value for", "--out");
  options o;
  int done = command_options("scale", argc, argv, 2, &o);
  if (done >= 0) return done;
  if (o.file_count != 2 || o.scenario)
    return fail_usage("scale", "needs a scene FILE and a factor K", 0);
  job j;
  memset(&j, 0, sizeof j);
  j.k_text = o.files[1], j.with_defaults = with_defaults;
  if (!scale_factor_parse(j.k_text, &j.k))
    return fail_usage("scale", "K must be a fraction P/Q or a decimal greater than 0", j.k_text);
  bool ok = scale_doc_open(&j.d, o.files[0], &o.yaml);
  char header[160];
  snprintf(header, sizeof header, "# every length of this scene times %s (fixsteer scale)\n",
           j.k_text);
  ok = ok && scale_add_edit(&j.d, 0, 0, header) && scale_scene(&j);
  size_t size = 0;
  unsigned char *text = ok ? scale_apply(&j.d, &size) : 0;
  if (!ok || !text) {
    fprintf(stderr, "fixsteer scale: %s\n", j.d.error[0] ? j.d.error : "out of memory");
    scale_doc_free(&j.d);
    return EXIT_BAD;
  }
  ok = accepted(out ? out : "(scaled scene)", text, size, &o.yaml) && write_text(out, text, size);
  if (ok && out) {
    printf("scaled %s by %s: %ld values, %ld defaults written out, into %s\n", o.files[0], j.k_text,
           j.values, j.defaults, out);
  }
  free(text);
  scale_doc_free(&j.d);
  return ok ? EXIT_OK : EXIT_BAD;
}

#endif
