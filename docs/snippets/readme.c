#include <inttypes.h>
#include <stdio.h>

#include "fixsteer/fixsteer.h"

int main(void) {
  static uint64_t memory[8192];  // 64 KiB, 8-byte aligned: the world lives in caller memory
  fxs_world_capacity capacity = {.agents = 4};
  fxs_world_def def = fxs_default_world_def();  // 4096 x 4096 units, seed 1
  fxs_world world;
  if (fxs_world_memory_size(&capacity) > sizeof memory ||
      fxs_world_init(&world, &def, &capacity, memory, sizeof memory) != FXS_OK)
    return 1;

  fxs_spawn_def body = fxs_default_spawn_def();  // max speed 4 units a tick, max force 0.25
  body.position = fxs_vec2_make(FXS_INT(100), FXS_INT(100));
  fxs_command spawn = fxs_command_spawn(&body), commands[2];
  fxs_agent_handle agent;
  fxs_world_apply(&world, &spawn, &agent);
  commands[0] = fxs_command_set_target_point(agent, fxs_vec2_make(FXS_INT(900), FXS_INT(500)));
  commands[1] = fxs_command_add_arrive(agent, fxs_default_blend(), FXS_INT(100));

  for (uint32_t tick = 0; tick < 600; ++tick) {  // commands apply at the start of their tick
    fxs_world_step(&world, commands, tick == 0 ? 2 : 0, NULL);
  }
  const fxs_agent *a = fxs_world_agent(&world, agent);
  printf("tick %" PRIu32 ": agent at (%.3f, %.3f), state hash 0x%016" PRIx64 "\n", world.tick,
         a->position.x / 65536.0, a->position.y / 65536.0, fxs_world_hash(&world));  // Q16.16
  return 0;
}
