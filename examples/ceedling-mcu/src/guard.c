#include "guard.h"

void guard_init(guard *g, const guard_route *route) {
  g->body = fxs_default_agent();
  g->body.max_speed = FXS_INT(2);
  g->body.max_force = FXS_RATIO(1, 8);
  g->body.position = route->posts[0];
  g->path = fxs_default_path_def(route->posts, route->count, FXS_PATH_PATROL);
  g->path.radius = FXS_INT(4);
  g->progress = fxs_path_start();
  g->sight = FXS_INT(40);
  g->turnarounds = 0;
  g->chasing = false;
}

void guard_step(guard *g, const fxs_vec2 *intruder) {
  int8_t dir = g->progress.path_dir;
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
  g->chasing = intruder && fxs_vec2_within(g->body.position, *intruder, g->sight);
  if (g->chasing) {
    // The chase comes first; what is left of the force budget keeps the guard on its route.
    fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, fxs_steering_linear(fxs_seek(&g->body, *intruder)),
                    FXS_ONE, 0);
  }
  fxs_manager_add(&m, FXS_BEHAVIOR_PATH,
                  fxs_steering_linear(fxs_follow_path(&g->body, &g->path, &g->progress)), FXS_ONE,
                  1);
  fxs_manager_update(&m, &g->body);
  if (g->progress.path_dir != dir) g->turnarounds++;
}
