/// @file batch.h
/// Arrays of agents stepped in one call, outside a world: each agent steered and integrated
/// exactly as one call at a time would (the same agents, bit for bit), a few agents at a time
/// phase by phase, so that a core works on several agents' square roots and divisions at
/// once instead of waiting on one agent's chain after another (on the benchmark's x86-64
/// host an update takes about two thirds of the time of the one-at-a-time calls; docs/
/// performance.md). For a game loop that keeps its own agents and targets in arrays.
#ifndef FIXSTEER_BATCH_H
#define FIXSTEER_BATCH_H

#include <stdint.h>

#include "fixsteer/api.h"
#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Seeks and integrates count agents, each toward its own target: for every i < count the
/// result of fxs_agent_integrate(&agents[i], fxs_steering_linear(fxs_seek(&agents[i],
/// targets[i])), fxs_vec2_zero(), FXS_ONE). agents and targets may be null only when count
/// is 0 (otherwise FXS_ASSERT, and nothing moves).
FXS_API void fxs_seek_integrate_many(fxs_agent *agents, const fxs_vec2 *targets, uint32_t count);

/// The same with arrival: for every i < count, fxs_agent_integrate(&agents[i],
/// fxs_steering_linear(fxs_arrive(&agents[i], targets[i], slowing_radius)), fxs_vec2_zero(),
/// FXS_ONE).
FXS_API void fxs_arrive_integrate_many(fxs_agent *agents, const fxs_vec2 *targets,
                                       fix16_t slowing_radius, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
