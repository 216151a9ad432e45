/// @file interpose.h
/// Interpose (Reynolds; Buckland's Interpose): place the agent between two others, a
/// bodyguard stepping between a client and an attacker. The agent estimates T, the ticks it
/// needs to reach the current midpoint of the two at its max speed, predicts both agents T
/// ticks ahead along their velocities and arrives at the midpoint of the two predictions.
#ifndef FIXSTEER_INTERPOSE_H
#define FIXSTEER_INTERPOSE_H

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Interpose parameters.
typedef struct fxs_interpose_def {
  fix16_t slowing_radius; ///< Arrival slowing radius at the midpoint, units, >= 0. Default 32.
  fix16_t max_prediction; ///< Cap of the look-ahead T, ticks, >= 0. Default 30.
} fxs_interpose_def;

/// The defaults listed on each field.
FXS_API fxs_interpose_def fxs_default_interpose_def(void);

/// (a + b) / 2 per component, exact then rounded half away from zero (so mirroring the
/// inputs mirrors the result exactly). Never overflows.
FXS_API fxs_vec2 fxs_midpoint(fxs_vec2 a, fxs_vec2 b);

/// The look-ahead T in ticks: distance(self, midpoint of a and b) / self.max_speed, at most
/// max_prediction; max_prediction when the agent's max speed is 0 (as fxs_prediction_ticks).
FXS_API fix16_t fxs_interpose_ticks(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                                    const fxs_interpose_def *def);

/// The point the agent arrives at: the midpoint of a.position + a.velocity * T and
/// b.position + b.velocity * T (saturating per component).
FXS_API fxs_vec2 fxs_interpose_point(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                                     const fxs_interpose_def *def);

/// Interpose: arrive(fxs_interpose_point(...), slowing_radius). Symmetric in a and b.
FXS_API fxs_vec2 fxs_interpose(const fxs_agent *self, const fxs_agent *a, const fxs_agent *b,
                               const fxs_interpose_def *def);

#ifdef __cplusplus
}
#endif

#endif
