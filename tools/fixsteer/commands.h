// The fixsteer commands; main.c dispatches to them. Each takes the arguments after its name
// and returns the tool's exit code (exit_codes.h). host and join: cmd_net.h.
#ifndef FIXSTEER_TOOL_COMMANDS_H
#define FIXSTEER_TOOL_COMMANDS_H

// cmd_scene.c: `fixsteer list`, `record` and `trace` (scenarios run tick by tick).
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_trace(int argc, char **argv);

// cmd_replay.c: `fixsteer verify`, `dump` and `diff` (replay files).
int cmd_verify(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);

// `fixsteer stats`: per-scene figures (cmd_stats.c).
int cmd_stats(int argc, char **argv);

// `fixsteer render`: an SVG and a PNG of a scenario or of one or two replays (cmd_render.c).
int cmd_render(int argc, char **argv);

// `fixsteer params`: every behavior parameter, from the library's table (cmd_params.c).
int cmd_params(int argc, char **argv);

// `fixsteer scale`: a scene file with every length multiplied by K (cmd_scale.c).
int cmd_scale(int argc, char **argv);

// `fixsteer size`: a scene's world and snapshot memory by capacity (cmd_size.c).
int cmd_size(int argc, char **argv);

#endif
