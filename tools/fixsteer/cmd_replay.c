// fixsteer verify, dump and diff (commands.h): replay files, read within limits (files.h).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"
#include "cli.h"
#include "commands.h"
#include "files.h"
#include "progress.h"

static double units(fix16_t v) { return v / 65536.0; }

static int bad_input(const file *f, size_t offset, fxs_result r) {
  return file_bad_input(f, offset, r, 0);
}

static void print_difference(const char *who, const fxs_world_difference *d, uint32_t tick) {
  if (d->agent >= 0) {
    printf(
        "  at tick %u (keyframe): agent %d, field %s: %s %lld (%.5f), re-simulated %lld (%.5f)\n",
        tick, d->agent, d->field, who, (long long)d->b, d->b / 65536.0, (long long)d->a,
        d->a / 65536.0);
  } else {
    printf("  at tick %u (keyframe): %s: %s %lld, re-simulated %lld\n", tick, d->field, who,
           (long long)d->b, (long long)d->a);
  }
}

static void verify_progress(void *user, uint32_t ticks, size_t offset) {
  progress_show((progress *)user, offset, ticks);
}

int cmd_verify(int argc, char **argv) {
  options o;
  int done = command_options("verify", argc, argv, 1, &o);
  if (done >= 0) return done;
  if (o.file_count != 1) return fail_usage("verify", "takes one FILE", 0);
  file f;
  if (!file_read_replay(o.files[0], &o.limits, &f)) return EXIT_BAD;
  size_t need = fxs_replay_verify_memory_size(f.data, f.size, &o.limits);
  void *memory = need ? calloc(1, need) : 0;
  fxs_verify_report rep;
  progress p;
  progress_start_bytes(&p, "verify", f.size, o.quiet);
  fxs_replay_verify_progress(f.data, f.size, &o.limits, memory, need, &rep, verify_progress, &p);
  progress_end(&p);
  free(memory);
  int code = EXIT_OK;
  if (rep.result == FXS_OK) {
    printf("%s: %u ticks verified, final hash 0x%016llx\n", f.name, rep.ticks,
           (unsigned long long)rep.final_hash);
  } else if (fxs_verify_diverged(rep.result)) {
    // A replay of a format without a simulation version that does not reproduce was most
    // likely recorded by a build that behaved otherwise: said so first, not called a desync.
    bool unversioned = file_unversioned(&f);
    if (unversioned) file_unversioned_note(stdout, &f);
    printf("%s: %s at tick %u (byte %zu): %s", f.name,
           unversioned ? "first difference" : "DIVERGED", rep.first_bad_tick, rep.error_offset,
           fxs_result_message(rep.result));
    if (rep.result == FXS_ERR_HASH_MISMATCH || rep.result == FXS_ERR_END_MISMATCH) {
      printf(": recorded hash 0x%016llx, re-simulated 0x%016llx",
             (unsigned long long)rep.expected_hash, (unsigned long long)rep.actual_hash);
    }
    printf("\n");
    if (rep.has_difference) print_difference("recorded", &rep.difference, rep.difference_tick);
    else printf("  no keyframe after the divergence to name the field\n");
    code = unversioned ? EXIT_VERSION : EXIT_DIVERGED;
  } else {
    code = file_bad_input(&f, rep.error_offset, rep.result, &rep.limit_error);
  }
  file_free(&f);
  return code;
}

static void dump_command(const uint8_t *bytes) {
  fxs_command c;
  fxs_command_decode(bytes, &c);
  printf("    %-17s src %u seq %u agent 0x%08x ref 0x%x args", fxs_command_name(c.type), c.source,
         c.sequence, c.agent, c.ref);
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) printf(" %.4f", units(c.arg[i]));
  printf("\n");
}

// The replay's world: what it can hold (capacity) apart from what its initial state holds.
static void dump_world(const fxs_replay_reader *r) {
  fxs_world_capacity cap;
  fxs_snapshot_capacity(r->initial.snapshot, r->initial.snapshot_size, &cap);
  printf("capacity: %u agents, %u obstacles, %u walls, %u paths, %u path nodes", cap.agents,
         cap.obstacles, cap.walls, cap.paths, cap.path_nodes);
  if (cap.field_cells) printf(", %u field cells", cap.field_cells);
  printf("; snapshot %zu bytes\n", r->initial.snapshot_size);
  size_t size = fxs_world_memory_size(&cap);
  void *memory = size ? calloc(1, size) : 0;
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  if (memory && fxs_world_init(&w, &def, &cap, memory, size) == FXS_OK &&
      fxs_world_restore(&w, r->initial.snapshot, r->initial.snapshot_size, 0) == FXS_OK) {
    uint32_t obstacles = 0, walls = 0;
    for (uint32_t i = 0; i < cap.obstacles; ++i) obstacles += w.obstacle_alive[i];
    for (uint32_t i = 0; i < cap.walls; ++i) walls += w.wall_alive[i];
    printf("at tick %u: %u agents, %u obstacles, %u walls, %u paths, %u path nodes\n", w.tick,
           fxs_world_agent_count(&w), obstacles, walls, w.path_count, w.node_count);
  }
  free(memory);
}

int cmd_dump(int argc, char **argv) {
  options o;
  int done = command_options("dump", argc, argv, 1, &o);
  if (done >= 0) return done;
  if (o.file_count != 1) return fail_usage("dump", "takes one FILE", 0);
  file f;
  if (!file_read_replay(o.files[0], &o.limits, &f)) return EXIT_BAD;
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, f.data, f.size, false, &o.limits, &at);
  if (e != FXS_OK) {
    file_bad_input(&f, at, e, &r.limit_error);
    file_free(&f);
    return EXIT_BAD;
  }
  printf("replay %s: version %u, fingerprint 0x%016llx (%s), keyframe every %u ticks\n", f.name,
         r.version, (unsigned long long)r.fingerprint,
         r.fingerprint == fxs_math_fingerprint() ? "this build" : "OTHER BUILD",
         r.keyframe_interval);
  if (r.version < FXS_REPLAY_SIMULATION_VERSION_SINCE)
    printf("simulation version: none (recorded before simulation versions existed)\n");
  else
    printf("simulation version %u (%s)\n", r.simulation_version,
           r.simulation_version == FXS_SIMULATION_VERSION ? "this build"
           : r.simulation_version >= FXS_SIMULATION_VERSION_OLDEST &&
                   r.simulation_version < FXS_SIMULATION_VERSION
               ? "an older one this build verifies by its rules"
               : "OTHER BUILD");
  dump_world(&r);
  while (!r.ended) {
    fxs_replay_chunk c;
    if ((e = fxs_replay_next(&r, &c, &at)) != FXS_OK) {
      bad_input(&f, at, e);
      file_free(&f);
      return EXIT_BAD;
    }
    if (c.tag == FXS_CHUNK_TICK) {
      printf("tick %u: %u commands, hash 0x%016llx\n", c.tick, c.command_count,
             (unsigned long long)c.hash);
      for (uint16_t i = 0; i < c.command_count; ++i)
        dump_command(c.commands + (size_t)i * FXS_COMMAND_BYTES);
    } else if (c.tag == FXS_CHUNK_KEYFRAME) {
      printf("keyframe after tick %u: %zu bytes\n", c.tick, c.snapshot_size);
    } else {
      printf("end: %u ticks, final hash 0x%016llx\n", c.tick, (unsigned long long)c.hash);
    }
  }
  file_free(&f);
  return EXIT_OK;
}

// The next TICK or KEYF chunk (or END) of a reader; returns the result.
static fxs_result next_chunk(fxs_replay_reader *r, fxs_replay_chunk *c, size_t *at) {
  if (r->ended) {
    memset(c, 0, sizeof *c);
    c->tag = FXS_CHUNK_END;
    return FXS_OK;
  }
  return fxs_replay_next(r, c, at);
}

// The next TICK chunk (or END) of a reader, keyframes skipped; returns the result.
static fxs_result next_tick(fxs_replay_reader *r, fxs_replay_chunk *c, size_t *at) {
  fxs_result e;
  do {
    if ((e = next_chunk(r, c, at)) != FXS_OK) return e;
  } while (c->tag == FXS_CHUNK_KEYFRAME);
  return FXS_OK;
}

// Restores the first keyframe at or after `tick` of each replay and names the difference.
static void diff_keyframes(fxs_replay_reader *ra, fxs_replay_reader *rb, uint32_t tick) {
  fxs_replay_chunk ka, kb;
  size_t at;
  memset(&ka, 0, sizeof ka);
  memset(&kb, 0, sizeof kb);
  while (!(ka.tag == FXS_CHUNK_KEYFRAME && ka.tick >= tick) && !ra->ended &&
         next_chunk(ra, &ka, &at) == FXS_OK) {
  }
  while (!(kb.tag == FXS_CHUNK_KEYFRAME && kb.tick >= tick) && !rb->ended &&
         next_chunk(rb, &kb, &at) == FXS_OK) {
  }
  if (ka.tag != FXS_CHUNK_KEYFRAME || kb.tag != FXS_CHUNK_KEYFRAME || ka.tick != kb.tick) {
    printf("  no common keyframe after the divergence to name the field\n");
    return;
  }
  fxs_world_capacity cap;
  fxs_snapshot_capacity(ka.snapshot, ka.snapshot_size, &cap);
  size_t size = fxs_world_memory_size(&cap);
  void *ma = calloc(1, size), *mb = calloc(1, size);
  fxs_world wa, wb;
  fxs_world_def def = fxs_default_world_def();
  fxs_world_difference d;
  if (ma && mb && fxs_world_init(&wa, &def, &cap, ma, size) == FXS_OK &&
      fxs_world_init(&wb, &def, &cap, mb, size) == FXS_OK &&
      fxs_world_restore(&wa, ka.snapshot, ka.snapshot_size, 0) == FXS_OK &&
      fxs_world_restore(&wb, kb.snapshot, kb.snapshot_size, 0) == FXS_OK &&
      fxs_world_first_difference(&wb, &wa, &d)) {
    if (d.agent >= 0) {
      printf("  at tick %u (keyframe): agent %d, field %s: A %lld (%.5f), B %lld (%.5f)\n", ka.tick,
             d.agent, d.field, (long long)d.b, d.b / 65536.0, (long long)d.a, d.a / 65536.0);
    } else {
      printf("  at tick %u (keyframe): %s: A %lld, B %lld\n", ka.tick, d.field, (long long)d.b,
             (long long)d.a);
    }
  }
  free(ma);
  free(mb);
}

// Replays that start at different ticks (a player who joined late records from its join
// tick): says so and skips the earlier one's ticks up to the later start, `*first`.
static int line_up(const file *a, const file *b, fxs_replay_reader *ra, fxs_replay_reader *rb,
                   fxs_replay_chunk *ca, fxs_replay_chunk *cb, uint32_t *first) {
  bool a_first = ca->tick < cb->tick;
  *first = a_first ? cb->tick : ca->tick;
  printf(
      "starts differ: A holds ticks from %u, B from %u; compared: the ticks both hold, from %u\n",
      ca->tick, cb->tick, *first);
  fxs_replay_reader *r = a_first ? ra : rb;
  fxs_replay_chunk *c = a_first ? ca : cb;
  const file *f = a_first ? a : b;
  size_t at = 0;
  fxs_result e;
  while (c->tag == FXS_CHUNK_TICK && c->tick < *first) {
    if ((e = next_tick(r, c, &at)) != FXS_OK) return bad_input(f, at, e);
  }
  if (c->tag != FXS_CHUNK_TICK || c->tick != *first) {
    fprintf(stderr, "fixsteer: %s holds no tick %u, where %s starts: no tick to compare\n", f->name,
            *first, a_first ? b->name : a->name);
    return EXIT_BAD;
  }
  return EXIT_OK;
}

static int diff_files(const file *pa, const file *pb, const fxs_limits *limits) {
  const file a = *pa, b = *pb;
  fxs_replay_reader ra, rb;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&ra, a.data, a.size, false, limits, &at);
  if (e != FXS_OK) return file_bad_input(&a, at, e, &ra.limit_error);
  if ((e = fxs_replay_open(&rb, b.data, b.size, false, limits, &at)) != FXS_OK) {
    return file_bad_input(&b, at, e, &rb.limit_error);
  }
  if (ra.fingerprint != rb.fingerprint) {
    printf("math differs: A fingerprint 0x%016llx, B 0x%016llx\n",
           (unsigned long long)ra.fingerprint, (unsigned long long)rb.fingerprint);
  }
  // Recordings of two simulation versions may differ without any desync: said so, and a
  // difference between them is not called one.
  int diverged = EXIT_DIVERGED;
  if (ra.simulation_version != rb.simulation_version) {
    printf("simulation versions differ: A %u, B %u (0: recorded before simulation versions)\n",
           (unsigned)ra.simulation_version, (unsigned)rb.simulation_version);
    diverged = EXIT_VERSION;
  }
  if (ra.version != rb.version) { // hashes of two different functions: nothing to compare
    fprintf(stderr,
            "fixsteer: %s is replay format %u (state hash v%u), %s format %u (state hash v%u): "
            "their hashes cannot be compared; record both with one version\n",
            a.name, (unsigned)ra.version, (unsigned)fxs_replay_state_hash_version(ra.version),
            b.name, (unsigned)rb.version, (unsigned)fxs_replay_state_hash_version(rb.version));
    return EXIT_BAD;
  }
  // Lined up by tick: the earlier replay's first ticks have nothing to be compared with.
  fxs_replay_chunk ca, cb;
  if ((e = next_tick(&ra, &ca, &at)) != FXS_OK) return bad_input(&a, at, e);
  if ((e = next_tick(&rb, &cb, &at)) != FXS_OK) return bad_input(&b, at, e);
  uint32_t first = ca.tick;
  bool same_start = ca.tag != FXS_CHUNK_TICK || cb.tag != FXS_CHUNK_TICK || ca.tick == cb.tick;
  if (!same_start) {
    int code = line_up(&a, &b, &ra, &rb, &ca, &cb, &first);
    if (code != EXIT_OK) return code;
  }
  for (uint32_t common = 0;; ++common) {
    if (ca.tag == FXS_CHUNK_END || cb.tag == FXS_CHUNK_END) {
      if (ca.tag == cb.tag && same_start)
        return printf("identical: %u ticks, final hash 0x%016llx\n", ca.tick,
                      (unsigned long long)ca.hash),
               EXIT_OK;
      if (ca.tag == cb.tag)
        return printf("identical over the common ticks: %u ticks (%u..%u), final hash 0x%016llx\n",
                      common, first, first + common - 1u, (unsigned long long)ca.hash),
               EXIT_OK;
      return printf("lengths differ: one recording ends at tick %u\n",
                    ca.tag == FXS_CHUNK_END ? cb.tick : ca.tick),
             diverged;
    }
    bool same_input =
        ca.command_count == cb.command_count &&
        memcmp(ca.commands, cb.commands, (size_t)ca.command_count * FXS_COMMAND_BYTES) == 0;
    if (!same_input) {
      fprintf(stderr,
              "fixsteer: %s and %s are not recordings of the same session: their inputs differ at "
              "tick %u\n",
              a.name, b.name, ca.tick);
      return EXIT_BAD;
    }
    if (ca.hash != cb.hash) {
      printf("first divergent tick %u: A 0x%016llx, B 0x%016llx\n", ca.tick,
             (unsigned long long)ca.hash, (unsigned long long)cb.hash);
      diff_keyframes(&ra, &rb, ca.tick);
      return diverged;
    }
    if ((e = next_tick(&ra, &ca, &at)) != FXS_OK) return bad_input(&a, at, e);
    if ((e = next_tick(&rb, &cb, &at)) != FXS_OK) return bad_input(&b, at, e);
  }
}

int cmd_diff(int argc, char **argv) {
  options o;
  int done = command_options("diff", argc, argv, 2, &o);
  if (done >= 0) return done;
  if (o.file_count != 2) return fail_usage("diff", "takes two files", 0);
  file a = {o.files[0], 0, 0}, b = {o.files[1], 0, 0};
  int code = EXIT_BAD;
  if (file_read_replay(o.files[0], &o.limits, &a) && file_read_replay(o.files[1], &o.limits, &b)) {
    code = diff_files(&a, &b, &o.limits);
  }
  file_free(&a);
  file_free(&b);
  return code;
}
