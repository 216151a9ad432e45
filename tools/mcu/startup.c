// Minimal Cortex-M3 start-up for the test ELFs run under qemu-system-arm -M mps2-an385.
// QEMU loads every ELF segment where it belongs, so there is no .data copy here: the reset
// handler hands over to newlib's semihosting crt0 (_start), which clears .bss, sets up
// stdio over semihosting, calls main and reports the exit code to the host.
#include <stdint.h>

extern void _start(void);
extern uint32_t __StackTop;

void fxs_mcu_reset(void);
void fxs_mcu_fault(void);

void fxs_mcu_reset(void) { _start(); }

// Any fault ends the run with a failure code instead of hanging until the timeout.
void fxs_mcu_fault(void) {
  static const uint32_t block[2] = {0x20023u /* ADP_Stopped_InternalError */, 1u};
  register uint32_t r0 __asm__("r0") = 0x20u; // SYS_EXIT_EXTENDED
  register const uint32_t *r1 __asm__("r1") = block;
  __asm__ volatile("bkpt 0xAB" : : "r"(r0), "r"(r1) : "memory");
  for (;;) {
  }
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&__StackTop, // initial stack pointer
    fxs_mcu_reset,                          // reset
    fxs_mcu_fault,                          // NMI
    fxs_mcu_fault,                          // hard fault
    fxs_mcu_fault,                          // memory management fault
    fxs_mcu_fault,                          // bus fault
    fxs_mcu_fault,                          // usage fault
};
