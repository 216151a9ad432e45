// fxs-threads: determinism with threads, four ways (built twice: plain and with
// ThreadSanitizer, make threads-check):
//  1. the golden replays verified concurrently in 1, 2, 4, 8 and 16 threads, one world per
//     thread and per replay, each replay once a round, by another thread each round: every
//     thread gets the single-threaded final hashes;
//  2. every golden replay re-simulated with the world's task system on a pthread pool of 1,
//     2, 4, 8 and 16 workers (phases cut as finely as possible): every tick's hash matches
//     the recording;
//  3. a 100,000-agent flock (separation, alignment, cohesion, wander; about ten neighbors
//     each) stepped on 1, 2, 4, 8 and 16 workers: fxs_world_hash equals the inline run's at
//     every tick;
//  4. the RTS map (tools/rts_map.h) with 10,000 navigate agents, on the grid and on a mesh,
//     with its script (a wall closing a door, a click, the wall's removal) while its 32 group
//     fields are built: on 2, 4, 8 and 16 workers every tick's hash as the inline run's; on
//     16 workers, rollbacks at four ticks with a field half built, and late joins (inline)
//     from the same snapshots, continue with the straight run's hashes (check_rts).
// Prints "threads: N passed, N failed".
//
//   fxs-threads [--flock-ticks N] [--flock-agents N] [--rts-agents N] REPLAY...
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "rts_map.h"
#include "task_pool.h"
#include "uniform_flock.h"

#define MAX_REPLAYS 64
#define ROUNDS 2

typedef struct replay_file {
  char name[128];
  uint8_t *data;
  size_t size;
} replay_file;

static replay_file replays[MAX_REPLAYS];
static int replay_count;

// One thread's share of a verification: of `threads` threads it is number `index`, and in
// round r it verifies the replays i with (i + r) % threads == index (all of them when threads
// is 1). Without `expected` it records each final hash in `hashes`; with it, a final hash
// other than expected[i] is a failure.
typedef struct job {
  int index, threads, rounds;
  const uint64_t *expected;
  uint64_t hashes[MAX_REPLAYS];
  int failures;
} job;

static void *verify_share(void *arg) {
  job *j = (job *)arg;
  for (int round = 0; round < j->rounds; ++round) {
    for (int i = 0; i < replay_count; ++i) {
      if ((i + round) % j->threads != j->index) continue;
      size_t need = fxs_replay_verify_memory_size(replays[i].data, replays[i].size, 0);
      void *memory = calloc(1, need);
      fxs_verify_report rep;
      if (!memory ||
          fxs_replay_verify(replays[i].data, replays[i].size, 0, memory, need, &rep) != FXS_OK) {
        j->failures++;
      } else if (!j->expected) {
        j->hashes[i] = rep.final_hash;
      } else if (j->expected[i] != rep.final_hash) {
        j->failures++;
      }
      free(memory);
    }
  }
  return 0;
}

static int load(const char *path) {
  if (replay_count == MAX_REPLAYS) {
    return fprintf(stderr, "fxs-threads: more than %d replays; %s not read\n", MAX_REPLAYS, path),
           -1;
  }
  FILE *f = fopen(path, "rb");
  if (!f) return fprintf(stderr, "fxs-threads: cannot read %s\n", path), -1;
  replay_file *r = &replays[replay_count++];
  snprintf(r->name, sizeof r->name, "%s", path);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  r->data = malloc(size > 0 ? (size_t)size : 1);
  r->size = r->data ? fread(r->data, 1, (size_t)size, f) : 0;
  fclose(f);
  return r->size == (size_t)size ? 0 : -1;
}

static const uint32_t worker_counts[] = {1, 2, 4, 8, 16};
#define WORKER_COUNTS 5

// Check 1: one world per thread, the replays shared out among the threads and each
// verified ROUNDS times, by a different thread each round.
static int check_concurrent_replays(const job *single) {
  int failed = 0;
  for (int c = 0; c < WORKER_COUNTS; ++c) {
    int n = (int)worker_counts[c];
    pthread_t threads[16];
    job jobs[16];
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < n; ++t) {
      jobs[t].index = t, jobs[t].threads = n, jobs[t].rounds = ROUNDS;
      jobs[t].expected = single->hashes;
      pthread_create(&threads[t], 0, verify_share, &jobs[t]);
    }
    int bad = 0;
    for (int t = 0; t < n; ++t) {
      pthread_join(threads[t], 0);
      bad += jobs[t].failures;
    }
    printf("%2d threads x %d replays x %d rounds: %s\n", n, replay_count, ROUNDS,
           bad ? "DIFFERENT" : "identical final hashes");
    failed += bad != 0;
  }
  return failed;
}

// Re-simulates one replay with `tasks`; the number of ticks whose hash differs from the
// recording (or -1 when the replay cannot be read).
static long resimulate(const replay_file *rf, const fxs_task_system *tasks) {
  fxs_replay_reader r;
  fxs_world_capacity cap;
  if (fxs_replay_open(&r, rf->data, rf->size, true, 0, 0) != FXS_OK) return -1;
  if (fxs_snapshot_capacity(r.initial.snapshot, r.initial.snapshot_size, &cap) != FXS_OK) return -1;
  cap.workers = FXS_MAX_WORKERS;
  size_t size = fxs_world_memory_size(&cap);
  void *memory = size ? malloc(size) : 0;
  fxs_world w;
  fxs_world_def def = fxs_default_world_def(); // replaced by the snapshot's
  long bad = -1;
  if (memory && fxs_world_init(&w, &def, &cap, memory, size) == FXS_OK &&
      fxs_world_restore(&w, r.initial.snapshot, r.initial.snapshot_size, 0) == FXS_OK &&
      fxs_world_set_tasks(&w, tasks) == FXS_OK) {
    static fxs_command commands[FXS_REPLAY_MAX_COMMANDS]; // one caller at a time
    fxs_replay_chunk c;
    bad = 0;
    while (!r.ended && fxs_replay_next(&r, &c, 0) == FXS_OK) {
      if (c.tag != FXS_CHUNK_TICK) continue;
      for (uint16_t i = 0; i < c.command_count; ++i) {
        fxs_command_decode(c.commands + (size_t)i * FXS_COMMAND_BYTES, &commands[i]);
      }
      fxs_world_step(&w, commands, c.command_count, 0);
      uint64_t h = 0; // in the replay's own version of the state hash
      fxs_world_hash_as(&w, fxs_replay_state_hash_version(r.version), &h);
      bad += h != c.hash;
    }
    if (!r.ended) bad = -1;
  }
  free(memory);
  return bad;
}

// Check 2: the golden replays through the world's task system.
static int check_task_replays(void) {
  int failed = 0;
  for (int c = 0; c < WORKER_COUNTS; ++c) {
    task_pool pool;
    if (task_pool_start(&pool, worker_counts[c]) != 0) {
      task_pool_stop(&pool); // joins the threads that did start
      return WORKER_COUNTS;
    }
    pool.finest = 1;
    fxs_task_system tasks = task_pool_system(&pool);
    long bad = 0;
    for (int i = 0; i < replay_count; ++i) {
      long b = resimulate(&replays[i], &tasks);
      bad += b < 0 ? 1 : b;
    }
    task_pool_stop(&pool);
    printf("%2u workers, task system, %d replays tick by tick: %s\n", worker_counts[c],
           replay_count, bad ? "DIFFERENT" : "every hash as recorded");
    failed += bad != 0;
  }
  return failed;
}

// Steps a uniform flock `ticks` times (inline when workers is 0) and stores each tick's hash.
static int flock_hashes(uint32_t agents, int ticks, uint32_t workers, uint64_t *hashes) {
  uniform u;
  task_pool pool;
  int made = uniform_make(&u, agents) == 0, ok = made;
  // A pool that fails to start is stopped all the same (its started threads joined).
  int pooled = made && workers > 0;
  if (pooled) ok = task_pool_start(&pool, workers) == 0;
  if (ok && pooled) {
    fxs_task_system tasks = task_pool_system(&pool);
    ok = fxs_world_set_tasks(&u.world, &tasks) == FXS_OK;
  }
  if (ok) {
    uniform_spawns(&u);
    for (uint32_t i = 0; i < agents; ++i) fxs_world_apply(&u.world, &u.commands[i], 0);
    uniform_behaviors(&u);
    for (int t = 0; t < ticks; ++t) {
      fxs_world_step(&u.world, 0, 0, 0);
      hashes[t] = fxs_world_hash(&u.world);
    }
  }
  if (pooled) fxs_world_set_tasks(&u.world, 0), task_pool_stop(&pool);
  uniform_free(&u);
  return ok ? 0 : -1;
}

// Check 3: a big flock on 1..16 workers against the inline run.
static int check_flock(uint32_t agents, int ticks) {
  uint64_t inline_hashes[64], hashes[64];
  int failed = 0;
  if (flock_hashes(agents, ticks, 0, inline_hashes) != 0) return WORKER_COUNTS;
  for (int c = 0; c < WORKER_COUNTS; ++c) {
    int same = flock_hashes(agents, ticks, worker_counts[c], hashes) == 0;
    for (int t = 0; t < ticks && same; ++t) same = hashes[t] == inline_hashes[t];
    printf("%2u workers, %u-agent flock, %d ticks: %s (last %016llx)\n", worker_counts[c], agents,
           ticks, same ? "every hash as inline" : "DIFFERENT",
           (unsigned long long)inline_hashes[ticks - 1]);
    failed += !same;
  }
  return failed;
}

// ------------------------------------------------------------------ check 4: the RTS map

// The map's script (rts_map.h) runs RTS_SCRIPT_TICKS ticks. Snapshots are taken after the first
// 2, 5, 9 and 14 ticks (ticks 1, 4, 8 and 13 counted from 0, as the script counts them); a
// rollback runs RTS_AHEAD ticks on before it restores one, on RTS_ROLLBACK_WORKERS workers.
// The grid's fields are built about one a tick (the wall at tick 4 and its removal at tick 12
// start them again), the mesh's trees in about 10 ticks: every snapshot must hold a field half
// built, or the check fails.
#define RTS_AHEAD 4u
#define RTS_ROLLBACK_WORKERS 16u
static const uint32_t rts_saves[] = {2u, 5u, 9u, 14u};
#define RTS_SAVES 4u
// Results check_rts gives for one map kind: one for each worker count but 1 (WORKER_COUNTS - 1),
// and one for the rollbacks.
#define RTS_RESULTS WORKER_COUNTS
static fxs_command rts_commands[RTS_SCRIPT_MAX_COMMANDS];

// Group fields half built: live, begun (cells settled) and not seen complete.
static uint32_t rts_half_built(const fxs_world *w) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) {
    const fxs_nav_field_slot *f = &w->nav.field_slots[k];
    n += f->live && !f->ready && f->settled > 0;
  }
  return n;
}

// Tick t of world r (the script's commands of tick t applied); returns its hash after it.
static uint64_t rts_tick(rts_world *r, uint32_t t) {
  uint32_t n = rts_script(r, t, rts_commands);
  fxs_world_step(&r->world, n ? rts_commands : 0, n, 0);
  return fxs_world_hash(&r->world);
}

static int rts_world_open(rts_world *r, uint32_t agents, int mesh) {
  rts_options o = {.workers = FXS_MAX_WORKERS,
                   .spare_walls = RTS_SCRIPT_WALLS,
                   .budget = mesh ? RTS_MESH_BUDGET : 0u,
                   .mesh = mesh};
  return rts_open(r, agents, RTS_WALLS, &o);
}

// World r stepped on the pool (pool 0: inline); 0 when the world refuses it.
static int rts_use(rts_world *r, task_pool *pool) {
  fxs_task_system tasks;
  if (pool) tasks = task_pool_system(pool);
  return fxs_world_set_tasks(&r->world, pool ? &tasks : 0) == FXS_OK;
}

// A pool of `workers` workers, its phases cut as finely as possible; 0 on success. Stopped
// with task_pool_stop whatever the result.
static int rts_pool(task_pool *pool, uint32_t workers) {
  int started = task_pool_start(pool, workers) == 0;
  pool->finest = 1;
  return started ? 0 : -1;
}

// The straight run on `workers` (0: inline): each tick's hash into hashes; 0 on success.
static int rts_straight(uint32_t agents, int mesh, uint32_t workers, uint64_t *hashes) {
  static rts_world r;
  task_pool pool;
  if (!rts_world_open(&r, agents, mesh)) return free(r.memory), -1;
  int ok = 1;
  if (workers > 0) ok = rts_pool(&pool, workers) == 0 && rts_use(&r, &pool);
  for (uint32_t t = 0; ok && t < RTS_SCRIPT_TICKS; ++t) hashes[t] = rts_tick(&r, t);
  if (workers > 0) rts_use(&r, 0), task_pool_stop(&pool);
  free(r.memory);
  return ok ? 0 : -1;
}

// A late join into `join`: a world sized from the snapshot's own capacities
// (fxs_snapshot_capacity), as a joining peer sizes it, the snapshot of map `from` restored
// into it, stepped inline. The map's counts are from's (the script names a wall slot by
// them). 0 on failure.
static int rts_join(rts_world *join, const rts_world *from, const uint8_t *saved, size_t size) {
  fxs_world_capacity cap;
  free(join->memory), join->memory = 0;
  join->agents = from->agents, join->walls = from->walls;
  if (fxs_snapshot_capacity(saved, size, &cap) != FXS_OK) return 0;
  join->bytes = fxs_world_memory_size(&cap);
  join->memory = join->bytes ? malloc(join->bytes) : 0;
  fxs_world_def def = fxs_default_world_def(); // replaced by the snapshot's
  return join->memory &&
         fxs_world_init(&join->world, &def, &cap, join->memory, join->bytes) == FXS_OK &&
         fxs_world_restore(&join->world, saved, size, 0) == FXS_OK;
}

// The rollbacks on RTS_ROLLBACK_WORKERS workers: after each snapshot (rts_saves), RTS_AHEAD
// ticks on, then the snapshot restored; a late join from it too (rts_join), stepped beside the
// world until the next snapshot, and the last one to the end. Counts the ticks whose hash
// differs from `straight` (on either world: the ticks ahead included), and in *half the
// snapshots that held a field half built; -1 on failure.
static long rts_rollbacks(uint32_t agents, int mesh, const uint64_t *straight, uint32_t *half) {
  static rts_world r, join;
  task_pool pool;
  long bad = 0;
  size_t size = 0;
  *half = 0;
  join.memory = 0;
  if (!rts_world_open(&r, agents, mesh)) return free(r.memory), -1;
  int ok = rts_pool(&pool, RTS_ROLLBACK_WORKERS) == 0 && rts_use(&r, &pool);
  size_t bound = fxs_world_snapshot_bound(&r.world.capacity);
  uint8_t *saved = malloc(bound);
  ok = ok && saved;
  int joined = 0;
  uint32_t s = 0;
  for (uint32_t t = 0; ok && t < RTS_SCRIPT_TICKS; ++t) {
    bad += rts_tick(&r, t) != straight[t];
    if (joined) bad += rts_tick(&join, t) != straight[t];
    if (s == RTS_SAVES || t + 1u != rts_saves[s]) continue;
    s++;
    *half += rts_half_built(&r.world) > 0;
    ok = fxs_world_save(&r.world, saved, bound, &size) == FXS_OK;
    for (uint32_t a = t + 1u; ok && a <= t + RTS_AHEAD && a < RTS_SCRIPT_TICKS; ++a)
      bad += rts_tick(&r, a) != straight[a];
    ok = ok && fxs_world_restore(&r.world, saved, size, 0) == FXS_OK;
    joined = ok = ok && rts_join(&join, &r, saved, size);
  }
  ok = ok && s == RTS_SAVES;
  rts_use(&r, 0), task_pool_stop(&pool);
  free(saved), free(join.memory), free(r.memory);
  return ok ? bad : -1;
}

// Check 4 on the grid or the mesh: RTS_RESULTS results; returns how many failed.
static int check_rts(uint32_t agents, int mesh) {
  uint64_t straight[RTS_SCRIPT_TICKS], hashes[RTS_SCRIPT_TICKS];
  const char *kind = mesh ? "mesh" : "grid";
  if (rts_straight(agents, mesh, 0, straight) != 0) {
    printf("RTS map on the %s, %u agents: could not build it (memory or a command)\n", kind,
           agents);
    return RTS_RESULTS;
  }
  int failed = 0;
  for (int c = 1; c < WORKER_COUNTS; ++c) {
    int same = rts_straight(agents, mesh, worker_counts[c], hashes) == 0;
    for (uint32_t t = 0; t < RTS_SCRIPT_TICKS && same; ++t) same = hashes[t] == straight[t];
    printf("%2u workers, RTS map on the %s, %u agents, %u ticks: %s (last %016llx)\n",
           worker_counts[c], kind, agents, RTS_SCRIPT_TICKS,
           same ? "every hash as inline" : "DIFFERENT",
           (unsigned long long)straight[RTS_SCRIPT_TICKS - 1u]);
    failed += !same;
  }
  uint32_t half = 0;
  long bad = rts_rollbacks(agents, mesh, straight, &half);
  int good = bad == 0 && half == RTS_SAVES;
  printf(
      "%2u workers, RTS map on the %s: %u rollbacks and late joins (inline), %u of them "
      "from a snapshot with a field half built: %s\n",
      RTS_ROLLBACK_WORKERS, kind, RTS_SAVES, half,
      bad < 0            ? "FAILED (memory, the pool, a snapshot or a restore)"
      : bad > 0          ? "DIFFERENT"
      : half < RTS_SAVES ? "TOO FEW HALF BUILT (the check proves less than it says)"
                         : "every hash as the straight run");
  return failed + !good;
}

int main(int argc, char **argv) {
  int flock_ticks = 5;
  uint32_t flock_agents = 100000, rts_agents = 10000;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--flock-ticks") == 0 && i + 1 < argc) {
      flock_ticks = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--flock-agents") == 0 && i + 1 < argc) {
      flock_agents = (uint32_t)atoi(argv[++i]);
    } else if (strcmp(argv[i], "--rts-agents") == 0 && i + 1 < argc) {
      rts_agents = (uint32_t)atoi(argv[++i]);
    } else if (load(argv[i]) != 0) {
      return 2;
    }
  }
  if (replay_count == 0 || flock_ticks < 1 || flock_ticks > 64) {
    fprintf(stderr,
            "usage: fxs-threads [--flock-ticks 1..64] [--flock-agents N] [--rts-agents N] "
            "REPLAY...\n");
    return 2;
  }
  job single;
  memset(&single, 0, sizeof single);
  single.threads = single.rounds = 1;
  verify_share(&single);
  int failed = single.failures ? 1 : 0;
  failed += check_concurrent_replays(&single);
  failed += check_task_replays();
  failed += check_flock(flock_agents, flock_ticks);
  failed += check_rts(rts_agents, 0) + check_rts(rts_agents, 1);
  int total = 1 + 3 * WORKER_COUNTS + 2 * RTS_RESULTS;
  printf("threads: %d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}
