/// @file manager.h
/// The steering manager of seed 000 (part 5): behaviors add their forces, the manager
/// combines them and integrates the host agent:
///   steering = truncate(combined, max_force); steering /= mass;
///   velocity = truncate(velocity + steering, max_speed); position += velocity
/// It keeps each behavior's requested and applied share for debugging.
#ifndef FIXSTEER_MANAGER_H
#define FIXSTEER_MANAGER_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/behavior.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most contributions one manager holds per tick.
#define FXS_MANAGER_CAPACITY 16

/// Least speed below which FXS_ORIENT_LOOK_WHERE_GOING keeps the orientation (1/256
/// unit/tick); the threshold is the agent's rest speed (agent.h) when that is larger. Below
/// max_speed / FXS_LOOK_SPEED_DIVISOR the turn of a tick is limited in proportion to the
/// speed, so an agent at rest or nearly so keeps its heading in any unit.
#define FXS_LOOK_MIN_SPEED ((fix16_t)256)

/// How contributions are combined.
typedef enum fxs_combine_mode {
  /// Sum of weight * force over all behaviors.
  FXS_COMBINE_WEIGHTED_SUM = 0,
  /// In priority order, add weight * force until the max_force budget is spent; the force
  /// that crosses the budget is truncated to what is left. Within one priority, the
  /// behaviors that keep bodies apart (fxs_behavior_prevents_collision: containment,
  /// obstacle avoidance, separation) spend first, then the others, each in insertion order.
  FXS_COMBINE_PRIORITIZED_SUM = 1,
  /// Weighted sum per priority group; the first group (lowest priority value) whose force
  /// exceeds epsilon wins alone (Millington's priority steering).
  FXS_COMBINE_PRIORITY_GROUPS = 2,
} fxs_combine_mode;

/// One behavior's share of a tick.
typedef struct fxs_contribution {
  uint8_t behavior;       ///< An fxs_behavior.
  uint8_t priority;       ///< Lower first; the group number in FXS_COMBINE_PRIORITY_GROUPS.
  fix16_t weight;         ///< Multiplies the behavior's output.
  fxs_steering requested; ///< weight * output.
  fxs_steering applied;   ///< What the combination kept of it.
} fxs_contribution;

/// In a world, a priority group's force is negligible below the agent's max_force divided by
/// this (1/1024 for the default agent's max force of 1/4, the standalone manager's epsilon),
/// at least 1 raw: the same groups win in any unit of length.
#define FXS_MANAGER_EPSILON_DIVISOR 256

/// Per-tick accumulator. Start each tick with fxs_manager_begin.
typedef struct fxs_steering_manager {
  uint8_t mode;            ///< An fxs_combine_mode.
  uint8_t count;           ///< Contributions in entries[].
  fix16_t epsilon;         ///< Negligible force for FXS_COMBINE_PRIORITY_GROUPS. Default 1/1024.
  fxs_vec2 external_force; ///< Outside forces (seed 001's wind): not limited by max_force.
  fix16_t velocity_scale;  ///< Applied to the velocity before steering (queue braking).
  fxs_contribution entries[FXS_MANAGER_CAPACITY]; ///< This tick's contributions.
} fxs_steering_manager;

/// Empties the manager for a new tick with the given combination mode.
FXS_API void fxs_manager_begin(fxs_steering_manager *m, fxs_combine_mode mode);

/// Adds weight * steering from `behavior` with a priority. Returns false (and adds nothing)
/// when the manager is full.
FXS_API bool fxs_manager_add(fxs_steering_manager *m, fxs_behavior behavior, fxs_steering steering,
                             fix16_t weight, uint8_t priority);

/// Adds an outside force (wind, explosion, knock-back): divided by the mass like steering but
/// not limited by max_force, so it can push an agent off its course (seed 001's click).
FXS_API void fxs_manager_add_force(fxs_steering_manager *m, fxs_vec2 force);

/// Multiplies the velocity by factor before this tick's steering (factor in [0, 1]). A
/// factor of 0 holds the agent: its velocity and this tick's linear steering are dropped, so
/// it stands exactly still (external forces still act). The queue uses it.
FXS_API void fxs_manager_scale_velocity(fxs_steering_manager *m, fix16_t factor);

/// Combines the contributions for `agent` (whose limits set the budgets) and records each
/// contribution's applied share. Returns the combined steering, not yet truncated.
/// A FXS_BEHAVIOR_CONTAINMENT contribution (the world's bounds, fxs_containment) wins on
/// the axes where it is not zero, in every mode: there the combined force points its way
/// at least as strongly, and on the other axis it keeps only max_force - |that component|
/// (so at full strength the agent brakes straight back with its whole budget), whatever
/// the other behaviors want.
FXS_API fxs_steering fxs_manager_combine(fxs_steering_manager *m, const fxs_agent *agent);

/// Combines, then integrates `agent` one tick. Returns the combined steering.
FXS_API fxs_steering fxs_manager_update(fxs_steering_manager *m, fxs_agent *agent);

/// One tick of seed 000's integration plus the orientation policy:
///   v' = truncate(v * velocity_scale + truncate(steering, max_force) / mass, cap)
///        + external_force / mass,   position += v'.
/// cap is max_speed while |v| <= max_speed. External forces (seed 001's wind: an
/// applyForce outside the steering limit, with no speed limit in 001) are added after the
/// cap, so a gust can push an agent past max_speed; from there the agent slows back by at
/// most max_force / mass per tick (cap = max(max_speed, |v| - max_force / mass)), as 001's
/// seek brakes with its limited steering, instead of being snapped back in one tick. Without
/// external forces |velocity| <= max_speed holds exactly. |rotation| <= max_rotation always.
/// velocity_scale 0 holds the agent: the linear steering is dropped too, so without external
/// forces it stands exactly still (the queue's stop); its orientation is still integrated.
FXS_API void fxs_agent_integrate(fxs_agent *agent, fxs_steering steering, fxs_vec2 external_force,
                                 fix16_t velocity_scale);

#ifdef __cplusplus
}
#endif

#endif
