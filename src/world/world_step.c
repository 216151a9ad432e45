#include "world_step.h"
#include "world_internal.h"

#include "fixsteer/command.h"
#include "world_bounds.h"
#include "world_crowd.h"
#include "world_facts.h"
#include "world_grid.h"
#include "world_move.h"
#include "world_nav.h"
#include "world_obstacles.h"
#include "world_sharers.h"
#include "world_steer.h"
#include "world_prefetch.h"

// The sense phase's pass over the slots: each worker's tally of the crowd (world_crowd.h),
// for the world's worker_capacity workers.
typedef struct place_context {
  const fxs_step_context *step;
  uint32_t workers;
  fxs_crowd_tally tally[FXS_MAX_WORKERS];
} place_context;

// The slots' grid cells, and, while their slots are near, the crowd's tally and each
// agent's facts as a neighbor (world_facts.h).
static void place_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  place_context *pc = (place_context *)context;
  FXS_ASSERT(worker < pc->workers);
  if (worker >= pc->workers) return;
  fxs_grid_place(pc->step->world, &pc->step->grid, begin, end);
  fxs_agent_facts_take(pc->step->world, begin, end);
  fxs_crowd_tally_range(pc->step->world, begin, end, &pc->tally[worker]);
}

static void copy_view_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  (void)worker;
  fxs_grid_copy_view(((const fxs_step_context *)context)->world, begin, end);
}

// Phase 5: the new bodies replace the old ones; one-tick forces are spent.
static void integrate_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  fxs_world *world = ((const fxs_step_context *)context)->world;
  const fxs_world_def *d = &world->def;
  (void)worker;
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, alive);
    FXS_PREFETCH_SLOT(world, i, end, body.radius);
    fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    s->body = world->internal->next[i];
    s->pending_force = fxs_vec2_zero();
    if (d->clamp_to_bounds) fxs_world_clamp_body(&s->body, d);
  }
}

void fxs_world_run_phase(fxs_world *world, fxs_task_fn *task, uint32_t count, uint32_t min_range,
                         void *context) {
  const fxs_task_system *t = &world->tasks;
  if (count == 0) return;
  if (!t->enqueue) {
    task(0, count, 0, context);
    return;
  }
  void *handle = t->enqueue(task, count, min_range, context, t->user_context);
  if (handle) t->finish(handle, t->user_context);
}

// Whether a live agent has a behavior that searches the neighbor grid (search: a steered
// behavior that reads the neighbor list, or formation, whose member's body is solid against
// its neighbors' (fxs_has_solid_body); a kinematic one moves the agent before any). Stops at
// the first: at once in a crowd that needs the grid.
static bool any_agent_searches(const fxs_world *world) {
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    for (uint8_t b = 0; b < s->behavior_count; ++b) {
      fxs_behavior kind = (fxs_behavior)s->behaviors[b].kind;
      if (kind == FXS_BEHAVIOR_FORMATION) return true;
      if (fxs_behavior_reads_neighbors(kind) && !fxs_behavior_is_kinematic(kind)) return true;
    }
  }
  return false;
}

// Phase 3: the start-of-tick view of every live agent (sorted into grid cells when an agent
// searches) and obstacle (the walls are gathered before the plan: gather_walls). A call of its own:
// its frame (the workers' tallies) is gone before the steering adds its own to the stack.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
sense(fxs_step_context *step) {
  fxs_world *world = step->world;
  step->grid = fxs_grid_of(world);
  step->sorted = any_agent_searches(world);
  place_context pc;
  pc.step = step;
  pc.workers = world->internal->worker_capacity < FXS_MAX_WORKERS ? world->internal->worker_capacity
                                                                  : FXS_MAX_WORKERS;
  for (uint32_t w = 0; w < pc.workers; ++w) pc.tally[w] = fxs_crowd_tally_none();
  if (step->sorted) {
    fxs_world_run_phase(world, place_range, world->capacity.agents, 1024, &pc);
    fxs_grid_sort(world, &step->grid);
    fxs_world_run_phase(world, copy_view_range, world->internal->view_count, 1024, step);
    // A grid that wraps mixes far agents into a search's cells: whether any can be far
    // enough for its squared distance to pass 2^64 (a fitted grid's search tells from its box).
    if (step->grid.wraps) fxs_grid_measure_spread(world, &step->grid);
  } else {
    // The order of the steering never changes a result (each agent writes only its own
    // slot); the grid, its sort and the view's copies are only the search's.
    fxs_view_list_live(world);
    fxs_crowd_tally_range(world, 0, world->capacity.agents, &pc.tally[0]);
  }
  fxs_step_take_crowd(step, pc.tally, pc.workers);
  uint32_t m = 0;
  fxs_obstacle *live_obstacles = world->internal->live_obstacles;
  for (uint32_t i = 0; i < world->capacity.obstacles; ++i) {
    if (world->obstacle_alive[i]) live_obstacles[m++] = world->obstacles[i];
  }
  step->obstacle_count = m;
  step->obstacle_grid = fxs_obstacle_grid_build(world, m);
  // A crowd that all runs ORCA (the worlds that would pay for the pass): whether its
  // neighbors' velocities need ORCA's clamp.
  step->slow_view =
      step->sorted && step->one_priority && fxs_view_velocities_within(world, FXS_ORCA_LIMIT);
}

// The tick's live walls, in index order, and their grid: after the commands, which alone
// change them, and before the plan, whose fields' edge steps look walls up in the grid as the
// steering does.
static void gather_walls(fxs_step_context *step) {
  fxs_world *world = step->world;
  uint32_t k = 0;
  fxs_wall *live_walls = world->internal->live_walls;
  for (uint32_t i = 0; i < world->capacity.walls; ++i) {
    if (world->wall_alive[i]) live_walls[k++] = world->walls[i];
  }
  step->wall_count = k;
  step->wall_grid = fxs_wall_grid_build(world, k);
}

// Phase 1: the tick's commands in canonical order (fxs_command_sort), the moves after the
// others as groups (world_move.h). Each command's result goes to results[i]; the first
// rejection is returned.
static fxs_result apply_commands(fxs_world *world, fxs_command *commands, uint32_t count,
                                 fxs_result *results) {
  fxs_command_sort(commands, count);
  if (count != 0) world->internal->nav.sharers_stale = 1; // moves too (world_sharers.h)
  uint32_t first_index = count;
  fxs_result first_rejection = FXS_OK;
  for (uint32_t i = 0; i < count; ++i) {
    if (commands[i].type == FXS_CMD_MOVE) continue;
    fxs_result r = fxs_world_apply(world, &commands[i], 0);
    if (results) results[i] = r;
    if (r != FXS_OK && first_index == count) first_index = i, first_rejection = r;
  }
  fxs_world_moves(world, commands, count, results, &first_index, &first_rejection);
  return first_rejection;
}

// The step, phase by phase. Ordering rules: commands change the world before anything reads
// it; planning (single-threaded, in slot order) sees the commands' world; sensing takes the
// start-of-tick view after planning; steering reads only that view and writes only each
// agent's own next body and behavior state, so its order (and the workers') changes nothing;
// integration publishes every next body at once.
fxs_result fxs_world_step(fxs_world *world, fxs_command *commands, uint32_t count,
                          fxs_result *results) {
  fxs_step_context step;
  step.world = world;
  fxs_world_mark(world, FXS_PHASE_STEP, 1);
  // 1. apply: the tick's commands
  fxs_result first_rejection;
  FXS_WORLD_MARKED(world, FXS_PHASE_COMMANDS,
                   first_rejection = apply_commands(world, commands, count, results));
  // 2. plan: routes for navigate agents within the tick's search budget (world_nav.h)
  //    (the tick's walls and their grid first: gather_walls)
  FXS_WORLD_MARKED(world, FXS_PHASE_PLAN, gather_walls(&step);
                   fxs_world_nav_plan(world, &step.wall_grid));
  //    and the agents going to each goal point (groups without fields, world_sharers.h)
  FXS_WORLD_MARKED(world, FXS_PHASE_SHARERS, fxs_world_sharers_count(world));
  // 3. sense: the start-of-tick view of agents and obstacles, the neighbor grid
  FXS_WORLD_MARKED(world, FXS_PHASE_SENSE, sense(&step));
  // 4. steer: every live agent from that view (in parallel through the task system)
  FXS_WORLD_MARKED(
      world, FXS_PHASE_STEER,
      fxs_world_run_phase(world, fxs_world_steer_range, world->internal->view_count, 32, &step));
  // 5. integrate: the next bodies replace the old (agents steered in place already are)
  fxs_world_mark(world, FXS_PHASE_INTEGRATE, 1);
  if (!step.in_place)
    fxs_world_run_phase(world, integrate_range, world->capacity.agents, 1024, &step);
  fxs_world_mark(world, FXS_PHASE_INTEGRATE, 0);
  // 6. advance: the tick
  world->tick++;
  fxs_world_mark(world, FXS_PHASE_STEP, 0);
  return first_rejection;
}
