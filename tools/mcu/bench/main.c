// fxs-bench-m3: instructions per agent-update on a Cortex-M3 (QEMU mps2-an385), fixed point
// (the library, -O2) against the float twins compiled with -mfloat-abi=soft, in one run.
//
//   make bench-m3
//
// QEMU runs it with -icount shift=0: the virtual clock advances exactly 1 ns per executed
// instruction. SysTick counts the 25 MHz core clock of the board from that virtual clock, so
// one SysTick tick is 40 instructions; the calibration below measures that factor on loops of
// known length instead of assuming it. (QEMU 7.2 does not implement the DWT cycle counter on
// this board: DWT_CTRL and DWT_CYCCNT read as zero.)
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define REG(address) (*(volatile uint32_t *)(uintptr_t)(address))
#define SYST_CSR 0xE000E010u
#define SYST_RVR 0xE000E014u
#define SYST_CVR 0xE000E018u
#define SCB_VTOR 0xE000ED08u
#define SYST_PERIOD (1u << 24)

// newlib-nano's printf has no %llu or %zu: counts are printed as unsigned long (32 bits; the
// counts printed stay far below 2^32).

// ------------------------------------------------------------------ the counter

static volatile uint32_t wraps;
// The start-up's vector table has no SysTick entry: a copy in RAM with one replaces it.
static void (*ram_vectors[64])(void) __attribute__((aligned(256)));

static void systick_handler(void) { wraps = wraps + 1u; }

static void counter_start(void) {
  const volatile uint32_t *old = (const volatile uint32_t *)(uintptr_t)REG(SCB_VTOR);
  for (int i = 0; i < 16; ++i) ram_vectors[i] = (void (*)(void))(uintptr_t)old[i];
  ram_vectors[15] = systick_handler;
  REG(SCB_VTOR) = (uint32_t)(uintptr_t)ram_vectors;
  REG(SYST_RVR) = SYST_PERIOD - 1u;
  REG(SYST_CVR) = 0;
  REG(SYST_CSR) = 7u; // enable, interrupt on wrap, core clock
  while (wraps == 0) {
  }
}

// SysTick ticks since counter_start (it counts down and wraps every 2^24 ticks).
static uint64_t counter_now(void) {
  uint32_t w, v;
  do {
    w = wraps;
    v = REG(SYST_CVR);
  } while (w != wraps);
  return (uint64_t)w * SYST_PERIOD + (SYST_PERIOD - 1u - v);
}

// ------------------------------------------------------------------ calibration

__attribute__((noinline)) static void nops_10000(void) {
  __asm__ volatile(".rept 10000\n\tnop\n\t.endr");
}

// n times (subs, bne).
__attribute__((noinline)) static void count_down(uint32_t n) {
  __asm__ volatile("1:\n\tsubs %0, %0, #1\n\tbne 1b" : "+r"(n));
}

// The board's 25 MHz core clock against 1 ns per instruction: 40 instructions per tick.
#define NOMINAL_INSTRUCTIONS_PER_TICK 40.0

static double instructions_per_tick;

static void calibrate_line(const char *what, double instructions, uint64_t ticks) {
  printf(
      "calibration: %s: %.0f instructions, expected %.1f ticks, measured %lu -> %.4f"
      " instructions per tick\n",
      what, instructions, instructions / NOMINAL_INSTRUCTIONS_PER_TICK, (unsigned long)ticks,
      instructions / (double)ticks);
}

static void calibrate(void) {
  uint64_t t0 = counter_now();
  for (int k = 0; k < 100; ++k) nops_10000();
  uint64_t t1 = counter_now();
  count_down(500000u);
  uint64_t t2 = counter_now();
  // Counted in the disassembly (gcc 12 -O2): each of the 100 iterations is bl, 10,000 nops,
  // bx lr, subs, bne; count_down is bl, ldr of n, 500,000 x (subs, bne), bx lr.
  double nop_instructions = 100.0 * (10000.0 + 4.0);
  double loop_instructions = 2.0 * 500000.0 + 3.0;
  calibrate_line("100 x 10,000 nops", nop_instructions, t1 - t0);
  calibrate_line("subs/bne loop, 500,000 turns", loop_instructions, t2 - t1);
  instructions_per_tick = NOMINAL_INSTRUCTIONS_PER_TICK;
  uint64_t a = counter_now(), b = counter_now();
  printf(
      "calibration: two back-to-back reads differ by %lu tick(s); every count below is\n"
      "ticks x %.0f, to within one tick (%.0f instructions) per measured loop\n",
      (unsigned long)(b - a), instructions_per_tick, instructions_per_tick);
}

// ------------------------------------------------------------------ kernels

#define MAX_AGENTS 256u
#define TICKS 8u

static fxs_agent fixed_agents[MAX_AGENTS];
static fxs_vec2 fixed_targets[MAX_AGENTS];
static bench_fagent twin_agents[MAX_AGENTS];
static float twin_targets[2u * MAX_AGENTS];
static fxs_agent_handle handles[MAX_AGENTS];
static uint64_t world_memory[512u * 1024u / 8u];
static uint64_t twin_memory[256u * 1024u / 8u];

static double per_update(uint64_t ticks, uint32_t n) {
  return (double)ticks * instructions_per_tick / ((double)n * TICKS);
}

static void print_row(const char *name, uint32_t n, double fixed, double twin) {
  printf("  %-22s %6u  %5u  %12.1f  %12.1f  %7.2f\n", name, (unsigned)n, TICKS, fixed, twin,
         twin / fixed);
}

// One call of fxs_seek and fxs_agent_integrate at a time, or fxs_seek_integrate_many.
static void seek_row(uint32_t n, bool many) {
  bench_fixed_seek_init(fixed_agents, fixed_targets, n);
  uint64_t t0 = counter_now();
  if (many) {
    bench_fixed_seek_many_run(fixed_agents, fixed_targets, n, TICKS);
  } else {
    bench_fixed_seek_run(fixed_agents, fixed_targets, n, TICKS);
  }
  uint64_t t1 = counter_now();
  bench_float_seek_init(twin_agents, twin_targets, n);
  uint64_t t2 = counter_now();
  bench_float_seek_run(twin_agents, twin_targets, n, TICKS);
  uint64_t t3 = counter_now();
  print_row(many ? "seek+integrate (many)" : "seek+integrate", n, per_update(t1 - t0, n),
            per_update(t3 - t2, n));
}

// Returns 0 when the world does not fit in world_memory.
static int flock_row(uint32_t n) {
  int fits = 0;
  fxs_world_capacity cap = bench_scene_capacity(BENCH_FLOCK, n, &fits);
  fxs_world_def def = bench_scene_def(n);
  fxs_world w;
  if (!fits || fxs_world_memory_size(&cap) > sizeof world_memory ||
      bench_fworld_memory_size(n) > sizeof twin_memory ||
      fxs_world_init(&w, &def, &cap, world_memory, sizeof world_memory) != FXS_OK ||
      bench_scene_spawn(&w, n, 0, n, handles) != FXS_OK ||
      bench_scene_setup(&w, BENCH_FLOCK, n, handles) != FXS_OK) {
    printf("  flock %u agents: does not fit\n", (unsigned)n);
    return 0;
  }
  bench_fworld f;
  bench_fworld_init_flock(&f, n, twin_memory);
  double density = bench_fworld_mean_neighbors(&f);
  bench_fworld_init_flock(&f, n, twin_memory);
  uint64_t t0 = counter_now();
  bench_fixed_world_run(&w, TICKS);
  uint64_t t1 = counter_now();
  bench_fworld_run(&f, TICKS);
  uint64_t t2 = counter_now();
  print_row("flock (world step)", n, per_update(t1 - t0, n), per_update(t2 - t1, n));
  double worst = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    const fxs_agent *a = fxs_world_agent(&w, handles[i]);
    if (!a) continue;
    double dx = a->position.x / 65536.0 - f.agents[i].body.px;
    double dy = a->position.y / 65536.0 - f.agents[i].body.py;
    dx = dx < 0 ? -dx : dx, dy = dy < 0 ? -dy : dy;
    worst = dx > worst ? dx : worst;
    worst = dy > worst ? dy : worst;
  }
  printf(
      "  %-22s %6s  world %lu bytes; density %.1f others within %d units; world vs twin "
      "after %u ticks: %.4f units\n",
      "", "", (unsigned long)fxs_world_memory_size(&cap), density, BENCH_NEIGHBOR_RADIUS, TICKS,
      worst);
  return 1;
}

// Instructions per length: the offsets target - position of the seek scene.
static void length_row(uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    bench_start s = bench_initial(n, i);
    fixed_targets[i] = fxs_vec2_sub(s.target, s.position);
    twin_targets[2 * i] = (float)fixed_targets[i].x / 65536.0f;
    twin_targets[2 * i + 1] = (float)fixed_targets[i].y / 65536.0f;
  }
  uint64_t t0 = counter_now();
  int64_t a = bench_fixed_length_sum(fixed_targets, n);
  uint64_t t1 = counter_now();
  float b = bench_float_length_sum(twin_targets, n);
  uint64_t t2 = counter_now();
  double fixed = (double)(t1 - t0) * instructions_per_tick / n;
  double twin = (double)(t2 - t1) * instructions_per_tick / n;
  printf("  %-22s %6u  %5s  %12.1f  %12.1f  %7.2f   (sums %.2f / %.2f)\n", "length (per call)",
         (unsigned)n, "-", fixed, twin, twin / fixed, (double)a / 65536.0, (double)b);
}

int main(void) {
  counter_start();
  printf("fxs-bench-m3: Cortex-M3 (QEMU mps2-an385, -icount shift=0), gcc %s -O2\n", __VERSION__);
  calibrate();
  printf(
      "\ninstructions per agent-update, fixed point (the library) against the float twin\n"
      "compiled with -mfloat-abi=soft; ratio = float / fixed\n");
  printf("  %-22s %6s  %5s  %12s  %12s  %7s\n", "kernel", "agents", "ticks", "fixed", "float",
         "ratio");
  seek_row(64, false);
  seek_row(256, false);
  seek_row(64, true);
  seek_row(256, true);
  flock_row(64);
  flock_row(256);
  length_row(MAX_AGENTS);
  return 0;
}
