/// @file pursuit.h
/// Pursuit and evade (seed 000, part 4): seek or flee the target's future position
/// target.position + target.velocity * T, with T = distance / max_speed (the pursuer's
/// max speed, "updates needed to cover the distance"), capped at max_prediction ticks.
/// Offset pursuit: arrive at a slot fixed in a leader's frame, predicted the same way.
#ifndef FIXSTEER_PURSUIT_H
#define FIXSTEER_PURSUIT_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The look-ahead T in ticks: distance / self->max_speed, at most max_prediction (>= 0).
/// A pursuer with max_speed 0 uses max_prediction.
FXS_API fix16_t fxs_prediction_ticks(const fxs_agent *self, const fxs_agent *target,
                                     fix16_t max_prediction);

/// Pursuit: seek(target.position + target.velocity * T).
FXS_API fxs_vec2 fxs_pursuit(const fxs_agent *self, const fxs_agent *target,
                             fix16_t max_prediction);

/// Evade: flee(target.position + target.velocity * T); panic_radius as in fxs_flee,
/// measured to the predicted position.
FXS_API fxs_vec2 fxs_evade(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction,
                           fix16_t panic_radius);

/// Offset pursuit parameters (Reynolds' offset pursuit; Buckland's OffsetPursuit). The slot
/// is given in the leader's local frame: forward along its heading (fxs_agent_heading: its
/// velocity, or its orientation when it is almost still), side along the heading turned by
/// +pi/2 (toward +y when the leader heads +x). Default slot: 30 units straight behind.
typedef struct fxs_offset_pursuit_def {
  fix16_t offset_forward; ///< Slot ahead (+) or behind (-) the leader, units, any. Default -30.
  fix16_t offset_side;    ///< Slot to the +pi/2 side (+) or the other (-), units, any. Default 0.
  fix16_t slowing_radius; ///< Arrival slowing radius at the slot, units, >= 0. Default 32.
  fix16_t max_prediction; ///< Cap of the look-ahead T, ticks, >= 0. Default 30.
} fxs_offset_pursuit_def;

/// The defaults listed on each field.
FXS_API fxs_offset_pursuit_def fxs_default_offset_pursuit_def(void);

/// The slot now: leader.position + the offset rotated into the leader's frame (rounded to
/// nearest, saturating per component).
FXS_API fxs_vec2 fxs_offset_pursuit_slot(const fxs_agent *leader,
                                         const fxs_offset_pursuit_def *def);

/// The look-ahead T in ticks (Buckland's choice): distance(self, slot) / (self.max_speed +
/// |leader.velocity|), since follower and leader close on each other; at most
/// max_prediction. 0 when both speeds are 0 (then nothing moves and T does not matter).
FXS_API fix16_t fxs_offset_pursuit_ticks(const fxs_agent *self, const fxs_agent *leader,
                                         const fxs_offset_pursuit_def *def);

/// Offset pursuit: arrive(slot + leader.velocity * T, slowing_radius). A follower behind a
/// leader moving at constant speed u settles about u * r * (m + u) / (m * (m + 2u)) units
/// behind its slot (r the slowing radius, m its max speed): arrival's speed falls with the
/// distance, so it needs that gap to keep up; a smaller slowing radius holds the slot closer.
FXS_API fxs_vec2 fxs_offset_pursuit(const fxs_agent *self, const fxs_agent *leader,
                                    const fxs_offset_pursuit_def *def);

#ifdef __cplusplus
}
#endif

#endif
