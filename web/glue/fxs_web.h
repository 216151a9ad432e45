// The web viewer's module: the fixsteer library compiled to wasm32 with a thin layer of
// exported functions for the page (web/js/fxs.mjs). It uses the public headers only: the
// page re-simulates replays with the very library the desktop tool runs.
//
// Conventions of the exports: pointers and sizes are wasm32 offsets into the module's
// memory; a function that describes something returns a NUL-terminated JSON text that stays
// valid until the next such call; Q16.16 values cross as their raw int32.
#ifndef FXS_WEB_H
#define FXS_WEB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"

// Declares an export of the module, under the function's own name.
#define FXS_WEB_EXPORT(name) __attribute__((export_name(#name)))

// Int32 values per agent in fxs_web_agents() and fxs_web_live_agents(): slot, x, y, vx, vy,
// orientation, radius, kind of the first behavior (255: none), behavior count, target
// agent's slot (-1: none), owner (the owning source, -1: shared), behavior-set id (a hash of
// the kinds of its whole set, in order; 0: none), max_speed, max_force, mass, handle (u32).
#define FXS_WEB_AGENT_STRIDE 16

// A replay opened in the viewer: its bytes, every chunk indexed by tick, and a world that
// shows one tick of it.
typedef struct fxs_web_viewer {
  uint8_t *data; // the replay (owned)
  size_t size;
  uint32_t version;
  uint64_t fingerprint;
  uint32_t keyframe_interval;
  fxs_world_capacity capacity;
  const uint8_t *initial; // SNAP payload
  size_t initial_size;
  uint32_t start_tick;     // the initial snapshot's tick
  uint32_t tick_count;     // TICK chunks
  fxs_replay_chunk *ticks; // tick_count TICK chunks, in order
  uint32_t keyframe_count;
  fxs_replay_chunk *keyframes; // KEYF chunks, in order
  uint64_t end_hash;           // from END
  uint32_t max_commands;       // largest TICK
  fxs_command *commands;       // room for max_commands
  void *memory;                // the world's block
  size_t memory_size;
  fxs_world world;
  bool shown;            // world holds the state after world.tick
  uint32_t from_tick;    // the snapshot (initial or keyframe) the shown state steps from
  int32_t *agents;       // FXS_WEB_AGENT_STRIDE per agent slot
  uint32_t agent_count;  // filled by fxs_web_agents
  uint32_t *field_cells; // fxs_web_nav_fields' cells (owned)
  size_t field_cell_capacity;
} fxs_web_viewer;

// fxs_web_nav_fields' packed cells: the slot a cell shows when no field reaches it, and the
// largest value kept (larger ones are saturated to it).
#define FXS_WEB_FIELD_NONE 127u
#define FXS_WEB_FIELD_VALUE_MAX 0x1FFFFFu

// ------------------------------------------------------------------ exports

// Memory for the page's data (replay bytes, names); fxs_web_free releases it.
FXS_WEB_EXPORT(fxs_web_alloc) void *fxs_web_alloc(size_t size);
FXS_WEB_EXPORT(fxs_web_free) void fxs_web_free(void *p);
// What the last failed call said went wrong.
FXS_WEB_EXPORT(fxs_web_last_error) const char *fxs_web_last_error(void);
// The library's version, formats and math fingerprint.
FXS_WEB_EXPORT(fxs_web_version) const char *fxs_web_version(void);
// The printable name of a behavior kind.
FXS_WEB_EXPORT(fxs_web_behavior_name) const char *fxs_web_behavior_name(uint32_t kind);

// Opens a replay from `size` bytes at `data` (taken over: freed with the viewer, or at
// once on failure). NULL on failure, with fxs_web_last_error() saying why and where.
FXS_WEB_EXPORT(fxs_web_open) fxs_web_viewer *fxs_web_open(uint8_t *data, size_t size);
FXS_WEB_EXPORT(fxs_web_close) void fxs_web_close(fxs_web_viewer *v);
// Header, capacities, first and last tick, keyframe ticks, END hash.
FXS_WEB_EXPORT(fxs_web_info) const char *fxs_web_info(fxs_web_viewer *v);
// Re-simulates the whole replay (fxs_replay_verify): the final hash, or the first
// divergent tick and, from the next keyframe, the agent and field.
FXS_WEB_EXPORT(fxs_web_verify) const char *fxs_web_verify(fxs_web_viewer *v);
// Shows the state after `tick` (clamped to the replay): restores the latest keyframe at or
// before it (or the initial snapshot) and steps the recorded commands from there; goes on
// from the shown state when no keyframe lies between. Returns the tick shown, -1 on error.
FXS_WEB_EXPORT(fxs_web_seek) int32_t fxs_web_seek(fxs_web_viewer *v, uint32_t tick);
// The shown tick: its hash and the recorded one, bounds, obstacles, walls and paths.
FXS_WEB_EXPORT(fxs_web_frame) const char *fxs_web_frame(fxs_web_viewer *v);
// Fills the agent table of the shown tick (FXS_WEB_AGENT_STRIDE int32 per live agent, in
// slot order) and returns the number of live agents; fxs_web_agent_data points at it.
FXS_WEB_EXPORT(fxs_web_agents) uint32_t fxs_web_agents(fxs_web_viewer *v);
FXS_WEB_EXPORT(fxs_web_agent_data) const int32_t *fxs_web_agent_data(fxs_web_viewer *v);

// The integration fields of navigate groups in the shown tick (fxs_world_nav_field), every
// live one (which < 0) or the one in field slot `which`: {"origin":[x,y],"cell":size,
// "columns":w,"rows":h,"fields":[{"slot":k,"goal":[cx,cy],"ready":bool}],"cells":offset}
// ({"fields":[],"cells":0} without fields). At `cells`, w x h uint32, row by row: the shown
// field of least value at the cell (lowest slot on ties) in bits 25..31 (FXS_WEB_FIELD_NONE:
// none), its direction (nav_field.h; 8: none) in bits 21..24, its value in bits 0..20
// (saturated at FXS_WEB_FIELD_VALUE_MAX); valid until the next call.
FXS_WEB_EXPORT(fxs_web_nav_fields) const char *fxs_web_nav_fields(fxs_web_viewer *v, int32_t which);

// The navigation mesh of a mesh world in the shown tick (fxs_world_nav_mesh):
// {"mesh":true,"vertices":n,"triangles":m,"vertex_capacity":V,"triangle_capacity":T,
// "version":map version,"digest":"0x...","canonical_digest":"0x...","data":offset}; at `data`,
// n pairs of int32 (x, y raw Q16.16) then m groups of 4 uint32: the triangle's vertex indices
// counter-clockwise and its flags (bit i: side i, opposite vertex i, is constrained; bit 3 + i:
// a triangle lies across side i); valid until the next call. A grid world answers
// {"mesh":false,"vertices":0,"triangles":0,"data":0}.
FXS_WEB_EXPORT(fxs_web_mesh) const char *fxs_web_mesh(fxs_web_viewer *v);

// The built-in scenarios (tools/fixsteer/scenario.c): name, default ticks, summary.
FXS_WEB_EXPORT(fxs_web_scenarios) const char *fxs_web_scenarios(void);
// Records built-in scenario `name` for `ticks` ticks (0: its default) with a keyframe
// every `keyframe` ticks, through the library's replay writer, into new memory. With
// tamper_tick >= 0 it plays a faulty peer: one bit of that agent slot's x position flips
// after that tick's step, and the hashes recorded from then on are the tampered world's.
// Answers {"data":offset,"size":bytes,"ticks":n,"final_hash":"0x..."} (free data with
// fxs_web_free or hand it to fxs_web_open), or {"error":"..."}.
FXS_WEB_EXPORT(fxs_web_record)
const char *fxs_web_record(const char *name, uint32_t ticks, uint32_t keyframe, int32_t tamper_tick,
                           uint32_t tamper_agent);
// Two recordings of one session: identical, or the first tick whose hashes differ, the tick
// ranges whose recorded hashes differ (a divergence may heal) and, from the first common
// keyframe after the first divergence, the first differing agent and field.
FXS_WEB_EXPORT(fxs_web_diff) const char *fxs_web_diff(fxs_web_viewer *a, fxs_web_viewer *b);

// ------------------------------------------------------------------ shared by the glue

// A growing text buffer for the JSON answers.
typedef struct fxs_web_text {
  char *s;
  size_t length, capacity;
  bool failed;
} fxs_web_text;

// Starts the shared answer buffer over and returns it.
fxs_web_text *fxs_web_answer(void);
// Appends formatted text.
void fxs_web_printf(fxs_web_text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
// Appends a JSON string (quoted, escaped); NULL becomes null.
void fxs_web_string(fxs_web_text *t, const char *s);
// The answer's text ("{\"error\":\"out of memory\"}" when it could not grow).
const char *fxs_web_finish(fxs_web_text *t);

// Records the last error for fxs_web_last_error().
void fxs_web_set_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

// A world initialised for `capacity` in fresh memory, restored from `snapshot`.
fxs_result fxs_web_world_from(fxs_world *world, void **memory, const fxs_world_capacity *capacity,
                              const uint8_t *snapshot, size_t size);

// Appends "bounds", "clamp", "obstacles" (with their slot indices), "walls", "paths", "nav",
// "mesh" and "routes" of a world as JSON members (no braces). "nav": null without a
// navigation grid, else {"origin":[x,y],"cell":size,"columns":w,"rows":h,"blocked":[row,
// column,run,...]}, the blocked cells of its effective costs as runs along rows (reading the
// grid rebuilds them when the map changed: a cache, the state is untouched); "mesh": null
// but in a mesh world, there {"vertices":n,"triangles":m,"version":map version} (the arrays
// come from fxs_web_mesh); "routes": [{"slot":s,"next":k,"points":[x,y,...]}] for every agent
// with a route (on the grid or the mesh), its waypoints in order.
void fxs_web_scene_json(fxs_web_text *t, fxs_world *w);
// fxs_web_nav_fields of any world, its cells in *cells (grown to the grid, *capacity cells).
const char *fxs_web_fields_json(fxs_world *w, int32_t which, uint32_t **cells, size_t *capacity);
// fxs_web_mesh of any world.
const char *fxs_web_mesh_json(const fxs_world *w);
// Fills FXS_WEB_AGENT_STRIDE int32 per live agent of `w`, in slot order, into `out` (room for
// capacity.agents of them); returns how many.
uint32_t fxs_web_fill_agents(const fxs_world *w, int32_t *out);
// Appends {"error": message} and finishes the answer.
const char *fxs_web_error_answer(fxs_web_text *t, const char *message);

// Bytes written so far (a replay), in memory that doubles as it grows; {0} is empty.
typedef struct fxs_web_sink {
  uint8_t *data;
  size_t size, capacity;
} fxs_web_sink;

// The replay writer's sink (user: an fxs_web_sink): appends, false when it cannot grow.
bool fxs_web_sink_append(void *user, const uint8_t *bytes, size_t size);

#endif
