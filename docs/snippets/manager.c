// Behaviors without the world: one agent, its own random stream and a steering manager,
// integrated by hand every tick. The prey arrives at the mouse and wanders on the way.
#include <inttypes.h>
#include <stdio.h>

#include "fixsteer/fixsteer.h"

int main(void) {
  fxs_agent prey = fxs_default_agent();  // max speed 4, max force 0.25, mass 1
  prey.position = fxs_vec2_make(FXS_INT(120), FXS_INT(80));
  fxs_vec2 mouse = fxs_vec2_make(FXS_INT(900), FXS_INT(-350));

  fxs_rng rng;  // one stream per agent, from the world seed and the agent's id
  fxs_rng_seed_stream(&rng, /*world seed*/ 42, /*agent id*/ 7);
  fxs_wander_def wander = fxs_default_wander_def();
  fix16_t wander_angle = 0;  // wander's state, radians: keep it with the agent

  fxs_steering_manager m;
  for (int tick = 0; tick < 400; ++tick) {
    fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE,
                    fxs_steering_linear(fxs_arrive(&prey, mouse, FXS_INT(30))), FXS_ONE, 0);
    fxs_manager_add(&m, FXS_BEHAVIOR_WANDER,
                    fxs_steering_linear(fxs_wander(&prey, &wander, &wander_angle, &rng)),
                    FXS_RATIO(1, 2), 1);
    fxs_manager_update(&m, &prey);  // truncate to max force, divide by mass, integrate, orient
  }
  // m.entries[i].requested and .applied: what each behavior asked for and what it got.
  printf("prey at (%.3f, %.3f); last tick: arrive got %" PRId32 " of %" PRId32 " raw in x\n",
         prey.position.x / 65536.0, prey.position.y / 65536.0, m.entries[0].applied.linear.x,
         m.entries[0].requested.linear.x);
  return 0;
}
