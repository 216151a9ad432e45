// The web viewer's module, part 2: recording a built-in scenario in the page with the
// library's replay writer (the game logic of tools/fixsteer/scenario.c, compiled in), and
// comparing two recordings of one session.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxs_web.h"
#include "scenario.h"

const char *fxs_web_scenarios(void) {
  uint32_t n;
  const scenario *list = scenario_list(&n);
  fxs_web_text *t = fxs_web_answer();
  fxs_web_printf(t, "[");
  for (uint32_t i = 0; i < n; ++i) {
    fxs_web_printf(t, "%s{\"name\":", i ? "," : "");
    fxs_web_string(t, list[i].name);
    fxs_web_printf(t, ",\"ticks\":%u,\"agents\":%u,\"summary\":", list[i].default_ticks,
                   list[i].capacity.agents);
    fxs_web_string(t, list[i].summary);
    fxs_web_printf(t, "}");
  }
  fxs_web_printf(t, "]");
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ recording

// The session of a recording: the scenario's world, its game state and one tick's commands.
typedef struct session {
  const scenario *sc;
  fxs_world world;
  void *memory;
  scenario_state state;
  fxs_command *commands;
  uint8_t *scratch;
  size_t scratch_size;
} session;

static fxs_result session_start(session *s, const scenario *sc) {
  memset(s, 0, sizeof *s);
  s->sc = sc;
  fxs_world_def def;
  sc->configure(sc, &def);
  size_t size = fxs_world_memory_size(&sc->capacity);
  s->memory = calloc(1, size);
  s->commands = malloc(sizeof(fxs_command) * SCENARIO_MAX_COMMANDS);
  if (!s->memory || !s->commands) return FXS_ERR_BUFFER_TOO_SMALL;
  fxs_result r = fxs_world_init(&s->world, &def, &sc->capacity, s->memory, size);
  if (r != FXS_OK) return r;
  sc->add_paths(sc, &s->world);
  // As the tool sizes it: room for the fullest state the capacities allow.
  s->scratch_size = fxs_world_snapshot_bound(&sc->capacity);
  s->scratch = malloc(s->scratch_size);
  return s->scratch ? FXS_OK : FXS_ERR_BUFFER_TOO_SMALL;
}

static void session_end(session *s) {
  free(s->memory);
  free(s->commands);
  free(s->scratch);
}

// A faulty peer: one bit of the agent's x position flips outside any command.
static void tamper(fxs_world *w, uint32_t slot) {
  if (slot < w->capacity.agents && fxs_world_handle_at(w, (uint16_t)slot).value) {
    w->agents[slot].body.position.x ^= 1;
  }
}

const char *fxs_web_record(const char *name, uint32_t ticks, uint32_t keyframe, int32_t tamper_tick,
                           uint32_t tamper_agent) {
  fxs_web_text *t = fxs_web_answer();
  const scenario *sc = scenario_find(name);
  if (!sc) {
    fxs_web_printf(t, "{\"error\":");
    fxs_web_string(t, "no built-in scenario of that name");
    fxs_web_printf(t, "}");
    return fxs_web_finish(t);
  }
  if (ticks == 0) ticks = sc->default_ticks;
  session s;
  fxs_web_sink out = {0, 0, 0};
  fxs_replay_writer w;
  fxs_result r = session_start(&s, sc);
  if (r == FXS_OK)
    r = fxs_replay_writer_begin(&w, fxs_web_sink_append, &out, &s.world, keyframe, s.scratch,
                                s.scratch_size);
  for (uint32_t tick = 0; tick < ticks && r == FXS_OK; ++tick) {
    uint32_t n = sc->commands(sc, &s.world, &s.state, s.commands);
    fxs_world_step(&s.world, s.commands, n, 0);
    if (tamper_tick >= 0 && tick == (uint32_t)tamper_tick) tamper(&s.world, tamper_agent);
    r = fxs_replay_writer_tick(&w, &s.world, s.commands, n);
  }
  if (r == FXS_OK) r = fxs_replay_writer_end(&w, &s.world);
  session_end(&s);
  if (r != FXS_OK) {
    free(out.data);
    fxs_web_printf(t, "{\"error\":");
    fxs_web_string(t, fxs_result_message(r));
    fxs_web_printf(t, "}");
  } else {
    fxs_web_printf(t, "{\"scenario\":");
    fxs_web_string(t, sc->name);
    fxs_web_printf(t, ",\"data\":%lu,\"size\":%zu,\"ticks\":%u,\"final_hash\":\"0x%016llx\"}",
                   (unsigned long)(uintptr_t)out.data, out.size, ticks,
                   (unsigned long long)w.last_hash);
  }
  return fxs_web_finish(t);
}

// ------------------------------------------------------------------ comparing two recordings

// The first differing field at the first keyframe after `tick` common to both replays.
static void keyframe_difference(fxs_web_text *t, const fxs_web_viewer *a, const fxs_web_viewer *b,
                                uint32_t tick) {
  for (uint32_t i = 0; i < a->keyframe_count; ++i) {
    const fxs_replay_chunk *ka = &a->keyframes[i];
    if (ka->tick <= tick) continue;
    for (uint32_t j = 0; j < b->keyframe_count; ++j) {
      const fxs_replay_chunk *kb = &b->keyframes[j];
      if (kb->tick != ka->tick) continue;
      fxs_world wa, wb;
      void *ma = 0, *mb = 0;
      fxs_world_difference d;
      bool found =
          fxs_web_world_from(&wa, &ma, &a->capacity, ka->snapshot, ka->snapshot_size) == FXS_OK &&
          fxs_web_world_from(&wb, &mb, &b->capacity, kb->snapshot, kb->snapshot_size) == FXS_OK &&
          fxs_world_first_difference(&wa, &wb, &d);
      if (found) {
        fxs_web_printf(t, "{\"tick\":%u,\"agent\":%d,\"field\":", ka->tick, (int)d.agent);
        fxs_web_string(t, d.field);
        fxs_web_printf(t, ",\"a\":%lld,\"b\":%lld}", (long long)d.a, (long long)d.b);
      }
      free(ma);
      free(mb);
      if (found) return;
    }
  }
  fxs_web_printf(t, "null");
}

// The tick ranges where both replays hold a tick and their recorded hashes differ, from
// chunk index `from` on: [[first, last], ...], at most 256 ranges; then their tick count.
static void divergent_ranges(fxs_web_text *t, const fxs_web_viewer *a, const fxs_web_viewer *b,
                             uint32_t from, uint32_t n) {
  uint32_t ranges = 0, count = 0;
  fxs_web_printf(t, "\"ranges\":[");
  for (uint32_t i = from; i < n; ++i) {
    if (a->ticks[i].hash == b->ticks[i].hash) continue;
    uint32_t first = i;
    while (i + 1 < n && a->ticks[i + 1].hash != b->ticks[i + 1].hash) ++i;
    count += i - first + 1;
    if (ranges++ < 256)
      fxs_web_printf(t, "%s[%u,%u]", ranges > 1 ? "," : "", a->ticks[first].tick, a->ticks[i].tick);
  }
  fxs_web_printf(t, "],\"divergent_ticks\":%u", count);
}

const char *fxs_web_diff(fxs_web_viewer *a, fxs_web_viewer *b) {
  fxs_web_text *t = fxs_web_answer();
  uint32_t n = a->tick_count < b->tick_count ? a->tick_count : b->tick_count;
  if (a->start_tick != b->start_tick) n = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const fxs_replay_chunk *ca = &a->ticks[i], *cb = &b->ticks[i];
    bool same_input =
        ca->command_count == cb->command_count &&
        memcmp(ca->commands, cb->commands, (size_t)ca->command_count * FXS_COMMAND_BYTES) == 0;
    if (!same_input) {
      fxs_web_printf(t, "{\"same_session\":false,\"inputs_differ_at\":%u}", ca->tick);
      return fxs_web_finish(t);
    }
    if (ca->hash != cb->hash) {
      fxs_web_printf(t, "{\"same_session\":true,\"identical\":false,\"first_divergent_tick\":%u,",
                     ca->tick);
      fxs_web_printf(t, "\"hash_a\":\"0x%016llx\",\"hash_b\":\"0x%016llx\",",
                     (unsigned long long)ca->hash, (unsigned long long)cb->hash);
      divergent_ranges(t, a, b, i, n);
      fxs_web_printf(t, ",\"difference\":");
      keyframe_difference(t, a, b, ca->tick);
      fxs_web_printf(t, "}");
      return fxs_web_finish(t);
    }
  }
  if (a->start_tick != b->start_tick || a->tick_count != b->tick_count) {
    fxs_web_printf(t, "{\"same_session\":true,\"identical\":false,\"lengths_differ\":[%u,%u]}",
                   a->start_tick + a->tick_count, b->start_tick + b->tick_count);
  } else {
    fxs_web_printf(
        t, "{\"same_session\":true,\"identical\":true,\"ticks\":%u,\"final_hash\":\"0x%016llx\"}",
        n, (unsigned long long)a->ticks[n - 1].hash);
  }
  return fxs_web_finish(t);
}
