// A run of states from a scenario or a replay (source.h).
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/snapshot.h"

static void clear(source *src) { memset(src, 0, sizeof *src); }

static int open_scenario(source *src, const options *o) {
  if (session_start(&src->s, o->scenario, &o->yaml) != EXIT_OK) {
    session_end(&src->s);
    return EXIT_BAD;
  }
  src->name = src->s.sc->name;
  src->world = &src->s.world;
  src->ticks = o->ticks >= 0 ? o->ticks : (long)src->s.sc->default_ticks;
  return EXIT_OK;
}

// First pass over a replay: every chunk is read and checked (checksums, sequence), the TICK
// chunks are counted against the limits and their hashes kept. Returns the largest command
// count of a tick, or minus the exit code after printing the error.
static long scan_replay(source *src, const fxs_limits *limits) {
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, src->f.data, src->f.size, true, limits, &at);
  if (e != FXS_OK) return -(long)file_bad_input(&src->f, at, e, &r.limit_error);
  long capacity = 0, most = 0;
  while (!r.ended) {
    fxs_replay_chunk c;
    if ((e = fxs_replay_next(&r, &c, &at)) != FXS_OK)
      return -(long)file_bad_input(&src->f, at, e, 0);
    if (c.tag != FXS_CHUNK_TICK) continue;
    uint64_t agent_ticks = (uint64_t)(src->recorded + 1) * r.capacity.agents;
    fxs_limit_error le = {0, 0, 0};
    if ((uint64_t)src->recorded + 1 > limits->max_ticks) {
      le = (fxs_limit_error){"max_ticks", limits->max_ticks, (uint64_t)src->recorded + 1};
    } else if (agent_ticks > limits->max_agent_ticks) {
      le = (fxs_limit_error){"max_agent_ticks", limits->max_agent_ticks, agent_ticks};
    }
    if (le.field) return -(long)file_bad_input(&src->f, c.offset, FXS_ERR_LIMIT, &le);
    if (src->recorded == capacity) {
      capacity = capacity ? capacity * 2 : 1024;
      uint64_t *grown = realloc(src->hashes, (size_t)capacity * sizeof *grown);
      if (!grown) return fprintf(stderr, "fixsteer: %s: out of memory\n", src->f.name), -EXIT_BAD;
      src->hashes = grown;
    }
    src->hashes[src->recorded++] = c.hash;
    if (c.command_count > most) most = c.command_count;
  }
  if (src->recorded == 0) return -(long)file_bad_input(&src->f, at, FXS_ERR_NO_TICKS, 0);
  return most;
}

static int open_replay(source *src, const char *cmd, const options *o, const char *name) {
  src->is_replay = true;
  src->name = name;
  if (!file_read_replay(name, &o->limits, &src->f)) return EXIT_BAD;
  long most = scan_replay(src, &o->limits);
  if (most < 0) return (int)-most;
  if (o->ticks > src->recorded) {
    char text[96];
    snprintf(text, sizeof text, "%ld (%s holds %ld ticks)", o->ticks, name, src->recorded);
    return fail_usage(cmd, "--ticks is more than the replay holds", text);
  }
  src->ticks = o->ticks >= 0 ? o->ticks : src->recorded;
  size_t at = 0;
  fxs_replay_open(&src->reader, src->f.data, src->f.size, true, &o->limits, &at);
  const fxs_replay_chunk *snap = &src->reader.initial;
  size_t size = fxs_world_memory_size(&src->reader.capacity);
  src->memory = calloc(1, size);
  src->commands = malloc((size_t)(most ? most : 1) * sizeof(fxs_command));
  fxs_world_def def = fxs_default_world_def();
  fxs_result e = FXS_ERR_BUFFER_TOO_SMALL;
  if (src->memory && src->commands &&
      fxs_world_init(&src->replay_world, &def, &src->reader.capacity, src->memory, size) ==
          FXS_OK) {
    e = fxs_world_restore(&src->replay_world, snap->snapshot, snap->snapshot_size, &at);
  }
  // The snapshot starts after the chunk's tag and length.
  if (e != FXS_OK) return file_bad_input(&src->f, snap->offset + 8 + at, e, 0);
  src->world = &src->replay_world;
  return EXIT_OK;
}

int source_open(source *src, const char *cmd, const options *o, int file_index) {
  clear(src);
  int code =
      file_index < 0 ? open_scenario(src, o) : open_replay(src, cmd, o, o->files[file_index]);
  if (code != EXIT_OK) source_close(src);
  else progress_start(&src->progress, cmd, (uint64_t)src->ticks, o->quiet);
  return code;
}

static bool replay_step(source *src) {
  fxs_replay_chunk c;
  size_t at;
  do {
    // The first pass read every chunk, so this cannot fail.
    if (fxs_replay_next(&src->reader, &c, &at) != FXS_OK) return false;
  } while (c.tag == FXS_CHUNK_KEYFRAME);
  if (c.tag != FXS_CHUNK_TICK) return false;
  for (uint16_t i = 0; i < c.command_count; ++i) {
    fxs_command_decode(c.commands + (size_t)i * FXS_COMMAND_BYTES, &src->commands[i]);
  }
  fxs_world_step(&src->replay_world, src->commands, c.command_count, 0);
  uint64_t h = 0; // in the replay's own version of the state hash (checked on opening)
  fxs_world_hash_as(&src->replay_world, fxs_replay_state_hash_version(src->reader.version), &h);
  if (h != c.hash) {
    src->diverged = true;
    src->diverged_tick = c.tick;
    src->expected_hash = c.hash, src->actual_hash = h;
    return false;
  }
  return true;
}

bool source_step(source *src) {
  if (src->stepped >= src->ticks || src->diverged || (src->is_replay && !replay_step(src))) {
    progress_end(&src->progress); // the work is over: the caller prints its results next
    return false;
  }
  if (!src->is_replay) {
    session_tick(&src->s);
  }
  ++src->stepped;
  progress_show(&src->progress, (uint64_t)src->stepped, src->world->tick);
  return true;
}

int source_report_divergence(source *src) {
  progress_end(&src->progress);
  if (!src->diverged) return EXIT_OK;
  if (file_unversioned(&src->f)) { // most likely recorded by a build that behaved otherwise
    fprintf(stderr, "fixsteer: ");
    file_unversioned_note(stderr, &src->f);
  }
  fprintf(stderr,
          "fixsteer: %s: DIVERGED at tick %u: recorded hash 0x%016llx, re-simulated 0x%016llx; "
          "only the %ld ticks before it are used\n",
          src->name, src->diverged_tick, (unsigned long long)src->expected_hash,
          (unsigned long long)src->actual_hash, src->stepped);
  return file_unversioned(&src->f) ? EXIT_VERSION : EXIT_DIVERGED;
}

void source_close(source *src) {
  progress_end(&src->progress);
  if (src->is_replay) {
    file_free(&src->f);
    free(src->memory);
    free(src->commands);
  } else if (src->world) {
    session_end(&src->s);
  }
  free(src->hashes);
  src->hashes = 0, src->memory = 0, src->commands = 0, src->world = 0;
}
