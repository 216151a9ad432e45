#include "fixsteer/path.h"

#include "fixsteer/seek.h"

fxs_path_def fxs_default_path_def(const fxs_vec2 *nodes, uint16_t count, fxs_path_mode mode) {
  fxs_path_def p;
  p.nodes = nodes;
  p.count = count;
  p.mode = (uint8_t)mode;
  p.radius = FXS_INT(10);
  p.slowing_radius = FXS_INT(60);
  return p;
}

fxs_path_state fxs_path_start(void) {
  fxs_path_state s;
  s.current_node = 0;
  s.path_dir = 1;
  s.finished = 0;
  return s;
}

// Moves to the next node according to the mode (one node at most).
static void advance(const fxs_path_def *path, fxs_path_state *s) {
  int last = path->count - 1;
  int current = s->current_node;
  switch ((fxs_path_mode)path->mode) {
    case FXS_PATH_LOOP: current = current >= last ? 0 : current + 1; break;
    case FXS_PATH_PATROL: {
      int next = current + s->path_dir;
      if (next < 0 || next > last) {
        // Turn round straight to the neighbour: re-seeking the node just reached (as a
        // literal reading of seed 004 would) only brakes the agent for a tick.
        s->path_dir = (int8_t)-s->path_dir;
        next = current + s->path_dir;
        if (next < 0 || next > last) next = current; // a one-node path
      }
      current = next;
      break;
    }
    case FXS_PATH_STOP_AT_END:
    default:
      if (current < last) current += 1;
      else s->finished = 1;
      break;
  }
  s->current_node = (uint16_t)current;
}

fxs_vec2 fxs_follow_path(const fxs_agent *self, const fxs_path_def *path, fxs_path_state *state) {
  if (path->count == 0 || path->nodes == 0) return fxs_vec2_zero();
  if (state->current_node >= path->count) state->current_node = (uint16_t)(path->count - 1);
  if (state->path_dir != 1 && state->path_dir != -1) state->path_dir = 1;
  if (fxs_vec2_within(self->position, path->nodes[state->current_node], path->radius)) {
    advance(path, state);
  }
  fxs_vec2 target = path->nodes[state->current_node];
  if (path->mode == FXS_PATH_STOP_AT_END && state->current_node == path->count - 1) {
    return fxs_arrive(self, target, path->slowing_radius);
  }
  return fxs_seek(self, target);
}
