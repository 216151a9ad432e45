#include "fixsteer/behavior.h"

static const char *const names[FXS_BEHAVIOR_COUNT] = {
#define FXS_BEHAVIOR_NAME_(id, name) name,
    FXS_BEHAVIOR_LIST(FXS_BEHAVIOR_NAME_)
#undef FXS_BEHAVIOR_NAME_
};

const char *fxs_behavior_name(fxs_behavior behavior) {
  if ((unsigned)behavior >= (unsigned)FXS_BEHAVIOR_COUNT) return "unknown";
  return names[behavior];
}

bool fxs_behavior_is_kinematic(fxs_behavior behavior) {
  return behavior == FXS_BEHAVIOR_KINEMATIC_SEEK || behavior == FXS_BEHAVIOR_KINEMATIC_ARRIVE ||
         behavior == FXS_BEHAVIOR_KINEMATIC_WANDER;
}

bool fxs_behavior_prevents_collision(fxs_behavior behavior) {
  return behavior == FXS_BEHAVIOR_CONTAINMENT || behavior == FXS_BEHAVIOR_AVOID ||
         behavior == FXS_BEHAVIOR_SEPARATION || behavior == FXS_BEHAVIOR_UNALIGNED_AVOIDANCE ||
         behavior == FXS_BEHAVIOR_ORCA;
}

bool fxs_behavior_reads_neighbors(fxs_behavior behavior) {
  switch (behavior) {
    case FXS_BEHAVIOR_SEEK:
    case FXS_BEHAVIOR_FLEE:
    case FXS_BEHAVIOR_ARRIVE:
    case FXS_BEHAVIOR_WANDER:
    case FXS_BEHAVIOR_PURSUIT:
    case FXS_BEHAVIOR_EVADE:
    case FXS_BEHAVIOR_AVOID:
    case FXS_BEHAVIOR_DYNAMIC_ARRIVE:
    case FXS_BEHAVIOR_VELOCITY_MATCH:
    case FXS_BEHAVIOR_ALIGN:
    case FXS_BEHAVIOR_FACE:
    case FXS_BEHAVIOR_LOOK_WHERE_GOING:
    case FXS_BEHAVIOR_WALKER:
    case FXS_BEHAVIOR_FLOW_FIELD:
    case FXS_BEHAVIOR_OFFSET_PURSUIT:
    case FXS_BEHAVIOR_HIDE:
    case FXS_BEHAVIOR_INTERPOSE:
    case FXS_BEHAVIOR_FORMATION:
      return false;
    default:
      return true;
  }
}

bool fxs_behavior_is_slot_kind(uint32_t kind) {
  return kind != FXS_BEHAVIOR_NONE && kind < FXS_BEHAVIOR_COUNT && kind != FXS_BEHAVIOR_EXTERNAL &&
         kind != FXS_BEHAVIOR_CONTAINMENT;
}
