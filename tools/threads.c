// fxs-threads: verifies every golden replay concurrently in 1, 2, 4, 8 and 16 threads, one
// world per thread and per replay, and checks that every thread gets the same final hashes
// as a single-threaded run. Built twice: plain and with ThreadSanitizer (make threads-check).
// Prints "threads: N passed, N failed".
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"

#define MAX_REPLAYS 16
#define ROUNDS 2

typedef struct replay_file {
  char name[128];
  uint8_t *data;
  size_t size;
} replay_file;

static replay_file replays[MAX_REPLAYS];
static int replay_count;

typedef struct job {
  uint64_t hashes[MAX_REPLAYS];
  int failures;
} job;

static void *verify_all(void *arg) {
  job *j = (job *)arg;
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < replay_count; ++i) {
      size_t need = fxs_replay_verify_memory_size(replays[i].data, replays[i].size, 0);
      void *memory = calloc(1, need);
      fxs_verify_report rep;
      if (!memory || fxs_replay_verify(replays[i].data, replays[i].size, 0, memory, need, &rep) != FXS_OK) {
        j->failures++;
      } else if (round == 0) {
        j->hashes[i] = rep.final_hash;
      } else if (j->hashes[i] != rep.final_hash) {
        j->failures++;
      }
      free(memory);
    }
  }
  return 0;
}

static int load(const char *path) {
  if (replay_count == MAX_REPLAYS) return -1;
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

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (load(argv[i]) != 0) return 2;
  }
  if (replay_count == 0) return fprintf(stderr, "usage: fxs-threads REPLAY...\n"), 2;
  job single;
  memset(&single, 0, sizeof single);
  verify_all(&single);
  int passed = 0, failed = single.failures ? 1 : 0;
  static const int counts[] = {1, 2, 4, 8, 16};
  for (int c = 0; c < 5; ++c) {
    int n = counts[c];
    pthread_t threads[16];
    job jobs[16];
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < n; ++t) pthread_create(&threads[t], 0, verify_all, &jobs[t]);
    int bad = 0;
    for (int t = 0; t < n; ++t) {
      pthread_join(threads[t], 0);
      bad += jobs[t].failures;
      for (int i = 0; i < replay_count; ++i) bad += jobs[t].hashes[i] != single.hashes[i];
    }
    printf("%2d threads x %d replays x %d rounds: %s\n", n, replay_count, ROUNDS,
           bad ? "DIFFERENT" : "identical final hashes");
    if (bad) failed++;
    else passed++;
  }
  printf("threads: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
