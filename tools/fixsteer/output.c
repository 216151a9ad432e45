// Output files written under an exclusive temporary name and renamed into place (output.h).
#define _POSIX_C_SOURCE 200809L

#include "output.h"

#if defined(_WIN32)
#define _CRT_RAND_S // rand_s() in <stdlib.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <sys/random.h>
#endif
#if !defined(__wasi__)
#include <signal.h>
#endif

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0 // O_EXCL already refuses a symlink; O_NOFOLLOW only says so twice
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_BINARY
#define O_BINARY 0 // POSIX files have no text mode; Windows would translate "\n" without it
#endif

// Random characters at the end of a temporary name: 60 bits, so that nobody can plant
// anything at the name in advance.
#define TEMP_RANDOM 12
// Names tried before giving up (another one is taken only when something is already there).
#define TEMP_TRIES 16
// Outputs open at once (render has two).
#define MAX_PENDING 4

// ------------------------------------------------------------------ the platform's part

// A tool started with a standard stream closed would get that number for a file: what it
// then prints, and what rsvg-convert is handed as its input or output, would go astray.
static int above_standard_streams(int fd, const char *path) {
#if defined(F_DUPFD_CLOEXEC)
  if (fd <= 2) {
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int error = errno;
    close(fd);
    if (moved < 0) unlink(path), errno = error;
    return moved;
  }
#else
  (void)path;
#endif
  return fd;
}

// Fills `bytes` with random ones from the system; 0, or -1 with errno set.
static int random_bytes(unsigned char *bytes, size_t n) {
#if defined(_WIN32)
  for (size_t i = 0; i < n; ++i) {
    unsigned int r;
    if (rand_s(&r) != 0) return errno = EIO, -1;
    bytes[i] = (unsigned char)r;
  }
  return 0;
#else
  return getentropy(bytes, n);
#endif
}

// Fills the last TEMP_RANDOM characters of `path` with random ones and creates that file,
// exclusively: O_CREAT | O_EXCL fails on any existing entry, a symlink included, so the
// descriptor is always of a new file of ours. Mode 0666 lets the umask decide, as with fopen.
// Returns the descriptor, or -1 with errno set.
static int create_temp(char *path) {
  static const char digits[] = "0123456789abcdefghijklmnopqrstuv";
  char *tail = path + strlen(path) - TEMP_RANDOM;
  for (int attempt = 0; attempt < TEMP_TRIES; ++attempt) {
    unsigned char bytes[TEMP_RANDOM];
    if (random_bytes(bytes, sizeof bytes) != 0) return -1;
    for (int i = 0; i < TEMP_RANDOM; ++i) tail[i] = digits[bytes[i] & 31u];
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_BINARY, 0666);
    if (fd >= 0) return above_standard_streams(fd, path);
    if (errno != EEXIST) return -1;
  }
  return -1; // errno is EEXIST
}

// Puts the finished file in place. rename() replaces the directory entry `name` whatever it is,
// a symlink included: it never writes through a symlink to the file it points at. Readers see
// the old file or the new one, never a part. Windows' rename() refuses an existing target
// ("File exists"): there MoveFileEx replaces it, and its error becomes an errno.
#if defined(_WIN32)
static int replace_target(const char *temp, const char *name) {
  if (MoveFileExA(temp, name, MOVEFILE_REPLACE_EXISTING)) return 0;
  switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
      errno = ENOENT;
      break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
      errno = EACCES;
      break;
    case ERROR_NOT_SAME_DEVICE:
      errno = EXDEV;
      break;
    default:
      errno = EIO;
      break;
  }
  return -1;
}
#else
static int replace_target(const char *temp, const char *name) { return rename(temp, name); }
#endif

// ------------------------------------------------------------------ temporaries to remove

// Temporary files not yet renamed or removed. A slot's path is written before its flag is set,
// and both change only while SIGINT and SIGTERM are held, so the handler sees whole paths.
static char pending[MAX_PENDING][OUTPUT_PATH_MAX];
#if defined(__wasi__)
static volatile int pending_used[MAX_PENDING];
#else
static volatile sig_atomic_t pending_used[MAX_PENDING];
#endif

// Uses unlink() only: it is async-signal-safe.
static void remove_pending(void) {
  for (int i = 0; i < MAX_PENDING; ++i) {
    if (pending_used[i]) unlink(pending[i]);
  }
}

#if defined(__wasi__)
// WASI delivers no signals: removal at exit is all there is.
typedef int signal_hold;
static void hold_signals(signal_hold *h) { *h = 0; }
static void release_signals(const signal_hold *h) { (void)h; }
static void watch_signals(void) {}
#elif defined(_WIN32)
// Windows has no signal masks: Ctrl+C (SIGINT) runs the handler on a thread of its own, which
// may see a slot whose path is being written; the worst is an unlink() of a name never made.
typedef int signal_hold;
static void hold_signals(signal_hold *h) { *h = 0; }
static void release_signals(const signal_hold *h) { (void)h; }

static void on_signal(int sig) {
  remove_pending();
  signal(sig, SIG_DFL);
  raise(sig);
}

// A signal ignored by whoever started the tool stays ignored.
static void watch_signals(void) {
  if (signal(SIGINT, on_signal) == SIG_IGN) signal(SIGINT, SIG_IGN);
  if (signal(SIGTERM, on_signal) == SIG_IGN) signal(SIGTERM, SIG_IGN);
}
#else
typedef sigset_t signal_hold;

static void hold_signals(signal_hold *saved) {
  sigset_t both;
  sigemptyset(&both);
  sigaddset(&both, SIGINT);
  sigaddset(&both, SIGTERM);
  sigprocmask(SIG_BLOCK, &both, saved);
}

static void release_signals(const signal_hold *saved) { sigprocmask(SIG_SETMASK, saved, 0); }

// Removes the temporaries, then lets the signal end the process with its default action, so
// the exit status is the one the signal gives (130 for SIGINT, 143 for SIGTERM in a shell).
// The signal is blocked while this runs and arrives again when it returns.
static void on_signal(int sig) {
  remove_pending();
  signal(sig, SIG_DFL);
  raise(sig);
}

// A signal ignored by whoever started the tool (a background job of a script ignores SIGINT)
// stays ignored.
static void watch_signals(void) {
  static const int watched[] = {SIGINT, SIGTERM};
  for (size_t i = 0; i < sizeof watched / sizeof watched[0]; ++i) {
    struct sigaction now;
    if (sigaction(watched[i], 0, &now) != 0 || now.sa_handler == SIG_IGN) continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(watched[i], &sa, 0);
  }
}
#endif

// Signals and exit() remove the temporaries from the first output on.
static void watch_once(void) {
  static bool watching;
  if (watching) return;
  watching = true;
  watch_signals();
  atexit(remove_pending);
}

// Takes a slot for `path`; -1 when all are taken. Call with the signals held.
static int remember(const char *path) {
  for (int i = 0; i < MAX_PENDING; ++i) {
    if (pending_used[i]) continue;
    memcpy(pending[i], path, strlen(path) + 1);
    pending_used[i] = 1;
    return i;
  }
  return -1;
}

static void forget(int slot) {
  if (slot >= 0) pending_used[slot] = 0;
}

// ------------------------------------------------------------------ outputs

static bool cannot_write(const output *o, const char *why) {
  fprintf(stderr, "fixsteer: cannot write %s: %s\n", o->name, why);
  return false;
}

bool output_open(output *o, const char *name) {
  o->name = name;
  o->f = 0;
  o->slot = -1;
  int n = snprintf(o->temp, sizeof o->temp, "%s.tmp-%0*d", name, TEMP_RANDOM, 0);
  if (n < 0 || (size_t)n >= sizeof o->temp) return cannot_write(o, "name too long");
  watch_once();
  signal_hold held;
  hold_signals(&held);
  int fd = create_temp(o->temp);
  const char *why = fd < 0 ? strerror(errno) : 0;
  if (fd >= 0 && (o->slot = remember(o->temp)) < 0) {
    close(fd);
    unlink(o->temp);
    fd = -1, why = "more outputs open at once than the tool keeps track of";
  }
  release_signals(&held);
  if (fd < 0) return cannot_write(o, why);
  o->f = fdopen(fd, "w+b");
  if (!o->f) {
    int error = errno;
    close(fd);
    hold_signals(&held);
    unlink(o->temp);
    forget(o->slot);
    release_signals(&held);
    o->slot = -1;
    return cannot_write(o, strerror(error));
  }
  return true;
}

bool output_finish(output *o, bool ok) {
  if (!o->f) return false;
  if (fclose(o->f) != 0 && ok) ok = cannot_write(o, strerror(errno));
  o->f = 0;
  signal_hold held;
  hold_signals(&held);
  int error = 0;
  if (ok && replace_target(o->temp, o->name) != 0) error = errno, ok = false;
  if (!ok) unlink(o->temp);
  forget(o->slot);
  release_signals(&held);
  o->slot = -1;
  if (error) cannot_write(o, strerror(error));
  return ok;
}
