// Stack high-water mark of a call on the bare-metal ARM test boards: the free RAM between
// the heap's end and the stack pointer is painted with a pattern, the call runs, and the
// lowest word no longer holding the pattern is how deep the stack went. On other targets
// (the desktop suite) nothing is measured and the depth reads 0.
#ifndef FXS_STACK_PROBE_H
#define FXS_STACK_PROBE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__arm__) && !defined(__linux__)
#define FXS_STACK_PROBE 1
void *sbrk(ptrdiff_t increment);

#define FXS_STACK_PATTERN 0x5AA5C33Cu
// Most bytes painted: enough for any step, and quick on the 4 MiB Cortex-M3 board.
#define FXS_STACK_PAINT_MAX 32768u

static uint32_t *fxs_stack_floor;

// Paints from just above the heap (or FXS_STACK_PAINT_MAX below here) up to a little below
// this function's own frame, which the caller's next call reuses.
__attribute__((noinline)) static void fxs_stack_paint(void) {
  volatile uint32_t here = 0;
  uint32_t *top = (uint32_t *)((uintptr_t)&here & ~(uintptr_t)3) - 16;
  uint32_t *floor = (uint32_t *)(((uintptr_t)sbrk(0) + 64u + 3u) & ~(uintptr_t)3);
  if ((size_t)(top - floor) > FXS_STACK_PAINT_MAX / 4u) floor = top - FXS_STACK_PAINT_MAX / 4u;
  fxs_stack_floor = floor;
  for (uint32_t *p = floor; p < top; ++p) *p = FXS_STACK_PATTERN;
}

// Bytes of stack used below `from` (an address in the caller's frame) since the paint.
static size_t fxs_stack_used_below(const volatile void *from) {
  const uint32_t *p = fxs_stack_floor;
  while (*p == FXS_STACK_PATTERN) ++p;
  return (size_t)((uintptr_t)from - (uintptr_t)p);
}

// Free bytes between the heap's end and `from`: what the stack may still grow into.
static size_t fxs_stack_room_below(const volatile void *from) {
  return (size_t)((uintptr_t)from - (uintptr_t)sbrk(0));
}
#else
#define FXS_STACK_PROBE 0
static void fxs_stack_paint(void) {}
static size_t fxs_stack_used_below(const volatile void *from) {
  (void)from;
  return 0;
}
static size_t fxs_stack_room_below(const volatile void *from) {
  (void)from;
  return 0;
}
#endif

#endif
