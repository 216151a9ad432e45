/// @file unaligned_avoidance.h
/// Predictive agent-agent avoidance (Reynolds' unaligned collision avoidance, as in
/// OpenSteer): for each neighbor, the time of closest approach t* = -(dp . dv) / |dv|^2
/// ticks, dp = its position - ours, dv = its velocity - ours, and the separation there,
/// dp + dv t*. A neighbor threatens when 0 <= t* <= time_horizon and that separation is below
/// our radius + neighbor_radius + margin. The most imminent threat (smallest t*, then lowest
/// id) wins, and the agent steers sideways, away from where the threat will be at t*; meeting
/// it head-on (headings more than 135 degrees apart) it also brakes.
/// Everything is exact integer arithmetic: t* is rounded down to 1/65536 tick, the
/// separation test compares squares, the head-on test compares 128-bit products.
/// It answers one threat at a time: in a crowd, an agent dodging an oncoming one can drift
/// into a neighbor converging slowly beside it. Put separation ahead of it in a prioritized
/// sum for crowds (test_unaligned_avoidance: two columns of six swapping sides came within
/// 10.3 units, centre to centre, with avoidance alone, and kept 16.5 apart with separation).
#ifndef FIXSTEER_UNALIGNED_AVOIDANCE_H
#define FIXSTEER_UNALIGNED_AVOIDANCE_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/flocking.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Unaligned collision avoidance parameters.
typedef struct fxs_unaligned_avoidance_def {
  fix16_t time_horizon; ///< Threats later than this are ignored, ticks, >= 0. Default 30.
  fix16_t margin;       ///< Extra clearance on top of both radii, units, >= 0. Default 4.
  /// Body radius assumed for every neighbor (fxs_neighbor carries none), units, >= 0.
  /// Default 8, the default agent radius; a world whose agents share a radius passes it.
  fix16_t neighbor_radius;
  fix16_t max_avoid_force; ///< Length of the avoidance force, >= 0. Default 1.
} fxs_unaligned_avoidance_def;

/// The defaults listed on each field.
FXS_API fxs_unaligned_avoidance_def fxs_default_unaligned_avoidance_def(void);

/// Time of closest approach of two points moving apart by `offset` (other - self) at
/// `relative_velocity` (other's - self's) per tick: t* = -(offset . v) / |v|^2, rounded down
/// to 1/65536 tick, in *ticks. t* = 0 when v is zero (the distance never changes). False when
/// t* < 0 (already moving apart) or t* >= 32768 ticks (beyond Q16.16).
FXS_API bool fxs_closest_approach_ticks(fxs_vec2 offset, fxs_vec2 relative_velocity,
                                        fix16_t *ticks);

/// The most imminent threat found by fxs_most_imminent_threat.
typedef struct fxs_threat {
  int index;           ///< Index into the neighbor list, -1 when none threatens.
  fix16_t ticks;       ///< t*, ticks, [0, time_horizon].
  fxs_vec2 separation; ///< Threat's position minus ours at t*, units; shorter than the limit.
} fxs_threat;

/// The neighbor that threatens first (smallest t*, ties by lower id, then lower index).
/// Neighbors with id == self_id are skipped, and so are neighbors whose offset or relative
/// velocity exceeds the Q16.16 range on an axis (more than 32767 units apart: no threat).
FXS_API fxs_threat fxs_most_imminent_threat(const fxs_agent *self, uint32_t self_id,
                                            const fxs_neighbor *neighbors, uint32_t count,
                                            const fxs_unaligned_avoidance_def *def);

/// The avoidance force, of length max_avoid_force (never more), zero when nothing threatens.
/// Moving (|velocity| >= FXS_HEADING_MIN_SPEED), the agent steers perpendicular to its
/// velocity, to the side away from the threat's predicted position; when that position lies
/// exactly on its line of motion it keeps right (turns clockwise, y up), which two agents
/// meeting head-on both do, so they pass each other. Head-on it adds braking: the force is
/// (sideways - heading) scaled to max_avoid_force. At rest, the agent uses its motion
/// relative to the threat in place of its velocity; with no relative motion either, it
/// steps straight away from the threat (coincident agents: along -x for the lower id, +x
/// for the higher, as fxs_separation).
FXS_API fxs_vec2 fxs_unaligned_avoidance(const fxs_agent *self, uint32_t self_id,
                                         const fxs_neighbor *neighbors, uint32_t count,
                                         const fxs_unaligned_avoidance_def *def);

#ifdef __cplusplus
}
#endif

#endif
