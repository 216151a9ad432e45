// A small pthread pool behind the world's task system (fxs_task_system), for the tools.
// The library itself starts no threads; this is what a game or server would supply.
//
// task_pool_start(&pool, n) starts n - 1 threads; the thread that steps the world is
// worker 0 and works too (inside finish). A phase is cut into ranges of
// max(min_range, count / (32 n)) items (with finest set: count / (32 n), at least 1) that
// the workers take in turn, so which worker runs which range changes from tick to tick: the
// world's results must not depend on it. Small ranges keep the workers busy to the end of a
// phase even when one of them is slowed (on a shared machine, often): with 2 workers, the
// last range is 1/64 of the phase (count / (4 n) left up to 1/8 to one worker).
#ifndef FXS_TOOLS_TASK_POOL_H
#define FXS_TOOLS_TASK_POOL_H

#include <pthread.h>
#include <string.h>

#include "fixsteer/world.h"

typedef struct task_pool task_pool;

typedef struct task_pool_worker {
  task_pool *pool;
  uint32_t index;
} task_pool_worker;

// Must not move while started (its threads point at it).
struct task_pool {
  pthread_t threads[FXS_MAX_WORKERS];
  task_pool_worker slots[FXS_MAX_WORKERS];
  uint32_t workers;
  pthread_mutex_t lock;
  pthread_cond_t work; // a phase was posted, or quit
  pthread_cond_t done; // the last range of a phase finished
  fxs_task_fn *task;
  void *context;
  uint32_t count, range, next, running; // next item to hand out; ranges being run
  uint64_t phase;                       // bumped per posted phase
  int quit;
  int finest; // ignore min_range: split even small phases
};

// Takes and runs ranges of the current phase until none is left. Called with the lock held.
static void task_pool_drain(task_pool *p, uint32_t worker) {
  while (p->task && p->next < p->count) {
    uint32_t begin = p->next;
    uint32_t end = p->count - begin > p->range ? begin + p->range : p->count;
    p->next = end;
    p->running++;
    fxs_task_fn *task = p->task;
    void *context = p->context;
    pthread_mutex_unlock(&p->lock);
    task(begin, end, worker, context);
    pthread_mutex_lock(&p->lock);
    p->running--;
  }
  if (p->task && p->next >= p->count && p->running == 0) {
    p->task = 0;
    pthread_cond_broadcast(&p->done);
  }
}

static void *task_pool_thread(void *arg) {
  task_pool_worker *w = (task_pool_worker *)arg;
  task_pool *p = w->pool;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!p->quit && p->phase == seen) pthread_cond_wait(&p->work, &p->lock);
    if (p->quit) break;
    seen = p->phase;
    task_pool_drain(p, w->index);
  }
  pthread_mutex_unlock(&p->lock);
  return 0;
}

static void *task_pool_enqueue(fxs_task_fn *task, uint32_t count, uint32_t min_range,
                               void *task_context, void *user_context) {
  task_pool *p = (task_pool *)user_context;
  if (p->workers <= 1) { // inline, in several ranges when finest
    uint32_t range = p->finest && count / 4u ? count / 4u : count;
    for (uint32_t b = 0; b < count; b += range) {
      task(b, count - b > range ? b + range : count, 0, task_context);
    }
    return 0;
  }
  uint32_t range = count / (32u * p->workers);
  if (range < min_range && !p->finest) range = min_range;
  if (range == 0) range = 1;
  pthread_mutex_lock(&p->lock);
  p->task = task, p->context = task_context;
  p->count = count, p->range = range, p->next = 0, p->running = 0;
  p->phase++;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->lock);
  return p;
}

static void task_pool_finish(void *handle, void *user_context) {
  task_pool *p = (task_pool *)handle;
  (void)user_context;
  pthread_mutex_lock(&p->lock);
  task_pool_drain(p, 0); // the stepping thread is worker 0
  while (p->task) pthread_cond_wait(&p->done, &p->lock);
  pthread_mutex_unlock(&p->lock);
}

// Starts workers - 1 threads (workers in [1, FXS_MAX_WORKERS]); 0 on success.
static int task_pool_start(task_pool *p, uint32_t workers) {
  memset(p, 0, sizeof *p);
  p->workers = workers;
  pthread_mutex_init(&p->lock, 0);
  pthread_cond_init(&p->work, 0);
  pthread_cond_init(&p->done, 0);
  for (uint32_t i = 1; i < workers; ++i) {
    p->slots[i].pool = p;
    p->slots[i].index = i;
    if (pthread_create(&p->threads[i], 0, task_pool_thread, &p->slots[i]) != 0) {
      p->workers = i; // task_pool_stop joins the threads that did start
      return -1;
    }
  }
  return 0;
}

static void task_pool_stop(task_pool *p) {
  pthread_mutex_lock(&p->lock);
  p->quit = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->lock);
  for (uint32_t i = 1; i < p->workers; ++i) pthread_join(p->threads[i], 0);
  pthread_mutex_destroy(&p->lock);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
}

// The fxs_task_system that runs a world's phases on this pool.
static fxs_task_system task_pool_system(task_pool *p) {
  fxs_task_system t;
  t.enqueue = task_pool_enqueue;
  t.finish = task_pool_finish;
  t.worker_count = p->workers;
  t.user_context = p;
  return t;
}

#endif
