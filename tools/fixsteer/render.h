// Pictures of a run for `fixsteer render`: the states of a scenario or replay kept frame by
// frame (a "film"), and the SVG drawn from one film or from two replays of one session.
#ifndef FIXSTEER_TOOL_RENDER_H
#define FIXSTEER_TOOL_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"

// One agent slot in one frame (raw Q16.16).
typedef struct sample {
  int32_t x, y, orientation, radius;
  uint16_t generation;
  uint8_t alive;
} sample;

// A path as drawn: its nodes and radius.
typedef struct film_path {
  const fxs_vec2 *nodes;
  uint32_t count;
  fix16_t radius;
  uint8_t mode;
} film_path;

// A group's integration field after the last tick (fxs_world_nav_field), over the film's
// navigation grid: per cell its value and direction (nav_field.h).
typedef struct film_nav_field {
  uint32_t slot;      // the world's field slot
  uint32_t goal_cell; // cy * width + cx
  uint32_t status;    // an fxs_nav_field_status
  uint32_t *value;    // width x height values (FXS_NAV_UNREACHED: blocked or not reached)
  uint8_t *direction; // width x height directions (FXS_NAV_DIRECTIONS: none)
} film_nav_field;

typedef struct film {
  const char *name;    // scenario name or replay file name
  const char *summary; // the scenario's one-line summary, or NULL
  bool is_replay;
  uint32_t slots;  // agent slots per frame
  long frames;     // frames kept: the state before the first tick, then after each
  long first_tick; // world tick of frame 0
  sample *samples; // frames x slots
  // The world's layout after the last tick.
  fxs_world_def def;
  fxs_wall *walls;
  uint32_t wall_count;
  fxs_obstacle *obstacles;
  uint32_t obstacle_count;
  film_path *paths;
  uint32_t path_count;
  fxs_vec2 *nodes;
  fxs_flow_field field;     // width 0 when the world has none; cells owned by the film
  fxs_nav_grid nav;         // the navigation grid's effective costs (width 0: none); owned
  fxs_vec2 *routes;         // route waypoints of every agent slot, route_counts[i] each, in a row
  uint32_t *route_counts;   // per agent slot (0: no route)
  uint32_t route_stride;    // waypoints kept per slot
  fxs_vec2 *mesh_triangles; // a mesh world's triangles, 3 corners each (owned)
  uint32_t mesh_triangle_count;
  film_nav_field *nav_fields; // the live fields of groups, by slot
  uint32_t nav_field_count;
  // Replays: the recorded hash after each stepped tick (the TICK chunk's tick is
  // first_tick + i) and where the re-simulation stopped matching, if it did.
  uint64_t *hashes;
  long hash_count;
  bool diverged;
  long diverged_tick;
} film;

// A growing text buffer.
typedef struct text {
  char *data;
  size_t size, capacity;
  bool failed; // out of memory: the text is incomplete
} text;

void text_printf(text *t, const char *format, ...);
void text_free(text *t);

// Which integration fields of groups a picture shows: every live one, none, or the one in
// a field slot (>= 0).
#define NAV_FIELDS_ALL (-1)
#define NAV_FIELDS_NONE (-2)

// What to draw: one film, or two replays (b != NULL) whose hashes are compared tick by tick;
// bodies at the world ticks in at[].
typedef struct picture {
  const film *a, *b;
  const long *at;
  int at_count;
  int width;  // pixels
  int height; // pixels: the whole picture at most this tall (the map scaled to fit); 0: the
              // map at most 900 pixels tall
  bool zoom;  // show only zoom_box: x0, y0, x1, y1 in world units
  double zoom_box[4];
  int nav_fields; // NAV_FIELDS_ALL, NAV_FIELDS_NONE or a field slot of film a
} picture;

// Draws the picture as an SVG document into out.
void render_svg(const picture *p, text *out);

#endif
