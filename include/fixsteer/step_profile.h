/// @file step_profile.h
/// Where a tick goes: fxs_world_step marks each of its phases as it begins and as it ends,
/// through a caller's function (fxs_world_set_profiler, below). The library reads no clock:
/// the caller's function reads its own (a monotonic clock, a cycle counter, a profiler's zone
/// markers) and keeps what it measures. Marks never change a result: with or without a
/// profiler the world steps to the same bits.
#ifndef FIXSTEER_STEP_PROFILE_H
#define FIXSTEER_STEP_PROFILE_H

#include "fixsteer/api.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The phases of fxs_world_step, in the order they run. FXS_PHASE_STEP holds all the others;
/// FXS_PHASE_PLAN holds the FXS_PHASE_PLAN_ ones. The top-level phases (commands, plan,
/// sharers, sense, steer, integrate) are marked every tick; a planning phase is marked only
/// in a tick that runs it (a world with navigation; aims and the map on a grid only).
typedef enum fxs_step_phase {
  FXS_PHASE_STEP = 0,          ///< The whole step.
  FXS_PHASE_COMMANDS,          ///< 1. The tick's commands applied.
  FXS_PHASE_PLAN,              ///< 2. The tick's walls and their grid, navigation planning.
  FXS_PHASE_PLAN_MAP,          ///< The grid's blocked cells brought up to date after wall changes.
  FXS_PHASE_PLAN_PROGRESS,     ///< Each route's progress measured.
  FXS_PHASE_PLAN_FIELDS,       ///< Navigate agents given their group's field.
  FXS_PHASE_PLAN_AIMS,         ///< Field followers' aims (the farthest cell ahead in sight).
  FXS_PHASE_PLAN_ROUTES,       ///< Routes that need a search marked.
  FXS_PHASE_PLAN_SEARCHES,     ///< Searches given to waiting routes and the search budget spent.
  FXS_PHASE_PLAN_FIELD_BUILDS, ///< Group fields built within their budget.
  FXS_PHASE_SHARERS,           ///< Agents going to each goal point counted.
  FXS_PHASE_SENSE,             ///< 3. The start-of-tick view, the neighbor and obstacle grids.
  FXS_PHASE_STEER,             ///< 4. Every agent steered (the task system's per-agent work).
  FXS_PHASE_INTEGRATE,         ///< 5. The next bodies published.
  FXS_PHASE_COUNT              ///< How many phases there are.
} fxs_step_phase;

/// Called as `phase` begins (begins = 1) and as it ends (begins = 0), on the thread that steps
/// the world, never on a worker. Marks nest: a phase's end comes before the end of the phase
/// that holds it.
typedef void fxs_phase_mark_fn(fxs_step_phase phase, int begins, void *user_context);

/// A caller's profiler of the step: its mark function and what is passed to it.
typedef struct fxs_step_profiler {
  fxs_phase_mark_fn *mark; ///< Called at each mark; NULL: no marks (the default).
  void *user_context;      ///< Passed to mark.
} fxs_step_profiler;

struct fxs_world;

/// Marks the world's steps through `profiler` (copied; NULL: no marks, as a new world).
/// Not state: neither hashed nor snapshotted, kept by fxs_world_restore, and the results do
/// not depend on it. FXS_ERR_BAD_VALUE (the world left as it was) when profiler->mark is NULL.
FXS_API fxs_result fxs_world_set_profiler(struct fxs_world *world,
                                          const fxs_step_profiler *profiler);

/// A phase's short name ("steer", "plan.aims"), for printing; NULL outside
/// [0, FXS_PHASE_COUNT).
FXS_API const char *fxs_step_phase_name(fxs_step_phase phase);

#ifdef __cplusplus
}
#endif

#endif
