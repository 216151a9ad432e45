// The fixsteer commands that live in their own files; main.c dispatches to them. Each takes
// the arguments after its name and returns the tool's exit code (cli.h).
#ifndef FIXSTEER_TOOL_COMMANDS_H
#define FIXSTEER_TOOL_COMMANDS_H

// `fixsteer stats`: per-scene figures (cmd_stats.c).
int cmd_stats(int argc, char **argv);

// `fixsteer render`: an SVG and a PNG of a scenario or of one or two replays (cmd_render.c).
int cmd_render(int argc, char **argv);

// `fixsteer params`: every behavior parameter, from the library's table (cmd_params.c).
int cmd_params(int argc, char **argv);

#endif
