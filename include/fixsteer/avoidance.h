/// @file avoidance.h
/// Collision avoidance against circular obstacles and walls (segments): the collision-
/// avoidance part of the tutorial series (seed 000) with swept detection.
///
/// The tutorial: ahead = position + normalize(velocity) * MAX_SEE_AHEAD (here scaled by
/// speed / max_speed, so a slow agent looks less far) and ahead2 at half that distance; an
/// obstacle threatens when ahead, ahead2 or the agent itself lies inside it (radius plus the
/// agent's radius here); the most threatening is the one nearest to the agent; the force is
/// normalize(ahead - centre) * MAX_AVOID_FORCE.
///
/// What that misses: only three points of the path are tested, so an obstacle between them
/// is found only once the body touches it. With the defaults (radius 8, speed 4, look-ahead
/// 60), an obstacle of radius 5 centred 15 units ahead lies 15 units from both the position
/// and ahead2 (30), more than the 13 of the two radii: no force at all until the body
/// touches it. An agent of radius 1 facing an obstacle of radius 1 ten units ahead: the
/// same. Bodies in the obstacle_field scenario overlapped obstacles by up to 3.7 units. And
/// ahead - centre points partly forward whenever the centre lies before ahead: it pushes the
/// agent on along its path as much as away from the obstacle.
///
/// Swept detection (FXS_AVOID_SWEPT, the default) tests the whole path instead: the segment
/// from the position to ahead, widened into a capsule by the agent's radius plus a margin of
/// `margin` ticks of travel (margin * speed).
/// - An obstacle threatens when the exact distance from its centre to the segment is at most
///   its radius plus the capsule's: squared distances of raw values compared in 128-bit
///   integer arithmetic, for every Q16.16 input, with no rounding and no overflow (the
///   capsule's radius saturates at 65535.99 units against an obstacle, 32767.99 against a
///   wall: beyond the world's extent in practice).
/// - A wall threatens when it crosses the segment or its distance to the segment is at most
///   the capsule's radius (exact in the same way).
/// - The most threatening is the one the capsule reaches first: the least contact distance,
///   the distance the agent travels along the path before the capsule first touches it (0
///   when the body already overlaps it). For an obstacle, along - sqrt(R^2 - side^2), where
///   along and side are the centre's coordinates along and across the heading and R the
///   obstacle's radius plus the capsule's; for a wall, the least of that for its ends ahead
///   (points) and of the point where the capsule meets its line between the ends. Computed
///   in integers to within a few LSB, clamped to [0, look-ahead]. Something only the margin
///   reaches beside or behind the agent (an obstacle whose centre does not lie ahead, a wall
///   the agent is not closing in on) counts as at the look-ahead: the least force, enough to
///   keep the agent from drifting in. Ties keep the lower index. Against a wall's line the
///   push along its normal is capped at the speed the agent closes in on the wall with: it
///   stops the approach and never throws the agent back off the wall, so an agent moving
///   along a wall (or pulled into it by a goal beyond it) slides along it instead of bouncing
///   off and back every other tick; in the world, walls are solid (docs/concepts.md).
/// - The force is sideways, perpendicular to the heading and away from the obstacle's centre
///   (to the left of the heading, counter-clockwise, when the centre lies exactly on the path
///   line), or along a wall's normal on the agent's side (sideways from the end when the
///   capsule meets the wall at an end first); `braking` tilts it back against the heading
///   (backward : sideways). Its length is max_avoid_force * max(FXS_AVOIDANCE_MIN_SHARE,
///   (look-ahead - contact) / look-ahead): it grows as the contact nears and never vanishes
///   while something lies ahead within reach.
/// - Once the body overlaps the obstacle or wall, the force is max_avoid_force along the
///   outward direction from the centre (or the wall's closest point) plus the sideways
///   direction away from it: pushing straight out lets an agent graze in beside it or stall
///   against one it has slowed down at.
///
/// Why the margin: a capsule exactly as wide as the body steers the agent until its path just
/// grazes the obstacle; the next tick's pull toward the goal (seek, arrive) turns it back in,
/// and the agent slides along the obstacle's edge, overlapping it by a fraction of a tick's
/// travel. With margin 0, bodies in the obstacle_field and obstacle_dense scenarios overlapped
/// obstacles by up to 0.49 units; with the default (2 ticks) every body stayed at least 2.36
/// units clear (tools/clearance-check.sh). Braking (default 0) only reduced that clearance
/// there, so it is off unless asked for.
///
/// FXS_AVOID_PROBES keeps the tutorial's three points and ahead - centre (with the same
/// touching rule; walls: the probe line crossing the wall or a probe within the agent's radius
/// of it, then the wall's normal). It misses whatever lies between the probes, as above.
#ifndef FIXSTEER_AVOIDANCE_H
#define FIXSTEER_AVOIDANCE_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A circular obstacle.
typedef struct fxs_obstacle {
  fxs_vec2 center; ///< World units.
  fix16_t radius;  ///< World units, >= 0.
} fxs_obstacle;

/// A wall: the segment from a to b (zero thickness; the agent's radius keeps it off).
typedef struct fxs_wall {
  fxs_vec2 a; ///< One end, world units.
  fxs_vec2 b; ///< The other end, world units.
} fxs_wall;

/// Swept detection of the whole path (the default), as an fxs_avoidance_def mode.
#define FXS_AVOID_SWEPT 0
/// The tutorial's three probe points (position, ahead2, ahead), as an fxs_avoidance_def mode.
#define FXS_AVOID_PROBES FXS_ONE

/// The least share of max_avoid_force a swept threat gets however far along the path its
/// contact lies (Q16.16, 1/4).
#define FXS_AVOIDANCE_MIN_SHARE FXS_RATIO(1, 4)

/// Avoidance parameters (MAX_SEE_AHEAD, MAX_AVOID_FORCE, braking, detection mode).
typedef struct fxs_avoidance_def {
  fix16_t max_see_ahead;   ///< Look-ahead at max speed, world units, >= 0. Default 60.
  fix16_t max_avoid_force; ///< Largest avoidance force, >= 0. Default 1.
  fix16_t margin;          ///< Swept: capsule widened by margin * speed, ticks, [0, 64]. Default 2.
  fix16_t braking;         ///< Swept: backward : sideways ratio of the push, [0, 16]. Default 0.
  fix16_t mode;            ///< FXS_AVOID_SWEPT (default) or FXS_AVOID_PROBES.
} fxs_avoidance_def;

/// The defaults listed on each field.
FXS_API fxs_avoidance_def fxs_default_avoidance_def(void);

/// Index of the most threatening obstacle, or -1: swept, the least contact distance; probes,
/// the least distance from the agent. Ties keep the lower index.
FXS_API int fxs_most_threatening_obstacle(const fxs_agent *self, const fxs_obstacle *obstacles,
                                          uint32_t count, const fxs_avoidance_def *def);

/// The avoidance force against the most threatening obstacle (zero when nothing threatens);
/// length at most max_avoid_force.
FXS_API fxs_vec2 fxs_avoid_obstacles(const fxs_agent *self, const fxs_obstacle *obstacles,
                                     uint32_t count, const fxs_avoidance_def *def);

/// Index of the most threatening wall, or -1: swept, the least contact distance among the
/// walls the capsule reaches; probes, the nearest wall that the line from the agent to ahead
/// crosses or that comes within the agent's radius of the agent, ahead2 or ahead. Ties keep
/// the lower index.
FXS_API int fxs_most_threatening_wall(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                                      const fxs_avoidance_def *def);

/// Wall avoidance against the most threatening wall: along its normal on the agent's side (or
/// sideways from an end the body meets first), ramped as for obstacles; once the body touches
/// the wall, max_avoid_force outward from its closest point plus sideways.
FXS_API fxs_vec2 fxs_avoid_walls(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                                 const fxs_avoidance_def *def);

#ifdef __cplusplus
}
#endif

#endif
