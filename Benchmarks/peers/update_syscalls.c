/* Every system call of one `Store.updateWorkStream`, in its order, with no computing (issue 19):
 * what is left of the update's distance to the durable-replace floor (`durable_write.c`) once
 * the system calls are paid is the library's computing (read, decode, change, encode, checks).
 * The sequence is the one `strace -f store-bench update` shows for an update of a v3 store
 * (35 calls against the floor's 8):
 *   lock:    open .lock ; fstat ; flock(LOCK_EX|LOCK_NB) ; fstat ; lstat .lock ; getpid ; pwrite record
 *   record:  lstat sessions, work-streams, user-sessions, queue.json
 *   read:    open doc ; fstat ; read ; read (end of file) ; close ; lstat doc
 *   replace: open dir ; getrandom ; open temp (O_CREAT|O_EXCL) ; write ; fchmod ; fsync ; close ;
 *            rename ; lstat sessions ; flock(LOCK_UN) ; close .lock ; fstat dir ; fsync dir ; close dir
 *   record:  open .writes ; pwrite ; fstat ; close
 * The document is replaced by the bytes of <source-file> (the Store's own final bytes, as for
 * the floor), and the lock and `.writes` records get back the bytes they had at the start, so
 * the store stays as valid as it was. Linux only (getrandom).
 * Usage: update_syscalls <store> <id> <source-file> <count>
 * Prints {"ops": K, "bytes": B, "per_op_s": [...], "cpu_per_op_s": [...]} like durable_write. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "op_times.h"

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: update_syscalls <store> <id> <source-file> <count>\n");
        return 64;
    }
    const char *store = argv[1], *id = argv[2];
    int count = atoi(argv[4]);
    char doc[4096], sessions[4096], lock[4096], writes[4096], streams[4096], users[4096], queue[4096], temp[4096];
    snprintf(doc, sizeof doc, "%s/sessions/%s.json", store, id);
    snprintf(sessions, sizeof sessions, "%s/sessions", store);
    snprintf(lock, sizeof lock, "%s/.lock", store);
    snprintf(writes, sizeof writes, "%s/.writes", store);
    snprintf(streams, sizeof streams, "%s/work-streams", store);
    snprintf(users, sizeof users, "%s/user-sessions", store);
    snprintf(queue, sizeof queue, "%s/queue.json", store);
    long size, lock_size, writes_size;
    char *bytes = slurp(argv[3], &size);
    if (!bytes) die("open source");
    char *lock_record = slurp(lock, &lock_size), *writes_record = slurp(writes, &writes_size);
    long capacity = size + 1;
    char *buffer = malloc(capacity);

    double *wall = calloc(count > 0 ? count : 1, sizeof(double)), *cpus = calloc(count > 0 ? count : 1, sizeof(double));
    for (int i = 0; i < count; i++) {
        double start = now(), cpu_start = cpu();
        struct stat st, doc_st;
        int lfd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (lfd < 0) die("open lock");
        fstat(lfd, &st);
        if (flock(lfd, LOCK_EX | LOCK_NB) != 0) die("flock");
        fstat(lfd, &st);
        lstat(lock, &st);
        (void)getpid();
        if (lock_size > 0 && pwrite(lfd, lock_record, lock_size, 0) != lock_size) die("pwrite lock");
        lstat(sessions, &st);
        lstat(streams, &st);
        lstat(users, &st);
        lstat(queue, &st);

        int fd = open(doc, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) die("open document");
        fstat(fd, &st);
        if (st.st_size + 1 > capacity) {
            capacity = st.st_size + 1;
            buffer = realloc(buffer, capacity);
        }
        if (read(fd, buffer, st.st_size + 1) < 0) die("read document");
        if (read(fd, buffer, 1) < 0) die("read document");
        close(fd);
        lstat(doc, &doc_st);

        int dfd = open(sessions, O_RDONLY | O_CLOEXEC | O_DIRECTORY);
        if (dfd < 0) die("open folder");
        unsigned long long token;
        if (getrandom(&token, sizeof token, 0) != sizeof token) die("getrandom");
        snprintf(temp, sizeof temp, "%s/sessions/.tmp-%016llx-%s.json", store, token, id);
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) die("open temp");
        for (long done = 0; done < size;) {
            ssize_t n = write(fd, bytes + done, size - done);
            if (n < 0) die("write");
            done += n;
        }
        if (fchmod(fd, doc_st.st_mode & 07777) != 0) die("fchmod");
        if (fsync(fd) != 0) die("fsync");
        if (close(fd) != 0) die("close");
        if (rename(temp, doc) != 0) die("rename");
        lstat(sessions, &st);
        flock(lfd, LOCK_UN);
        close(lfd);
        fstat(dfd, &st);
        if (fsync(dfd) != 0) die("fsync folder");
        close(dfd);

        int wfd = open(writes, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (wfd < 0) die("open .writes");
        if (writes_size > 0 && pwrite(wfd, writes_record, writes_size, 0) != writes_size) die("pwrite .writes");
        fstat(wfd, &st);
        close(wfd);
        wall[i] = now() - start;
        cpus[i] = cpu() - cpu_start;
    }
    print_op_times(count, size, wall, cpus);
    return 0;
}
