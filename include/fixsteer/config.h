/// @file config.h
/// The one place where fixsteer's build configuration lives: the pinned libfixmath
/// configuration, the assertion hook and the integer-only constant macros.
///
/// Every source file of the library includes this header, so a build that passes a
/// libfixmath flag known to change results stops here, at compile time.
#ifndef FIXSTEER_CONFIG_H
#define FIXSTEER_CONFIG_H

#include <stdint.h>

// libfixmath flags that change what fix16_mul, fix16_div, fix16_sin or fix16_atan2 compute.
// Peers built with and without them desync, so they are rejected outright.
#if defined(FIXMATH_OPTIMIZE_8BIT)
#error "fixsteer: FIXMATH_OPTIMIZE_8BIT changes libfixmath results; build without it"
#endif
#if defined(FIXMATH_NO_ROUNDING)
#error "fixsteer: FIXMATH_NO_ROUNDING changes libfixmath results; build without it"
#endif
#if defined(FIXMATH_NO_OVERFLOW)
#error "fixsteer: FIXMATH_NO_OVERFLOW changes libfixmath results; build without it"
#endif
#if defined(FIXMATH_NO_HARD_DIVISION)
#error "fixsteer: FIXMATH_NO_HARD_DIVISION changes libfixmath results; build without it"
#endif
#if defined(FIXMATH_SIN_LUT)
#error "fixsteer: FIXMATH_SIN_LUT changes libfixmath results; build without it"
#endif
#if defined(FIXMATH_FAST_SIN)
#error "fixsteer: FIXMATH_FAST_SIN changes libfixmath results; build without it"
#endif
// The caches are hidden mutable state: not thread-safe and history-dependent.
#if !defined(FIXMATH_NO_CACHE)
#error "fixsteer: libfixmath must be built and used with FIXMATH_NO_CACHE defined"
#endif

#include <fix16.h>

/// Navigation meshes in worlds (capacity.nav_kind FXS_NAV_KIND_MESH, world.h): 1, the
/// default, or 0 for a build that leaves them out to save flash (the Cortex-M0's 256 KiB:
/// `make test-m0` builds with 0). With 0 a mesh world's capacities are refused
/// (fxs_world_memory_size 0, fxs_world_init FXS_ERR_BAD_VALUE) and so is a mesh world's
/// snapshot (FXS_ERR_CAPACITY); grid worlds compute the same states either way, and the
/// standalone mesh (nav_mesh.h, nav_mesh_route.h) stays.
#ifndef FXS_NAV_MESH
#define FXS_NAV_MESH 1
#endif

/// Contract check. Override by defining FXS_ASSERT before including any fixsteer header
/// (for example to log and continue). After a failed check the function returns safely.
#ifndef FXS_ASSERT
#include <assert.h>
#define FXS_ASSERT(cond) assert(cond)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// 1.0 in Q16.16.
#define FXS_ONE ((fix16_t)0x00010000)
/// Largest Q16.16 value fixsteer produces (32767.99998).
#define FXS_MAX ((fix16_t)0x7FFFFFFF)
/// Smallest Q16.16 value fixsteer produces (-32767.99998). 0x80000000 is never produced:
/// libfixmath uses it as its overflow sentinel, so results saturate symmetrically.
#define FXS_MIN ((fix16_t)(-0x7FFFFFFF))
/// pi, raw 205887 (the value libfixmath uses).
#define FXS_PI ((fix16_t)205887)
/// 2*FXS_PI, the period used to wrap angles (raw 411774).
#define FXS_TWO_PI ((fix16_t)411774)
/// pi/2 rounded to nearest (raw 102944).
#define FXS_HALF_PI ((fix16_t)102944)

/// Integer n as Q16.16; n must be in [-32767, 32767].
#define FXS_INT(n) ((fix16_t)((int32_t)(n)*65536))
/// n/d as Q16.16, rounded half away from zero, computed by the preprocessor and the compiler
/// in integers only. d must not be 0; the quotient must lie in [-32767, 32767].
#define FXS_RATIO(n, d)                                                          \
  ((fix16_t)((((int64_t)(n)*65536) + ((((int64_t)(n) < 0) != ((int64_t)(d) < 0)) \
                                          ? -((int64_t)(d) / 2)                  \
                                          : ((int64_t)(d) / 2))) /               \
             (int64_t)(d)))

#ifdef __cplusplus
}
#endif

#endif
