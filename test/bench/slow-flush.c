/*
 * A disk whose flush is slower than this machine's: fsync and fdatasync do their work, then wait
 * TIMECLOCK_BENCH_FLUSH_DELAY_US microseconds. Loaded with LD_PRELOAD into a bench child
 * (capture-flush.ts) to measure the punch against a durable INSERT where a flush costs what a
 * terminal's eMMC or SD card charges, not what this VM's disk does. Nothing else is changed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static long delay_us(void) {
  static long d = -1;
  if (d < 0) {
    const char *s = getenv("TIMECLOCK_BENCH_FLUSH_DELAY_US");
    d = s ? atol(s) : 0;
    if (d < 0) d = 0;
  }
  return d;
}

static void wait_flush(void) {
  long d = delay_us();
  if (d == 0) return;
  struct timespec t = { d / 1000000, (d % 1000000) * 1000 };
  while (nanosleep(&t, &t) != 0) {
  }
}

int fsync(int fd) {
  static int (*real)(int) = 0;
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  int r = real(fd);
  wait_flush();
  return r;
}

int fdatasync(int fd) {
  static int (*real)(int) = 0;
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  int r = real(fd);
  wait_flush();
  return r;
}
