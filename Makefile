# fixsteer build. `make` builds the library and the pinned libfixmath; `make test` runs the
# Ceedling suite on the desktop, `make test-mcu` the same suite on an emulated Cortex-M3.
#
# Cross builds: make CC=aarch64-linux-gnu-gcc BUILD_DIR=build/aarch64
# wasm32-wasi (static library and tool, run with node tools/wasi-run.mjs): make wasm
# Bare-metal MCUs (static library only):
#   make lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m0 -mthumb" BUILD_DIR=build/m0
# Every target compiles libfixmath itself with the one pinned configuration below, and
# libfixsteer.a / libfixsteer.so carry those objects inside (docs/embedding.md).
# `make install PREFIX=... [DESTDIR=...]` installs headers, libraries, pkg-config and CMake files.

BUILD_DIR ?= build
OPT ?= -O2
AR ?= ar
PREFIX ?= /usr/local

# The version is written once, in include/fixsteer/version.h.
version_field = $(shell sed -n 's/^.define FXS_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' include/fixsteer/version.h)
VERSION_MAJOR := $(call version_field,MAJOR)
VERSION_MINOR := $(call version_field,MINOR)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(call version_field,PATCH)

LFM_DIR := build/libfixmath/libfixmath
LFM_SOURCES := $(LFM_DIR)/fix16.c $(LFM_DIR)/fix16_trig.c $(LFM_DIR)/fix16_sqrt.c
# The pinned libfixmath configuration. Nothing else may be added: config.h rejects the
# options that change results, and the fingerprint test catches any other difference.
LFM_DEFINES := -DFIXMATH_NO_CACHE

# The library's modules, one folder of src/ each, in layer order (docs/development.md, "Where
# things live"; tools/layer-check.py). Public headers stay in include/fixsteer.
SRC_MODULES := core steer nav mesh world lockstep
SRC_INCLUDES := $(addprefix -Isrc/,$(SRC_MODULES))
PRIVATE_HEADERS := $(wildcard $(addsuffix /*.h,$(addprefix src/,$(SRC_MODULES))))
SOURCES := $(wildcard $(addsuffix /*.c,$(addprefix src/,$(SRC_MODULES))))

WARNINGS := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_LIB := -std=c99 $(OPT) $(WARNINGS) -Werror $(LFM_DEFINES) -Iinclude $(SRC_INCLUDES) -I$(LFM_DIR) $(EXTRA_CFLAGS)
CFLAGS_LFM := -std=c99 $(OPT) -w $(LFM_DEFINES) -I$(LFM_DIR) $(EXTRA_CFLAGS)

OBJECTS := $(SOURCES:src/%.c=$(BUILD_DIR)/obj/%.o)
LFM_OBJECTS := $(LFM_SOURCES:$(LFM_DIR)/%.c=$(BUILD_DIR)/obj/libfixmath/%.o)
# Position-independent twins for the shared library.
PIC_OBJECTS := $(SOURCES:src/%.c=$(BUILD_DIR)/obj-pic/%.o)
LFM_PIC_OBJECTS := $(LFM_SOURCES:$(LFM_DIR)/%.c=$(BUILD_DIR)/obj-pic/libfixmath/%.o)
SHARED_NAME := libfixsteer.so.$(VERSION)
SHARED_SONAME := libfixsteer.so.$(VERSION_MAJOR)

# The compiler and flags the objects in BUILD_DIR were built with: when they change (another
# CC, OPT or EXTRA_CFLAGS in the same BUILD_DIR), every object is rebuilt, so a library never
# mixes objects of two configurations.
FLAGS_STAMP := $(BUILD_DIR)/.flags
FLAGS_LINE := $(CC) | $(CFLAGS_LIB) | $(CFLAGS_LFM)
$(shell mkdir -p $(BUILD_DIR) && if [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" != '$(FLAGS_LINE)' ]; then printf '%s\n' '$(FLAGS_LINE)' >$(FLAGS_STAMP); fi)

CEEDLING ?= ceedling

# wasm32-wasi (`make wasm`, or CC="clang-14 --target=wasm32-wasi --sysroot=/usr"): no shared
# library. --stack-first puts the 1 MiB stack below the data, so an overflow traps instead of
# overwriting globals.
TARGET_MACHINE := $(shell $(CC) $(EXTRA_CFLAGS) -dumpmachine 2>/dev/null)
ifneq ($(findstring wasm32,$(TARGET_MACHINE)),)
IS_WASM := 1
TOOL_TARGET_LIBS := -Wl,--stack-first -Wl,-z,stack-size=1048576
# Node's WASI keeps the memory a program starts with: after the program grows its memory, a
# WASI call can read freed memory and crash Node (SIGSEGV, exit 139) or drop the output. The
# RTS map's worlds (about 140 MiB each at 1,000 agents) are made in memory fxs-rts-hashes
# starts with.
RTS_HASHES_LIBS := -Wl,--initial-memory=1073741824
endif
# Windows (mingw-w64, e.g. CC=x86_64-w64-mingw32-gcc): programs end in .exe, and the shared
# library is fixsteer.dll with its import library libfixsteer.dll.a (`make dll`).
ifneq ($(findstring mingw32,$(TARGET_MACHINE)),)
IS_WINDOWS := 1
EXE := .exe
endif

.PHONY: all lib shared dll test-dll test-win64 test-windows tools install install-lib uninstall header-check FORCE setup test test-mcu test-m0 test-sanitize test-m32 test-dotnet unity-package wasm test-wasm web web-site web-serve web-test deviation demo golden golden-manifest docs docs-site api-check pictures bench bench-callgrind bench-circle bench-circle-callgrind bench-m3 rts-hashes threads-check fuzz isqrt-check clean

all: lib $(if $(IS_WASM),,shared) tools

tools: $(BUILD_DIR)/bin/fixsteer$(EXE)

# libfixsteer.a holds the pinned libfixmath objects too; libfixmath.a alone is kept for the
# project's own checks (tools/check-config.sh links a differently built one on purpose).
lib: $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a

# The shared library (hosted targets only): soname libfixsteer.so.MAJOR, exports fxs_* only.
ifeq ($(IS_WASM),1)
shared:
	@echo "error: wasm32 has no shared libraries: make lib tools (or make wasm)" >&2; exit 1
else ifeq ($(IS_WINDOWS),1)
shared: $(BUILD_DIR)/fixsteer.dll
else
shared: $(BUILD_DIR)/libfixsteer.so
endif

setup:
	bash tools/setup.sh

# One recipe run for all three sources (a grouped target), so a parallel make unpacks once.
$(LFM_SOURCES) &:
	bash tools/setup.sh --source

$(BUILD_DIR)/obj/%.o: src/%.c $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) $(FLAGS_STAMP) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LIB) -c $< -o $@

$(BUILD_DIR)/obj/libfixmath/%.o: $(LFM_DIR)/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LFM) -c $< -o $@

$(BUILD_DIR)/obj-pic/%.o: src/%.c $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) $(FLAGS_STAMP) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LIB) -fPIC -c $< -o $@

$(BUILD_DIR)/obj-pic/libfixmath/%.o: $(LFM_DIR)/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LFM) -fPIC -c $< -o $@

$(BUILD_DIR)/libfixsteer.a: $(OBJECTS) $(LFM_OBJECTS)
	rm -f $@ && $(AR) rcs $@ $^

# The version script exports the public fxs_* functions only: the internal ones declared in
# src/*/*.h and libfixmath's stay local. -z defs refuses a library with unresolved references.
# SHARED_LDFLAGS, not LDFLAGS: the tools' LDFLAGS=-static of the cross checks does not apply.
$(BUILD_DIR)/fixsteer.map: packaging/fixsteer.map.in $(PRIVATE_HEADERS)
	sed -n -e '/^static/d' -e 's/^[a-z][^(]*[ *]\(fxs_[a-z0-9_]*\)(.*/    \1;/p' $(PRIVATE_HEADERS) | sort -u >$@.names
	sed -e '/@INTERNAL@/r $@.names' -e '/@INTERNAL@/d' $< >$@ && rm -f $@.names

$(BUILD_DIR)/$(SHARED_NAME): $(PIC_OBJECTS) $(LFM_PIC_OBJECTS) $(BUILD_DIR)/fixsteer.map
	$(CC) -shared $(OPT) $(EXTRA_CFLAGS) -Wl,-soname,$(SHARED_SONAME) \
	  -Wl,--version-script=$(BUILD_DIR)/fixsteer.map -Wl,-z,defs \
	  $(PIC_OBJECTS) $(LFM_PIC_OBJECTS) $(SHARED_LDFLAGS) -o $@

# fixsteer.dll exports the functions declared FXS_API (api.h: dllexport under FXS_BUILD_DLL),
# nothing else: not the internal fxs_* helpers, not libfixmath. fixsteer.def lists them for
# MSVC's `lib /def:fixsteer.def /machine:x64 /out:fixsteer.lib`. libgcc's helpers (64-bit
# division on i686) are linked in, so the DLL needs only the system's KERNEL32 and msvcrt.
DLL_OBJECTS := $(SOURCES:src/%.c=$(BUILD_DIR)/obj-dll/%.o)

$(BUILD_DIR)/obj-dll/%.o: src/%.c $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) $(FLAGS_STAMP) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LIB) -DFXS_BUILD_DLL -c $< -o $@

$(BUILD_DIR)/fixsteer.dll: $(DLL_OBJECTS) $(LFM_OBJECTS)
	$(CC) -shared $(OPT) $(EXTRA_CFLAGS) -static-libgcc $(DLL_OBJECTS) $(LFM_OBJECTS) \
	  -Wl,--out-implib,$(BUILD_DIR)/libfixsteer.dll.a -Wl,--output-def,$(BUILD_DIR)/fixsteer.def \
	  $(SHARED_LDFLAGS) -o $@

$(BUILD_DIR)/libfixsteer.so: $(BUILD_DIR)/$(SHARED_NAME)
	ln -sf $(SHARED_NAME) $(BUILD_DIR)/$(SHARED_SONAME)
	ln -sf $(SHARED_SONAME) $@

$(BUILD_DIR)/libfixmath.a: $(LFM_OBJECTS)
	rm -f $@ && $(AR) rcs $@ $^

# Desktop tools: they use only the public headers and link the two libraries.
CFLAGS_TOOL := -std=c99 $(OPT) $(WARNINGS) -Werror $(LFM_DEFINES) -Iinclude -I$(LFM_DIR) $(EXTRA_CFLAGS)

$(BUILD_DIR)/bin/fxs-deviation: tools/deviation.c tools/deviation_model.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a -lm $(LDFLAGS) -o $@

# NO_YAML=1 builds the tool without scenario files (for cross builds without a target
# libyaml); LDFLAGS=-static makes binaries that qemu-user runs without a sysroot. Unset, it
# is decided by linking a tiny libyaml program with $(CC).
ifeq ($(origin NO_YAML),undefined)
YAML_PROBE := $(shell printf '\043include <yaml.h>\nint main(void) { yaml_parser_t p; return !yaml_parser_initialize(&p); }\n' | $(CC) -x c - -lyaml $(LDFLAGS) -o /dev/null >/dev/null 2>&1 && echo yes)
ifneq ($(YAML_PROBE),yes)
NO_YAML := 1
YAML_NOTICE := @echo "note: $(CC) cannot link libyaml: building the fixsteer tool without scenario files (NO_YAML=1)"
endif
endif
ifeq ($(NO_YAML),1)
FIXSTEER_TOOL_SOURCES := $(filter-out tools/fixsteer/scenario_file.c tools/fixsteer/scenario_read.c tools/fixsteer/scenario_sections.c tools/fixsteer/scenario_navigation.c tools/fixsteer/yaml_read.c,$(wildcard tools/fixsteer/*.c))
TOOL_YAML := -DFXS_TOOL_NO_YAML
else
FIXSTEER_TOOL_SOURCES := $(wildcard tools/fixsteer/*.c)
TOOL_YAML := -lyaml
endif

# NO_ENET=1 builds the tool without `host` and `join` (network play over ENet); unset, it is
# decided by linking a tiny ENet program with $(CC), as for libyaml.
ifeq ($(origin NO_ENET),undefined)
ENET_PROBE := $(shell printf '\043include <enet/enet.h>\nint main(void) { return enet_initialize(); }\n' | $(CC) -x c - -lenet $(LDFLAGS) -o /dev/null >/dev/null 2>&1 && echo yes)
ifneq ($(ENET_PROBE),yes)
NO_ENET := 1
ENET_NOTICE := @echo "note: $(CC) cannot link ENet: building the fixsteer tool without host/join (NO_ENET=1)"
endif
endif
ifeq ($(NO_ENET),1)
TOOL_ENET_FLAGS := -DFXS_TOOL_NO_ENET
TOOL_ENET_LIBS :=
else
TOOL_ENET_FLAGS :=
TOOL_ENET_LIBS := -lenet
endif

# The optional libraries the tool is built with are an input of its build: when a probe's
# answer changes (the set-up installed ENet after a first build without it), it is rebuilt.
TOOL_FEATURES_STAMP := $(BUILD_DIR)/.tool-features
TOOL_FEATURES_LINE := $(TOOL_YAML) $(TOOL_ENET_FLAGS) $(TOOL_ENET_LIBS)
$(shell mkdir -p $(BUILD_DIR) && if [ "$$(cat $(TOOL_FEATURES_STAMP) 2>/dev/null)" != '$(TOOL_FEATURES_LINE)' ]; then printf '%s\n' '$(TOOL_FEATURES_LINE)' >$(TOOL_FEATURES_STAMP); fi)

$(BUILD_DIR)/bin/fixsteer$(EXE): $(FIXSTEER_TOOL_SOURCES) $(wildcard tools/fixsteer/*.h) $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(TOOL_FEATURES_STAMP)
	@mkdir -p $(dir $@)
	$(YAML_NOTICE)
	$(ENET_NOTICE)
	$(CC) $(CFLAGS_TOOL) $(TOOL_ENET_FLAGS) $(FIXSTEER_TOOL_SOURCES) $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(TOOL_YAML) $(TOOL_ENET_LIBS) $(TOOL_TARGET_LIBS) $(LDFLAGS) -o $@

# The tool under clang's ASan + UBSan, for the command-line checks (no report may appear).
SANITIZE_FLAGS := -std=c99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all $(LFM_DEFINES) -Iinclude $(SRC_INCLUDES) -I$(LFM_DIR)
build/sanitize/bin/fixsteer: $(FIXSTEER_TOOL_SOURCES) $(wildcard tools/fixsteer/*.h) $(SOURCES) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	clang $(SANITIZE_FLAGS) $(TOOL_ENET_FLAGS) $(FIXSTEER_TOOL_SOURCES) $(SOURCES) $(LFM_SOURCES) -lyaml $(TOOL_ENET_LIBS) -o $@

# The main job: record the hunter/prey demo and prove the replay reproduces it. The tool is
# built by a second make after the set-up, so the probes for ENet and libyaml see what the
# set-up installed (this make read the Makefile before it ran).
demo: setup
	@$(MAKE) --no-print-directory tools
	$(BUILD_DIR)/bin/fixsteer --version
	$(BUILD_DIR)/bin/fixsteer record --scenario hunter_prey --ticks 1200 --out $(BUILD_DIR)/hunter_prey.fxr
	$(BUILD_DIR)/bin/fixsteer verify $(BUILD_DIR)/hunter_prey.fxr

# Regenerates test/golden/ (only when a behavior change is intended, with a bump of
# FXS_SIMULATION_VERSION, or for a new replay format; say so in the commit), then
# make golden-manifest.
# Scenario files of scenarios/ recorded as goldens too.
GOLDEN_FILES := nav_wall nav_cup nav_door nav_maze nav_building nav_unreachable nav_pillars nav_rts nav_formation orca_swap
# nav_crowd's golden holds its first 700 ticks (the groups through the gaps, fields built and
# followed): verified on every target and worker count, its whole 1,800 cost minutes of CI;
# stats-check runs the whole scene.
NAV_CROWD_GOLDEN_TICKS := 700
GOLDEN_SCENARIOS := hunter_prey patrol flock queue leader obstacle_field obstacle_dense walker seek_wind orientation crowd_crossing hide_and_seek flow_field
golden: $(BUILD_DIR)/bin/fixsteer
	@mkdir -p test/golden
	@for s in $(GOLDEN_SCENARIOS); do \
	  $(BUILD_DIR)/bin/fixsteer record --scenario $$s --keyframe 250 --out test/golden/$$s.fxr || exit 1; \
	done
	@for s in $(GOLDEN_FILES); do \
	  $(BUILD_DIR)/bin/fixsteer record --scenario scenarios/$$s.yaml --keyframe 250 --out test/golden/$$s.fxr || exit 1; \
	done
	$(BUILD_DIR)/bin/fixsteer record --scenario scenarios/nav_crowd.yaml --ticks $(NAV_CROWD_GOLDEN_TICKS) \
	  --keyframe 250 --out test/golden/nav_crowd.fxr

# test/golden/VERSION: the simulation version the goldens were recorded with and each one's
# format, ticks and final hash (tools/golden-version-check.sh checks it in CI). After an
# intended behavior change: bump FXS_SIMULATION_VERSION (version.h), make golden, make
# golden-manifest, commit the three together.
golden-manifest: $(BUILD_DIR)/bin/fixsteer
	bash tools/golden-version-check.sh --write $(BUILD_DIR)/bin/fixsteer

# docs/behavior-params.md: the behavior parameter table, from the library (fixsteer params).
docs: $(BUILD_DIR)/bin/fixsteer
	$(BUILD_DIR)/bin/fixsteer params --markdown > docs/behavior-params.md

# The API reference from the public headers' /// comments (Doxyfile): build/api/html. Doxygen
# stops with an error on any warning, an undocumented public name among them.
api-check:
	@mkdir -p build/api
	doxygen Doxyfile

# The documentation site (mkdocs.yml, docs/): build/site, strict (a broken link or a missing
# snippet fails it), with the API reference in build/site/api. tools/docs-check.sh also
# compiles and runs the snippets and checks every link.
docs-site: api-check
	mkdocs build --strict --site-dir build/site
	rm -rf build/site/api && cp -r build/api/html build/site/api

# docs/pictures/: one PNG per built-in scenario and scenarios/example.yaml, the queue's
# doorway and the middle of the crowd crossing (at tick 300) close up (`fixsteer render`; the SVGs they are made from stay in build/pictures/).
pictures: setup $(BUILD_DIR)/bin/fixsteer
	@mkdir -p docs/pictures build/pictures
	@for s in $$($(BUILD_DIR)/bin/fixsteer list | cut -d' ' -f1) scenarios/example.yaml; do \
	  n=$$(basename $$s .yaml); \
	  $(BUILD_DIR)/bin/fixsteer render --scenario $$s --out build/pictures/$$n.svg || exit 1; \
	  mv build/pictures/$$n.png docs/pictures/$$n.png || exit 1; \
	done
	$(BUILD_DIR)/bin/fixsteer render --scenario queue --view 780,500,1340,700 --out build/pictures/queue-door.svg
	mv build/pictures/queue-door.png docs/pictures/queue-door.png
	$(BUILD_DIR)/bin/fixsteer render --scenario crowd_crossing --view 600,420,1000,640 --at 300 --out build/pictures/crowd_crossing-middle.svg
	mv build/pictures/crowd_crossing-middle.png docs/pictures/crowd_crossing-middle.png
	$(BUILD_DIR)/bin/fixsteer render --scenario examples/rts/rts.yaml --out build/pictures/rts.svg
	mv build/pictures/rts.png docs/pictures/rts.png

# The benchmark and its float twins (tools/bench/twin.c: float, for comparison only).
BENCH_SOURCES := $(wildcard tools/bench/*.c)
$(BUILD_DIR)/bin/fxs-bench: $(BENCH_SOURCES) tools/bench/bench.h tools/task_pool.h tools/uniform_flock.h tools/rts_map.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) -pthread -Itools $(BENCH_SOURCES) $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a -lm $(LDFLAGS) -o $@

# Instruction counts under callgrind for the seek and flock kernels, fixed and float.
bench-callgrind: $(BUILD_DIR)/bin/fxs-bench
	bash tools/bench/callgrind.sh $(BUILD_DIR)/bin/fxs-bench

# ORCA on RVO2's Circle at 250, 1,000 and 10,000 agents: the library's world against the float
# ORCA twin (tools/bench/twin_orca.c) in one run, and their instructions per agent-step.
bench-circle: $(BUILD_DIR)/bin/fxs-bench
	$(BUILD_DIR)/bin/fxs-bench --kernel circle

bench-circle-callgrind: $(BUILD_DIR)/bin/fxs-bench
	bash tools/bench/callgrind-circle.sh $(BUILD_DIR)/bin/fxs-bench

# Cortex-M3 instruction counts: the library (-O2) and the benchmark kernels against the float
# twin compiled with -mfloat-abi=soft, in one QEMU run with -icount shift=0 (1 ns per
# instruction). link.sh refuses library objects that call soft-float; the fixed kernels are
# checked here the same way.
M3_CC := arm-none-eabi-gcc
M3_DIR := build/bench-m3
M3_ARCH := -mcpu=cortex-m3 -mthumb -O2 -ffunction-sections -fdata-sections -std=c99
M3_CFLAGS := $(M3_ARCH) $(WARNINGS) -Werror $(LFM_DEFINES) -Iinclude -I$(LFM_DIR) -Itools/bench
M3_LIB := $(SOURCES:src/%.c=$(M3_DIR)/lib/%.o) $(LFM_SOURCES:$(LFM_DIR)/%.c=$(M3_DIR)/lfm/%.o)
M3_FIXED := $(M3_DIR)/bench/fixed.o $(M3_DIR)/bench/scene.o
M3_OBJECTS := $(M3_LIB) $(M3_FIXED) $(M3_DIR)/bench/twin.o $(M3_DIR)/bench/main.o $(M3_DIR)/bench/startup.o
SOFT_FLOAT_CALLS := '__aeabi_(f|d)[a-z0-9]*|__aeabi_[il]2[fd]|__(add|sub|mul|div)[sd]f3'

$(M3_DIR)/lib/%.o: src/%.c $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_CFLAGS) $(SRC_INCLUDES) -c $< -o $@

$(M3_DIR)/lfm/%.o: $(LFM_DIR)/%.c
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_ARCH) -w $(LFM_DEFINES) -I$(LFM_DIR) -c $< -o $@

$(M3_DIR)/bench/%.o: tools/bench/%.c tools/bench/bench.h | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_CFLAGS) -c $< -o $@

$(M3_DIR)/bench/twin.o: tools/bench/twin.c tools/bench/bench.h | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_CFLAGS) -mfloat-abi=soft -c $< -o $@

$(M3_DIR)/bench/main.o: tools/mcu/bench/main.c tools/bench/bench.h | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_CFLAGS) -c $< -o $@

$(M3_DIR)/bench/startup.o: tools/mcu/startup.c
	@mkdir -p $(dir $@)
	$(M3_CC) $(M3_ARCH) -c $< -o $@

$(M3_DIR)/fxs-bench-m3.elf: $(M3_OBJECTS) tools/mcu/link.sh tools/mcu/mps2-an385.ld
	@if arm-none-eabi-nm -u $(M3_FIXED) | grep -qE $(SOFT_FLOAT_CALLS); then \
	  echo "error: the fixed-point kernels call soft-float" >&2; exit 1; fi
	tools/mcu/link.sh cortex-m3 mps2-an385 $@ $(M3_OBJECTS)

bench-m3: $(M3_DIR)/fxs-bench-m3.elf
	timeout 600 qemu-system-arm -M mps2-an385 -cpu cortex-m3 -icount shift=0 -nographic \
	  -monitor none -serial none -semihosting-config enable=on,target=native -kernel $<

# The RTS map's hashes, on the grid and on a mesh, with its script (tools/rts_hashes.c): the
# crosscheck compares them across targets.
rts-hashes: $(BUILD_DIR)/bin/fxs-rts-hashes$(EXE)

$(BUILD_DIR)/bin/fxs-rts-hashes$(EXE): tools/rts_hashes.c tools/rts_map.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(TOOL_TARGET_LIBS) $(RTS_HASHES_LIBS) $(LDFLAGS) -o $@

# The golden replays verified in 1..16 threads, and through the world's task system on 1..16
# workers with a 100,000-agent flock and the RTS map of 10,000 agents (rollbacks and late
# joins while its fields are built), plain and under ThreadSanitizer (fewer flock ticks, an
# RTS map of 1,000 agents).
$(BUILD_DIR)/bin/fxs-threads: tools/threads.c tools/task_pool.h tools/uniform_flock.h tools/rts_map.h $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) -pthread $< $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libfixmath.a $(LDFLAGS) -o $@

build/tsan/bin/fxs-threads: tools/threads.c tools/task_pool.h tools/uniform_flock.h tools/rts_map.h $(SOURCES) $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) | $(LFM_SOURCES)
	@mkdir -p $(dir $@)
	clang -std=c99 -g -O1 -fsanitize=thread $(LFM_DEFINES) -Iinclude $(SRC_INCLUDES) -I$(LFM_DIR) -pthread $< $(SOURCES) $(LFM_SOURCES) -o $@

# Under ThreadSanitizer every golden but the 1,000-agent nav_crowd (tens of minutes there;
# the plain build verifies it on every worker count).
threads-check: $(BUILD_DIR)/bin/fxs-threads build/tsan/bin/fxs-threads
	$(BUILD_DIR)/bin/fxs-threads test/golden/*.fxr
	TSAN_OPTIONS=halt_on_error=1 build/tsan/bin/fxs-threads --flock-ticks 2 --rts-agents 1000 \
	  $(filter-out test/golden/nav_crowd.fxr,$(wildcard test/golden/*.fxr))

# Speed and memory per scenario at 1k..1M agents, hash and snapshot cost, spawn time, and
# fixed point against float twins (prints tables; about 1-5 minutes).

# The integer square root against the original bit-by-bit routine: every 32-bit input, 50 M
# random 64-bit ones, the internal 1/sqrt seed for every top word (white box: it compiles
# src/core/scalar.c itself). A few minutes on one core; ISQRT_CHECK_ARGS=--quick for seconds.
$(BUILD_DIR)/bin/fxs-isqrt-check: tools/isqrt-check.c src/core/scalar.c $(wildcard include/fixsteer/*.h) $(PRIVATE_HEADERS) $(BUILD_DIR)/libfixmath.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) $(SRC_INCLUDES) $< $(BUILD_DIR)/libfixmath.a -lm $(LDFLAGS) -o $@

isqrt-check: $(BUILD_DIR)/bin/fxs-isqrt-check
	$(BUILD_DIR)/bin/fxs-isqrt-check $(ISQRT_CHECK_ARGS)

# Step time and memory for flocks of 100 to 2000 agents (prints a table).
bench: $(BUILD_DIR)/bin/fxs-bench
	$(BUILD_DIR)/bin/fxs-bench

# Q16.16 against double precision, per behavior (prints a table).
deviation: $(BUILD_DIR)/bin/fxs-deviation
	$(BUILD_DIR)/bin/fxs-deviation 1000

# Installation (docs/embedding.md). `install` puts the headers (libfixmath's under
# include/fixsteer/libfixmath), libfixsteer.a, libfixsteer.so.$(VERSION) with its soname and
# dev links, pkg-config and CMake files under $(DESTDIR)$(PREFIX); `install-lib` leaves out the
# shared library (for bare-metal builds); `uninstall` removes what the manifest lists.
PKG_TEMPLATES := fixsteer.pc fixsteer-shared.pc fixsteerConfig.cmake fixsteerConfigVersion.cmake
POINTER_SIZE = $(shell $(CC) $(EXTRA_CFLAGS) -dM -E -x c /dev/null | sed -n 's/^.define __SIZEOF_POINTER__ //p')

# Filled for this PREFIX at every install (the .pc files name it).
$(BUILD_DIR)/pkg/.filled: $(PKG_TEMPLATES:%=packaging/%.in) FORCE
	@mkdir -p $(dir $@)
	@for f in $(PKG_TEMPLATES); do \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	      -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' \
	      -e 's|@POINTER_SIZE@|$(POINTER_SIZE)|g' packaging/$$f.in >$(BUILD_DIR)/pkg/$$f || exit 1; \
	done
	@touch $@

install: lib shared tools $(BUILD_DIR)/pkg/.filled
	bash packaging/install.sh install '$(DESTDIR)$(PREFIX)' $(BUILD_DIR) $(LFM_DIR) $(VERSION) $(VERSION_MAJOR) shared

install-lib: lib $(BUILD_DIR)/pkg/.filled
	bash packaging/install.sh install '$(DESTDIR)$(PREFIX)' $(BUILD_DIR) $(LFM_DIR) $(VERSION) $(VERSION_MAJOR) static

uninstall:
	bash packaging/install.sh uninstall '$(DESTDIR)$(PREFIX)'

# Every public header alone, as C99 and as C++17, and fixsteer.h from a .cpp (any warning fails).
header-check:
	bash tools/header-check.sh include $(LFM_DIR)

FORCE:

# libFuzzer targets for every reader of untrusted input (fuzz/, tools/fuzz.sh), each run for
# FUZZ_SECONDS; CI's quick run is FUZZ_SECONDS=20. tools/fuzz-regress.sh re-runs the inputs
# kept in test/fuzz-regressions/.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tools/fuzz.sh

# The test targets run the full set-up first (idempotent: packages, Ceedling, libfixmath).
test: setup
	$(CEEDLING) test:all

test-mcu: setup
	$(CEEDLING) --mixin=mcu test:all

test-m0: setup
	$(CEEDLING) --mixin=mcu-m0 test:all

test-sanitize: setup
	$(CEEDLING) --mixin=sanitize test:all

# The suite as a 32-bit (i686) program under ASan + UBSan: 32-bit size_t, as on the MCUs.
test-m32: setup
	bash tools/setup.sh --m32
	$(CEEDLING) --mixin=m32-asan test:all

# Windows with Debian's mingw-w64, programs run under Wine (docs/embedding.md, "Windows").
# `make dll`: fixsteer.dll and its import library libfixsteer.dll.a, with the static library
# and the tool (fixsteer.exe), in WIN_DIR. `make test-dll`: tools/windows-check.sh (programs
# linked against the import library, record --out onto an existing file, ~1 minute).
# `make test-win64`: the unit suite as 64-bit Windows programs under Wine (mixins/win64.yml,
# under a minute). `make test-windows`: test-dll, test-win64 and the crosscheck of both
# Windows targets (the i686 one needs wine32); CI runs all of it but the i686 target.
# WIN_CC=i686-w64-mingw32-gcc and WIN_DIR=build/win32 build 32-bit.
WIN_CC ?= x86_64-w64-mingw32-gcc
WIN_DIR ?= build/win64
WIN_MAKE = $(MAKE) --no-print-directory CC=$(WIN_CC) AR=$(patsubst %-gcc,%-ar,$(WIN_CC)) \
  BUILD_DIR=$(WIN_DIR) NO_YAML=1 NO_ENET=1 LDFLAGS=-static

dll:
	bash tools/setup.sh --windows
	$(WIN_MAKE) lib shared tools

test-dll: dll
	WIN_CC=$(WIN_CC) WIN_DIR=$(WIN_DIR) bash tools/windows-check.sh

test-win64: setup
	bash tools/setup.sh --windows
	$(CEEDLING) --mixin=win64 test:all

test-windows: test-dll
	$(MAKE) --no-print-directory test-win64
	tools/crosscheck --targets x86_64-w64-mingw32,i686-w64-mingw32

# wasm32-wasi with Debian's clang 14 and wasi-libc; programs run under Node's WASI.
WASM_CC := clang-14 --target=wasm32-wasi --sysroot=/usr
WASM_AR := llvm-ar-14
WASM_DIR := build/wasm32

# The static library and the fixsteer tool (no YAML scenario files) in build/wasm32:
#   node tools/wasi-run.mjs build/wasm32/bin/fixsteer verify test/golden/flock.fxr
wasm:
	bash tools/setup.sh --wasm
	$(MAKE) CC="$(WASM_CC)" AR=$(WASM_AR) BUILD_DIR=$(WASM_DIR) NO_YAML=1 lib tools

# The suite as wasm32 programs under Node's WASI (mixins/wasm32.yml).
# The C# binding (bindings/dotnet, docs/dotnet.md) under Mono: its NUnit suite, with the
# layout of every public struct and enum as the C compiler reports it, and replays crossing
# between C# and the tool both ways. Installs Mono and NUnit when missing.
test-dotnet:
	bash tools/dotnet-check.sh

# The Unity package (bindings/dotnet/unity, docs/dotnet.md): the layout, the binding's sources
# and both native plugins, the Linux x86-64 libfixsteer.so and the Windows x86-64 fixsteer.dll
# (cross-built with MinGW-w64), as build/unity/com.fixsteer.fixsteer-VERSION.tgz for Unity's
# "Add package from tarball" (and unpacked beside it, for "Add package from disk").
unity-package: shared
	bash tools/setup.sh --windows
	$(WIN_MAKE) shared
	python3 bindings/dotnet/tools/unity_package.py build/unity --linux $(BUILD_DIR)/$(SHARED_NAME) \
	  --windows $(WIN_DIR)/fixsteer.dll --require-natives

test-wasm: setup
	bash tools/setup.sh --wasm
	$(CEEDLING) --mixin=wasm32 test:all

# The web replay viewer and playground (web/): build/web is a static site with the pages,
# their scripts, the golden replays and the scenario files as samples, and fxs_web.wasm: the
# library (with its pinned libfixmath), web/glue, the built-in scenarios and the tool's
# scenario-file reader over libyaml (Debian's source package, compiled for wasm32), as a
# WASI reactor exporting fxs_web_* functions.
WEB_SITE := build/web
WEB_PORT ?= 8000
# The tool's scene code: built-in scenarios, and scene files (scenario_file.c and the parts it
# is split into: scenario_read.c, scenario_sections.c) over the YAML reader.
WEB_SCENE_SOURCES := tools/fixsteer/scenario.c tools/fixsteer/scenario_file.c tools/fixsteer/scenario_read.c \
  tools/fixsteer/scenario_sections.c tools/fixsteer/scenario_navigation.c tools/fixsteer/yaml_read.c
WEB_SOURCES := $(wildcard web/glue/*.c) $(WEB_SCENE_SOURCES)
WEB_LDFLAGS := -mexec-model=reactor -Wl,--stack-first -Wl,-z,stack-size=1048576 -Wl,--strip-debug
LIBYAML_DIR := build/libyaml
LIBYAML_SOURCES := $(addprefix $(LIBYAML_DIR)/src/,api.c reader.c scanner.c parser.c loader.c writer.c emitter.c dumper.c)
LIBYAML_OBJECTS := $(patsubst $(LIBYAML_DIR)/src/%.c,$(BUILD_DIR)/obj-yaml/%.o,$(LIBYAML_SOURCES))
LIBYAML_CFLAGS := -std=c99 $(OPT) -w -I$(LIBYAML_DIR)/include -DYAML_DECLARE_STATIC -DYAML_VERSION_MAJOR=0 \
  -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5 -DYAML_VERSION_STRING='"0.2.5"'

web:
	bash tools/setup.sh --wasm
	bash tools/setup.sh --libyaml
	$(MAKE) CC="$(WASM_CC)" AR=$(WASM_AR) BUILD_DIR=$(WASM_DIR) NO_YAML=1 web-site

# (inside `make web` only: needs the wasm32 compiler)
web-site: $(WEB_SITE)/fxs_web.wasm
	@mkdir -p $(WEB_SITE)/js $(WEB_SITE)/replays $(WEB_SITE)/scenes
	cp web/index.html web/playground.html web/style.css $(WEB_SITE)/
	cp web/js/*.mjs web/js/fxs.d.ts $(WEB_SITE)/js/
	cp test/golden/*.fxr $(WEB_SITE)/replays/
	cd $(WEB_SITE)/replays && ls *.fxr | sed 's/.*/"&"/' | paste -sd, | sed 's/.*/[&]/' >index.json
	cp scenarios/*.yaml $(WEB_SITE)/scenes/
	cd $(WEB_SITE)/scenes && ls *.yaml | sed 's/.*/"&"/' | paste -sd, | sed 's/.*/[&]/' >index.json

$(BUILD_DIR)/obj-yaml/%.o: $(LIBYAML_DIR)/src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(LIBYAML_CFLAGS) -c $< -o $@

$(BUILD_DIR)/libyaml.a: $(LIBYAML_OBJECTS)
	rm -f $@ && $(AR) rcs $@ $^

$(WEB_SITE)/fxs_web.wasm: $(WEB_SOURCES) $(wildcard web/glue/*.h) $(wildcard tools/fixsteer/scenario*.h) tools/fixsteer/yaml_read.h \
  $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libyaml.a
	@test "$(IS_WASM)" = 1 || { echo "error: build the web module with make web" >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TOOL) -Itools/fixsteer -I$(LIBYAML_DIR)/include -DYAML_DECLARE_STATIC $(WEB_SOURCES) \
	  $(BUILD_DIR)/libfixsteer.a $(BUILD_DIR)/libyaml.a $(WEB_LDFLAGS) -o $@

# Serves the viewer on 127.0.0.1 only: http://127.0.0.1:8000/?replay=replays/flock.fxr
web-serve: web
	node web/serve.mjs $(WEB_SITE) --port $(WEB_PORT)

# The viewer in headless Chromium (Debian's, driven by playwright-core from npm): every
# golden replay must show the native tool's final hash; prints "web: N passed, N failed".
# It ends with a screenshot (WEB_SCREENSHOT=docs/pictures/web-viewer.png for docs/browser.md).
WEB_SCREENSHOT ?= build/web-test/web-viewer.png
web-test: web tools
	bash tools/setup.sh --web
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
	node web/test/web-test.mjs --screenshot $(WEB_SCREENSHOT)

clean:
	rm -rf $(BUILD_DIR)/obj $(BUILD_DIR)/obj-pic $(BUILD_DIR)/obj-dll $(BUILD_DIR)/pkg $(BUILD_DIR)/ceedling $(BUILD_DIR)/*.a \
	  $(BUILD_DIR)/libfixsteer.so* $(BUILD_DIR)/fixsteer.dll $(BUILD_DIR)/fixsteer.def $(BUILD_DIR)/fixsteer.map $(BUILD_DIR)/bin $(M3_DIR) build/callgrind \
	  $(BUILD_DIR)/dotnet
