/// @file orca.h
/// Optimal reciprocal collision avoidance (ORCA; van den Berg, Guy, Lin and Manocha,
/// "Reciprocal n-body collision avoidance", 2011) in fixed point. Each neighbor within
/// neighbor_distance (the nearest max_neighbors, by distance then id) contributes a half-plane
/// of velocities that keeps the pair apart for time_horizon ticks if both agents take half of
/// the avoiding; the agent picks the velocity closest to its preferred one inside every
/// half-plane and its max-speed disc, by an incremental 2D linear program over the
/// half-planes in that fixed order. When no velocity satisfies them all, it picks the one
/// that violates the worst half-plane least (the paper's 3D program, solved the same way).
/// All integer arithmetic: exact 64-bit and 128-bit products, deterministic rounding, one
/// fixed evaluation order, so peers compute the same bits.
/// ORCA outputs a velocity: the guarantee (no overlap when every agent runs it) holds when
/// the velocity is applied directly (fxs_kinematic_apply); through the force integrator the
/// agent may not reach it within a tick. It also needs a feasible program: in a crowded
/// tick with no velocity inside every half-plane, bodies may touch by a little (test_orca:
/// 0.16 units with 16 agents swapping across a circle). Perfectly symmetric scenes can stall
/// two agents face to face; break the symmetry as the paper's examples do, by turning each
/// preferred velocity slightly (a per-agent angle, or one drawn from the agent's stream).
/// Bounds: positions more than 1024 units apart on an axis, speeds, radii and
/// neighbor_distance are scaled or clamped to 1024 units (per tick); time_horizon below 1
/// tick counts as 1. Within those bounds no intermediate overflows; far-away intersections of
/// nearly parallel half-plane edges saturate (they only matter when the program is
/// infeasible).
#ifndef FIXSTEER_ORCA_H
#define FIXSTEER_ORCA_H

#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/flocking.h"

#ifdef __cplusplus
extern "C" {
#endif

/// ORCA parameters.
typedef struct fxs_orca_def {
  /// Ticks ahead the chosen velocity keeps every pair apart, [1, FXS_MAX]. Larger is safer
  /// and more timid. Default 20.
  fix16_t time_horizon;
  /// Neighbors farther than this (centre to centre) are ignored, units, [0, 1024]. Default 120.
  fix16_t neighbor_distance;
  /// Body radius assumed for every neighbor (fxs_neighbor carries none), units, [0, 1024].
  /// Default 8, the default agent radius.
  fix16_t neighbor_radius;
  /// Most neighbors taken into account, [0, FXS_NEIGHBORS_MAX_K] (16). Default 10.
  uint32_t max_neighbors;
} fxs_orca_def;

/// The defaults listed on each field.
fxs_orca_def fxs_default_orca_def(void);

/// One ORCA half-plane: the velocities x with det(direction, x - point) >= 0 (on the left of
/// direction) are allowed. point in units per tick, direction a unit vector.
typedef struct fxs_orca_line {
  fxs_vec2 point;     ///< A velocity on the boundary, units per tick.
  fxs_vec2 direction; ///< Unit direction of the boundary (length 1 within 2^-15).
} fxs_orca_line;

/// The half-plane `self` gets from one neighbor (position, velocity, radius
/// def->neighbor_radius). Agents that overlap already get the half-plane that separates
/// them within one tick; coincident agents with equal velocities split along -x (lower id)
/// and +x.
fxs_orca_line fxs_orca_half_plane(const fxs_agent *self, uint32_t self_id,
                                  const fxs_neighbor *neighbor, const fxs_orca_def *def);

/// The new velocity: the one closest to `preferred` (units per tick) inside the max-speed
/// disc and every neighbor's half-plane (neighbors with id == self_id are skipped); its
/// length is at most max_speed.
fxs_vec2 fxs_orca_velocity(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                           const fxs_neighbor *neighbors, uint32_t count,
                           const fxs_orca_def *def);

/// ORCA as a steering force: fxs_orca_velocity(...) - velocity.
fxs_vec2 fxs_orca(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                  const fxs_neighbor *neighbors, uint32_t count, const fxs_orca_def *def);

#ifdef __cplusplus
}
#endif

#endif
