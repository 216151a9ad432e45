/// @file align.h
/// Millington's Align and the behaviors that delegate to it (seed 002): Face and
/// LookWhereYoureGoing. Angular output only; integrate it with FXS_ORIENT_STEERED.
/// 2D angle convention: orientation 0 faces +x and a heading (x, y) has orientation
/// atan2(y, x) (Millington's 3D atan2(-x, z) restated for the x-y plane).
#ifndef FIXSTEER_ALIGN_H
#define FIXSTEER_ALIGN_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Align parameters; max rotation and angular acceleration come from the agent.
typedef struct fxs_align_def {
  fix16_t target_radius;  ///< Radians: closer than this, stop rotating. Default 0.01.
  fix16_t slow_radius;    ///< Radians: closer than this, slow down. Default 0.5.
  fix16_t time_to_target; ///< Ticks to reach the target rotation, > 0. Default 2.
} fxs_align_def;

/// The defaults listed on each field.
FXS_API fxs_align_def fxs_default_align_def(void);

/// Align to target_orientation: rotation = mapToRange(target - orientation); target
/// rotation max_rotation (scaled down inside slow_radius, zero inside target_radius) toward
/// it; angular =
/// (target rotation - rotation) / time_to_target, limited to max_angular_acceleration.
FXS_API fix16_t fxs_align(const fxs_agent *self, fix16_t target_orientation,
                          const fxs_align_def *def);

/// Face a point: align to the heading from the agent to target (no steering when on it).
FXS_API fix16_t fxs_face(const fxs_agent *self, fxs_vec2 target, const fxs_align_def *def);

/// Look where you're going: align to the velocity's heading (no steering at rest).
FXS_API fix16_t fxs_look_where_going(const fxs_agent *self, const fxs_align_def *def);

#ifdef __cplusplus
}
#endif

#endif
