// The web viewer's module, part 1: answers as JSON text, opening and indexing a replay,
// verifying it, seeking to a tick and reading the shown world.
#include "fxs_web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fxs_web_text answer;
static char last_error[512];

// ------------------------------------------------------------------ memory and answers

void *fxs_web_alloc(size_t size) { return malloc(size ? size : 1); }

void fxs_web_free(void *p) { free(p); }

const char *fxs_web_last_error(void) { return last_error; }

void fxs_web_set_error(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(last_error, sizeof last_error, format, ap);
  va_end(ap);
}

fxs_web_text *fxs_web_answer(void) {
  answer.length = 0;
  answer.failed = false;
  return &answer;
}

static bool reserve(fxs_web_text *t, size_t more) {
  if (t->failed) return false;
  if (t->length + more + 1 <= t->capacity) return true;
  size_t capacity = t->capacity ? t->capacity : 4096;
  while (capacity < t->length + more + 1) capacity *= 2;
  char *s = realloc(t->s, capacity);
  if (!s) return t->failed = true, false;
  t->s = s;
  t->capacity = capacity;
  return true;
}

void fxs_web_printf(fxs_web_text *t, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(0, 0, format, ap);
  va_end(ap);
  if (n < 0 || !reserve(t, (size_t)n)) return;
  va_start(ap, format);
  vsnprintf(t->s + t->length, (size_t)n + 1, format, ap);
  va_end(ap);
  t->length += (size_t)n;
}

void fxs_web_string(fxs_web_text *t, const char *s) {
  if (!s) {
    fxs_web_printf(t, "null");
    return;
  }
  fxs_web_printf(t, "\"");
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fxs_web_printf(t, "\\%c", c);
    else if (c < 0x20) fxs_web_printf(t, "\\u%04x", c);
    else fxs_web_printf(t, "%c", c);
  }
  fxs_web_printf(t, "\"");
}

const char *fxs_web_finish(fxs_web_text *t) {
  if (t->failed || !t->s) return "{\"error\":\"out of memory\"}";
  return t->s;
}

bool fxs_web_sink_append(void *user, const uint8_t *bytes, size_t size) {
  fxs_web_sink *s = user;
  if (size > SIZE_MAX / 4u - s->size) return false;
  if (s->size + size > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : (size_t)1 << 16;
    while (capacity < s->size + size) capacity *= 2u;
    uint8_t *grown = realloc(s->data, capacity);
    if (!grown) return false;
    s->data = grown, s->capacity = capacity;
  }
  memcpy(s->data + s->size, bytes, size);
  s->size += size;
  return true;
}

const char *fxs_web_error_answer(fxs_web_text *t, const char *message) {
  fxs_web_printf(t, "{\"error\":");
  fxs_web_string(t, message);
  fxs_web_printf(t, "}");
  return fxs_web_finish(t);
}

const char *fxs_web_version(void) {
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(t,
                 "{\"version\":\"%d.%d.%d\",\"replay_format\":%u,\"snapshot_format\":%u,"
                 "\"fingerprint\":\"0x%016llx\"}",
                 FXS_VERSION_MAJOR, FXS_VERSION_MINOR, FXS_VERSION_PATCH,
                 (unsigned)FXS_REPLAY_VERSION, (unsigned)FXS_SNAPSHOT_VERSION,
                 (unsigned long long)fxs_math_fingerprint());
  return fxs_web_finish(t);
}

const char *fxs_web_behavior_name(uint32_t kind) { return fxs_behavior_name((fxs_behavior)kind); }

// ------------------------------------------------------------------ opening a replay

fxs_result fxs_web_world_from(fxs_world *world, void **memory, const fxs_world_capacity *capacity,
                              const uint8_t *snapshot, size_t size) {
  size_t bytes = fxs_world_memory_size(capacity);
  *memory = calloc(1, bytes ? bytes : 1);
  if (!*memory) return FXS_ERR_BUFFER_TOO_SMALL;
  fxs_world_def def = fxs_default_world_def();
  fxs_result r = fxs_world_init(world, &def, capacity, *memory, bytes);
  if (r == FXS_OK) r = fxs_world_restore(world, snapshot, size, 0);
  return r;
}

static bool bad_input(size_t offset, fxs_result r, const fxs_limit_error *limit) {
  if (r == FXS_ERR_LIMIT && limit && limit->field) {
    fxs_web_set_error("byte %zu: %s: %s is %llu, asked for %llu", offset, fxs_result_message(r),
                      limit->field, (unsigned long long)limit->limit,
                      (unsigned long long)limit->value);
  } else {
    fxs_web_set_error("byte %zu: %s", offset, fxs_result_message(r));
  }
  return false;
}

// Appends a chunk to a growing array.
static bool push_chunk(fxs_replay_chunk **list, uint32_t *count, const fxs_replay_chunk *c) {
  if ((*count & (*count - 1u)) == 0) { // 0, 1, 2, 4, ...: double
    size_t room = *count ? (size_t)*count * 2u : 1u;
    fxs_replay_chunk *grown = realloc(*list, room * sizeof **list);
    if (!grown) return false;
    *list = grown;
  }
  (*list)[(*count)++] = *c;
  return true;
}

static bool index_replay(fxs_web_viewer *v) {
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, v->data, v->size, true, 0, &at);
  if (e != FXS_OK) return bad_input(at, e, &r.limit_error);
  v->version = r.version;
  v->fingerprint = r.fingerprint;
  v->keyframe_interval = r.keyframe_interval;
  v->capacity = r.capacity;
  v->initial = r.initial.snapshot;
  v->initial_size = r.initial.snapshot_size;
  while (!r.ended) {
    fxs_replay_chunk c;
    if ((e = fxs_replay_next(&r, &c, &at)) != FXS_OK) return bad_input(at, e, &r.limit_error);
    bool ok = true;
    if (c.tag == FXS_CHUNK_TICK) {
      ok = push_chunk(&v->ticks, &v->tick_count, &c);
      if (c.command_count > v->max_commands) v->max_commands = c.command_count;
    } else if (c.tag == FXS_CHUNK_KEYFRAME) {
      ok = push_chunk(&v->keyframes, &v->keyframe_count, &c);
    } else {
      v->end_hash = c.hash;
    }
    if (!ok) return fxs_web_set_error("out of memory"), false;
  }
  if (v->tick_count == 0) return bad_input(at, FXS_ERR_NO_TICKS, 0);
  v->start_tick = v->ticks[0].tick;
  return true;
}

static bool prepare_world(fxs_web_viewer *v) {
  v->commands = malloc(sizeof(fxs_command) * (v->max_commands ? v->max_commands : 1u));
  v->agents = malloc(sizeof(int32_t) * FXS_WEB_AGENT_STRIDE *
                     (v->capacity.agents ? v->capacity.agents : 1u));
  if (!v->commands || !v->agents) return fxs_web_set_error("out of memory"), false;
  fxs_result r =
      fxs_web_world_from(&v->world, &v->memory, &v->capacity, v->initial, v->initial_size);
  if (r != FXS_OK)
    return fxs_web_set_error("the initial snapshot: %s", fxs_result_message(r)), false;
  v->shown = true;
  v->from_tick = v->start_tick;
  return true;
}

fxs_web_viewer *fxs_web_open(uint8_t *data, size_t size) {
  fxs_web_viewer *v = calloc(1, sizeof *v);
  if (!v) {
    free(data);
    fxs_web_set_error("out of memory");
    return 0;
  }
  v->data = data;
  v->size = size;
  if (!index_replay(v) || !prepare_world(v)) {
    fxs_web_close(v);
    return 0;
  }
  return v;
}

void fxs_web_close(fxs_web_viewer *v) {
  if (!v) return;
  free(v->data);
  free(v->ticks);
  free(v->keyframes);
  free(v->commands);
  free(v->agents);
  free(v->field_cells);
  free(v->memory);
  free(v);
}

const char *fxs_web_info(fxs_web_viewer *v) {
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(
      t, "{\"bytes\":%zu,\"version\":%u,\"fingerprint\":\"0x%016llx\",\"keyframe_interval\":%u,",
      v->size, v->version, (unsigned long long)v->fingerprint, v->keyframe_interval);
  fxs_web_printf(t, "\"start_tick\":%u,\"end_tick\":%u,\"ticks\":%u,\"end_hash\":\"0x%016llx\",",
                 v->start_tick, v->start_tick + v->tick_count, v->tick_count,
                 (unsigned long long)v->end_hash);
  fxs_web_printf(
      t,
      "\"capacity\":{\"agents\":%u,\"obstacles\":%u,\"paths\":%u,\"path_nodes\":%u,\"walls\":%u},",
      v->capacity.agents, v->capacity.obstacles, v->capacity.paths, v->capacity.path_nodes,
      v->capacity.walls);
  fxs_web_printf(t, "\"keyframes\":[");
  for (uint32_t k = 0; k < v->keyframe_count; ++k)
    fxs_web_printf(t, "%s%u", k ? "," : "", v->keyframes[k].tick);
  fxs_web_printf(t, "]}");
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ verifying

static void difference_json(fxs_web_text *t, const fxs_world_difference *d, uint32_t tick,
                            const char *a_name, const char *b_name) {
  fxs_web_printf(t, "{\"tick\":%u,\"agent\":%d,\"field\":", tick, (int)d->agent);
  fxs_web_string(t, d->field);
  fxs_web_printf(t, ",\"%s\":%lld,\"%s\":%lld}", b_name, (long long)d->b, a_name, (long long)d->a);
}

const char *fxs_web_verify(fxs_web_viewer *v) {
  size_t need = fxs_replay_verify_memory_size(v->data, v->size, 0);
  void *memory = need ? calloc(1, need) : 0;
  fxs_verify_report rep;
  if (need && !memory) {
    memset(&rep, 0, sizeof rep);
    rep.result = FXS_ERR_BUFFER_TOO_SMALL;
  } else {
    fxs_replay_verify(v->data, v->size, 0, memory, need, &rep);
  }
  free(memory);
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(t, "{\"verified\":%s,\"diverged\":%s,\"result\":%d,\"message\":",
                 rep.result == FXS_OK ? "true" : "false",
                 fxs_verify_diverged(rep.result) ? "true" : "false", (int)rep.result);
  fxs_web_string(t, fxs_result_message(rep.result));
  fxs_web_printf(t, ",\"ticks\":%u,\"final_hash\":\"0x%016llx\",\"error_offset\":%zu", rep.ticks,
                 (unsigned long long)rep.final_hash, rep.error_offset);
  if (fxs_verify_diverged(rep.result)) {
    fxs_web_printf(
        t, ",\"first_bad_tick\":%u,\"expected_hash\":\"0x%016llx\",\"actual_hash\":\"0x%016llx\"",
        rep.first_bad_tick, (unsigned long long)rep.expected_hash,
        (unsigned long long)rep.actual_hash);
  }
  fxs_web_printf(t, ",\"difference\":");
  if (rep.has_difference)
    difference_json(t, &rep.difference, rep.difference_tick, "resimulated", "recorded");
  else fxs_web_printf(t, "null");
  fxs_web_printf(t, "}");
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ seeking

// Steps the shown world through the recorded TICK chunk of its current tick.
static bool step_recorded(fxs_web_viewer *v) {
  const fxs_replay_chunk *c = &v->ticks[v->world.tick - v->start_tick];
  for (uint32_t i = 0; i < c->command_count; ++i) {
    if (fxs_command_decode(c->commands + (size_t)i * FXS_COMMAND_BYTES, &v->commands[i]) !=
        FXS_OK) {
      return bad_input(c->offset, FXS_ERR_BAD_VALUE, 0);
    }
  }
  fxs_world_step(&v->world, v->commands, c->command_count, 0);
  return true;
}

int32_t fxs_web_seek(fxs_web_viewer *v, uint32_t tick) {
  uint32_t end = v->start_tick + v->tick_count;
  if (tick < v->start_tick) tick = v->start_tick;
  if (tick > end) tick = end;
  const uint8_t *base = v->initial;
  size_t base_size = v->initial_size;
  uint32_t base_tick = v->start_tick;
  for (uint32_t k = 0; k < v->keyframe_count && v->keyframes[k].tick <= tick; ++k) {
    base = v->keyframes[k].snapshot, base_size = v->keyframes[k].snapshot_size,
    base_tick = v->keyframes[k].tick;
  }
  // Going on from the shown state gives the same world as a restore when it descends from
  // the same keyframe; a diverged replay shows the recorded keyframes, as the verifier reads.
  if (!(v->shown && v->from_tick == base_tick && v->world.tick <= tick)) {
    size_t at = 0;
    fxs_result r = fxs_world_restore(&v->world, base, base_size, &at);
    if (r != FXS_OK) {
      v->shown = false;
      fxs_web_set_error("the snapshot of tick %u, byte %zu: %s", base_tick, at,
                        fxs_result_message(r));
      return -1;
    }
    v->from_tick = base_tick;
  }
  while (v->world.tick < tick) {
    if (!step_recorded(v)) return v->shown = false, -1;
  }
  v->shown = true;
  return (int32_t)v->world.tick;
}

// ------------------------------------------------------------------ the shown world

static void routes_json(fxs_web_text *t, fxs_world *w);

// Bounds, obstacles, walls and paths: what the world holds besides its agents.
// "nav", "mesh" and "routes" (fxs_web.h).
static void nav_json(fxs_web_text *t, fxs_world *w) {
  const fxs_nav_mesh *m = fxs_world_nav_mesh(w);
  const fxs_nav_grid *g = m ? 0 : fxs_world_nav_grid(w);
  if (m) {
    fxs_web_printf(t, ",\"nav\":null,\"mesh\":{\"vertices\":%u,\"triangles\":%u,\"version\":%u}",
                   m->vertex_count, m->triangle_count, w->nav.version);
    routes_json(t, w);
    return;
  }
  if (!g) {
    fxs_web_printf(t, ",\"nav\":null,\"mesh\":null,\"routes\":[]");
    return;
  }
  fxs_web_printf(t, ",\"nav\":{\"origin\":[%d,%d],\"cell\":%d,", (int)g->origin.x, (int)g->origin.y,
                 (int)g->cell_size);
  fxs_web_printf(t, "\"columns\":%u,\"rows\":%u,\"blocked\":[", g->width, g->height);
  const char *sep = "";
  for (uint32_t cy = 0; cy < g->height; ++cy) {
    const uint8_t *row = g->cost + (size_t)cy * g->width;
    for (uint32_t cx = 0; cx < g->width;) {
      if (row[cx] != FXS_NAV_BLOCKED) {
        ++cx;
        continue;
      }
      uint32_t end = cx;
      while (end < g->width && row[end] == FXS_NAV_BLOCKED) ++end;
      fxs_web_printf(t, "%s%u,%u,%u", sep, cy, cx, end - cx), sep = ",";
      cx = end;
    }
  }
  fxs_web_printf(t, "]},\"mesh\":null");
  routes_json(t, w);
}

// ,"routes":[...] (fxs_web.h): every agent's route, on the grid or the mesh.
static void routes_json(fxs_web_text *t, fxs_world *w) {
  fxs_web_printf(t, ",\"routes\":[");
  uint32_t cap = w->capacity.nav_waypoints;
  fxs_vec2 *points = malloc((size_t)(cap ? cap : 1) * sizeof *points);
  if (!points) {
    t->failed = true;
    return;
  }
  const char *sep = "";
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    uint32_t next = 0;
    uint32_t n = fxs_world_nav_route(w, fxs_world_handle_at(w, i), points, cap, &next);
    if (n > cap) n = cap;
    if (n == 0) continue;
    fxs_web_printf(t, "%s{\"slot\":%u,\"next\":%u,\"points\":[", sep, i, next), sep = ",";
    for (uint32_t k = 0; k < n; ++k) {
      fxs_web_printf(t, "%s%d,%d", k ? "," : "", (int)points[k].x, (int)points[k].y);
    }
    fxs_web_printf(t, "]}");
  }
  fxs_web_printf(t, "]");
  free(points);
}

void fxs_web_scene_json(fxs_web_text *t, fxs_world *w) {
  fxs_web_printf(t, "\"bounds\":[%d,%d,%d,%d],\"clamp\":%u,\"obstacles\":[",
                 (int)w->def.bounds_min.x, (int)w->def.bounds_min.y, (int)w->def.bounds_max.x,
                 (int)w->def.bounds_max.y, (unsigned)w->def.clamp_to_bounds);
  const char *sep = "";
  for (uint32_t i = 0; i < w->capacity.obstacles; ++i) {
    if (!w->obstacle_alive[i]) continue;
    const fxs_obstacle *o = &w->obstacles[i];
    fxs_web_printf(t, "%s[%d,%d,%d,%u]", sep, (int)o->center.x, (int)o->center.y, (int)o->radius,
                   i),
        sep = ",";
  }
  fxs_web_printf(t, "],\"walls\":[");
  sep = "";
  for (uint32_t i = 0; i < w->capacity.walls; ++i) {
    if (!w->wall_alive[i]) continue;
    const fxs_wall *l = &w->walls[i];
    fxs_web_printf(t, "%s[%d,%d,%d,%d,%u]", sep, (int)l->a.x, (int)l->a.y, (int)l->b.x, (int)l->b.y,
                   i),
        sep = ",";
  }
  fxs_web_printf(t, "],\"paths\":[");
  for (uint32_t p = 0; p < w->path_count; ++p) {
    const fxs_world_path *path = &w->paths[p];
    fxs_web_printf(t, "%s{\"mode\":%u,\"radius\":%d,\"nodes\":[", p ? "," : "",
                   (unsigned)path->mode, (int)path->radius);
    for (uint32_t n = 0; n < path->count; ++n) {
      const fxs_vec2 *node = &w->nodes[path->first_node + n];
      fxs_web_printf(t, "%s%d,%d", n ? "," : "", (int)node->x, (int)node->y);
    }
    fxs_web_printf(t, "]}");
  }
  fxs_web_printf(t, "]");
  nav_json(t, w);
}

const char *fxs_web_frame(fxs_web_viewer *v) {
  fxs_web_text *t = fxs_web_answer();
  if (!v->shown) {
    fxs_web_printf(t, "{\"error\":");
    fxs_web_string(t, last_error);
    fxs_web_printf(t, "}");
    return fxs_web_finish(t);
  }
  uint32_t tick = v->world.tick;
  uint64_t hash = 0; // in the replay's own version of the state hash (checked on loading)
  fxs_world_hash_as(&v->world, fxs_replay_state_hash_version(v->version), &hash);
  fxs_web_printf(t, "{\"tick\":%u,\"hash\":\"0x%016llx\",\"from_tick\":%u,", tick,
                 (unsigned long long)hash, v->from_tick);
  if (tick > v->start_tick) {
    uint64_t recorded = v->ticks[tick - v->start_tick - 1u].hash;
    fxs_web_printf(t, "\"recorded_hash\":\"0x%016llx\",\"matches\":%s,",
                   (unsigned long long)recorded, recorded == hash ? "true" : "false");
  } else {
    fxs_web_printf(t, "\"recorded_hash\":null,\"matches\":true,");
  }
  fxs_web_printf(t, "\"agents\":%u,", fxs_world_agent_count(&v->world));
  fxs_web_scene_json(t, &v->world);
  fxs_web_printf(t, "}");
  return fxs_web_finish(t);
}

// A hash of the kinds of an agent's behavior set, in order: agents with the same set share
// it (0: no behavior).
static int32_t set_id(const fxs_agent_slot *s) {
  uint32_t h = 2166136261u;
  for (uint32_t k = 0; k < s->behavior_count; ++k) h = (h ^ s->behaviors[k].kind) * 16777619u;
  return s->behavior_count ? (int32_t)(h & 0x7FFFFFFFu) | 1 : 0;
}

uint32_t fxs_web_fill_agents(const fxs_world *w, int32_t *agents) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(w, i);
    const fxs_agent *a = h.value ? fxs_world_agent(w, h) : 0;
    if (!a) continue;
    const fxs_agent_slot *s = &w->agents[i];
    fxs_agent_handle target = {s->target_agent};
    int32_t *out = &agents[(size_t)n++ * FXS_WEB_AGENT_STRIDE];
    out[0] = (int32_t)i;
    out[1] = a->position.x, out[2] = a->position.y;
    out[3] = a->velocity.x, out[4] = a->velocity.y;
    out[5] = a->orientation, out[6] = a->radius;
    out[7] = s->behavior_count ? (int32_t)s->behaviors[0].kind : 255;
    out[8] = (int32_t)s->behavior_count;
    out[9] = target.value && fxs_world_agent(w, target)
                 ? (int32_t)(target.value & FXS_HANDLE_INDEX_MASK) - 1
                 : -1;
    out[10] = s->owned ? (int32_t)s->owner : -1;
    out[11] = set_id(s);
    out[12] = a->max_speed, out[13] = a->max_force, out[14] = a->mass;
    out[15] = (int32_t)(h.value & 0x7FFFFFFFu) - (int32_t)(h.value >> 31) * INT32_MAX -
              (int32_t)(h.value >> 31);
  }
  return n;
}

uint32_t fxs_web_agents(fxs_web_viewer *v) {
  v->agent_count = v->shown ? fxs_web_fill_agents(&v->world, v->agents) : 0;
  return v->agent_count;
}

const int32_t *fxs_web_agent_data(fxs_web_viewer *v) { return v->agents; }
