/// @file hide.h
/// Hide (Reynolds; Buckland's Hide): put an obstacle between the agent and a hunter. Each
/// circular obstacle offers one hiding spot on its far side from the hunter, on the line
/// from the hunter through the obstacle's centre, distance_from_boundary beyond its edge
/// (centre + (radius + distance_from_boundary) along hunter -> centre). The agent arrives at
/// the nearest spot; with no usable obstacle it evades the hunter.
/// Where the straight walk to the spot would take the agent's body into that obstacle (the
/// spot is on the far side, and the hunter moving swings it round), the agent walks round
/// instead: it seeks a point on the ring of spots 45 degrees ahead of it toward the spot,
/// so it does not cut through the obstacle it hides behind. Buckland's literal reading does,
/// and leaves the rescue to obstacle avoidance: in test_hide's patrolling-hunter scene,
/// agents without the detour and without avoidance went 33 units into an obstacle; with the
/// detour their centres kept 6.9 units off every edge (7.7 with avoidance added, 5.6 with
/// avoidance but no detour).
#ifndef FIXSTEER_HIDE_H
#define FIXSTEER_HIDE_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Hide parameters.
typedef struct fxs_hide_def {
  /// Gap between the obstacle's edge and the spot (the agent's centre), units, >= 0. The
  /// agent's body is hidden when it exceeds the agent's radius. Default 16.
  fix16_t distance_from_boundary;
  fix16_t slowing_radius; ///< Arrival slowing radius at the spot, units, >= 0. Default 32.
  fix16_t max_prediction; ///< Look-ahead cap of the evade fallback, ticks, >= 0. Default 30.
} fxs_hide_def;

/// The defaults listed on each field.
FXS_API fxs_hide_def fxs_default_hide_def(void);

/// The hiding spot behind one obstacle, in *spot. False (and *spot untouched) when the
/// hunter stands exactly on the obstacle's centre, which gives no "far side". The direction
/// hunter -> centre is exact for any two points (halved, not saturated, when the difference
/// exceeds the Q16.16 range); the spot saturates per component.
FXS_API bool fxs_hiding_spot(const fxs_obstacle *obstacle, fxs_vec2 hunter_position,
                             fix16_t distance_from_boundary, fxs_vec2 *spot);

/// Index of the obstacle whose spot is nearest to the agent, and that spot in *spot (when
/// not NULL); -1 when no obstacle gives a spot. Squared distances are compared exactly (128
/// bits); equal distances keep the lower index.
FXS_API int fxs_best_hiding_spot(const fxs_agent *self, fxs_vec2 hunter_position,
                                 const fxs_obstacle *obstacles, uint32_t count,
                                 const fxs_hide_def *def, fxs_vec2 *spot);

/// The point hide steers to: the best spot, or, when the walk there is blocked by the spot's
/// obstacle (the segment agent -> spot comes within radius + the agent's radius of its
/// centre), the detour point on the ring (*detour set; ties, with the spot exactly opposite,
/// go counter-clockwise). The agent's own position when no obstacle gives a spot.
FXS_API fxs_vec2 fxs_hide_target(const fxs_agent *self, fxs_vec2 hunter_position,
                                 const fxs_obstacle *obstacles, uint32_t count,
                                 const fxs_hide_def *def, bool *detour);

/// Hide: arrive(spot, slowing_radius), or seek(detour point) at full speed; without any
/// spot, fxs_evade(hunter, max_prediction) at any distance. One hider alone: see
/// fxs_hide_among for several.
FXS_API fxs_vec2 fxs_hide(const fxs_agent *self, const fxs_agent *hunter,
                          const fxs_obstacle *obstacles, uint32_t count, const fxs_hide_def *def);

/// Hiders whose spots a later hider leaves alone: at most this many are considered.
#define FXS_HIDE_MAX_RIVALS 16

/// Another hider hiding from the same hunter, which has the first claim on its spot.
typedef struct fxs_hider {
  fxs_vec2 position;              ///< Its position, world units.
  fix16_t distance_from_boundary; ///< Its hide parameter, units, >= 0.
} fxs_hider;

/// Distinct spots: the rivals (at most FXS_HIDE_MAX_RIVALS, the rest ignored), in order, each
/// take the obstacle whose spot is nearest to them among those not taken before them; the
/// agent takes the nearest spot left (when every spot is taken, the nearest of all). Returns
/// the obstacle's index and its spot in *spot (when not NULL), or -1 without any spot. The
/// world passes as rivals the hiders of lower slots with the same hunter, in slot order, so
/// the hider of the lowest slot has the first choice and no two share a spot while there are
/// spots enough. Work: rival_count + 1 passes over the obstacles.
FXS_API int fxs_distinct_hiding_spot(const fxs_agent *self, fxs_vec2 hunter_position,
                                     const fxs_obstacle *obstacles, uint32_t count,
                                     const fxs_hide_def *def, const fxs_hider *rivals,
                                     uint32_t rival_count, fxs_vec2 *spot);

/// fxs_hide toward the spot fxs_distinct_hiding_spot gives (rivals may be NULL when
/// rival_count is 0: then exactly fxs_hide).
FXS_API fxs_vec2 fxs_hide_among(const fxs_agent *self, const fxs_agent *hunter,
                                const fxs_obstacle *obstacles, uint32_t count,
                                const fxs_hide_def *def, const fxs_hider *rivals,
                                uint32_t rival_count);

#ifdef __cplusplus
}
#endif

#endif
