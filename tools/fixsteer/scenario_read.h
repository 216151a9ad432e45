// Reading a scenario file's YAML tree (scenario_file.h), shared by its parts: the scene being
// built (`loaded`) and the reading context, errors that name the file and line, typed values
// (numbers as exact decimals, without floating point), names looked up in a sorted index, and
// the events (commands at ticks) the sections add. scenario_sections.c reads the sections,
// scenario_file.c the top level and makes the scenario.
#ifndef FIXSTEER_TOOL_SCENARIO_READ_H
#define FIXSTEER_TOOL_SCENARIO_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "scenario.h"
#include "yaml_read.h"

#define NAME_LEN 48

typedef struct event {
  uint32_t tick;
  fxs_command command;
  const ynode *where; // a removal by coordinates: its node, for errors once slots are known
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
  fix16_t *agent_radius, *agent_max_force; // each agent's, for its behaviors' defaults
  uint32_t field_columns, field_rows;      // 0 x 0: no field section
  uint32_t nav_cells, nav_searches, nav_waypoints, nav_open; // 0: no navigation
  uint32_t nav_columns, nav_rows;
  uint32_t event_walls, event_obstacles; // added by events: the capacities make room for them
  uint32_t nav_fields;                   // integration fields for groups (0: none)
  bool nav_mesh;                         // navigation: {kind: mesh}
  event *events;                         // in tick order, and in file order within a tick
  uint32_t event_count, event_capacity;
  // The initial state the sections describe (their tick-0 commands: the spawns, then the
  // rest, each in file order), applied before tick 0 rather than recorded as tick 0's input,
  // so a scene's size is not bounded by the commands a tick may carry.
  fxs_command *setup;
  uint32_t setup_count;
} loaded;

typedef struct ctx {
  const char *file;
  const ydoc *doc;
  char *error;
  size_t error_size;
  loaded *L;
} ctx;

// Visits the nodes of a sequence; `it` names the cursor so that loops can nest.
#define FOR_EACH_ITEM(c, seq, it, item) \
  for (uint32_t it = 0; it < (seq)->count && ((item) = ydoc_child((c)->doc, (seq), it)) != 0; ++it)

// Parses a decimal number ("-12.375", "3", "0.5") into Q16.16, rounded to nearest, without
// floating point. Returns 0 on success, -1 for text that is not a number or out of range.
int scenario_parse_fix16(const char *text, fix16_t *out);

// Writes "FILE:LINE: message" (the node's line; 1 without a node) unless an error is already
// there (the first one is kept); returns false.
bool sr_fail(ctx *c, const ynode *node, const char *fmt, ...);

// A scalar's text, or NULL for a sequence or mapping.
const char *sr_text(ctx *c, const ynode *n);

// The value of `key` in a mapping, or NULL.
const ynode *sr_get(ctx *c, const ynode *map, const char *key);

// Every key of `map` must be one of `allowed` (NULL-terminated): a typo is an error.
bool sr_only_keys(ctx *c, const ynode *map, const char *what, const char *const *allowed);

// Typed values; each fails naming `what` and the node's line. A number is a decimal in
// [-32767, 32767] with at most 9 decimals; a whole number is at most `max`.
bool sr_fix16(ctx *c, const ynode *n, const char *what, fix16_t *out);
bool sr_u32(ctx *c, const ynode *n, const char *what, uint32_t max, uint32_t *out);
bool sr_bool(ctx *c, const ynode *n, const char *what, bool *out);
// A sequence of `count` numbers, e.g. [x, y].
bool sr_numbers(ctx *c, const ynode *n, const char *what, fix16_t *out, int count);
bool sr_vec2(ctx *c, const ynode *n, const char *what, fxs_vec2 *out);
// The index of the scalar among `names`, or -1 after the error.
int sr_choice(ctx *c, const ynode *n, const char *what, const char *const *names, int count);
// A name of 1 to NAME_LEN - 1 characters.
bool sr_name(ctx *c, const ynode *n, const char *what, char out[NAME_LEN]);
// The node must be a sequence.
bool sr_is_list(ctx *c, const ynode *n, const char *what);

// Sorts pointers to the names into *sorted, so that a lookup costs O(log n) however many
// events name agents. Returns the index of the first name given twice (its second place), -1
// when none, -2 out of memory.
long sr_sort_names(char (*names)[NAME_LEN], uint32_t count, const char ***sorted);
// The index of `name` among the sorted names, or -1.
int sr_find_name(const char **sorted, char (*names)[NAME_LEN], uint32_t count, const char *name);

// A new command at `tick` from `source` (0: spawns, 1: the sections' set-up, 2: events);
// sequence numbers are given once all are read, and the sections' commands of tick 0
// (sources 0 and 1) become the initial state. NULL after the error (out of memory).
fxs_command *sr_add_event(ctx *c, uint32_t tick, fxs_command_type type, uint8_t source);

#endif
