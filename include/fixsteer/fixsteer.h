/// @file fixsteer.h
/// fixsteer: deterministic steering behaviors in Q16.16 fixed point.
///
/// CONVENTIONS
/// - Numbers: every scalar is a libfixmath fix16_t (Q16.16, raw 65536 = 1.0). Write
///   constants with FXS_INT(n) and FXS_RATIO(n, d); the library never uses floating point.
/// - Units: positions in world units, velocities in world units per tick, forces in world
///   units per tick per tick per unit mass. A tick is one call of the world step.
/// - Angles: radians in Q16.16, wrapped to (-FXS_PI, FXS_PI]. Orientation 0 points along +x;
///   positive angles turn from +x toward +y (counter-clockwise with y up, clockwise on a
///   screen whose y grows downward). A heading vector is (cos a, sin a).
/// - Range: |values| < 32768 units. Lengths and distances are exact for the whole range.
/// - Overflow: arithmetic saturates to [FXS_MIN, FXS_MAX]; 0x80000000 (libfixmath's overflow
///   sentinel) is never produced. Each header states where it saturates.
/// - Errors: contract violations trip FXS_ASSERT (overridable) and the function returns
///   safely; expected failures return an fxs_result code; arithmetic saturates.
/// - Memory: no malloc, no VLAs, no recursion, no static mutable state, no I/O. The caller
///   owns every buffer. Every function is reentrant; separate worlds may run on separate
///   threads.
/// - Determinism: the same inputs give bit-identical results on every CPU, compiler and
///   optimisation level, provided libfixmath 0~20220222 is built with FIXMATH_NO_CACHE and
///   no other FIXMATH_* option (config.h rejects the others at compile time, and
///   fxs_math_fingerprint() detects a differently built libfixmath at run time).
#ifndef FIXSTEER_H
#define FIXSTEER_H

// The whole public API, one header per concept (each also usable on its own).
#include "fixsteer/agent.h"
#include "fixsteer/api.h"
#include "fixsteer/align.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/batch.h"
#include "fixsteer/behavior.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/command.h"
#include "fixsteer/command_build.h"
#include "fixsteer/config.h"
#include "fixsteer/escape.h"
#include "fixsteer/fingerprint.h"
#include "fixsteer/flocking.h"
#include "fixsteer/flow_field.h"
#include "fixsteer/formation.h"
#include "fixsteer/hash.h"
#include "fixsteer/hide.h"
#include "fixsteer/interpose.h"
#include "fixsteer/kinematic.h"
#include "fixsteer/leader.h"
#include "fixsteer/input_limits.h"
#include "fixsteer/manager.h"
#include "fixsteer/nav_field.h"
#include "fixsteer/nav_grid.h"
#include "fixsteer/nav_mesh.h"
#include "fixsteer/nav_mesh_route.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/neighbors.h"
#include "fixsteer/orca.h"
#include "fixsteer/path.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/replay.h"
#include "fixsteer/result.h"
#include "fixsteer/rng.h"
#include "fixsteer/scalar.h"
#include "fixsteer/seek.h"
#include "fixsteer/session.h"
#include "fixsteer/session_join.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/step_profile.h"
#include "fixsteer/unaligned_avoidance.h"
#include "fixsteer/vec2.h"
#include "fixsteer/velocity_match.h"
#include "fixsteer/version.h"
#include "fixsteer/walker.h"
#include "fixsteer/wander.h"
#include "fixsteer/world.h"

#endif
