/// @file api.h
/// FXS_API, the one export macro: every function of the public API is declared with it.
/// - Windows: `__declspec(dllexport)` while fixsteer.dll itself is compiled (FXS_BUILD_DLL
///   defined), `__declspec(dllimport)` in a program that links the DLL through its import
///   library and defines FXS_DLL, nothing for the static library (neither defined).
/// - Elsewhere: nothing (libfixsteer.so exports the fxs_* functions by its version script).
/// docs/embedding.md shows both Windows builds.
#ifndef FIXSTEER_API_H
#define FIXSTEER_API_H

#if (defined(_WIN32) || defined(__CYGWIN__)) && defined(FXS_BUILD_DLL)
#define FXS_API __declspec(dllexport)
#elif (defined(_WIN32) || defined(__CYGWIN__)) && defined(FXS_DLL)
#define FXS_API __declspec(dllimport)
#else
/// Marks a public function: exported from or imported into fixsteer.dll on Windows (see
/// above), empty everywhere else.
#define FXS_API
#endif

#endif
