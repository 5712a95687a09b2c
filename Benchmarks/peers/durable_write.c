/* The floor for one durable update (Benchmarks goal 2): the same bytes written with the same
 * system calls as a durable replace, and nothing else.
 *   open(tmp, O_CREAT|O_EXCL|O_WRONLY) ; write ; fsync ; close ; rename(tmp, target) ;
 *   open(dir) ; fsync(dir) ; close
 * Usage: durable_write <dir> <name> <source-file> <count> [fdatasync | keep-old]
 * With `fdatasync`, the new file is made durable with fdatasync(2) instead of fsync(2) (the folder
 * still with fsync): the variant issue 19 asks about, measured against the default in one run.
 * With `keep-old`, the file being replaced is opened before the temp file and closed by a helper
 * thread once the folder is durable, so freeing its inode and blocks leaves the `rename` and runs
 * beside the next operation (an experiment of issue 19's ninth round, by hand; ANALYSIS.md).
 * Prints {"ops": K, "bytes": B, "per_op_s": [...], "cpu_per_op_s": [...]} on standard output
 * (wall time and process CPU time, user + system, of each operation). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "op_times.h"

/* keep-old: the descriptors of replaced files reach the closing thread through a pipe. */
static int closing[2];
static void *close_replaced(void *unused) {
    (void)unused;
    int fd;
    while (read(closing[0], &fd, sizeof fd) == sizeof fd) close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    const char *variant = argc == 6 ? argv[5] : "";
    if (argc != 5 && !(argc == 6 && (strcmp(variant, "fdatasync") == 0 || strcmp(variant, "keep-old") == 0))) {
        fprintf(stderr, "usage: durable_write <dir> <name> <source-file> <count> [fdatasync | keep-old]\n");
        return 64;
    }
    int data_only = strcmp(variant, "fdatasync") == 0, keep_old = strcmp(variant, "keep-old") == 0;
    pthread_t closer;
    if (keep_old && (pipe(closing) != 0 || pthread_create(&closer, NULL, close_replaced, NULL) != 0)) die("closing thread");
    const char *dir = argv[1], *name = argv[2];
    int count = atoi(argv[4]);
    long size;
    char *bytes = slurp(argv[3], &size);
    if (!bytes) die("open source");

    char target[4096], temp[4096];
    snprintf(target, sizeof target, "%s/%s", dir, name);
    snprintf(temp, sizeof temp, "%s/.tmp-floor-%s", dir, name);
    double *wall = calloc(count > 0 ? count : 1, sizeof(double)), *cpus = calloc(count > 0 ? count : 1, sizeof(double));
    for (int i = 0; i < count; i++) {
        double start = now(), cpu_start = cpu();
        int old = keep_old ? open(target, O_RDONLY | O_CLOEXEC) : -1;
        if (keep_old && old < 0) die("open target");
        int fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0) die("open temp");
        for (long done = 0; done < size;) {
            ssize_t n = write(fd, bytes + done, size - done);
            if (n < 0) die("write");
            done += n;
        }
        if ((data_only ? fdatasync(fd) : fsync(fd)) != 0) die("fsync");
        if (close(fd) != 0) die("close");
        if (rename(temp, target) != 0) die("rename");
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0) die("open dir");
        if (fsync(dfd) != 0) die("fsync dir");
        close(dfd);
        if (keep_old && write(closing[1], &old, sizeof old) != sizeof old) die("hand over");
        wall[i] = now() - start;
        cpus[i] = cpu() - cpu_start;
    }
    print_op_times(count, size, wall, cpus);
    free(wall);
    free(cpus);
    free(bytes);
    return 0;
}
