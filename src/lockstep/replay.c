#include "fixsteer/replay.h"

#include <string.h>

#include "bytes.h"
#include "fixsteer/fingerprint.h"
#include "fixsteer/hash.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/version.h"

#define REPLAY_MAGIC 0x52535846u // "FXSR"
#define HEADER_PAYLOAD 24u       // format 4; formats 2 and 3: 20, without the simulation version
#define OLD_HEADER_PAYLOAD 20u
#define CHUNK_OVERHEAD 16u // tag, length, checksum

// ------------------------------------------------------------------ writing

// Streams one chunk: bytes go to the callback in small blocks and into the checksum.
typedef struct emitter {
  fxs_replay_writer *w;
  fxs_hasher checksum;
  uint8_t block[64];
  size_t used;
} emitter;

static void flush(emitter *e) {
  if (e->used && e->w->error == FXS_OK && !e->w->write(e->w->user, e->block, e->used)) {
    e->w->error = FXS_ERR_BUFFER_TOO_SMALL; // the sink refused: out of space or I/O error
  }
  e->used = 0;
}

static void emit(emitter *e, const uint8_t *bytes, size_t size) {
  fxs_hash_bytes(&e->checksum, bytes, size);
  for (size_t i = 0; i < size; ++i) {
    if (e->used == sizeof e->block) flush(e);
    e->block[e->used++] = bytes[i];
  }
}

static void emit_le(emitter *e, uint64_t v, uint32_t bytes) {
  uint8_t b[8];
  fxs_store_le(b, v, bytes);
  emit(e, b, bytes);
}

static void emit_u16(emitter *e, uint16_t v) { emit_le(e, v, 2); }
static void emit_u32(emitter *e, uint32_t v) { emit_le(e, v, 4); }
static void emit_u64(emitter *e, uint64_t v) { emit_le(e, v, 8); }

static emitter begin_chunk(fxs_replay_writer *w, uint32_t tag, uint32_t length) {
  emitter e;
  e.w = w;
  e.checksum = fxs_hasher_make();
  e.used = 0;
  emit_u32(&e, tag);
  emit_u32(&e, length);
  return e;
}

static void end_chunk(emitter *e) {
  uint64_t sum = e->checksum.state;
  emit_u64(e, sum); // (emit also feeds the hasher, whose state is no longer used)
  flush(e);
}

// Emits a SNAP chunk (no tick) or a KEYF chunk (the state's tick first) of snapshot bytes.
static void emit_snapshot_bytes(fxs_replay_writer *w, uint32_t tag, bool with_tick, uint32_t tick,
                                const uint8_t *bytes, size_t size) {
  emitter e = begin_chunk(w, tag, (uint32_t)(size + (with_tick ? 4u : 0u)));
  if (with_tick) emit_u32(&e, tick);
  emit(&e, bytes, size);
  end_chunk(&e);
}

// Emits a SNAP or KEYF chunk holding the current state of `world`.
static void emit_snapshot_chunk(fxs_replay_writer *w, const fxs_world *world, uint32_t tag,
                                bool with_tick) {
  size_t size = 0;
  if (fxs_world_save(world, w->scratch, w->scratch_size, &size) != FXS_OK) {
    w->error = FXS_ERR_BUFFER_TOO_SMALL;
    return;
  }
  emit_snapshot_bytes(w, tag, with_tick, world->tick, w->scratch, size);
}

fxs_result fxs_replay_writer_begin(fxs_replay_writer *w, fxs_write_fn write, void *user,
                                   const fxs_world *world, uint32_t keyframe_interval,
                                   uint8_t *scratch, size_t scratch_size) {
  memset(w, 0, sizeof *w);
  w->write = write;
  w->user = user;
  w->keyframe_interval = keyframe_interval;
  w->scratch = scratch;
  w->scratch_size = scratch_size;
  w->error = FXS_OK;
  emitter e = begin_chunk(w, FXS_CHUNK_HEADER, HEADER_PAYLOAD);
  emit_u32(&e, REPLAY_MAGIC);
  emit_u16(&e, FXS_REPLAY_VERSION);
  emit_u16(&e, 0);
  emit_u64(&e, fxs_math_fingerprint());
  emit_u32(&e, keyframe_interval);
  emit_u32(&e, fxs_world_simulation_version(world));
  end_chunk(&e);
  emit_snapshot_chunk(w, world, FXS_CHUNK_SNAPSHOT, false);
  return w->error;
}

// Writes the TICK chunk of `tick` and counts it; true when a keyframe is due after it.
static bool emit_tick(fxs_replay_writer *w, uint32_t tick, uint64_t hash,
                      const fxs_command *commands, uint32_t count) {
  emitter e = begin_chunk(w, FXS_CHUNK_TICK, 4u + 2u + count * FXS_COMMAND_BYTES + 8u);
  emit_u32(&e, tick);
  emit_u16(&e, (uint16_t)count);
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t bytes[FXS_COMMAND_BYTES];
    fxs_command_encode(&commands[i], bytes);
    emit(&e, bytes, sizeof bytes);
  }
  emit_u64(&e, hash);
  end_chunk(&e);
  w->ticks++;
  w->last_hash = hash;
  return w->keyframe_interval && w->ticks % w->keyframe_interval == 0;
}

fxs_result fxs_replay_writer_tick(fxs_replay_writer *w, const fxs_world *world,
                                  const fxs_command *commands, uint32_t count) {
  if (w->error != FXS_OK) return w->error;
  if (count > FXS_REPLAY_MAX_COMMANDS) return w->error = FXS_ERR_BAD_LENGTH;
  if (emit_tick(w, world->tick - 1u, fxs_world_hash(world), commands, count)) {
    emit_snapshot_chunk(w, world, FXS_CHUNK_KEYFRAME, true);
  }
  return w->error;
}

fxs_result fxs_replay_writer_tick_saved(fxs_replay_writer *w, uint32_t tick,
                                        const uint8_t *snapshot, size_t size,
                                        const fxs_command *commands, uint32_t count) {
  if (w->error != FXS_OK) return w->error;
  if (count > FXS_REPLAY_MAX_COMMANDS || tick == UINT32_MAX) return w->error = FXS_ERR_BAD_LENGTH;
  fxs_state_hasher h = fxs_state_hasher_make();
  fxs_state_hash_block(&h, snapshot, size);
  if (emit_tick(w, tick, fxs_state_hash_value(&h), commands, count)) {
    emit_snapshot_bytes(w, FXS_CHUNK_KEYFRAME, true, tick + 1u, snapshot, size);
  }
  return w->error;
}

fxs_result fxs_replay_writer_end(fxs_replay_writer *w, const fxs_world *world) {
  if (w->error != FXS_OK) return w->error;
  emitter e = begin_chunk(w, FXS_CHUNK_END, 12u);
  emit_u32(&e, w->ticks);
  emit_u64(&e, fxs_world_hash(world));
  end_chunk(&e);
  return w->error;
}

// ------------------------------------------------------------------ reading

uint32_t fxs_replay_state_hash_version(uint32_t replay_version) {
  if (replay_version == 2u) return FXS_STATE_HASH_V2;
  return replay_version == 3u || replay_version == 4u ? FXS_STATE_HASH_V3 : 0u;
}

static fxs_result failure(fxs_result e, size_t at, size_t *error_offset) {
  if (error_offset) *error_offset = at;
  return e;
}

// Reads the chunk at r->position: checks lengths and the checksum, never reads past the end.
static fxs_result read_chunk(fxs_replay_reader *r, uint32_t *tag, const uint8_t **payload,
                             uint32_t *length, size_t *error_offset) {
  size_t at = r->position;
  size_t left = r->size - at;
  if (left < 8) return failure(FXS_ERR_TRUNCATED, r->size, error_offset);
  *tag = fxs_load_le32(r->data + at);
  *length = fxs_load_le32(r->data + at + 4);
  if (*length > FXS_REPLAY_MAX_CHUNK) return failure(FXS_ERR_BAD_LENGTH, at + 4, error_offset);
  if (left - 8 < (size_t)*length + 8) return failure(FXS_ERR_TRUNCATED, r->size, error_offset);
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, r->data + at, 8u + *length);
  if (h.state != fxs_load_le64(r->data + at + 8 + *length)) {
    return failure(FXS_ERR_BAD_CHECKSUM, at, error_offset);
  }
  *payload = r->data + at + 8;
  r->position = at + CHUNK_OVERHEAD + *length;
  return FXS_OK;
}

// Byte offset of the agent capacity inside a snapshot (see snapshot.c's serialize()), and of
// the field capacity of layout 4, after the five others.
#define SNAPSHOT_CAPACITY_AT 35u
#define SNAPSHOT_FIELD_CAPACITY_AT 55u
// ... and of the navigation capacities of layout 5, after the field capacity.
#define SNAPSHOT_NAV_CAPACITY_AT 59u

// fxs_replay_open, taking simulation versions from `oldest` to this build's when it checks.
static fxs_result open_replay(fxs_replay_reader *r, const uint8_t *data, size_t size,
                              bool check_fingerprint, uint32_t oldest, const fxs_limits *limits,
                              size_t *error_offset) {
  memset(r, 0, sizeof *r);
  r->data = data;
  r->size = data ? size : 0;
  r->limits = limits ? *limits : fxs_default_limits();
  uint32_t tag, length;
  const uint8_t *p;
  if (r->size >= 4 && fxs_load_le32(r->data) != FXS_CHUNK_HEADER)
    return failure(FXS_ERR_BAD_MAGIC, 0, error_offset);
  fxs_result e = read_chunk(r, &tag, &p, &length, error_offset);
  if (e != FXS_OK) return e;
  if (length < OLD_HEADER_PAYLOAD || fxs_load_le32(p) != REPLAY_MAGIC)
    return failure(FXS_ERR_BAD_MAGIC, 8, error_offset);
  r->version = fxs_load_le16(p + 4);
  if (fxs_replay_state_hash_version(r->version) == 0) {
    return failure(FXS_ERR_BAD_VERSION, 12, error_offset);
  }
  bool stamped = r->version >= FXS_REPLAY_SIMULATION_VERSION_SINCE;
  if (length != (stamped ? HEADER_PAYLOAD : OLD_HEADER_PAYLOAD))
    return failure(FXS_ERR_BAD_LENGTH, 4, error_offset);
  r->fingerprint = fxs_load_le64(p + 8);
  if (check_fingerprint && r->fingerprint != fxs_math_fingerprint()) {
    return failure(FXS_ERR_BAD_FINGERPRINT, 16, error_offset);
  }
  r->keyframe_interval = fxs_load_le32(p + 16);
  r->simulation_version = stamped ? fxs_load_le32(p + 20) : 0u;
  if (check_fingerprint && stamped &&
      (r->simulation_version < oldest || r->simulation_version > FXS_SIMULATION_VERSION)) {
    return failure(FXS_ERR_SIMULATION_VERSION, 28, error_offset);
  }
  if ((uint64_t)r->size > r->limits.max_bytes) {
    r->limit_error.field = "max_bytes", r->limit_error.limit = r->limits.max_bytes;
    r->limit_error.value = r->size;
    return failure(FXS_ERR_LIMIT, 0, error_offset);
  }
  size_t snap_at = r->position;
  e = read_chunk(r, &tag, &p, &length, error_offset);
  if (e != FXS_OK) return e;
  if (tag != FXS_CHUNK_SNAPSHOT) return failure(FXS_ERR_BAD_CHUNK, snap_at, error_offset);
  e = fxs_snapshot_capacity(p, length, &r->capacity);
  if (e != FXS_OK) return failure(e, snap_at + 8, error_offset);
  e = fxs_limits_check_capacity(&r->limits, &r->capacity, &r->limit_error);
  if (e != FXS_OK) {
    const char *name = r->limit_error.field ? r->limit_error.field : "";
    bool field = fxs_text_equal(name, "max_field_cells");
    bool nav = name[0] == 'm' && name[4] == 'n' && name[5] == 'a' && name[6] == 'v'; // max_nav_*
    size_t at = field ? SNAPSHOT_FIELD_CAPACITY_AT
                : nav ? SNAPSHOT_NAV_CAPACITY_AT
                      : SNAPSHOT_CAPACITY_AT;
    return failure(e, snap_at + 8 + at, error_offset);
  }
  r->initial.tag = tag;
  r->initial.offset = snap_at;
  r->initial.snapshot = p;
  r->initial.snapshot_size = length;
  return FXS_OK;
}

fxs_result fxs_replay_open(fxs_replay_reader *r, const uint8_t *data, size_t size,
                           bool check_fingerprint, const fxs_limits *limits, size_t *error_offset) {
  return open_replay(r, data, size, check_fingerprint, FXS_SIMULATION_VERSION, limits,
                     error_offset);
}

fxs_result fxs_replay_next(fxs_replay_reader *r, fxs_replay_chunk *c, size_t *error_offset) {
  memset(c, 0, sizeof *c);
  c->offset = r->position;
  if (r->ended) return failure(FXS_ERR_BAD_LENGTH, r->position, error_offset);
  uint32_t length;
  const uint8_t *p;
  fxs_result e = read_chunk(r, &c->tag, &p, &length, error_offset);
  if (e != FXS_OK) return e;
  size_t at = c->offset + 8; // payload offset, for field errors
  switch (c->tag) {
    case FXS_CHUNK_TICK:
      if (length < 14) return failure(FXS_ERR_BAD_LENGTH, c->offset + 4, error_offset);
      c->tick = fxs_load_le32(p);
      c->command_count = fxs_load_le16(p + 4);
      if (length != 14u + (uint32_t)c->command_count * FXS_COMMAND_BYTES) {
        return failure(FXS_ERR_BAD_LENGTH, at + 4, error_offset);
      }
      c->commands = p + 6;
      c->hash = fxs_load_le64(p + 6 + (size_t)c->command_count * FXS_COMMAND_BYTES);
      return FXS_OK;
    case FXS_CHUNK_KEYFRAME:
      if (length < 4) return failure(FXS_ERR_BAD_LENGTH, c->offset + 4, error_offset);
      c->tick = fxs_load_le32(p);
      c->snapshot = p + 4;
      c->snapshot_size = length - 4u;
      return FXS_OK;
    case FXS_CHUNK_END:
      if (length != 12) return failure(FXS_ERR_BAD_LENGTH, c->offset + 4, error_offset);
      c->tick = fxs_load_le32(p);
      c->hash = fxs_load_le64(p + 4);
      r->ended = true;
      if (r->position != r->size) return failure(FXS_ERR_BAD_LENGTH, r->position, error_offset);
      return FXS_OK;
    default:
      return failure(FXS_ERR_BAD_CHUNK, c->offset, error_offset);
  }
}

// ------------------------------------------------------------------ verification

bool fxs_verify_diverged(fxs_result result) {
  return result == FXS_ERR_HASH_MISMATCH || result == FXS_ERR_KEYFRAME_MISMATCH ||
         result == FXS_ERR_KEYFRAME_CADENCE || result == FXS_ERR_END_MISMATCH;
}

// The most commands any TICK chunk of the replay declares (a walk over the chunk headers;
// the checksums are checked later, while verifying).
static uint32_t most_commands(const fxs_replay_reader *opened) {
  fxs_replay_reader r = *opened;
  uint32_t most = 0;
  for (size_t at = r.position; at + 16u <= r.size;) {
    uint32_t tag = fxs_load_le32(r.data + at), length = fxs_load_le32(r.data + at + 4);
    if (tag == FXS_CHUNK_TICK && length >= 6u && r.size - at - 8u >= 6u) {
      uint32_t n = fxs_load_le16(r.data + at + 12);
      if (n > most) most = n;
    }
    if ((uint64_t)length + 16u > (uint64_t)(r.size - at)) break;
    at += 16u + (size_t)length;
  }
  return most;
}

// Memory layout of a verification: two worlds and the largest tick's commands.
static size_t verify_layout(const fxs_world_capacity *cap, uint32_t commands, size_t *world_size) {
  *world_size = (fxs_world_memory_size(cap) + 7u) & ~(size_t)7u;
  return 2u * *world_size + sizeof(fxs_command) * (size_t)commands;
}

size_t fxs_replay_verify_memory_size(const uint8_t *data, size_t size, const fxs_limits *limits) {
  fxs_replay_reader r;
  size_t world_size;
  if (fxs_replay_open(&r, data, size, false, limits, 0) != FXS_OK) return 0;
  return verify_layout(&r.capacity, most_commands(&r), &world_size);
}

typedef struct verifier {
  fxs_world sim;      // re-simulated
  fxs_world recorded; // a keyframe, for field-level reports
  fxs_command *commands;
  fxs_verify_report *report;
  const fxs_replay_reader *reader;
  bool keyframe_due;     // the last tick ended a keyframe period of the header
  uint64_t agent_ticks;  // work done, against limits.max_agent_ticks
  uint32_t command_room; // commands[] holds this many
  uint32_t hash_version; // the state hash of the replay's format
} verifier;

// The state hash of the re-simulated world in the replay's version (checked on opening).
static uint64_t sim_hash(const verifier *v) {
  uint64_t h = 0;
  fxs_world_hash_as(&v->sim, v->hash_version, &h);
  return h;
}

// Records the first disagreement between the recording and the re-simulation.
static void diverged(verifier *v, fxs_result kind, const fxs_replay_chunk *c, uint32_t tick,
                     uint64_t expected, uint64_t actual) {
  fxs_verify_report *rep = v->report;
  if (rep->result != FXS_OK) return;
  rep->result = kind;
  rep->error_offset = c->offset;
  rep->first_bad_tick = tick;
  rep->expected_hash = expected;
  rep->actual_hash = actual;
}

static fxs_result limit_hit(verifier *v, const char *field, uint64_t limit, uint64_t value,
                            size_t at, size_t *error_offset) {
  fxs_limit_error *le = &v->report->limit_error;
  le->field = field, le->limit = limit, le->value = value;
  return failure(FXS_ERR_LIMIT, at, error_offset);
}

static fxs_result verify_tick(verifier *v, const fxs_replay_chunk *c, size_t *error_offset) {
  const fxs_limits *lim = &v->reader->limits;
  if (c->tick != v->sim.tick) return failure(FXS_ERR_BAD_SEQUENCE, c->offset + 8, error_offset);
  if (v->report->ticks >= lim->max_ticks) {
    return limit_hit(v, "max_ticks", lim->max_ticks, (uint64_t)v->report->ticks + 1u, c->offset,
                     error_offset);
  }
  v->agent_ticks += v->sim.capacity.agents;
  if (v->agent_ticks > lim->max_agent_ticks) {
    return limit_hit(v, "max_agent_ticks", lim->max_agent_ticks, v->agent_ticks, c->offset,
                     error_offset);
  }
  if (v->keyframe_due) { // the keyframe promised after the previous tick never came
    diverged(v, FXS_ERR_KEYFRAME_CADENCE, c, c->tick - 1u, 0, 0);
    v->keyframe_due = false;
  }
  if (c->command_count > v->command_room)
    return failure(FXS_ERR_BAD_LENGTH, c->offset + 12, error_offset);
  for (uint16_t i = 0; i < c->command_count; ++i) {
    if (fxs_command_decode(c->commands + (size_t)i * FXS_COMMAND_BYTES, &v->commands[i]) !=
        FXS_OK) {
      return failure(FXS_ERR_BAD_COMMAND, c->offset + 14 + (size_t)i * FXS_COMMAND_BYTES,
                     error_offset);
    }
  }
  fxs_world_step(&v->sim, v->commands, c->command_count, 0);
  uint64_t h = sim_hash(v);
  fxs_verify_report *rep = v->report;
  rep->ticks++;
  rep->final_hash = h;
  if (h != c->hash) diverged(v, FXS_ERR_HASH_MISMATCH, c, c->tick, c->hash, h);
  uint32_t every = v->reader->keyframe_interval;
  v->keyframe_due = every != 0 && rep->ticks % every == 0;
  return FXS_OK;
}

// A keyframe must come exactly where the header's cadence puts it and hold exactly the
// re-simulated state. After a divergence, the first keyframe names the differing field.
static fxs_result verify_keyframe(verifier *v, const fxs_replay_chunk *c, size_t *error_offset) {
  fxs_verify_report *rep = v->report;
  if (c->tick != v->sim.tick || rep->ticks == 0) { // a keyframe holds the state after tick - 1
    return failure(FXS_ERR_BAD_SEQUENCE, c->offset + 8, error_offset);
  }
  if (!v->keyframe_due) diverged(v, FXS_ERR_KEYFRAME_CADENCE, c, c->tick - 1u, 0, 0);
  v->keyframe_due = false;
  size_t mismatch = 0;
  if (!fxs_world_matches_snapshot(&v->sim, c->snapshot, c->snapshot_size, &mismatch)) {
    diverged(v, FXS_ERR_KEYFRAME_MISMATCH, c, c->tick - 1u, 0, sim_hash(v));
  }
  if (rep->result == FXS_OK || rep->has_difference) return FXS_OK;
  if (fxs_world_restore(&v->recorded, c->snapshot, c->snapshot_size, 0) == FXS_OK) {
    rep->has_difference = fxs_world_first_difference(&v->sim, &v->recorded, &rep->difference);
    rep->difference_tick = c->tick;
  }
  return FXS_OK;
}

static fxs_result verify_end(verifier *v, const fxs_replay_chunk *c, size_t *error_offset) {
  fxs_verify_report *rep = v->report;
  if (c->tick != rep->ticks) return failure(FXS_ERR_BAD_LENGTH, c->offset + 8, error_offset);
  if (rep->ticks == 0) return failure(FXS_ERR_NO_TICKS, c->offset, error_offset);
  if (v->keyframe_due) diverged(v, FXS_ERR_KEYFRAME_CADENCE, c, rep->ticks - 1u, 0, 0);
  if (c->hash != rep->final_hash) {
    diverged(v, FXS_ERR_END_MISMATCH, c, rep->ticks - 1u, c->hash, rep->final_hash);
  }
  return FXS_OK;
}

static fxs_result verify_start(verifier *v, const fxs_replay_reader *r, uint8_t *mem,
                               size_t memory_size, size_t *error_offset) {
  size_t world_size;
  v->command_room = most_commands(r);
  if (mem == 0 || memory_size < verify_layout(&r->capacity, v->command_room, &world_size)) {
    return FXS_ERR_BUFFER_TOO_SMALL;
  }
  fxs_world_def def = fxs_default_world_def(); // replaced by the snapshot's own
  fxs_result e = fxs_world_init(&v->sim, &def, &r->capacity, mem, world_size);
  if (e == FXS_OK)
    e = fxs_world_init(&v->recorded, &def, &r->capacity, mem + world_size, world_size);
  if (e != FXS_OK) return e;
  // A replay of an older simulation version this build still runs is re-simulated by its
  // own rules (open_replay took only those); one of a format before versions, by today's.
  if (r->simulation_version != 0) {
    e = fxs_world_set_simulation_version(&v->sim, r->simulation_version);
    if (e == FXS_OK) e = fxs_world_set_simulation_version(&v->recorded, r->simulation_version);
    if (e != FXS_OK) return e;
  }
  v->commands = (fxs_command *)(void *)(mem + 2u * world_size);
  v->reader = r;
  v->hash_version = fxs_replay_state_hash_version(r->version);
  v->keyframe_due = false;
  v->agent_ticks = 0;
  size_t at = 0;
  e = fxs_world_restore(&v->sim, r->initial.snapshot, r->initial.snapshot_size, &at);
  if (e != FXS_OK) return failure(e, r->initial.offset + 8 + at, error_offset);
  return FXS_OK;
}

fxs_result fxs_replay_verify(const uint8_t *data, size_t size, const fxs_limits *limits,
                             void *memory, size_t memory_size, fxs_verify_report *report) {
  return fxs_replay_verify_progress(data, size, limits, memory, memory_size, report, 0, 0);
}

fxs_result fxs_replay_verify_progress(const uint8_t *data, size_t size, const fxs_limits *limits,
                                      void *memory, size_t memory_size, fxs_verify_report *report,
                                      fxs_verify_progress_fn progress, void *user) {
  memset(report, 0, sizeof *report);
  fxs_replay_reader r;
  verifier v;
  v.report = report;
  size_t at = 0;
  fxs_result e = open_replay(&r, data, size, true, FXS_SIMULATION_VERSION_OLDEST, limits, &at);
  if (e == FXS_ERR_LIMIT) report->limit_error = r.limit_error;
  if (e == FXS_OK) e = verify_start(&v, &r, (uint8_t *)memory, memory_size, &at);
  while (e == FXS_OK && !r.ended) {
    fxs_replay_chunk c;
    e = fxs_replay_next(&r, &c, &at);
    if (e != FXS_OK) break;
    if (c.tag == FXS_CHUNK_TICK) {
      e = verify_tick(&v, &c, &at);
      if (e == FXS_OK && progress) progress(user, report->ticks, r.position);
    } else if (c.tag == FXS_CHUNK_KEYFRAME) e = verify_keyframe(&v, &c, &at);
    else if (c.tag == FXS_CHUNK_END) e = verify_end(&v, &c, &at);
  }
  if (e != FXS_OK) { // a format or limit error outranks a divergence found before it
    report->result = e;
    report->error_offset = at;
  }
  return report->result;
}
