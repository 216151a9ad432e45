// The sections of a scenario file (scenario_file.h): world, paths, obstacles, walls, the flow
// field, agents (with their behaviors and targets) and timed events. Each reads its part of
// the YAML tree into the scene being built (scenario_read.h), adding the commands it implies
// as events, and fails naming the file and line. A missing optional section is no error.
#ifndef FIXSTEER_TOOL_SCENARIO_SECTIONS_H
#define FIXSTEER_TOOL_SCENARIO_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario_read.h"

// A path's radius and slowing radius where the file gives none (`fixsteer scale` writes
// them out, scaled, since they are lengths the file does not state).
#define SCENE_PATH_RADIUS FXS_INT(10)
#define SCENE_PATH_SLOWING_RADIUS FXS_INT(60)

bool scene_world(ctx *c, const ynode *n);
bool scene_paths(ctx *c, const ynode *list);
// Needs the agents read first (events and targets name them).
bool scene_agents(ctx *c, const ynode *list);
bool scene_obstacles(ctx *c, const ynode *list);
// *count: the walls read.
bool scene_walls(ctx *c, const ynode *list, uint32_t *count);
bool scene_field(ctx *c, const ynode *n);
/// navigation: {cell_size, origin, columns, rows, radius, budget, searches, waypoints, open};
/// present by default when an agent navigates (docs/navigation.md).
bool scene_navigation(ctx *c, const ynode *n);
bool scene_events(ctx *c, const ynode *list);
// Gives every remove_wall and remove_obstacle event the slot its coordinates name at its
// tick (once the events are sorted and the set-up taken out); `walls` and `obstacles` are the
// world's capacities.
bool scene_resolve_removals(ctx *c, uint32_t walls, uint32_t obstacles);

#endif
