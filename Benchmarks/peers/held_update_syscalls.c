/* The system calls of an update as a design the library does NOT use would make them (issue 19,
 * information): what the distance to the durable-replace floor (`durable_write.c`) would be if
 * the update kept its lock file and its folder open between updates and trusted an in-memory copy
 * of the document while one `lstat` shows the file unchanged (inode, size, mtime, ctime), so that
 * it neither opens the lock, nor reads the document, nor keeps `.writes` per update. 14 calls
 * against the floor's 8 and the library's 35 (`update_syscalls.c`):
 *   lock:    flock(LOCK_EX|LOCK_NB) ; lstat .lock (still the file locked?) ; lstat store.json
 *            (not migrated or restored by another process?) ; lstat doc (the cached copy valid?)
 *   replace: getrandom ; open temp (O_CREAT|O_EXCL) ; write ; fchmod ; fsync ; rename ;
 *            fstat temp (the new identity to cache: rename changes ctime) ; close ;
 *            flock(LOCK_UN) ; fsync dir
 * It computes nothing, like `update_syscalls.c`. The document is replaced by the bytes of
 * <source-file> (the Store's own bytes), so the store stays valid; the lock file is only locked.
 * Linux only (getrandom).
 * Usage: held_update_syscalls <store> <id> <source-file> <count>
 * Prints {"ops": K, "bytes": B, "per_op_s": [...], "cpu_per_op_s": [...]} like durable_write. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "op_times.h"

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: held_update_syscalls <store> <id> <source-file> <count>\n");
        return 64;
    }
    const char *store = argv[1], *id = argv[2];
    int count = atoi(argv[4]);
    char doc[4096], sessions[4096], lock[4096], manifest[4096], temp[4096];
    snprintf(doc, sizeof doc, "%s/sessions/%s.json", store, id);
    snprintf(sessions, sizeof sessions, "%s/sessions", store);
    snprintf(lock, sizeof lock, "%s/.lock", store);
    snprintf(manifest, sizeof manifest, "%s/store.json", store);
    long size;
    char *bytes = slurp(argv[3], &size);
    if (!bytes) die("open source");

    /* Opened once, as a long-lived store object would. */
    int lfd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lfd < 0) die("open lock");
    int dfd = open(sessions, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) die("open folder");

    double *wall = calloc(count > 0 ? count : 1, sizeof(double)), *cpus = calloc(count > 0 ? count : 1, sizeof(double));
    for (int i = 0; i < count; i++) {
        double start = now(), cpu_start = cpu();
        struct stat st, doc_st;
        if (flock(lfd, LOCK_EX | LOCK_NB) != 0) die("flock");
        lstat(lock, &st);
        lstat(manifest, &st);
        if (lstat(doc, &doc_st) != 0) die("lstat document");
        unsigned long long token;
        if (getrandom(&token, sizeof token, 0) != sizeof token) die("getrandom");
        snprintf(temp, sizeof temp, "%s/sessions/.tmp-%016llx-%s.json", store, token, id);
        int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) die("open temp");
        for (long done = 0; done < size;) {
            ssize_t n = write(fd, bytes + done, size - done);
            if (n < 0) die("write");
            done += n;
        }
        if (fchmod(fd, doc_st.st_mode & 07777) != 0) die("fchmod");
        if (fsync(fd) != 0) die("fsync");
        if (rename(temp, doc) != 0) die("rename");
        fstat(fd, &st);
        if (close(fd) != 0) die("close");
        flock(lfd, LOCK_UN);
        if (fsync(dfd) != 0) die("fsync folder");
        wall[i] = now() - start;
        cpus[i] = cpu() - cpu_start;
    }
    close(dfd);
    close(lfd);
    print_op_times(count, size, wall, cpus);
    return 0;
}
