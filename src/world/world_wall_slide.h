// Internal: ORCA alone round a wall (since simulation version 10, FXS_RULES_WALL_SLIDE). An
// agent steered by ORCA without a route, pressed against a wall that stands between it and its
// target, prefers to slide along that wall toward its end the shorter way round (the way
// from the agent to the end and on to the target), instead of pushing into it: where its
// target lies straight behind the wall ORCA would leave it at rest against it, and where the
// slide toward the target ran into a corner, at rest in the corner. Only a free end is a way
// round: one where no other wall ends (a door's jamb, a wall's tip); a wall whose ends are both
// joined to others (a room's corner) is left to ORCA, as a chain of walls would need a route:
// that is navigate's. Since version 11 (FXS_RULES_BLOCK_ROUND) a block's face is not: the
// agent walks the chain of walls, keeping the block on its left (y up), to the first outer
// corner from which its target lies clear of the next wall, and heads for a waypoint out of
// that corner (a radius and an eighth from both walls' lines), from within three radii of the
// pressed band, gradually. Not part of the API.
#ifndef FIXSTEER_WORLD_WALL_SLIDE_H
#define FIXSTEER_WORLD_WALL_SLIDE_H

#include "world_steer.h"

/// The preferred velocity of ORCA agent `ctx` whose preferred one is `preferred`: along the
/// wall it is pressed against toward that wall's free end the shorter way round, as long as
/// `preferred`; since version 11, near a block's face, toward the way round the block (see
/// above); else `preferred` itself. Pressed: its centre within two radii and an eighth of
/// one (fxs_agent_touch) of the wall, the preferred velocity into the wall, and its body's
/// straight way to the target across the wall or past one of its ends nearer than its radius
/// (so it slides on past the end until its body clears it); of several such walls the nearest,
/// ties to the lower live index.
fxs_vec2 fxs_wall_slide(const fxs_steer_context *ctx, fxs_vec2 preferred);

/// Whether a live wall joined to other walls at both of its ends (a face of a box or a block:
/// no free end the slide could take the agent round) stands between the centre of agent `ctx`
/// and its target point: the segment between them meets the wall (touching counts; a wall on
/// the segment's line counts only where it overlaps the segment), exactly. A wall with a free
/// end does not count: the agent gets round it. False in a step without walls.
bool fxs_wall_hides_target(const fxs_steer_context *ctx);

/// Whether the target point of agent `ctx` is walled off from it: a closed chain of live walls
/// (each joined end to end to the next, without a fork, at most 16 of them: a box, a block, a
/// room without a door) separates its centre from its target, the segment between them crossing
/// the chain's walls an odd number of times (exact; an end of a wall on the segment's line counts
/// on one side only, so a crossing through a joint counts once). Then no way leads there, unlike
/// a target behind a block. False in a step without walls.
bool fxs_wall_encloses_target(const fxs_steer_context *ctx);

#endif
