# fixsteer build. `make` builds the library and the pinned libfixmath; `make test` runs the
# Ceedling suite on the desktop, `make test-mcu` the same suite on an emulated Cortex-M3.
#
# Cross builds: make CC=aarch64-linux-gnu-gcc BUILD_DIR=build/aarch64
# Every target compiles libfixmath itself with the one pinned configuration below.

BUILD_DIR ?= build
OPT ?= -O2
AR ?= ar

LFM_DIR := build/libfixmath/libfixmath
LFM_SOURCES := $(LFM_DIR)/fix16.c $(LFM_DIR)/fix16_trig.c $(LFM_DIR)/fix16_sqrt.c
# The pinned libfixmath configuration. Nothing else may be added: config.h rejects the
# options that change results, and the fingerprint test catches any other difference.
LFM_DEFINES := -DFIXMATH_NO_CACHE

WARNINGS := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_LIB := -std=c99 $(OPT) $(WARNINGS) -Werror $(LFM_DEFINES) -Iinclude -Isrc -I$(LFM_DIR) $(EXTRA_CFLAGS)
CFLAGS_LFM := -std=c99 $(OPT) -w $(LFM_DEFINES) -I$(LFM_DIR) $(EXTRA_CFLAGS)

SOURCES := $(wildcard src/*.c)
OBJECTS := $(SOURCES:src/%.c=$(BUILD_DIR)/obj/%.o)
LFM_OBJECTS := $(LFM_SOURCES:$(LFM_DIR)/%.c=$(BUILD_DIR)/obj/libfixmath/%.o)

CEEDLING ?= ceedling

.PHONY: all lib tools setup test test-mcu test-m0 test-sanitize deviation demo golden bench threads-check clean

all: lib tools

tools: $(BUILD_DIR)/bin/fixsteer

lib: $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a

setup:
	bash tools/setup.sh

$(LFM_SOURCES):
	bash tools/setup.sh --source

$(BUILD_DIR)/obj/%.o: src/%.c $(wildcard include/fixsteer/*.h src/*.h) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LIB) -c $< -o $@

$(BUILD_DIR)/obj/libfixmath/%.o: $(LFM_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LFM) -c $< -o $@

$(BUILD_DIR)/libfixsteer.a: $(OBJECTS)
	rm -f $@ && $(AR) rcs $@ $^

$(BUILD_DIR)/libfixmath.a: $(LFM_OBJECTS)
	rm -f $@ && $(AR) rcs $@ $^

# Desktop tools: they use only the public headers and link the two libraries.
CFLAGS_TOOL := -std=c99 $(OPT) $(WARNINGS) -Werror $(LFM_DEFINES) -Iinclude -I$(LFM_DIR) $(EXTRA_CFLAGS)

$(BUILD_DIR)/bin/fxs-deviation: tools/deviation.c $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a -lm $(LDFLAGS) -o $@

# NO_YAML=1 builds the tool without scenario files (for cross builds without a target
# libyaml); LDFLAGS=-static makes binaries that qemu-user runs without a sysroot.
ifeq ($(NO_YAML),1)
FIXSTEER_TOOL_SOURCES := $(filter-out tools/fixsteer/scenario_file.c,$(wildcard tools/fixsteer/*.c))
TOOL_YAML := -DFXS_TOOL_NO_YAML
else
FIXSTEER_TOOL_SOURCES := $(wildcard tools/fixsteer/*.c)
TOOL_YAML := -lyaml
endif

$(BUILD_DIR)/bin/fixsteer: $(FIXSTEER_TOOL_SOURCES) $(wildcard tools/fixsteer/*.h) $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) $(FIXSTEER_TOOL_SOURCES) $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(TOOL_YAML) $(LDFLAGS) -o $@

# The tool under clang's ASan + UBSan, for the command-line checks (no report may appear).
SANITIZE_FLAGS := -std=c99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all $(LFM_DEFINES) -Iinclude -Isrc -I$(LFM_DIR)
build/sanitize/bin/fixsteer: $(FIXSTEER_TOOL_SOURCES) $(wildcard tools/fixsteer/*.h) $(SOURCES) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	clang $(SANITIZE_FLAGS) $(FIXSTEER_TOOL_SOURCES) $(SOURCES) $(LFM_SOURCES) -lyaml -o $@

# The main job: record the hunter/prey demo and prove the replay reproduces it.
demo: setup $(BUILD_DIR)/bin/fixsteer
	$(BUILD_DIR)/bin/fixsteer record --scenario hunter_prey --ticks 1200 --out $(BUILD_DIR)/hunter_prey.fxr
	$(BUILD_DIR)/bin/fixsteer verify $(BUILD_DIR)/hunter_prey.fxr

# Regenerates test/golden/ (only when a behavior change is intended; say so in the commit).
GOLDEN_SCENARIOS := hunter_prey patrol flock queue leader obstacle_field walker seek_wind orientation
golden: $(BUILD_DIR)/bin/fixsteer
	@mkdir -p test/golden
	@for s in $(GOLDEN_SCENARIOS); do \
	  $(BUILD_DIR)/bin/fixsteer record --scenario $$s --keyframe 250 --out test/golden/$$s.fxr || exit 1; \
	done

$(BUILD_DIR)/bin/fxs-bench: tools/bench.c tools/task_pool.h tools/uniform_flock.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) -pthread $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(LDFLAGS) -o $@

# The golden replays verified in 1..16 threads, and through the world's task system on 1..16
# workers with a 100,000-agent flock, plain and under ThreadSanitizer (fewer flock ticks).
$(BUILD_DIR)/bin/fxs-threads: tools/threads.c tools/task_pool.h tools/uniform_flock.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) -pthread $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(LDFLAGS) -o $@

build/tsan/bin/fxs-threads: tools/threads.c tools/task_pool.h tools/uniform_flock.h $(SOURCES) $(wildcard include/fixsteer/*.h src/*.h) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	clang -std=c99 -g -O1 -fsanitize=thread $(LFM_DEFINES) -Iinclude -Isrc -I$(LFM_DIR) -pthread $< $(SOURCES) $(LFM_SOURCES) -o $@

threads-check: $(BUILD_DIR)/bin/fxs-threads build/tsan/bin/fxs-threads
	$(BUILD_DIR)/bin/fxs-threads test/golden/*.fxr
	TSAN_OPTIONS=halt_on_error=1 build/tsan/bin/fxs-threads --flock-ticks 2 test/golden/*.fxr

# Step time and memory for flocks of 100 to 2000 agents (prints a table).
bench: $(BUILD_DIR)/bin/fxs-bench
	$(BUILD_DIR)/bin/fxs-bench

# Q16.16 against double precision, per behavior (prints a table).
deviation: $(BUILD_DIR)/bin/fxs-deviation
	$(BUILD_DIR)/bin/fxs-deviation 1000

# The test targets run the full set-up first (idempotent: packages, Ceedling, libfixmath).
test: setup
	$(CEEDLING) test:all

test-mcu: setup
	$(CEEDLING) --mixin=mcu test:all

test-m0: setup
	$(CEEDLING) --mixin=mcu-m0 test:all

test-sanitize: setup
	$(CEEDLING) --mixin=sanitize test:all

clean:
	rm -rf $(BUILD_DIR)/obj $(BUILD_DIR)/ceedling $(BUILD_DIR)/*.a $(BUILD_DIR)/bin
