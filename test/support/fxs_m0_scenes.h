// Small worlds for the Cortex-M0 (16 KiB of RAM) suite, built the same way on every target
// so that their state hashes can be pinned once and compared everywhere: a flock, an ORCA
// crowd round a wall and an obstacle, and a patrol on a stop path.
#ifndef FXS_M0_SCENES_H
#define FXS_M0_SCENES_H

#include "fixsteer/command_build.h"
#include "fixsteer/world.h"

typedef enum fxs_m0_scene { FXS_M0_FLOCK, FXS_M0_CROWD, FXS_M0_PATROL, FXS_M0_SCENES } fxs_m0_scene;

// The capacities of every scene: `agents` agents, one obstacle, one wall, one 4-node path,
// one worker.
static inline fxs_world_capacity fxs_m0_capacity(uint32_t agents) {
  fxs_world_capacity c = {agents, 1, 1, 4, 1, 1, 0, 0, 0, 0, 0};
  return c;
}

static inline fxs_result fxs_m0_apply(fxs_world *w, fxs_command c, fxs_agent_handle *spawned) {
  return fxs_world_apply(w, &c, spawned);
}

// Lays out scene `scene` with `agents` agents in `memory`; FXS_OK or the first failure.
static inline fxs_result fxs_m0_build(fxs_world *w, fxs_m0_scene scene, uint32_t agents,
                                      void *memory, size_t size) {
  fxs_world_capacity c = fxs_m0_capacity(agents);
  fxs_world_def d = fxs_default_world_def();
  d.seed = 0x4D30u + (uint64_t)scene;
  d.bounds_max = fxs_vec2_make(FXS_INT(400), FXS_INT(400));
  d.clamp_to_bounds = 1;
  fxs_result r = fxs_world_init(w, &d, &c, memory, size);
  if (r != FXS_OK) return r;
  if (scene == FXS_M0_PATROL) {
    const fxs_vec2 nodes[4] = {{FXS_INT(60), FXS_INT(60)},
                               {FXS_INT(340), FXS_INT(60)},
                               {FXS_INT(340), FXS_INT(340)},
                               {FXS_INT(60), FXS_INT(340)}};
    uint16_t index;
    r = fxs_world_add_path(w, nodes, 4, FXS_PATH_STOP_AT_END, FXS_INT(20), &index);
    if (r != FXS_OK) return r;
  }
  if (scene == FXS_M0_CROWD) {
    fxs_obstacle o = {{FXS_INT(200), FXS_INT(200)}, FXS_INT(30)};
    fxs_wall wall = {{FXS_INT(80), FXS_INT(280)}, {FXS_INT(320), FXS_INT(300)}};
    if ((r = fxs_m0_apply(w, fxs_command_add_obstacle(o), 0)) != FXS_OK) return r;
    if ((r = fxs_m0_apply(w, fxs_command_add_wall(wall), 0)) != FXS_OK) return r;
  }
  fxs_blend b = fxs_default_blend();
  for (uint32_t i = 0; i < agents && r == FXS_OK; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    int32_t col = (int32_t)(i % 6u), row = (int32_t)(i / 6u);
    s.position = fxs_vec2_make(FXS_INT(90 + col * 44), FXS_INT(90 + row * 40));
    s.velocity = fxs_vec2_make(FXS_RATIO(col - 2, 3), FXS_RATIO(row - 1, 4));
    fxs_agent_handle h;
    if ((r = fxs_m0_apply(w, fxs_command_spawn(&s), &h)) != FXS_OK) return r;
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(310 - col * 44), FXS_INT(360 - row * 20));
    if ((r = fxs_m0_apply(w, fxs_command_set_target_point(h, goal), 0)) != FXS_OK) return r;
    if (scene == FXS_M0_FLOCK) {
      fxs_wander_def wd = fxs_default_wander_def();
      fxs_flocking_view v = {FXS_INT(1), 3};
      r = fxs_m0_apply(w, fxs_command_add_wander(h, b, &wd), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_separation(h, b, FXS_INT(24)), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_alignment(h, b, FXS_INT(60)), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_cohesion(h, b, FXS_INT(60)), 0);
      if (r == FXS_OK) {
        r = fxs_m0_apply(w, fxs_command_add_separation_view(h, b, FXS_INT(30), &v), 0);
      }
    } else if (scene == FXS_M0_CROWD) {
      fxs_orca_def od = fxs_default_orca_def();
      fxs_avoidance_def ad = fxs_default_avoidance_def();
      r = fxs_m0_apply(w, fxs_command_add_orca(h, b, &od, FXS_INT(50)), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_avoidance(h, b, &ad), 0);
    } else {
      r = fxs_m0_apply(w, fxs_command_set_path(h, 0), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_path_following(h, b), 0);
      if (r == FXS_OK) r = fxs_m0_apply(w, fxs_command_add_separation(h, b, FXS_INT(20)), 0);
    }
  }
  return r;
}

#endif
