// fxs-threads: determinism with threads, three ways (built twice: plain and with
// ThreadSanitizer, make threads-check):
//  1. the golden replays verified concurrently in 1, 2, 4, 8 and 16 threads, one world per
//     thread and per replay, each replay once a round, by another thread each round: every
//     thread gets the single-threaded final hashes;
//  2. every golden replay re-simulated with the world's task system on a pthread pool of 1,
//     2, 4, 8 and 16 workers (phases cut as finely as possible): every tick's hash matches
//     the recording;
//  3. a 100,000-agent flock (separation, alignment, cohesion, wander; about ten neighbors
//     each) stepped on 1, 2, 4, 8 and 16 workers: fxs_world_hash equals the inline run's at
//     every tick.
// Prints "threads: N passed, N failed".
//
//   fxs-threads [--flock-ticks N] [--flock-agents N] REPLAY...
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
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
    if (task_pool_start(&pool, worker_counts[c]) != 0) return WORKER_COUNTS;
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
  int ok = uniform_make(&u, agents) == 0;
  if (ok && workers > 0) ok = task_pool_start(&pool, workers) == 0;
  if (ok) {
    fxs_task_system tasks = task_pool_system(&pool);
    if (workers > 0) fxs_world_set_tasks(&u.world, &tasks);
    uniform_spawns(&u);
    for (uint32_t i = 0; i < agents; ++i) fxs_world_apply(&u.world, &u.commands[i], 0);
    uniform_behaviors(&u);
    for (int t = 0; t < ticks; ++t) {
      fxs_world_step(&u.world, 0, 0, 0);
      hashes[t] = fxs_world_hash(&u.world);
    }
    if (workers > 0) task_pool_stop(&pool);
  }
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

int main(int argc, char **argv) {
  int flock_ticks = 5;
  uint32_t flock_agents = 100000;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--flock-ticks") == 0 && i + 1 < argc) {
      flock_ticks = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--flock-agents") == 0 && i + 1 < argc) {
      flock_agents = (uint32_t)atoi(argv[++i]);
    } else if (load(argv[i]) != 0) {
      return 2;
    }
  }
  if (replay_count == 0 || flock_ticks < 1 || flock_ticks > 64) {
    fprintf(stderr, "usage: fxs-threads [--flock-ticks 1..64] [--flock-agents N] REPLAY...\n");
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
  int total = 1 + 3 * WORKER_COUNTS;
  printf("threads: %d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}
