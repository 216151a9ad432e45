#include "fixsteer/snapshot.h"

#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/manager.h"
#include "world_field.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_nav_mesh.h"
#include "world_slots.h"

static void put_vec2(fxs_writer *w, fxs_vec2 v) {
  fxs_put_i32(w, v.x);
  fxs_put_i32(w, v.y);
}

// Little-endian stores at a cursor into a buffer sized for them (no checks).
static uint8_t *st8(uint8_t *p, uint8_t v) {
  *p = v;
  return p + 1;
}
static uint8_t *st16(uint8_t *p, uint16_t v) {
  fxs_store_le(p, v, 2);
  return p + 2;
}
static uint8_t *st32(uint8_t *p, uint32_t v) {
  fxs_store_le(p, v, 4);
  return p + 4;
}
static uint8_t *sti32(uint8_t *p, int32_t v) { return st32(p, (uint32_t)v); }
static uint8_t *stvec(uint8_t *p, fxs_vec2 v) { return sti32(sti32(p, v.x), v.y); }

// Runs of 32-bit fields that the layout writes in the order, and with the spacing, they have
// in memory: on a little-endian host each run is stored with one copy (SECTION_COPY),
// elsewhere field by field. The checks below hold on every ABI with 4-byte int32_t.
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SECTION_COPY 1
#else
#define SECTION_COPY 0
#endif
typedef char body_fields_are_one_run
    [offsetof(fxs_agent, max_turn_rate) == offsetof(fxs_agent, position) + 48u ? 1 : -1];
typedef char targets_are_one_run[offsetof(fxs_agent_slot, pending_force) ==
                                         offsetof(fxs_agent_slot, target_point) + 8u
                                     ? 1
                                     : -1];
typedef char params_follow_the_weight
    [offsetof(fxs_behavior_slot, p) == offsetof(fxs_behavior_slot, weight) + 4u ? 1 : -1];
typedef char rng_then_wander_angle
    [offsetof(fxs_agent_slot, wander_angle) == offsetof(fxs_agent_slot, rng) + 16u ? 1 : -1];
typedef char vec2_is_two_words[sizeof(fxs_vec2) == 8u && sizeof(fix16_t) == 4u ? 1 : -1];

// `words` 32-bit fields starting at byte `at` of the object `base`, as consecutive
// little-endian words.
static uint8_t *st32_run(uint8_t *p, const void *base, size_t at, size_t words) {
  const uint8_t *from = (const uint8_t *)base + at;
  if (SECTION_COPY) {
    memcpy(p, from, 4u * words);
    return p + 4u * words;
  }
  for (size_t i = 0; i < words; ++i) {
    uint32_t v;
    memcpy(&v, from + 4u * i, 4u);
    p = st32(p, v);
  }
  return p;
}

// position, velocity, orientation ... max_turn_rate: 13 fields of 4 bytes, then the mode.
static uint8_t *body_bytes(uint8_t *p, const fxs_agent *a) {
  p = st32_run(p, a, offsetof(fxs_agent, position), 13u);
  return st8(p, a->orientation_mode);
}

// The record byte after a slot's generation: free, live, or live with extension fields after
// the walker state: the second target (EXTENDED), or the second target and the owner (OWNED).
// An extension is written only when it holds something (a second target; an owned agent), so
// the record of an agent without them is the record of snapshots from before they existed,
// and their hashes still hold.
enum { RECORD_FREE = 0, RECORD_LIVE = 1, RECORD_LIVE_EXTENDED = 2, RECORD_LIVE_OWNED = 3 };

static uint8_t record_of(const fxs_agent_slot *s) {
  if (!s->alive) return RECORD_FREE;
  if (s->owned) return RECORD_LIVE_OWNED;
  return s->second_target != 0 ? RECORD_LIVE_EXTENDED : RECORD_LIVE;
}

// The bytes of one agent slot in the snapshot layout; returns their end. A free slot's only
// lasting state is its generation.
static uint8_t *slot_bytes(uint8_t *p, const fxs_agent_slot *s) {
  uint8_t record = record_of(s);
  p = st8(st16(p, s->generation), record);
  if (record == RECORD_FREE) return p;
  p = st8(st8(p, s->combine_mode), s->behavior_count);
  p = st32(st16(p, s->path_index), s->target_agent);
  p = st32_run(p, s, offsetof(fxs_agent_slot, target_point), 4u); // and pending_force
  p = body_bytes(p, &s->body);
  p = st32_run(p, s, offsetof(fxs_agent_slot, rng), 5u); // and wander_angle
  p = st8(st8(st16(p, s->path.current_node), (uint8_t)s->path.path_dir), s->path.finished);
  p = st8(stvec(p, s->walker.waypoint), s->walker.has_waypoint);
  if (record >= RECORD_LIVE_EXTENDED) p = st32(p, s->second_target);
  if (record == RECORD_LIVE_OWNED) p = st8(p, s->owner);
  for (uint8_t b = 0; b < s->behavior_count; ++b) {
    const fxs_behavior_slot *bs = &s->behaviors[b];
    p = st8(st8(p, bs->kind), bs->priority);
    p = st32_run(p, bs, offsetof(fxs_behavior_slot, weight), 1u + FXS_BEHAVIOR_PARAMS);
  }
  return p;
}

// Most bytes one agent slot serializes to (slot_bytes): 27 before the body, 53 of body, 33
// after it, 5 of extension, and 30 per behavior.
#define SLOT_MAX_BYTES (27u + 53u + 33u + 5u + 30u * FXS_AGENT_BEHAVIORS)

// One slot: its fields stored into a local buffer, then hashed 8 bytes at a time, copied or
// compared as one block. A snapshot (stored, not compared) with room for the largest slot
// gets the same bytes stored in place, without the copy, and hashed there when hashing.
static void put_slot_block(fxs_writer *w, const fxs_agent_slot *s, bool in_place) {
  uint8_t bytes[SLOT_MAX_BYTES];
  in_place = in_place && w->position <= w->capacity && w->capacity - w->position >= SLOT_MAX_BYTES;
  uint8_t *at = in_place ? w->buffer + w->position : bytes;
  size_t size = (size_t)(slot_bytes(at, s) - at);
  if (in_place) {
    if (w->hasher) fxs_state_hash_block(w->hasher, at, size);
    w->position += size;
  } else {
    fxs_put_block(w, bytes, size);
  }
}

// The flow field of a world with a field capacity: its grid, then its width * height cells.
static void put_field(fxs_writer *w, const fxs_flow_field *f) {
  put_vec2(w, f->origin);
  fxs_put_i32(w, f->cell_size);
  fxs_put_u32(w, f->width);
  fxs_put_u32(w, f->height);
  size_t cells = (size_t)f->width * f->height; // <= capacity.field_cells (commands check it)
  for (size_t i = 0; i < cells; ++i) put_vec2(w, f->cells[i]);
}

// The one serializer behind the hash and the snapshot. A world without a field capacity
// writes layout 3 byte for byte, so its hashes are those it had before flow fields existed.
static void serialize(const fxs_world *world, fxs_writer *w) {
  const fxs_world_def *d = &world->def;
  bool field = world->capacity.field_cells != 0, nav = world->capacity.nav_cells != 0;
  fxs_put_u32(w, FXS_SNAPSHOT_MAGIC);
  bool fields = world->capacity.nav_fields != 0, mesh = fxs_world_is_mesh(&world->capacity);
  bool moves = fields && fxs_world_nav_moves_any(world);
  fxs_put_u16(w, mesh && moves    ? FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES
                 : mesh && fields ? FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS
                 : mesh           ? FXS_SNAPSHOT_VERSION_NAV_MESH
                 : moves          ? FXS_SNAPSHOT_VERSION_NAV_MOVES
                 : fields         ? FXS_SNAPSHOT_VERSION_NAV_FIELDS
                 : nav            ? FXS_SNAPSHOT_VERSION_NAV
                 : field          ? FXS_SNAPSHOT_VERSION_FIELD
                                  : FXS_SNAPSHOT_VERSION);
  fxs_put_u64(w, d->seed);
  put_vec2(w, d->bounds_min);
  put_vec2(w, d->bounds_max);
  fxs_put_u8(w, d->clamp_to_bounds);
  fxs_put_i32(w, d->neighbor_radius);
  fxs_put_u32(w, world->capacity.agents);
  fxs_put_u32(w, world->capacity.obstacles);
  fxs_put_u32(w, world->capacity.paths);
  fxs_put_u32(w, world->capacity.path_nodes);
  fxs_put_u32(w, world->capacity.walls);
  if (field || nav || mesh) fxs_put_u32(w, world->capacity.field_cells);
  if (mesh) {
    fxs_put_u32(w, fxs_world_mesh_vertices(&world->capacity));
    fxs_put_u32(w, world->capacity.nav_searches);
    fxs_put_u32(w, world->capacity.nav_open);
    fxs_put_u32(w, world->capacity.nav_waypoints);
    if (fields) fxs_put_u32(w, world->capacity.nav_fields);
  }
  if (nav) {
    fxs_put_u32(w, world->capacity.nav_cells);
    fxs_put_u32(w, world->capacity.nav_searches);
    fxs_put_u32(w, world->capacity.nav_open);
    fxs_put_u32(w, world->capacity.nav_waypoints);
    if (fields) fxs_put_u32(w, world->capacity.nav_fields);
  }
  fxs_put_u32(w, world->tick);
  fxs_put_u32(w, world->path_count);
  fxs_put_u32(w, world->node_count);
  bool in_place = w->buffer && !w->expect;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    put_slot_block(w, &world->agents[i], in_place);
  }
  for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
    fxs_put_u8(w, world->obstacle_alive[i]);
    if (!world->obstacle_alive[i]) continue;
    put_vec2(w, world->obstacles[i].center);
    fxs_put_i32(w, world->obstacles[i].radius);
  }
  for (uint32_t i = 0; i < world->path_count; ++i) {
    const fxs_world_path *p = &world->paths[i];
    fxs_put_u32(w, p->first_node);
    fxs_put_u16(w, p->count);
    fxs_put_u8(w, p->mode);
    fxs_put_i32(w, p->radius);
    fxs_put_i32(w, p->slowing_radius);
  }
  for (uint32_t i = 0; i < world->node_count; ++i) put_vec2(w, world->nodes[i]);
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    fxs_put_u8(w, world->wall_alive[i]);
    if (!world->wall_alive[i]) continue;
    put_vec2(w, world->walls[i].a);
    put_vec2(w, world->walls[i].b);
  }
  if (field) put_field(w, &world->field);
  if (nav) fxs_world_nav_write(world, w);
  if (mesh) fxs_world_mesh_write(world, w);
}

static uint64_t hash_as(const fxs_world *world, uint32_t version) {
  fxs_state_hasher h = fxs_state_hasher_of(version);
  fxs_writer w = fxs_writer_make(0, 0, &h);
  serialize(world, &w);
  return fxs_state_hash_value(&h);
}

uint64_t fxs_world_hash(const fxs_world *world) { return hash_as(world, FXS_STATE_HASH_VERSION); }

fxs_result fxs_world_hash_as(const fxs_world *world, uint32_t version, uint64_t *hash) {
  if (version != FXS_STATE_HASH_V2 && version != FXS_STATE_HASH_V3) return FXS_ERR_BAD_VERSION;
  if (hash) *hash = hash_as(world, version);
  return FXS_OK;
}

bool fxs_world_matches_snapshot(const fxs_world *world, const uint8_t *data, size_t size,
                                size_t *mismatch) {
  fxs_writer w = fxs_writer_comparing(data, size);
  serialize(world, &w);
  if (!w.differs && w.position != size) w.differs = true, w.mismatch = w.position;
  if (w.differs && mismatch) *mismatch = w.mismatch;
  return !w.differs;
}

size_t fxs_world_snapshot_size(const fxs_world *world) {
  fxs_writer w = fxs_writer_make(0, 0, 0);
  serialize(world, &w);
  return w.position;
}

size_t fxs_world_snapshot_bound(const fxs_world_capacity *c) {
  uint64_t n = 128u + (uint64_t)c->agents * SLOT_MAX_BYTES + 13u * (uint64_t)c->obstacles +
               15u * (uint64_t)c->paths + 8u * (uint64_t)c->path_nodes + 17u * (uint64_t)c->walls +
               20u + 8u * (uint64_t)c->field_cells;
  uint64_t nav = c->nav_cells != 0 ? fxs_world_nav_write_bound(c) : 0; // below 2^63 unless MAX
  if (fxs_world_is_mesh(c)) nav = 16u + fxs_world_mesh_write_bound(c); // below 2^62
  n = nav > UINT64_MAX - n ? UINT64_MAX : n + nav;
  return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

fxs_result fxs_world_save(const fxs_world *world, uint8_t *buffer, size_t capacity,
                          size_t *written) {
  fxs_writer w = fxs_writer_make(buffer, capacity, 0);
  serialize(world, &w);
  if (written) *written = w.position;
  return buffer && fxs_writer_fits(&w) ? FXS_OK : FXS_ERR_BUFFER_TOO_SMALL;
}

fxs_result fxs_world_save_hashed(const fxs_world *world, uint8_t *buffer, size_t capacity,
                                 size_t *written, uint64_t *hash) {
  fxs_state_hasher h = fxs_state_hasher_make();
  fxs_writer w = fxs_writer_make(buffer, capacity, &h);
  serialize(world, &w);
  if (written) *written = w.position;
  if (hash) *hash = fxs_state_hash_value(&h);
  return buffer && fxs_writer_fits(&w) ? FXS_OK : FXS_ERR_BUFFER_TOO_SMALL;
}

// ------------------------------------------------------------------ restore
// Reading runs twice: a dry pass that validates everything, then a pass that stores. So a
// bad snapshot never leaves a half-restored world.

typedef struct restore {
  fxs_reader r;
  fxs_world *world; // NULL on the dry pass
  uint16_t layout;  // the snapshot's layout version (get_header)
  fxs_result error;
  size_t error_offset;
} restore;

// Records the first error; `at` is where the offending field or record starts (a read past
// the end reports the end of the data instead).
static void fail_at(restore *rs, fxs_result e, size_t at) {
  if (rs->error != FXS_OK) return;
  rs->error = rs->r.failed ? FXS_ERR_TRUNCATED : e;
  rs->error_offset = rs->r.failed ? rs->r.size : at;
}

static void fail(restore *rs, fxs_result e) { fail_at(rs, e, rs->r.position); }

static fxs_vec2 get_vec2(fxs_reader *r) {
  fix16_t x = fxs_get_i32(r);
  fix16_t y = fxs_get_i32(r);
  return fxs_vec2_make(x, y);
}

static void get_body(fxs_reader *r, fxs_agent *a) {
  a->position = get_vec2(r);
  a->velocity = get_vec2(r);
  a->orientation = fxs_get_i32(r);
  a->rotation = fxs_get_i32(r);
  a->mass = fxs_get_i32(r);
  a->radius = fxs_get_i32(r);
  a->max_speed = fxs_get_i32(r);
  a->max_force = fxs_get_i32(r);
  a->max_rotation = fxs_get_i32(r);
  a->max_angular_acceleration = fxs_get_i32(r);
  a->max_turn_rate = fxs_get_i32(r);
  a->orientation_mode = fxs_get_u8(r);
}

// The values a world's own updates can produce. A snapshot outside them is corrupt or
// forged, and restoring it could make later steps misbehave: it is refused.
static bool body_valid(const fxs_agent *a) {
  return a->mass > 0 && a->radius >= 0 && a->max_speed >= 0 && a->max_force >= 0 &&
         a->max_rotation >= 0 && a->max_angular_acceleration >= 0 && a->max_turn_rate >= 0 &&
         a->orientation > -FXS_PI && a->orientation <= FXS_PI &&
         a->orientation_mode <= FXS_ORIENT_STEERED;
}

static bool slot_valid(const fxs_agent_slot *s, uint16_t path_count) {
  if (s->alive > 1 || s->combine_mode > FXS_COMBINE_PRIORITY_GROUPS) return false;
  if (s->behavior_count > FXS_AGENT_BEHAVIORS) return false;
  if (s->path_index != FXS_NO_PATH && s->path_index >= path_count) return false;
  if (!body_valid(&s->body)) return false;
  if (s->path.path_dir != 1 && s->path.path_dir != -1) return false;
  if (s->path.finished > 1 || s->walker.has_waypoint > 1) return false;
  if (s->wander_angle <= -FXS_PI || s->wander_angle > FXS_PI) return false;
  // xoshiro128** never leaves the all-zero state: a stream there would draw zeros for ever.
  return (s->rng.s[0] | s->rng.s[1] | s->rng.s[2] | s->rng.s[3]) != 0;
}

// Offset of a behavior record's field named by fxs_behavior_params_check's bad index.
static size_t param_offset(uint32_t bad) {
  if (bad < FXS_BEHAVIOR_PARAMS) return 6u + 4u * bad; // kind, priority, weight, then p[]
  return bad == FXS_BAD_PARAM_WEIGHT ? 2u : 0u;
}

// Offset of the first unusable world definition field (see serialize()).
static size_t def_offset(const fxs_world_def *d) {
  if (d->bounds_min.x > d->bounds_max.x || d->bounds_min.y > d->bounds_max.y) return 14;
  return d->clamp_to_bounds > 1 ? 30 : 31;
}

static void get_agent_slot(restore *rs, fxs_agent_slot *s, uint16_t path_count) {
  fxs_reader *r = &rs->r;
  size_t start = r->position;
  memset(s, 0, sizeof *s);
  s->generation = fxs_get_u16(r);
  uint8_t record = fxs_get_u8(r);
  // Despawns count modulo 2^FXS_HANDLE_GENERATION_BITS: a larger count is a second encoding
  // of the same slot (every use masks it) under another hash.
  if (s->generation > FXS_HANDLE_GENERATION_MASK) {
    fail_at(rs, FXS_ERR_BAD_VALUE, start);
    return;
  }
  if (record == RECORD_FREE) return;
  if (record > RECORD_LIVE_OWNED) {
    fail_at(rs, FXS_ERR_BAD_VALUE, start + 2u);
    return;
  }
  s->alive = 1;
  s->combine_mode = fxs_get_u8(r);
  s->behavior_count = fxs_get_u8(r);
  s->path_index = fxs_get_u16(r);
  s->target_agent = fxs_get_u32(r);
  s->target_point = get_vec2(r);
  s->pending_force = get_vec2(r);
  get_body(r, &s->body);
  for (int i = 0; i < 4; ++i) s->rng.s[i] = fxs_get_u32(r);
  s->wander_angle = fxs_get_i32(r);
  s->path.current_node = fxs_get_u16(r);
  uint8_t dir = fxs_get_u8(r); // +1 is stored as 0x01, -1 as 0xFF; anything else is corrupt
  s->path.path_dir = (int8_t)(dir == 0xFF ? -1 : (dir == 0x01 ? 1 : 0));
  s->path.finished = fxs_get_u8(r);
  s->walker.waypoint = get_vec2(r);
  s->walker.has_waypoint = fxs_get_u8(r);
  // An extension of zeros is not the canonical record (that is RECORD_LIVE): refused.
  if (record >= RECORD_LIVE_EXTENDED) s->second_target = fxs_get_u32(r);
  if (record == RECORD_LIVE_EXTENDED && s->second_target == 0) {
    fail_at(rs, FXS_ERR_BAD_VALUE, r->position - 4u);
    return;
  }
  if (record == RECORD_LIVE_OWNED) s->owned = 1, s->owner = fxs_get_u8(r);
  if (!slot_valid(s, path_count)) {
    fail_at(rs, FXS_ERR_BAD_VALUE, start);
    return;
  }
  for (uint8_t b = 0; b < s->behavior_count; ++b) {
    fxs_behavior_slot *bs = &s->behaviors[b];
    start = r->position;
    bs->kind = fxs_get_u8(r);
    bs->priority = fxs_get_u8(r);
    bs->weight = fxs_get_i32(r);
    for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) bs->p[i] = fxs_get_i32(r);
    uint32_t bad = 0;
    if (fxs_behavior_params_check(bs->kind, bs->weight, bs->p, &bad) != FXS_OK) {
      fail_at(rs, FXS_ERR_BAD_VALUE, start + param_offset(bad));
    } else if (b > 0 && (fxs_behavior_is_kinematic((fxs_behavior)bs->kind) ||
                         fxs_behavior_is_kinematic((fxs_behavior)s->behaviors[0].kind))) {
      fail_at(rs, FXS_ERR_MIXED_SET, start);
    }
  }
}

// The layouts a snapshot may have (FXS_SNAPSHOT_VERSION to FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES, one
// apart), those of a mesh world and those with a fields section (snapshot.h).
static bool layout_known(uint32_t v) {
  return v >= FXS_SNAPSHOT_VERSION && v <= FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES;
}
static bool layout_mesh(uint32_t v) {
  return v == FXS_SNAPSHOT_VERSION_NAV_MESH || v == FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS ||
         v == FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES;
}
static bool layout_fields(uint32_t v) {
  return v == FXS_SNAPSHOT_VERSION_NAV_FIELDS || v == FXS_SNAPSHOT_VERSION_NAV_MOVES ||
         v == FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS || v == FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES;
}

// Reads the header; false (with the error set) when it does not match `world`.
static bool get_header(restore *rs, const fxs_world *world, fxs_world_def *def, uint32_t *tick,
                       uint16_t *path_count, uint32_t *node_count) {
  fxs_reader *r = &rs->r;
  if (fxs_get_u32(r) != FXS_SNAPSHOT_MAGIC) return fail_at(rs, FXS_ERR_BAD_MAGIC, 0), false;
  uint16_t version = fxs_get_u16(r);
  if (!layout_known(version)) {
    return fail_at(rs, FXS_ERR_BAD_VERSION, 4), false;
  }
  bool mesh = layout_mesh(version);
  def->seed = fxs_get_u64(r);
  def->bounds_min = get_vec2(r);
  def->bounds_max = get_vec2(r);
  def->clamp_to_bounds = fxs_get_u8(r);
  def->neighbor_radius = fxs_get_i32(r);
  if (!r->failed && fxs_world_def_check(def) != FXS_OK)
    return fail_at(rs, FXS_ERR_BAD_VALUE, def_offset(def)), false;
  size_t capacity_at = r->position;
  struct {
    uint32_t agents, obstacles, paths, path_nodes, walls;
  } c;
  c.agents = fxs_get_u32(r);
  c.obstacles = fxs_get_u32(r);
  c.paths = fxs_get_u32(r);
  c.path_nodes = fxs_get_u32(r);
  c.walls = fxs_get_u32(r);
  size_t field_at = r->position;
  // Layout 4 is layout 3 with a field capacity, which is then never 0 (one encoding per state).
  uint32_t field_cells = version >= FXS_SNAPSHOT_VERSION_FIELD ? fxs_get_u32(r) : 0;
  if (version == FXS_SNAPSHOT_VERSION_FIELD && field_cells == 0 && !r->failed) {
    return fail_at(rs, FXS_ERR_BAD_VALUE, field_at), false;
  }
  size_t nav_at = r->position;
  uint32_t nav[5] = {0, 0, 0, 0, 0}; // cells (a mesh's vertices), searches, open, waypoints, fields
  if (version >= FXS_SNAPSHOT_VERSION_NAV) {
    for (int i = 0; i < 4; ++i) nav[i] = fxs_get_u32(r);
    if (nav[0] == 0 && !r->failed) return fail_at(rs, FXS_ERR_BAD_VALUE, nav_at), false;
  }
  if (mesh != fxs_world_is_mesh(&world->capacity)) return fail_at(rs, FXS_ERR_CAPACITY, 4), false;
  if (mesh && nav[0] != fxs_world_mesh_vertices(&world->capacity))
    return fail_at(rs, FXS_ERR_CAPACITY, nav_at), false;
  if (mesh) nav[0] = 0; // the grid's cells
  rs->layout = version;
  if (layout_fields(version)) {
    size_t fields_at = r->position;
    nav[4] = fxs_get_u32(r);
    if (nav[4] == 0 && !r->failed) return fail_at(rs, FXS_ERR_BAD_VALUE, fields_at), false;
  }
  if (c.agents != world->capacity.agents || c.obstacles != world->capacity.obstacles ||
      c.paths != world->capacity.paths || c.path_nodes != world->capacity.path_nodes ||
      c.walls != world->capacity.walls || field_cells != world->capacity.field_cells) {
    return fail_at(rs, FXS_ERR_CAPACITY,
                   field_cells != world->capacity.field_cells ? field_at : capacity_at),
           false;
  }
  if (nav[0] != world->capacity.nav_cells || nav[1] != world->capacity.nav_searches ||
      nav[2] != world->capacity.nav_open || nav[3] != world->capacity.nav_waypoints ||
      nav[4] != world->capacity.nav_fields) {
    return fail_at(rs, FXS_ERR_CAPACITY, nav_at), false;
  }
  *tick = fxs_get_u32(r);
  uint32_t paths = fxs_get_u32(r);
  *path_count = (uint16_t)paths;
  *node_count = fxs_get_u32(r);
  if (paths > c.paths || *node_count > c.path_nodes) return fail(rs, FXS_ERR_BAD_LENGTH), false;
  if (r->failed) return fail(rs, FXS_ERR_TRUNCATED), false;
  return true;
}

// The field section (a world with a field capacity): a grid fxs_world_field_grid_check accepts,
// then its cells.
static void get_field(restore *rs, const fxs_world *shape) {
  fxs_reader *r = &rs->r;
  size_t start = r->position;
  fxs_flow_field f;
  f.origin = get_vec2(r);
  f.cell_size = fxs_get_i32(r);
  f.width = fxs_get_u32(r);
  f.height = fxs_get_u32(r);
  fxs_result e = fxs_world_field_grid_check(f.origin, f.cell_size, f.width, f.height,
                                            shape->capacity.field_cells);
  if (r->failed || e != FXS_OK) {
    fail_at(rs, e, start); // a short read is reported as truncated by fail_at
    return;
  }
  f.cells = shape->field.cells;
  size_t cells = (size_t)f.width * f.height;
  for (size_t i = 0; i < cells && !r->failed; ++i) {
    fxs_vec2 v = get_vec2(r);
    if (rs->world) rs->world->field.cells[i] = v;
  }
  if (rs->world && !r->failed) rs->world->field = f;
}

// The navigation section (a world with navigation).
static void get_nav(restore *rs, fxs_world *shape) {
  size_t at = rs->r.position;
  bool moves = rs->layout == FXS_SNAPSHOT_VERSION_NAV_MOVES;
  fxs_result e = fxs_world_nav_read(rs->world, shape, &rs->r, moves, &at);
  if (e != FXS_OK) fail_at(rs, e, at);
}

static void restore_pass(restore *rs, fxs_world *shape) {
  fxs_world_def def;
  uint32_t tick, node_count;
  uint16_t path_count;
  if (!get_header(rs, shape, &def, &tick, &path_count, &node_count)) return;
  fxs_world *w = rs->world;
  if (w) w->def = def, w->tick = tick, w->path_count = path_count, w->node_count = node_count;
  for (uint32_t i = 0; i < shape->capacity.agents && rs->error == FXS_OK; ++i) {
    fxs_agent_slot tmp;
    get_agent_slot(rs, &tmp, path_count);
    if (w) w->agents[i] = tmp;
  }
  for (uint32_t i = 0; i < shape->capacity.obstacles && rs->error == FXS_OK; ++i) {
    uint8_t alive = fxs_get_u8(&rs->r);
    fxs_obstacle o = {{0, 0}, 0};
    if (alive > 1) fail(rs, FXS_ERR_BAD_VALUE);
    if (alive) o.center = get_vec2(&rs->r), o.radius = fxs_get_i32(&rs->r);
    if (o.radius < 0) fail(rs, FXS_ERR_BAD_VALUE);
    if (w) w->obstacle_alive[i] = alive, w->obstacles[i] = o;
  }
  for (uint32_t i = 0; i < path_count && rs->error == FXS_OK; ++i) {
    fxs_world_path p;
    p.first_node = fxs_get_u32(&rs->r);
    p.count = fxs_get_u16(&rs->r);
    p.mode = fxs_get_u8(&rs->r);
    p.radius = fxs_get_i32(&rs->r);
    p.slowing_radius = fxs_get_i32(&rs->r);
    if (p.mode > FXS_PATH_PATROL || p.radius < 0 || p.slowing_radius < 0 ||
        p.first_node > node_count || p.count > node_count - p.first_node) {
      fail(rs, FXS_ERR_BAD_VALUE);
    }
    if (w) w->paths[i] = p;
  }
  for (uint32_t i = 0; i < node_count && rs->error == FXS_OK; ++i) {
    fxs_vec2 n = get_vec2(&rs->r);
    if (w) w->nodes[i] = n;
  }
  for (uint32_t i = 0; i < shape->capacity.walls && rs->error == FXS_OK; ++i) {
    uint8_t alive = fxs_get_u8(&rs->r);
    fxs_wall wall = {{0, 0}, {0, 0}};
    if (alive > 1) fail(rs, FXS_ERR_BAD_VALUE);
    if (alive) wall.a = get_vec2(&rs->r), wall.b = get_vec2(&rs->r);
    if (w) w->wall_alive[i] = alive, w->walls[i] = wall;
  }
  if (shape->capacity.field_cells != 0 && rs->error == FXS_OK) get_field(rs, shape);
  if (shape->capacity.nav_cells != 0 && rs->error == FXS_OK) get_nav(rs, shape);
  if (fxs_world_is_mesh(&shape->capacity) && rs->error == FXS_OK) {
    size_t at = rs->r.position;
    bool moves = rs->layout == FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES;
    fxs_result e = fxs_world_mesh_read(rs->world, shape, &def, &rs->r, moves, &at);
    if (e != FXS_OK) fail_at(rs, e, at);
  }
  if (rs->r.failed) fail(rs, FXS_ERR_TRUNCATED);
  if (rs->error == FXS_OK && rs->r.position != rs->r.size) fail(rs, FXS_ERR_BAD_LENGTH);
}

fxs_result fxs_world_restore(fxs_world *world, const uint8_t *data, size_t size,
                             size_t *error_offset) {
  restore dry = {fxs_reader_make(data, size), 0, 0, FXS_OK, 0};
  restore_pass(&dry, world);
  if (dry.error != FXS_OK) {
    if (error_offset) *error_offset = dry.error_offset;
    return dry.error;
  }
  restore apply = {fxs_reader_make(data, size), world, 0, FXS_OK, 0};
  restore_pass(&apply, world);
  fxs_world_rebuild_derived(world); // the slots were written directly
  return apply.error;
}

// ------------------------------------------------------------------ inspection

fxs_result fxs_snapshot_capacity(const uint8_t *snapshot, size_t size, fxs_world_capacity *out) {
  fxs_reader r = fxs_reader_make(snapshot, size);
  if (fxs_get_u32(&r) != FXS_SNAPSHOT_MAGIC)
    return r.failed ? FXS_ERR_TRUNCATED : FXS_ERR_BAD_MAGIC;
  uint16_t version = fxs_get_u16(&r);
  if (!layout_known(version)) {
    return r.failed ? FXS_ERR_TRUNCATED : FXS_ERR_BAD_VERSION;
  }
  r.position = 35; // seed, bounds, clamp flag and neighbor radius come first
  uint32_t agents = fxs_get_u32(&r), obstacles = fxs_get_u32(&r), paths = fxs_get_u32(&r);
  uint32_t nodes = fxs_get_u32(&r), walls = fxs_get_u32(&r);
  uint32_t field_cells = version >= FXS_SNAPSHOT_VERSION_FIELD ? fxs_get_u32(&r) : 0;
  uint32_t nav[5] = {0, 0, 0, 0, 0};
  if (version >= FXS_SNAPSHOT_VERSION_NAV) {
    for (int i = 0; i < 4; ++i) nav[i] = fxs_get_u32(&r);
  }
  bool fields = layout_fields(version);
  if (fields) nav[4] = fxs_get_u32(&r);
  if (r.failed) return FXS_ERR_TRUNCATED;
  if (version == FXS_SNAPSHOT_VERSION_FIELD && field_cells == 0) return FXS_ERR_BAD_VALUE;
  if (version >= FXS_SNAPSHOT_VERSION_NAV && nav[0] == 0) return FXS_ERR_BAD_VALUE;
  if (fields && nav[4] == 0) return FXS_ERR_BAD_VALUE;
  if (agents > FXS_MAX_AGENTS || obstacles > FXS_MAX_SMALL_CAPACITY ||
      paths > FXS_MAX_SMALL_CAPACITY || walls > FXS_MAX_SMALL_CAPACITY) {
    return FXS_ERR_BAD_VALUE;
  }
  out->agents = agents, out->obstacles = obstacles, out->paths = paths;
  out->path_nodes = nodes, out->walls = walls, out->workers = 0; // scratch, not in snapshots
  out->field_cells = field_cells;
  out->nav_cells = nav[0], out->nav_searches = nav[1], out->nav_open = nav[2];
  out->nav_waypoints = nav[3], out->nav_fields = nav[4];
  out->nav_kind = out->nav_mesh_vertices = 0;
  if (layout_mesh(version)) {
    out->nav_kind = FXS_NAV_KIND_MESH, out->nav_mesh_vertices = nav[0], out->nav_cells = 0;
  }
  if (!fxs_world_nav_capacity_valid(out)) return FXS_ERR_BAD_VALUE;
  return FXS_OK;
}

// Compares one field; on the first difference fills *out and returns true from the caller.
#define FXS_DIFF(name, va, vb)            \
  do {                                    \
    if ((int64_t)(va) != (int64_t)(vb)) { \
      out->field = name;                  \
      out->a = (int64_t)(va);             \
      out->b = (int64_t)(vb);             \
      return true;                        \
    }                                     \
  } while (0)

static bool body_difference(const fxs_agent *a, const fxs_agent *b, fxs_world_difference *out) {
  FXS_DIFF("position.x", a->position.x, b->position.x);
  FXS_DIFF("position.y", a->position.y, b->position.y);
  FXS_DIFF("velocity.x", a->velocity.x, b->velocity.x);
  FXS_DIFF("velocity.y", a->velocity.y, b->velocity.y);
  FXS_DIFF("orientation", a->orientation, b->orientation);
  FXS_DIFF("rotation", a->rotation, b->rotation);
  FXS_DIFF("mass", a->mass, b->mass);
  FXS_DIFF("radius", a->radius, b->radius);
  FXS_DIFF("max_speed", a->max_speed, b->max_speed);
  FXS_DIFF("max_force", a->max_force, b->max_force);
  FXS_DIFF("max_rotation", a->max_rotation, b->max_rotation);
  FXS_DIFF("max_angular_acceleration", a->max_angular_acceleration, b->max_angular_acceleration);
  FXS_DIFF("max_turn_rate", a->max_turn_rate, b->max_turn_rate);
  FXS_DIFF("orientation_mode", a->orientation_mode, b->orientation_mode);
  return false;
}

static bool slot_difference(const fxs_agent_slot *a, const fxs_agent_slot *b,
                            fxs_world_difference *out) {
  static const char *const rng_names[4] = {"rng.s[0]", "rng.s[1]", "rng.s[2]", "rng.s[3]"};
  FXS_DIFF("generation", a->generation, b->generation);
  FXS_DIFF("alive", a->alive, b->alive);
  if (!a->alive) return false;
  if (body_difference(&a->body, &b->body, out)) return true;
  for (int i = 0; i < 4; ++i) FXS_DIFF(rng_names[i], a->rng.s[i], b->rng.s[i]);
  FXS_DIFF("wander_angle", a->wander_angle, b->wander_angle);
  FXS_DIFF("path.current_node", a->path.current_node, b->path.current_node);
  FXS_DIFF("path.path_dir", a->path.path_dir, b->path.path_dir);
  FXS_DIFF("path.finished", a->path.finished, b->path.finished);
  FXS_DIFF("walker.waypoint.x", a->walker.waypoint.x, b->walker.waypoint.x);
  FXS_DIFF("walker.waypoint.y", a->walker.waypoint.y, b->walker.waypoint.y);
  FXS_DIFF("walker.has_waypoint", a->walker.has_waypoint, b->walker.has_waypoint);
  FXS_DIFF("target_point.x", a->target_point.x, b->target_point.x);
  FXS_DIFF("target_point.y", a->target_point.y, b->target_point.y);
  FXS_DIFF("target_agent", a->target_agent, b->target_agent);
  FXS_DIFF("second_target", a->second_target, b->second_target);
  FXS_DIFF("owned", a->owned, b->owned);
  FXS_DIFF("owner", a->owner, b->owner);
  FXS_DIFF("pending_force.x", a->pending_force.x, b->pending_force.x);
  FXS_DIFF("pending_force.y", a->pending_force.y, b->pending_force.y);
  FXS_DIFF("path_index", a->path_index, b->path_index);
  FXS_DIFF("combine_mode", a->combine_mode, b->combine_mode);
  FXS_DIFF("behavior_count", a->behavior_count, b->behavior_count);
  for (uint8_t i = 0; i < a->behavior_count; ++i) {
    const fxs_behavior_slot *x = &a->behaviors[i], *y = &b->behaviors[i];
    FXS_DIFF("behavior.kind", x->kind, y->kind);
    FXS_DIFF("behavior.priority", x->priority, y->priority);
    FXS_DIFF("behavior.weight", x->weight, y->weight);
    for (int k = 0; k < FXS_BEHAVIOR_PARAMS; ++k) FXS_DIFF("behavior.param", x->p[k], y->p[k]);
  }
  return false;
}

static bool field_difference(const fxs_flow_field *a, const fxs_flow_field *b,
                             fxs_world_difference *out) {
  FXS_DIFF("field.columns", a->width, b->width);
  FXS_DIFF("field.rows", a->height, b->height);
  FXS_DIFF("field.origin.x", a->origin.x, b->origin.x);
  FXS_DIFF("field.origin.y", a->origin.y, b->origin.y);
  FXS_DIFF("field.cell_size", a->cell_size, b->cell_size);
  for (size_t i = 0; i < (size_t)a->width * a->height; ++i) {
    FXS_DIFF("field.cell.x", a->cells[i].x, b->cells[i].x);
    FXS_DIFF("field.cell.y", a->cells[i].y, b->cells[i].y);
  }
  return false;
}

static bool nav_difference(const fxs_world *a, const fxs_world *b, fxs_world_difference *out) {
  const fxs_world_nav *x = &a->nav, *y = &b->nav;
  FXS_DIFF("nav.columns", x->grid.width, y->grid.width);
  FXS_DIFF("nav.rows", x->grid.height, y->grid.height);
  FXS_DIFF("nav.origin.x", x->grid.origin.x, y->grid.origin.x);
  FXS_DIFF("nav.origin.y", x->grid.origin.y, y->grid.origin.y);
  FXS_DIFF("nav.cell_size", x->grid.cell_size, y->grid.cell_size);
  FXS_DIFF("nav.radius", x->radius, y->radius);
  FXS_DIFF("nav.budget", x->budget, y->budget);
  FXS_DIFF("nav.version", x->version, y->version);
  for (size_t i = 0; i < (size_t)x->grid.width * x->grid.height; ++i) {
    FXS_DIFF("nav.base_cost", x->base[i], y->base[i]);
  }
  for (uint32_t i = 0; i < a->capacity.agents && i < b->capacity.agents; ++i) {
    const fxs_nav_route *p = &x->routes[i], *q = &y->routes[i];
    FXS_DIFF("nav.route.status", p->status, q->status);
    FXS_DIFF("nav.route.count", p->count, q->count);
    FXS_DIFF("nav.route.next", p->next, q->next);
    FXS_DIFF("nav.route.goal_cell", p->goal_cell, q->goal_cell);
    FXS_DIFF("nav.route.version", p->version, q->version);
    FXS_DIFF("nav.route.stall", p->stall, q->stall);
    FXS_DIFF("nav.route.mark_next", p->mark_next, q->mark_next);
    FXS_DIFF("nav.route.mark_distance", p->mark_distance, q->mark_distance);
  }
  for (uint32_t k = 0; k < a->capacity.nav_searches && k < b->capacity.nav_searches; ++k) {
    FXS_DIFF("nav.search.owner", x->search_owner[k], y->search_owner[k]);
    if (x->search_owner[k] == UINT32_MAX) continue;
    FXS_DIFF("nav.search.expanded", x->searches[k].expanded, y->searches[k].expanded);
  }
  for (uint32_t k = 0; k < a->capacity.nav_fields && k < b->capacity.nav_fields; ++k) {
    FXS_DIFF("nav.field.live", x->field_slots[k].live, y->field_slots[k].live);
    if (!x->field_slots[k].live) continue;
    FXS_DIFF("nav.field.goal_cell", x->field_slots[k].goal_cell, y->field_slots[k].goal_cell);
    FXS_DIFF("nav.field.used", x->field_slots[k].used, y->field_slots[k].used);
    FXS_DIFF("nav.field.ready", x->field_slots[k].ready, y->field_slots[k].ready);
    FXS_DIFF("nav.field.settled", x->field_slots[k].settled, y->field_slots[k].settled);
  }
  if (a->capacity.nav_fields != 0 && b->capacity.nav_fields != 0) {
    for (uint32_t i = 0; i < a->capacity.agents && i < b->capacity.agents; ++i) {
      FXS_DIFF("nav.move", x->moves[i], y->moves[i]);
    }
  }
  return false;
}

bool fxs_world_first_difference(const fxs_world *a, const fxs_world *b, fxs_world_difference *out) {
  out->agent = -1;
  for (uint32_t i = 0; i < a->capacity.agents && i < b->capacity.agents; ++i) {
    if (slot_difference(&a->agents[i], &b->agents[i], out)) {
      out->agent = (int32_t)i;
      return true;
    }
  }
  for (uint32_t i = 0; i < a->capacity.obstacles && i < b->capacity.obstacles; ++i) {
    FXS_DIFF("obstacle.alive", a->obstacle_alive[i], b->obstacle_alive[i]);
    if (!a->obstacle_alive[i]) continue;
    FXS_DIFF("obstacle.center.x", a->obstacles[i].center.x, b->obstacles[i].center.x);
    FXS_DIFF("obstacle.center.y", a->obstacles[i].center.y, b->obstacles[i].center.y);
    FXS_DIFF("obstacle.radius", a->obstacles[i].radius, b->obstacles[i].radius);
  }
  for (uint32_t i = 0; i < a->capacity.walls && i < b->capacity.walls; ++i) {
    FXS_DIFF("wall.alive", a->wall_alive[i], b->wall_alive[i]);
    if (!a->wall_alive[i]) continue;
    FXS_DIFF("wall.a.x", a->walls[i].a.x, b->walls[i].a.x);
    FXS_DIFF("wall.a.y", a->walls[i].a.y, b->walls[i].a.y);
    FXS_DIFF("wall.b.x", a->walls[i].b.x, b->walls[i].b.x);
    FXS_DIFF("wall.b.y", a->walls[i].b.y, b->walls[i].b.y);
  }
  if (a->capacity.field_cells != 0 && b->capacity.field_cells != 0) {
    if (field_difference(&a->field, &b->field, out)) return true;
  }
  if (a->capacity.nav_cells != 0 && b->capacity.nav_cells != 0 && nav_difference(a, b, out)) {
    return true;
  }
  FXS_DIFF("tick", a->tick, b->tick);
  FXS_DIFF("seed.low", (uint32_t)a->def.seed, (uint32_t)b->def.seed);
  FXS_DIFF("seed.high", (uint32_t)(a->def.seed >> 32), (uint32_t)(b->def.seed >> 32));
  return false;
}
#undef FXS_DIFF
