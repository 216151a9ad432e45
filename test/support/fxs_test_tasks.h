// A task system for tests of the world's phases on workers: it runs each phase inline,
// backwards, in ranges of 1 to 3 items on changing worker indices, so a result that depended
// on the order or the cut of the ranges would show.
#ifndef FXS_TEST_TASKS_H
#define FXS_TEST_TASKS_H

#include <stdint.h>

#include "fixsteer/world.h"

// A task system of `workers` workers (fxs_test_odd_system).
typedef struct odd_tasks {
  uint32_t calls, ranges, workers;
} odd_tasks;

static inline void *odd_enqueue(fxs_task_fn *task, uint32_t count, uint32_t min_range,
                                void *task_context, void *user_context) {
  odd_tasks *t = (odd_tasks *)user_context;
  (void)min_range;
  t->calls++;
  for (uint32_t end = count; end > 0;) {
    uint32_t size = 1u + (end + t->calls) % 3u;
    uint32_t begin = end > size ? end - size : 0;
    task(begin, end, (t->ranges++ * 7u) % t->workers, task_context);
    end = begin;
  }
  return 0;
}

static inline void odd_finish(void *handle, void *user_context) {
  (void)handle, (void)user_context;
}

#endif
