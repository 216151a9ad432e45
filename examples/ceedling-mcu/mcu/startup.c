// Start-up for test programs on QEMU's mps2-an385 (Cortex-M3). QEMU loads every ELF segment
// at its address, so nothing is copied here: reset jumps to newlib's semihosting crt0
// (_start), which clears .bss, opens stdio over semihosting, runs main and hands its exit
// code to the host. A fault ends the run with an error instead of hanging.
#include <stdint.h>

extern void _start(void);
extern uint32_t __StackTop;

void board_reset(void);
void board_fault(void);

void board_reset(void) { _start(); }

void board_fault(void) {
  static const uint32_t report[2] = {0x20023u /* ADP_Stopped_InternalError */, 1u};
  register uint32_t op __asm__("r0") = 0x20u; // SYS_EXIT_EXTENDED
  register const uint32_t *arg __asm__("r1") = report;
  __asm__ volatile("bkpt 0xAB" : : "r"(op), "r"(arg) : "memory");
  for (;;) {
  }
}

__attribute__((section(".vectors"), used)) static void (*const vector_table[7])(void) = {
    (void (*)(void))(uintptr_t)&__StackTop, // initial stack pointer
    board_reset,                            // reset
    board_fault,                            // NMI
    board_fault,                            // hard fault
    board_fault,                            // memory management fault
    board_fault,                            // bus fault
    board_fault,                            // usage fault
};
