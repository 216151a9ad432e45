// The RTS map the tools step (fxs-bench --kernel rts, fxs-threads' RTS check, fxs-rts-hashes
// on every target of the crosscheck): 8192 x 8192
// units, a navigation grid of 1024 x 1024 cells of 8 units (the grid's largest), 8 x 8 rooms
// of 1024 units whose inner sides are walls with a door of 64 units in the middle (224
// walls), then clutter: short walls inside the rooms, away from the doors and the rooms'
// centres, up to the wall count asked (0: no walls at all; below 224, the first walls of the
// rooms only). Agents of radius 4-8 and speed 2-4 stand on a jittered lattice clear of the
// walls, in 32 groups (agent i in group i % 32) going to 32 shared goals (the centres of the
// odd rooms): 32 integration fields, built over the first ticks at the largest budget. The
// same map on every run and every target (a fixed hash, no random state; the agents placed
// in integers: in doubles, i686's x87 placed one a raw unit apart).
#ifndef FXS_TOOLS_RTS_MAP_H
#define FXS_TOOLS_RTS_MAP_H

#include <stdlib.h>

#include "fixsteer/command_build.h"
#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"

#define RTS_SIDE 8192
#define RTS_CELL 8
#define RTS_CELLS (RTS_SIDE / RTS_CELL)
#define RTS_ROOMS 8
#define RTS_ROOM (RTS_SIDE / RTS_ROOMS)
#define RTS_DOOR 64
#define RTS_GROUPS 32u
// The map's walls unless asked otherwise: the 224 of the rooms and 92 of clutter.
#define RTS_WALLS 316u

typedef struct rts_wall {
  int ax, ay, bx, by;
} rts_wall;

static uint32_t rts_mix(uint32_t x) {
  x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
  return x;
}

// The point (x, y) in units: whole or half units only, exact in a double on every target.
static fxs_vec2 rts_at(double x, double y) {
  return fxs_vec2_make((fix16_t)(x * 65536.0), (fix16_t)(y * 65536.0));
}

// The map's walls, `count` of them (the rooms' first), into out; returns how many.
static uint32_t rts_walls(rts_wall *out, uint32_t count) {
  uint32_t n = 0;
  for (int line = 1; line < RTS_ROOMS; ++line) {
    for (int j = 0; j < RTS_ROOMS; ++j) {
      int c = line * RTS_ROOM, lo = j * RTS_ROOM, mid = lo + RTS_ROOM / 2;
      rts_wall v[4] = {{c, lo, c, mid - RTS_DOOR / 2},
                       {c, mid + RTS_DOOR / 2, c, lo + RTS_ROOM},
                       {lo, c, mid - RTS_DOOR / 2, c},
                       {mid + RTS_DOOR / 2, c, lo + RTS_ROOM, c}};
      for (int k = 0; k < 4 && n < count; ++k) out[n++] = v[k];
    }
  }
  for (uint32_t k = 0; n < count; ++k) {
    uint32_t h = rts_mix(k * 2654435761u + 12345u);
    int room = (int)(h % (RTS_ROOMS * RTS_ROOMS));
    int ox = 96 + (int)((h >> 8) % 832u), oy = 96 + (int)(rts_mix(h) % 832u);
    int len = 32 + (int)((h >> 20) % 129u);
    if (abs(ox - RTS_ROOM / 2) < 160 && abs(oy - RTS_ROOM / 2) < 160) continue;
    if (ox + len > RTS_ROOM - 96 || oy + len > RTS_ROOM - 96) continue;
    int x = (room % RTS_ROOMS) * RTS_ROOM + ox, y = (room / RTS_ROOMS) * RTS_ROOM + oy;
    rts_wall w = (h & 1u) ? (rts_wall){x, y, x + len, y} : (rts_wall){x, y, x, y + len};
    out[n++] = w;
  }
  return n;
}

// Whether a body of radius r at (x, y) keeps `r + 4` units off every (axis-aligned) wall; all
// in raw Q16.16.
static int rts_clear_of(const rts_wall *walls, uint32_t count, int64_t x, int64_t y, int64_t r) {
  const int64_t margin = r + 4 * (int64_t)FXS_ONE;
  for (uint32_t i = 0; i < count; ++i) {
    const rts_wall *w = &walls[i];
    int64_t lx = (int64_t)(w->ax < w->bx ? w->ax : w->bx) * FXS_ONE;
    int64_t hx = (int64_t)(w->ax < w->bx ? w->bx : w->ax) * FXS_ONE;
    int64_t ly = (int64_t)(w->ay < w->by ? w->ay : w->by) * FXS_ONE;
    int64_t hy = (int64_t)(w->ay < w->by ? w->by : w->ay) * FXS_ONE;
    if (x > lx - margin && x < hx + margin && y > ly - margin && y < hy + margin) return 0;
  }
  return 1;
}

// How a map is opened: the world's workers (capacity), room for `spare_walls` walls more than
// the map's (walls added later), a navigation mesh instead of the grid, the simulation
// version whose rules it steps by (0: the current one) and the navigation budget (0: the
// largest, FXS_NAV_MAX_BUDGET).
typedef struct rts_options {
  uint32_t workers, spare_walls, rules, budget;
  int mesh;
} rts_options;

typedef struct rts_world {
  fxs_world world;
  void *memory;
  size_t bytes;
  uint32_t agents, walls;
} rts_world;

static fxs_world_capacity rts_capacity(uint32_t agents, uint32_t walls, const rts_options *o) {
  fxs_world_capacity c = {0};
  c.agents = agents, c.walls = walls + o->spare_walls, c.workers = o->workers;
  c.nav_cells = RTS_CELLS * RTS_CELLS, c.nav_searches = 4, c.nav_open = 1u << 18;
  c.nav_waypoints = 64, c.nav_fields = RTS_GROUPS;
  // On a mesh: its default vertex capacity, the open lists at most its triangles (2 v - 6).
  if (o->mesh) {
    uint32_t triangles = 2u * (uint32_t)FXS_NAV_MESH_DEFAULT_VERTICES(c.walls, 0) - 6u;
    c.nav_kind = FXS_NAV_KIND_MESH, c.nav_cells = 0;
    c.nav_open = c.nav_open < triangles ? c.nav_open : triangles;
  }
  return c;
}

static int rts_apply(fxs_world *w, fxs_command cmd, fxs_agent_handle *h) {
  return fxs_world_apply(w, &cmd, h) == FXS_OK;
}

// The map with `agents` agents and `walls` walls; 0 when memory or a command fails.
static int rts_open(rts_world *r, uint32_t agents, uint32_t walls, const rts_options *o) {
  r->memory = 0;
  rts_wall *list = malloc(sizeof(rts_wall) * (walls ? walls : 1u));
  if (!list) return 0;
  walls = rts_walls(list, walls);
  fxs_world_capacity c = rts_capacity(agents, walls, o);
  r->bytes = fxs_world_memory_size(&c);
  r->memory = r->bytes ? malloc(r->bytes) : 0;
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7, def.bounds_max = rts_at(RTS_SIDE, RTS_SIDE), def.clamp_to_bounds = 1;
  def.neighbor_radius = FXS_INT(40);
  int ok = r->memory && fxs_world_init(&r->world, &def, &c, r->memory, r->bytes) == FXS_OK;
  if (ok && o->rules) ok = fxs_world_set_simulation_version(&r->world, o->rules) == FXS_OK;
  for (uint32_t i = 0; ok && i < walls; ++i) {
    fxs_wall w = {rts_at(list[i].ax, list[i].ay), rts_at(list[i].bx, list[i].by)};
    ok = rts_apply(&r->world, fxs_command_add_wall(w), 0);
  }
  ok = ok &&
       rts_apply(&r->world,
                 fxs_command_set_nav_grid(rts_at(0, 0), FXS_INT(RTS_CELL), RTS_CELLS, RTS_CELLS,
                                          FXS_INT(8), o->budget ? o->budget : FXS_NAV_MAX_BUDGET),
                 0);
  fxs_orca_def orca = fxs_default_orca_def(); // each neighbor's own radius
  // A lattice a little denser than the agents need (per_row^2 >= 1.25 agents), so that the
  // spots near walls can be left. In raw Q16.16 and integers only: the same on every target.
  uint32_t per_row = 1, placed = 0;
  while ((uint64_t)per_row * per_row * 4u < (uint64_t)agents * 5u) per_row++;
  const int64_t side = (int64_t)RTS_SIDE * FXS_ONE, spacing = side / per_row;
  for (uint32_t k = 0; ok && placed < agents && k < per_row * per_row; ++k) {
    uint32_t h = rts_mix(k + 1u);
    int64_t radius = (4 + (int64_t)(h % 5u)) * FXS_ONE, speed = 2 + (int64_t)((h >> 4) % 3u);
    int64_t jitter = spacing / 2 - radius - FXS_ONE > 0 ? spacing / 2 - radius - FXS_ONE : 0;
    // Up to the jitter either way: jitter (j - 500) / 500 for j in [0, 1000].
    int64_t jx = (int64_t)((h >> 8) % 1001u) - 500, jy = (int64_t)((h >> 18) % 1001u) - 500;
    int64_t x = (int64_t)(k % per_row) * spacing + spacing / 2 + jitter * jx / 500;
    int64_t y = (int64_t)(k / per_row) * spacing + spacing / 2 + jitter * jy / 500;
    int64_t lo = radius + FXS_ONE, hi = side - radius - FXS_ONE;
    if (x < lo || y < lo || x > hi || y > hi) continue;
    if (!rts_clear_of(list, walls, x, y, radius)) continue;
    uint32_t g = placed % RTS_GROUPS, goal = 2u * g + 1u;
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make((fix16_t)x, (fix16_t)y), s.max_speed = FXS_INT((int)speed);
    s.radius = (fix16_t)radius;
    fxs_agent_handle handle = {0};
    ok =
        rts_apply(&r->world, fxs_command_spawn(&s), &handle) &&
        rts_apply(&r->world,
                  fxs_command_add_navigate(handle, fxs_default_blend(), FXS_INT(40), &orca), 0) &&
        rts_apply(&r->world,
                  fxs_command_set_target_point(handle, rts_at((goal % RTS_ROOMS + 0.5) * RTS_ROOM,
                                                              (goal / RTS_ROOMS + 0.5) * RTS_ROOM)),
                  0);
    placed++;
  }
  free(list);
  r->agents = placed, r->walls = walls;
  if (!ok) free(r->memory), r->memory = 0;
  return ok;
}

// ------------------------------------------------------------------ the script
// What the checks do to the map while its 32 group fields are built (fxs-threads' RTS check,
// fxs-rts-hashes): RTS_SCRIPT_TICKS ticks, counted from 0; at tick 4 a wall closes the door
// between rooms (0, 0) and (1, 0); at tick 8 the agents of the first RTS_CLICKED slots are
// clicked to the centre of room (3, 3) as one move group; at tick 12 the wall is removed. The
// map is opened with room for RTS_SCRIPT_WALLS more walls; a tick's commands fit in
// RTS_SCRIPT_MAX_COMMANDS.
#define RTS_SCRIPT_TICKS 24u
#define RTS_SCRIPT_WALLS 1u
#define RTS_CLICKED 200u
#define RTS_SCRIPT_MAX_COMMANDS RTS_CLICKED

// The mesh's budget in the checks: at the largest, its 32 trees are built in the first tick;
// at this one in about 10 ticks, so that the checks see trees half built too.
#define RTS_MESH_BUDGET 4096u

// Tick t's commands of the script for map r into out (room for RTS_SCRIPT_MAX_COMMANDS); how
// many. (Inline: the bench includes the map without its script.)
static inline uint32_t rts_script(const rts_world *r, uint32_t t, fxs_command *out) {
  if (t == 4u) {
    fxs_wall w = {rts_at(RTS_ROOM, RTS_ROOM / 2 - RTS_DOOR / 2),
                  rts_at(RTS_ROOM, RTS_ROOM / 2 + RTS_DOOR / 2)};
    out[0] = fxs_command_add_wall(w);
    return 1;
  }
  if (t == 12u) {
    out[0] = fxs_command_remove_wall(r->walls); // the slot after the map's walls
    return 1;
  }
  if (t != 8u) return 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < RTS_CLICKED && i < r->world.capacity.agents; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(&r->world, i);
    if (fxs_world_agent(&r->world, h))
      out[n++] = fxs_command_move(h, 1u, rts_at(3.5 * RTS_ROOM, 3.5 * RTS_ROOM), FXS_INT(2));
  }
  return n;
}

#endif
