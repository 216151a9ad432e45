// The web module, part 3: a live world for the playground. A scene (built-in scenario or
// scenario file) runs tick by tick with the page's commands added to the scene's own; every
// tick goes through the library's replay writer into memory. Going back to an earlier tick
// restores the nearest keyframe before it (from the recording itself) with the scene's game
// state saved there, and steps the remembered inputs again.
#include "fxs_web_live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_file.h"

// Where the recording stood after a keyframe: enough to go on from there.
typedef struct checkpoint {
  uint32_t tick;
  size_t replay_size; // bytes of the recording up to and with the keyframe
  size_t snapshot_at; // the keyframe's snapshot inside the recording (SNAP at tick 0)
  size_t snapshot_size;
  fxs_replay_writer writer;
  scenario_state state;
} checkpoint;

struct fxs_web_live {
  const scenario *sc;
  const scenario *loaded; // a scenario file's scenario (freed with the world), or NULL
  fxs_world_capacity capacity;
  fxs_world world;
  void *memory;
  scenario_state state;
  fxs_command *commands; // one tick's: the scene's, then the page's
  fxs_result *results;
  uint8_t *scratch; // snapshots for the writer (grows with the state)
  size_t scratch_size;
  fxs_web_sink out; // the recording so far (no END chunk)
  fxs_replay_writer writer;
  uint32_t keyframe;
  // The inputs of every tick stepped, to step them again after going back: the page's
  // commands of tick t are inputs[input_start[t] .. input_start[t + 1]), logic[t] whether
  // the scene's own commands were asked for.
  fxs_command *inputs;
  uint32_t input_count, input_capacity;
  uint32_t *input_start; // ticks + 1 entries
  uint32_t tick_capacity;
  uint8_t *logic;
  uint32_t logic_capacity;
  checkpoint *checkpoints; // by tick, ascending
  uint32_t checkpoint_count, checkpoint_capacity;
  int32_t *agents;
};

static int32_t fail_with(const char *message) {
  fxs_web_set_error("%s", message);
  return -1;
}

// Grows *p (of *capacity items of `item` bytes) to hold `need` items; false when out of memory.
static bool grow(void **p, uint32_t *capacity, uint64_t need, size_t item) {
  if (need <= *capacity) return true;
  uint64_t room = *capacity ? *capacity : 64u;
  while (room < need) room *= 2u;
  if (room > UINT32_MAX || room * item > SIZE_MAX / 2u) return false;
  void *grown = realloc(*p, (size_t)room * item);
  if (!grown) return false;
  *p = grown;
  *capacity = (uint32_t)room;
  return true;
}

// Room for the snapshot of the current state in the writer's scratch buffer.
static bool scratch_for(fxs_web_live *l, size_t need) {
  if (need <= l->scratch_size) return true;
  size_t size = need + need / 2u + 4096u;
  uint8_t *grown = realloc(l->scratch, size);
  if (!grown) return false;
  l->scratch = grown, l->scratch_size = size;
  l->writer.scratch = grown, l->writer.scratch_size = size;
  return true;
}

// Remembers where the recording stands after the snapshot it has just written (the SNAP or
// KEYF chunk that ends it: its payload's last snapshot_size bytes before the checksum).
static bool add_checkpoint(fxs_web_live *l, size_t snapshot_size) {
  if (!grow((void **)&l->checkpoints, &l->checkpoint_capacity, (uint64_t)l->checkpoint_count + 1u,
            sizeof(checkpoint))) {
    return false;
  }
  checkpoint *c = &l->checkpoints[l->checkpoint_count];
  c->tick = l->world.tick;
  c->replay_size = l->out.size;
  c->snapshot_at = l->out.size - 8u - snapshot_size;
  c->snapshot_size = snapshot_size;
  c->writer = l->writer;
  c->state = l->state;
  // The offsets are derived from the chunk layout: check them against the state once.
  if (!fxs_world_matches_snapshot(&l->world, l->out.data + c->snapshot_at, snapshot_size, 0))
    return false;
  l->checkpoint_count++;
  return true;
}

static const char *load_failure(fxs_web_live *l, const char *message) {
  fxs_web_live_close(l);
  fxs_web_set_error("%s", message);
  return 0;
}

static bool room_fits(uint32_t *capacity, uint32_t room, uint32_t limit) {
  if (room > FXS_WEB_LIVE_MAX_ROOM || *capacity > limit - room) return false;
  *capacity += room;
  return true;
}

// The scene: a built-in scenario, or a scenario file parsed from the page's bytes.
static bool find_scene(fxs_web_live *l, const char *name, const uint8_t *yaml, size_t yaml_size) {
  if (!name) name = "scene";
  if (yaml_size == 0) {
    l->sc = scenario_find(name);
    if (!l->sc) fxs_web_set_error("%s: no built-in scenario of that name", name);
    return l->sc != 0;
  }
  char error[512];
  l->sc = l->loaded = scenario_file_load_buffer(name, yaml, yaml_size, 0, error, sizeof error);
  if (!l->sc) fxs_web_set_error("%s", error);
  return l->sc != 0;
}

static bool set_up(fxs_web_live *l, uint32_t room_agents, uint32_t room_obstacles,
                   uint32_t room_walls) {
  l->capacity = l->sc->capacity;
  if (!room_fits(&l->capacity.agents, room_agents, FXS_MAX_AGENTS) ||
      !room_fits(&l->capacity.obstacles, room_obstacles, FXS_MAX_SMALL_CAPACITY) ||
      !room_fits(&l->capacity.walls, room_walls, FXS_MAX_SMALL_CAPACITY)) {
    fxs_web_set_error("room: at most %u more agents, obstacles or walls, within the world's limits",
                      FXS_WEB_LIVE_MAX_ROOM);
    return false;
  }
  fxs_world_def def;
  l->sc->configure(l->sc, &def);
  size_t size = fxs_world_memory_size(&l->capacity);
  if (size == 0)
    return fxs_web_set_error("the scene's capacities are beyond the world's limits"), false;
  l->memory = calloc(1, size);
  l->commands = malloc(sizeof(fxs_command) * FXS_REPLAY_MAX_COMMANDS);
  l->results = malloc(sizeof(fxs_result) * FXS_REPLAY_MAX_COMMANDS);
  l->agents = malloc(sizeof(int32_t) * FXS_WEB_AGENT_STRIDE *
                     (l->capacity.agents ? l->capacity.agents : 1u));
  if (!l->memory || !l->commands || !l->results || !l->agents)
    return fxs_web_set_error("out of memory"), false;
  fxs_result r = fxs_world_init(&l->world, &def, &l->capacity, l->memory, size);
  if (r != FXS_OK) return fxs_web_set_error("the scene's world: %s", fxs_result_message(r)), false;
  l->sc->add_paths(l->sc, &l->world);
  size_t snapshot = fxs_world_snapshot_size(&l->world);
  if (!scratch_for(l, snapshot) ||
      !grow((void **)&l->input_start, &l->tick_capacity, 1u, sizeof(uint32_t))) {
    return fxs_web_set_error("out of memory"), false;
  }
  l->input_start[0] = 0;
  r = fxs_replay_writer_begin(&l->writer, fxs_web_sink_append, &l->out, &l->world, l->keyframe,
                              l->scratch, l->scratch_size);
  if (r != FXS_OK || !add_checkpoint(l, snapshot))
    return fxs_web_set_error("recording: %s", fxs_result_message(r)), false;
  return true;
}

fxs_web_live *fxs_web_live_new(const char *name, const uint8_t *yaml, size_t yaml_size,
                               uint32_t room_agents, uint32_t room_obstacles, uint32_t room_walls,
                               uint32_t keyframe) {
  if (keyframe < 1 || keyframe > 100000)
    return fxs_web_set_error("keyframe interval: 1 to 100000 ticks"), (fxs_web_live *)0;
  if (yaml_size && !yaml) return fxs_web_set_error("no scenario file bytes"), (fxs_web_live *)0;
  fxs_web_live *l = calloc(1, sizeof *l);
  if (!l) return fxs_web_set_error("out of memory"), (fxs_web_live *)0;
  l->keyframe = keyframe;
  char error[600];
  if (!find_scene(l, name, yaml, yaml_size) ||
      !set_up(l, room_agents, room_obstacles, room_walls)) {
    snprintf(error, sizeof error, "%s", fxs_web_last_error());
    return (fxs_web_live *)load_failure(l, error);
  }
  return l;
}

void fxs_web_live_close(fxs_web_live *l) {
  if (!l) return;
  if (l->loaded) scenario_file_free(l->loaded);
  free(l->memory);
  free(l->commands);
  free(l->results);
  free(l->scratch);
  free(l->out.data);
  free(l->inputs);
  free(l->input_start);
  free(l->logic);
  free(l->checkpoints);
  free(l->agents);
  free(l);
}

// The page passes back what fxs_web_live_new gave it; 0 (a closed world) is refused.
#define NO_WORLD "no live world (closed, or never loaded)"

const char *fxs_web_live_info(fxs_web_live *l) {
  fxs_web_text *t = fxs_web_answer();
  if (!l) return fxs_web_error_answer(t, NO_WORLD);
  fxs_web_printf(t, "{\"name\":");
  fxs_web_string(t, l->sc->name);
  fxs_web_printf(t, ",\"summary\":");
  fxs_web_string(t, l->sc->summary);
  fxs_web_printf(t, ",\"file\":%s,\"default_ticks\":%u,\"tick\":%u,\"keyframe_interval\":%u,",
                 l->loaded ? "true" : "false", l->sc->default_ticks, l->world.tick, l->keyframe);
  const fxs_world_capacity *c = &l->capacity;
  fxs_web_printf(t,
                 "\"capacity\":{\"agents\":%u,\"obstacles\":%u,\"paths\":%u,\"path_nodes\":%u,"
                 "\"walls\":%u,\"field_cells\":%u}}",
                 c->agents, c->obstacles, c->paths, c->path_nodes, c->walls, c->field_cells);
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ stepping

// The scene's commands for the coming tick (none without its logic), into l->commands.
static uint32_t scene_commands(fxs_web_live *l, bool logic) {
  return logic ? l->sc->commands(l->sc, &l->world, &l->state, l->commands) : 0;
}

// Steps the tick with the scene's `own` commands (in l->commands) and the page's n commands
// at `page`, and records it; false when the recording failed (out of memory).
static bool finish_tick(fxs_web_live *l, uint32_t own, const fxs_command *page, uint32_t n) {
  if (n) memcpy(l->commands + own, page, sizeof(fxs_command) * n);
  fxs_world_step(&l->world, l->commands, own + n, l->results);
  bool keyframe_due = (l->writer.ticks + 1u) % l->keyframe == 0;
  size_t snapshot = keyframe_due ? fxs_world_snapshot_size(&l->world) : 0;
  if (keyframe_due && !scratch_for(l, snapshot)) return false;
  if (fxs_replay_writer_tick(&l->writer, &l->world, l->commands, own + n) != FXS_OK) return false;
  return !keyframe_due || add_checkpoint(l, snapshot);
}

// Remembers the page's commands of the tick just about to be stepped.
static bool remember(fxs_web_live *l, const fxs_command *page, uint32_t n, bool logic) {
  uint32_t t = l->world.tick;
  if (!grow((void **)&l->inputs, &l->input_capacity, (uint64_t)l->input_count + n,
            sizeof(fxs_command)) ||
      !grow((void **)&l->input_start, &l->tick_capacity, (uint64_t)t + 2u, sizeof(uint32_t))) {
    return false;
  }
  if (!grow((void **)&l->logic, &l->logic_capacity, (uint64_t)t + 1u, 1u)) return false;
  memcpy(l->inputs + l->input_count, page, sizeof(fxs_command) * n);
  l->input_count += n;
  l->input_start[t + 1u] = l->input_count;
  l->logic[t] = logic ? 1 : 0;
  return true;
}

// Where the page's command `i` went among the tick's commands, sorted by the step: the
// first sorted command identical to it (identical commands have the same outcome).
static fxs_result outcome_of(const fxs_web_live *l, uint32_t total, const fxs_command *c) {
  for (uint32_t k = 0; k < total; ++k) {
    if (fxs_command_compare(&l->commands[k], c) == 0) return l->results[k];
  }
  return FXS_ERR_BAD_COMMAND;
}

const char *fxs_web_live_step(fxs_web_live *l, const uint8_t *bytes, uint32_t count,
                              uint32_t logic) {
  fxs_web_text *t = fxs_web_answer();
  if (!l) return fxs_web_error_answer(t, NO_WORLD);
  if (count && !bytes) return fxs_web_error_answer(t, "no command bytes");
  if (count > FXS_WEB_LIVE_MAX_COMMANDS) {
    char message[120];
    snprintf(message, sizeof message, "%u commands in one tick: the page may give at most %u",
             count, FXS_WEB_LIVE_MAX_COMMANDS);
    return fxs_web_error_answer(t, message);
  }
  if (l->world.tick == UINT32_MAX - 1u)
    return fxs_web_error_answer(t, "the world has reached its last tick");
  fxs_command *page = malloc(sizeof(fxs_command) * (count ? count : 1u));
  if (!page) return fxs_web_error_answer(t, "out of memory");
  for (uint32_t i = 0; i < count; ++i) {
    if (fxs_command_decode(bytes + (size_t)i * FXS_COMMAND_BYTES, &page[i]) != FXS_OK) {
      free(page);
      char message[120];
      snprintf(message, sizeof message, "command %u: unknown command type %u", i,
               (unsigned)bytes[(size_t)i * FXS_COMMAND_BYTES]);
      return fxs_web_error_answer(t, message);
    }
  }
  // The scene's commands come first: the whole tick must fit in a replay's TICK chunk.
  scenario_state saved = l->state;
  uint32_t own = scene_commands(l, logic != 0);
  if ((uint64_t)own + count > FXS_REPLAY_MAX_COMMANDS) {
    l->state = saved;
    free(page);
    return fxs_web_error_answer(
        t, "too many commands in one tick for a replay (65535 with the scene's own)");
  }
  uint32_t before = l->world.tick;
  if (!remember(l, page, count, logic != 0)) {
    l->state = saved;
    free(page);
    return fxs_web_error_answer(t, "out of memory");
  }
  if (!finish_tick(l, own, page, count)) {
    free(page);
    // A tick that could not be recorded is forgotten: back to the state before it.
    if (fxs_web_live_rewind(l, before) < 0)
      return fxs_web_error_answer(t, "out of memory: the recording is lost");
    return fxs_web_error_answer(t, "out of memory while recording the tick");
  }
  fxs_web_printf(t, "{\"tick\":%u,\"hash\":\"0x%016llx\",\"results\":[", l->world.tick,
                 (unsigned long long)l->writer.last_hash);
  for (uint32_t i = 0; i < count; ++i)
    fxs_web_printf(t, "%s%d", i ? "," : "", (int)outcome_of(l, own + count, &page[i]));
  fxs_web_printf(t, "]}");
  free(page);
  return fxs_web_finish(t);
}

int32_t fxs_web_live_rewind(fxs_web_live *l, uint32_t to) {
  if (!l) return fail_with(NO_WORLD);
  if (to > l->world.tick) return fail_with("cannot go forward: step instead");
  uint32_t k = l->checkpoint_count;
  while (k > 0 && l->checkpoints[k - 1u].tick > to) --k;
  if (k == 0) return fail_with("no keyframe to go back to");
  const checkpoint *c = &l->checkpoints[k - 1u];
  size_t at = 0;
  fxs_result r = fxs_world_restore(&l->world, l->out.data + c->snapshot_at, c->snapshot_size, &at);
  if (r != FXS_OK) return fail_with(fxs_result_message(r));
  uint8_t *scratch = l->scratch;
  size_t scratch_size = l->scratch_size;
  l->writer = c->writer;
  l->writer.scratch = scratch, l->writer.scratch_size = scratch_size;
  l->state = c->state;
  l->out.size = c->replay_size;
  l->checkpoint_count = k;
  uint32_t end = l->input_start[to];
  while (l->world.tick < to) {
    uint32_t n = l->world.tick;
    const fxs_command *page = l->inputs + l->input_start[n];
    uint32_t own = scene_commands(l, l->logic[n] != 0);
    if (!finish_tick(l, own, page, l->input_start[n + 1u] - l->input_start[n])) {
      return fail_with("out of memory while stepping again");
    }
  }
  l->input_count = end;
  return (int32_t)l->world.tick;
}

// ------------------------------------------------------------------ reading the world

const char *fxs_web_live_frame(fxs_web_live *l) {
  fxs_web_text *t = fxs_web_answer();
  if (!l) return fxs_web_error_answer(t, NO_WORLD);
  fxs_web_printf(t, "{\"tick\":%u,\"hash\":\"0x%016llx\",\"agents\":%u,", l->world.tick,
                 (unsigned long long)fxs_world_hash(&l->world), fxs_world_agent_count(&l->world));
  fxs_web_scene_json(t, &l->world);
  fxs_web_printf(t, "}");
  return fxs_web_finish(t);
}

const char *fxs_web_live_mesh(fxs_web_live *l) {
  if (!l) return fxs_web_error_answer(fxs_web_answer(), NO_WORLD);
  return fxs_web_mesh_json(&l->world);
}

uint64_t fxs_web_live_hash(fxs_web_live *l) { return l ? fxs_world_hash(&l->world) : 0; }

uint32_t fxs_web_live_agents(fxs_web_live *l) {
  return l ? fxs_web_fill_agents(&l->world, l->agents) : 0;
}

const int32_t *fxs_web_live_agent_data(fxs_web_live *l) { return l ? l->agents : 0; }

static void behaviors_json(fxs_web_text *t, const fxs_agent_slot *s) {
  fxs_web_printf(t, "\"behaviors\":[");
  for (uint32_t k = 0; k < s->behavior_count; ++k) {
    const fxs_behavior_slot *b = &s->behaviors[k];
    fxs_web_printf(t, "%s{\"kind\":%u,\"name\":", k ? "," : "", b->kind);
    fxs_web_string(t, fxs_behavior_name((fxs_behavior)b->kind));
    fxs_web_printf(t, ",\"priority\":%u,\"weight\":%d,\"params\":[", b->priority, (int)b->weight);
    for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i)
      fxs_web_printf(t, "%s%d", i ? "," : "", (int)b->p[i]);
    fxs_web_printf(t, "]}");
  }
  fxs_web_printf(t, "]");
}

const char *fxs_web_live_agent(fxs_web_live *l, uint32_t slot) {
  fxs_web_text *t = fxs_web_answer();
  if (!l) return fxs_web_error_answer(t, NO_WORLD);
  fxs_agent_handle h = fxs_world_handle_at(&l->world, slot);
  if (!h.value) return fxs_web_error_answer(t, "no live agent in that slot");
  const fxs_agent_slot *s = &l->world.agents[slot];
  const fxs_agent *a = &s->body;
  fxs_web_printf(
      t, "{\"slot\":%u,\"handle\":%u,\"owner\":%d,\"combine_mode\":%u,\"target_point\":[%d,%d],",
      slot, h.value, s->owned ? (int)s->owner : -1, s->combine_mode, (int)s->target_point.x,
      (int)s->target_point.y);
  fxs_web_printf(t, "\"target_agent\":%u,\"second_target\":%u,\"path\":%d,", s->target_agent,
                 s->second_target, s->path_index == FXS_NO_PATH ? -1 : (int)s->path_index);
  fxs_web_printf(
      t,
      "\"limits\":{\"max_speed\":%d,\"max_force\":%d,\"mass\":%d,\"radius\":%d,\"max_rotation\":%d,"
      "\"max_angular_acceleration\":%d,\"max_turn_rate\":%d,\"orientation_mode\":%u},",
      (int)a->max_speed, (int)a->max_force, (int)a->mass, (int)a->radius, (int)a->max_rotation,
      (int)a->max_angular_acceleration, (int)a->max_turn_rate, a->orientation_mode);
  behaviors_json(t, s);
  fxs_web_printf(t, "}");
  return fxs_web_finish(t);
}

const char *fxs_web_live_replay(fxs_web_live *l) {
  fxs_web_text *t = fxs_web_answer();
  if (!l) return fxs_web_error_answer(t, NO_WORLD);
  // END goes to a copy: the live recording goes on without it.
  fxs_web_sink copy = {0, 0, 0};
  if (!fxs_web_sink_append(&copy, l->out.data, l->out.size))
    return fxs_web_error_answer(t, "out of memory");
  fxs_replay_writer w = l->writer;
  w.user = &copy;
  fxs_result r = fxs_replay_writer_end(&w, &l->world);
  if (r != FXS_OK) {
    free(copy.data);
    return fxs_web_error_answer(t, fxs_result_message(r));
  }
  fxs_web_printf(t, "{\"data\":%lu,\"size\":%zu,\"ticks\":%u,\"final_hash\":\"0x%016llx\"}",
                 (unsigned long)(uintptr_t)copy.data, copy.size, w.ticks,
                 (unsigned long long)fxs_world_hash(&l->world));
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ tables

const char *fxs_web_params(void) {
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(t, "[");
  const char *sep = "";
  for (uint32_t kind = 0; kind < FXS_BEHAVIOR_COUNT; ++kind) {
    if (!fxs_behavior_is_slot_kind(kind)) continue;
    fxs_web_printf(t, "%s{\"kind\":%u,\"name\":", sep, kind), sep = ",";
    fxs_web_string(t, fxs_behavior_name((fxs_behavior)kind));
    fxs_web_printf(t, ",\"kinematic\":%s,\"params\":[",
                   fxs_behavior_is_kinematic((fxs_behavior)kind) ? "true" : "false");
    uint32_t n = fxs_behavior_param_count((fxs_behavior)kind);
    for (uint32_t i = 0; i < n; ++i) {
      const fxs_behavior_param *p = fxs_behavior_param_info((fxs_behavior)kind, i);
      fxs_web_printf(t, "%s{\"name\":", i ? "," : "");
      fxs_web_string(t, p->name);
      fxs_web_printf(t, ",\"unit\":");
      fxs_web_string(t, p->unit);
      fxs_web_printf(t, ",\"min\":%d,\"max\":%d,\"default\":%d,\"meaning\":", (int)p->minimum,
                     (int)p->maximum, (int)p->default_value);
      fxs_web_string(t, p->meaning);
      fxs_web_printf(t, "}");
    }
    fxs_web_printf(t, "]}");
  }
  fxs_web_printf(t, "]");
  return fxs_web_finish(t);
}

const char *fxs_web_commands(void) {
  static const char *const docs[] = {
#define FXS_WEB_DOC_(id, name, doc) doc,
      FXS_COMMAND_LIST(FXS_WEB_DOC_)
#undef FXS_WEB_DOC_
  };
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(t, "{\"bytes\":%u,\"args\":%u,\"types\":[", (unsigned)FXS_COMMAND_BYTES,
                 (unsigned)FXS_COMMAND_ARGS);
  for (uint32_t i = 0; i < FXS_CMD_COUNT; ++i) {
    fxs_web_printf(t, "%s{\"type\":%u,\"name\":", i ? "," : "", i);
    fxs_web_string(t, fxs_command_name((uint8_t)i));
    fxs_web_printf(t, ",\"doc\":");
    fxs_web_string(t, docs[i]);
    fxs_web_printf(t, "}");
  }
  fxs_web_printf(t, "],\"results\":[");
  for (int r = 0; r < FXS_RESULT_COUNT; ++r) {
    fxs_web_printf(t, "%s", r ? "," : "");
    fxs_web_string(t, fxs_result_message((fxs_result)r));
  }
  fxs_web_printf(t, "]}");
  return fxs_web_finish(t);
}
