/// @file formation.h
/// Formations: a group of agents keeps slots around a leader (the members' target agent) or,
/// without one, around the group's centre. Slots come from a shape (line, column, wedge, box)
/// or from the user's offsets, are laid out in the leader's frame (forward along its heading,
/// fxs_agent_heading; left along the heading turned by +pi/2), so the formation turns with the
/// leader, and are given to members nearest first. A member arrives at its slot matching the
/// leader's velocity, and stops there (velocity exactly 0) once the leader stands still.
///
/// Assignment rule (a pure function of the start-of-tick positions, so every peer, thread
/// count and restored snapshot agrees, and a formation re-forms by itself after a member is
/// despawned, pushed away or added): of all (member, slot) pairs still free, the pair with the
/// smallest squared distance is fixed first; on equal distances the member earlier in the
/// member list (the lower world slot index), then the lower slot index, wins. Distances are
/// exact 64-bit squares of component differences saturated to the Q16.16 range.
///
/// Cost: at most FXS_FORMATION_MAX_MEMBERS members take part; each member's tick costs
/// O(n^3) comparisons for n members (16^3 = 4096 at most) plus, in a world, the scan of the
/// agent slots that finds the group.
#ifndef FIXSTEER_FORMATION_H
#define FIXSTEER_FORMATION_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest formation: members after the first 16 (in member order) get no slot and no force.
#define FXS_FORMATION_MAX_MEMBERS 16u

/// Slot layouts. s is the spacing, n the number of slots, slot i in (forward, left) units
/// around a leader; centred formations subtract the slots' mean (see fxs_formation_offset).
typedef enum fxs_formation_shape {
  /// Abreast, one row s behind the leader: (-s, ((n - 1) / 2 - i) s), slot 0 leftmost.
  FXS_FORMATION_LINE = 0,
  /// In file behind the leader: (-(i + 1) s, 0).
  FXS_FORMATION_COLUMN = 1,
  /// A V with the leader at its apex: row r = i / 2 + 1 at (-r s, +r s) for even i (left),
  /// (-r s, -r s) for odd i (right).
  FXS_FORMATION_WEDGE = 2,
  /// Rows of w = ceil(sqrt(n)) slots behind the leader, each row centred: row i / w at
  /// -(i / w + 1) s, its k slots at ((k - 1) / 2 - column) s; only the last row may be shorter.
  FXS_FORMATION_BOX = 3,
  /// The user's offsets (forward, left), slot i = offsets[i]; n is at most their count.
  FXS_FORMATION_USER = 4,
} fxs_formation_shape;

/// Formation parameters. In a world they are the behavior slot's parameters (shape, spacing,
/// slowing_radius, group, arrival_radius), and the user's offsets are the nodes of the
/// agent's path (path index), read as (forward, left) offsets rather than positions.
typedef struct fxs_formation_def {
  fxs_formation_shape shape; ///< Layout. Default FXS_FORMATION_WEDGE.
  fix16_t spacing;           ///< Distance between neighboring slots, units, [0, 1024]. Default 24.
  fix16_t slowing_radius;    ///< Arrival slowing radius at the slot, units, >= 0. Default 32.
  uint32_t group;            ///< Agents with the same group form one formation. Default 0.
  fix16_t arrival_radius;    ///< A member this close to its slot, the leader at rest, stops
                             ///< (velocity 0); units, >= 0. Default 1/4.
  const fxs_vec2 *offsets;   ///< FXS_FORMATION_USER: the slots (forward, left), units.
  uint32_t offset_count;     ///< Entries of offsets.
} fxs_formation_def;

/// The defaults listed on each field, no user offsets.
FXS_API fxs_formation_def fxs_default_formation_def(void);

/// The number of slots a formation of `members` members has: members, at most
/// FXS_FORMATION_MAX_MEMBERS and, for FXS_FORMATION_USER, at most offset_count.
FXS_API uint32_t fxs_formation_slot_count(const fxs_formation_def *def, uint32_t members);

/// Offset (forward, left) of slot `slot` of `count` slots, units. Around a leader as the
/// shape says; centred (around_leader false): minus the mean of the count offsets, rounded
/// half away from zero, so the slots' centre is the anchor. (0, 0) for slot >= count.
FXS_API fxs_vec2 fxs_formation_offset(const fxs_formation_def *def, uint32_t slot, uint32_t count,
                                      bool around_leader);

/// World position of an offset (forward, left) in the frame at `anchor` with unit heading
/// `heading`: anchor + forward * heading + left * (-heading.y, heading.x), each component one
/// rounding of an exact sum, saturated.
FXS_API fxs_vec2 fxs_formation_place(fxs_vec2 anchor, fxs_vec2 heading, fxs_vec2 offset);

/// The slot given to member `who` of `count` (<= FXS_FORMATION_MAX_MEMBERS) members at
/// `positions`, with `count` slots at world positions `slots`, by the assignment rule above.
/// Returns count when who >= count.
FXS_API uint32_t fxs_formation_assign(const fxs_vec2 *positions, const fxs_vec2 *slots,
                                      uint32_t count, uint32_t who);

/// The slot of member `who` of `members` (as fxs_formation below): writes its world position
/// to *slot and returns true; false (nothing written) for a member without a slot.
FXS_API bool fxs_formation_slot(const fxs_agent *const *members, uint32_t count, uint32_t who,
                                const fxs_agent *leader, const fxs_formation_def *def,
                                fxs_vec2 *slot);

/// The steering of a member at `slot` (a world position) that moves by `base` a tick (the
/// leader's velocity; zero without a leader): arrival at the slot (slowing_radius) on top of
/// base, truncated to max_speed; with base exactly 0 and the member within arrival_radius of
/// the slot, the steering that stops it. fxs_formation is fxs_formation_slot and this.
FXS_API fxs_vec2 fxs_formation_arrive(const fxs_agent *self, fxs_vec2 slot, fxs_vec2 base,
                                      const fxs_formation_def *def);

/// Formation steering of member `who` of `members` (start-of-tick bodies, in member order;
/// `count` of them), around `leader` (its position, heading and velocity), or around the
/// members' mean position in the world's axes (heading +x) when leader is NULL. Desired
/// velocity: the leader's velocity plus an arrival (slowing_radius) toward the slot moved on by
/// that velocity, truncated to max_speed; with the leader at rest (velocity exactly 0; always
/// without a leader) and the member within arrival_radius of its slot, 0, so it stops and
/// keeps its heading. Zero force for a member without a slot.
FXS_API fxs_vec2 fxs_formation(const fxs_agent *const *members, uint32_t count, uint32_t who,
                               const fxs_agent *leader, const fxs_formation_def *def);

#ifdef __cplusplus
}
#endif

#endif
