/* What the per-operation peers (durable_write.c, update_syscalls.c, held_update_syscalls.c)
 * share: their clocks, their exit on a failed call, reading a whole file before the timed loop
 * (`slurp`), and their output, {"ops": K, "bytes": B, "per_op_s": [...],
 * "cpu_per_op_s": [...]} (wall time and process CPU time, user + system, of each operation),
 * which bench.py's `per_op` reads. */
#ifndef OP_TIMES_H
#define OP_TIMES_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static inline double now(void) { return clock_seconds(CLOCK_MONOTONIC); }
static inline double cpu(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }
static inline void die(const char *what) { perror(what); exit(1); }

/* The whole file at `path` (NULL with *size 0 when it does not exist). */
static inline char *slurp(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    *size = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc(*size > 0 ? *size : 1);
    if (*size > 0 && fread(bytes, 1, *size, f) != (size_t)*size) die("read");
    fclose(f);
    return bytes;
}

static inline void print_op_times(int count, long bytes, const double *wall, const double *cpus) {
    printf("{\"ops\": %d, \"bytes\": %ld, \"per_op_s\": [", count, bytes);
    for (int i = 0; i < count; i++) printf("%s%.9f", i ? ", " : "", wall[i]);
    printf("], \"cpu_per_op_s\": [");
    for (int i = 0; i < count; i++) printf("%s%.9f", i ? ", " : "", cpus[i]);
    printf("]}\n");
}
#endif
