/// @file behavior.h
/// Identifiers of every steering behavior, used to label the manager's contributions and
/// the world's behavior sets. Names come from one table.
#ifndef FIXSTEER_BEHAVIOR_H
#define FIXSTEER_BEHAVIOR_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// X-macro: identifier, printable name. Identifiers are recorded in replays (a behavior
/// command carries its kind): new behaviors are appended, existing ones never renumbered.
#define FXS_BEHAVIOR_LIST(X)                                 \
  X(FXS_BEHAVIOR_NONE, "none")                               \
  X(FXS_BEHAVIOR_SEEK, "seek")                               \
  X(FXS_BEHAVIOR_FLEE, "flee")                               \
  X(FXS_BEHAVIOR_ARRIVE, "arrive")                           \
  X(FXS_BEHAVIOR_WANDER, "wander")                           \
  X(FXS_BEHAVIOR_PURSUIT, "pursuit")                         \
  X(FXS_BEHAVIOR_EVADE, "evade")                             \
  X(FXS_BEHAVIOR_AVOID, "obstacle_avoidance")                \
  X(FXS_BEHAVIOR_PATH, "path_following")                     \
  X(FXS_BEHAVIOR_SEPARATION, "separation")                   \
  X(FXS_BEHAVIOR_ALIGNMENT, "alignment")                     \
  X(FXS_BEHAVIOR_COHESION, "cohesion")                       \
  X(FXS_BEHAVIOR_LEADER, "leader_following")                 \
  X(FXS_BEHAVIOR_QUEUE, "queue")                             \
  X(FXS_BEHAVIOR_DYNAMIC_ARRIVE, "dynamic_arrive")           \
  X(FXS_BEHAVIOR_VELOCITY_MATCH, "velocity_match")           \
  X(FXS_BEHAVIOR_ALIGN, "align")                             \
  X(FXS_BEHAVIOR_FACE, "face")                               \
  X(FXS_BEHAVIOR_LOOK_WHERE_GOING, "look_where_going")       \
  X(FXS_BEHAVIOR_WALKER, "random_walker")                    \
  X(FXS_BEHAVIOR_KINEMATIC_SEEK, "kinematic_seek")           \
  X(FXS_BEHAVIOR_KINEMATIC_ARRIVE, "kinematic_arrive")       \
  X(FXS_BEHAVIOR_KINEMATIC_WANDER, "kinematic_wander")       \
  X(FXS_BEHAVIOR_EXTERNAL, "external_force")                 \
  X(FXS_BEHAVIOR_CONTAINMENT, "containment")                 \
  X(FXS_BEHAVIOR_FLOW_FIELD, "flow_field")                   \
  X(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, "unaligned_avoidance") \
  X(FXS_BEHAVIOR_OFFSET_PURSUIT, "offset_pursuit")           \
  X(FXS_BEHAVIOR_HIDE, "hide")                               \
  X(FXS_BEHAVIOR_INTERPOSE, "interpose")                     \
  X(FXS_BEHAVIOR_ORCA, "orca")                               \
  X(FXS_BEHAVIOR_FORMATION, "formation")                     \
  X(FXS_BEHAVIOR_NAVIGATE, "navigate")

/// Behavior identifiers.
typedef enum fxs_behavior {
#define FXS_BEHAVIOR_ENUM_(id, name) id,
  FXS_BEHAVIOR_LIST(FXS_BEHAVIOR_ENUM_)
#undef FXS_BEHAVIOR_ENUM_
      FXS_BEHAVIOR_COUNT
} fxs_behavior;

/// True for Millington's kinematic behaviors (kinematic seek, arrive, wander), which set the
/// velocity directly instead of steering: such a behavior is an agent's whole set.
FXS_API bool fxs_behavior_is_kinematic(fxs_behavior behavior);

/// True for the behaviors that keep bodies apart: containment, obstacle avoidance,
/// separation, unaligned collision avoidance and ORCA. In the prioritized sum they spend the
/// budget before the other behaviors of their priority, whatever the order they were added in.
FXS_API bool fxs_behavior_prevents_collision(fxs_behavior behavior);

/// False for the behaviors that never read the world's neighbor list (seek, flee, arrive,
/// wander, pursuit, evade, obstacle avoidance, dynamic arrive, velocity match, align, face,
/// look where going, walker, flow field, offset pursuit, hide, interpose, formation); true
/// for the others, and for kinds this build does not know. The world searches neighbors only
/// for agents with a behavior that reads them.
FXS_API bool fxs_behavior_reads_neighbors(fxs_behavior behavior);

/// True for the behaviors a world behavior slot can hold: every steering behavior, but not
/// FXS_BEHAVIOR_NONE and not the manager's labels FXS_BEHAVIOR_EXTERNAL and
/// FXS_BEHAVIOR_CONTAINMENT. Takes any integer (a kind read from a command or a snapshot).
FXS_API bool fxs_behavior_is_slot_kind(uint32_t kind);

/// The printable name of a behavior ("seek"); "unknown" outside the table.
FXS_API const char *fxs_behavior_name(fxs_behavior behavior);

#ifdef __cplusplus
}
#endif

#endif
