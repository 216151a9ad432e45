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
/// 0.16 units with 16 agents swapping across a circle).
/// Static obstacles (walls and obstacle circles, fxs_orca_statics) give half-planes too, as
/// RVO2 does with its obstacle polygons: the agent alone avoids them (no reciprocity), over
/// obstacle_time_horizon, and they are hard: when no velocity satisfies every half-plane,
/// only the neighbors' half-planes are relaxed. At most FXS_ORCA_MAX_STATIC_LINES of them,
/// the nearest.
/// Symmetry: a pair exactly face to face has no reason to pick a side and stalls. Rule: when
/// a neighbor lies ahead on the preferred velocity's course (within the two radii of its
/// line), does not move along it, stands on the same side of every wall and has at least
/// the agent's priority, the preferred velocity is turned clockwise by
/// FXS_ORCA_SIDE_TURN (to the right with y up): every agent passes a face-to-face one on the
/// same side, as traffic keeps right.
/// Priority: of a pair, the agent with the lower priority takes the larger share of the
/// avoiding (fxs_orca_share); a neighbor that does not run ORCA leaves all of it to the agent.
/// Bounds: positions more than 1024 units apart on an axis, speeds, radii and
/// neighbor_distance are scaled or clamped to 1024 units (per tick); time_horizon below 1
/// tick counts as 1. Within those bounds no intermediate overflows; far-away intersections of
/// nearly parallel half-plane edges saturate (they only matter when the program is
/// infeasible).
#ifndef FIXSTEER_ORCA_H
#define FIXSTEER_ORCA_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/flocking.h"

#ifdef __cplusplus
extern "C" {
#endif

/// ORCA parameters.
typedef struct fxs_orca_def {
  /// Ticks ahead the chosen velocity keeps every pair apart, [1, FXS_MAX]. Larger is safer
  /// and more timid. Default 20.
  fix16_t time_horizon;
  /// Neighbors farther than this (centre to centre) are ignored, units, [0, 1024]. Default
  /// 0: FXS_ORCA_REACH_RADII body radii of the agent (fxs_orca_reach).
  fix16_t neighbor_distance;
  /// Body radius assumed for every neighbor, units, [0, 1024]. Default 0: the neighbor's
  /// own; fxs_neighbor carries none, so the functions below then take the agent's own
  /// radius for every neighbor, and the world each neighbor's real one.
  fix16_t neighbor_radius;
  /// Most neighbors taken into account, [0, FXS_NEIGHBORS_MAX_K] (16). Default 10.
  uint32_t max_neighbors;
  /// Ticks ahead the chosen velocity keeps the agent off walls and obstacles, [1, FXS_MAX];
  /// below 1 counts as 1. Shorter than time_horizon so an agent may walk close to a wall.
  /// Default 10; in the world it is time_horizon / 2 (no parameter slot is left for it).
  fix16_t obstacle_time_horizon;
  /// Avoidance priority, [0, FXS_ORCA_PRIORITY_MAX]: of a pair, the lower priority takes the
  /// larger share of the avoiding (fxs_orca_share). Default 0 (equal shares among defaults).
  fix16_t priority;
} fxs_orca_def;

/// Largest avoidance priority, raw Q16.16 (100).
#define FXS_ORCA_PRIORITY_MAX FXS_INT(100)
/// A neighbor priority meaning "does not run ORCA": the agent takes all of the avoiding.
#define FXS_ORCA_PASSIVE (-FXS_ONE)
/// Most wall and obstacle half-planes one agent takes into account: the nearest (least
/// clearance, then walls before obstacles, then lower index).
#define FXS_ORCA_MAX_STATIC_LINES 8u
/// The symmetry-breaking turn of the preferred velocity, raw radians (1/8 rad, about 7.2
/// degrees), clockwise.
#define FXS_ORCA_SIDE_TURN FXS_RATIO(1, 8)

/// The walls and obstacles an agent's ORCA keeps off (any number: the nearest
/// FXS_ORCA_MAX_STATIC_LINES within reach count).
typedef struct fxs_orca_statics {
  const fxs_wall *walls;           ///< Walls (segments, zero thickness), or NULL if none.
  uint32_t wall_count;             ///< Entries of walls.
  const fxs_obstacle *obstacles;   ///< Obstacle circles, or NULL if none.
  const uint32_t *obstacle_subset; ///< Indices into obstacles to consider, or NULL: all.
  uint32_t obstacle_count;         ///< Entries of obstacle_subset (of obstacles if NULL).
} fxs_orca_statics;

/// The defaults listed on each field.
FXS_API fxs_orca_def fxs_default_orca_def(void);

/// The crowd side rule (the side rule's extension from a pair to a crowd; simulation version
/// 6 in the world, for the orca behavior; fxs_orca_velocity_crowd says where it applies). A crowd
/// arranged with mirror symmetry (on a circle, in two facing rows) has no reason to pick a side:
/// ORCA slows every agent alike and the crowd closes into a ring or a wall of agents at rest, each
/// blocked by its neighbors on both sides, that lasts until rounding breaks the symmetry, the
/// longer the finer the rounding against the crowd's size (the larger the unit of length), or for
/// good. Rule, stateless: an agent that wants at least a quarter of its top speed but moves at less
/// than 3/4 of the speed it wants is blocked, by b = 1 - (16/9) |velocity|^2 / |preferred|^2 in (0,
/// 1] (0 at 3/4 of the wanted speed, 1 at rest); its preferred velocity is turned clockwise (to the
/// right with y up, the pair rule's side) by b h FXS_ORCA_CROWD_TURN (the pair rule's 1/8 rad),
/// where h in [1/2, 1) comes from its id (fxs_orca_crowd_share). The common side breaks the
/// mirror symmetry (everyone passes on the same side, as the pair rule has it), before the
/// crowd has closed into a ring; the share by id breaks the symmetry among alike agents, so
/// that they do not turn in step. An agent free to move as it wants (>= 3/4 of its wanted
/// speed) or slowing down (wanting less than a quarter of its top speed, near its target)
/// is left as it is. No length enters except through ratios: the rule is the same in any
/// unit.

/// The crowd side rule's largest turn, raw radians: the pair rule's (1/8 rad).
#define FXS_ORCA_CROWD_TURN FXS_ORCA_SIDE_TURN
#define FXS_ORCA_CROWD_FREE_NUM 9u  ///< Free: |velocity|^2 * 16 >= 9 * |preferred|^2
#define FXS_ORCA_CROWD_FREE_DEN 16u ///< (3/4 of the wanted speed, squared: 9/16).

/// The agent's share of the crowd side turn, raw Q16.16 in [1/2, 1): 1/2 plus the top 15
/// bits of id times 2654435761 (Knuth's multiplicative hash), so that consecutive ids differ.
static inline fix16_t fxs_orca_crowd_share(uint32_t id) {
  return (fix16_t)(FXS_ONE / 2 + (fix16_t)((id * 2654435761u) >> 17));
}

/// The preferred velocity by the crowd side rule (above): `preferred` as it is when the agent
/// is free or slowing, else turned clockwise by up to FXS_ORCA_CROWD_TURN in proportion to how
/// blocked it is. |preferred| and the velocity are clamped to +-1024 units a tick first.
FXS_API fxs_vec2 fxs_orca_crowd_side(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred);

/// Body radii of the neighbor distance ORCA takes when its parameter is 0 (the default).
#define FXS_ORCA_REACH_RADII 15
/// ORCA keeps two agents (sum of radii)/FXS_ORCA_MARGIN_DIVISOR farther apart than their
/// bodies: the velocity obstacle of a pair has radius (r1 + r2) (1 + 1/32), so that what ORCA
/// leaves of a crush lies inside contact's small give (world_contact.h) instead of beyond it.
#define FXS_ORCA_MARGIN_DIVISOR 32

/// The neighbor distance ORCA takes for `self`: neighbor_distance when positive, else
/// FXS_ORCA_REACH_RADII of its body radii; within [0, 1024] units.
static inline fix16_t fxs_orca_reach(const fxs_agent *self, fix16_t neighbor_distance) {
  int64_t r = neighbor_distance > 0
                  ? neighbor_distance
                  : (int64_t)(self->radius > 0 ? self->radius : 0) * FXS_ORCA_REACH_RADII;
  return r > FXS_INT(1024) ? FXS_INT(1024) : (fix16_t)r;
}

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
FXS_API fxs_orca_line fxs_orca_half_plane(const fxs_agent *self, uint32_t self_id,
                                          const fxs_neighbor *neighbor, const fxs_orca_def *def);

/// The agent's share of the avoiding against a neighbor, Q16.16 in [0, 1]: with weights
/// w = 1 + priority, w_neighbor / (w_self + w_neighbor) (equal priorities: 1/2; 0 against
/// 100: 101/102). A neighbor with a negative (FXS_ORCA_PASSIVE) priority: 1. Priorities are
/// clamped to [0, FXS_ORCA_PRIORITY_MAX].
FXS_API fix16_t fxs_orca_share(fix16_t self_priority, fix16_t neighbor_priority);

/// fxs_orca_half_plane with the agent taking `share` (Q16.16, [0, 1]) of the avoiding.
FXS_API fxs_orca_line fxs_orca_half_plane_shared(const fxs_agent *self, uint32_t self_id,
                                                 const fxs_neighbor *neighbor,
                                                 const fxs_orca_def *def, fix16_t share);

/// The half-plane a wall gives: false when the wall is out of reach (farther than
/// obstacle_time_horizon * max_speed beyond the agent's radius). The closest point of the
/// wall to the agent decides: inside the segment, the velocities whose approach to the wall
/// line closes at most the clearance within the horizon (the wall lies wholly beyond that
/// line, so none reaches it); at an end, the velocity obstacle of that end point, as for an
/// obstacle of radius 0, so the agent may pass round the end. Touching (clearance <= 0): no
/// velocity toward the wall.
FXS_API bool fxs_orca_wall_line(const fxs_agent *self, const fxs_wall *wall,
                                const fxs_orca_def *def, fxs_orca_line *out);

/// The half-plane an obstacle circle gives (the agent's whole velocity obstacle of it over
/// obstacle_time_horizon, no reciprocity): false when out of reach. Touching: no velocity
/// toward its centre.
FXS_API bool fxs_orca_obstacle_line(const fxs_agent *self, const fxs_obstacle *obstacle,
                                    const fxs_orca_def *def, fxs_orca_line *out);

/// The new velocity among neighbors (priorities[i] is neighbor i's avoidance priority, or
/// FXS_ORCA_PASSIVE; NULL: every neighbor has the agent's own) and static obstacles
/// (statics may be NULL). The preferred velocity is first turned by the side rule.
FXS_API fxs_vec2 fxs_orca_velocity_among(const fxs_agent *self, uint32_t self_id,
                                         fxs_vec2 preferred, const fxs_neighbor *neighbors,
                                         const fix16_t *priorities, uint32_t count,
                                         const fxs_orca_statics *statics, const fxs_orca_def *def);

/// The new velocity: the one closest to `preferred` (units per tick) inside the max-speed
/// disc and every neighbor's half-plane (neighbors with id == self_id are skipped); its
/// length is at most max_speed. Equal priorities, no walls: fxs_orca_velocity_among with
/// NULL priorities and statics.
FXS_API fxs_vec2 fxs_orca_velocity(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                   const fxs_neighbor *neighbors, uint32_t count,
                                   const fxs_orca_def *def);

/// ORCA as a steering force: fxs_orca_velocity(...) - velocity.
FXS_API fxs_vec2 fxs_orca(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                          const fxs_neighbor *neighbors, uint32_t count, const fxs_orca_def *def);

#ifdef __cplusplus
}
#endif

#endif
