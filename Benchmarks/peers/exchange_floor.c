/* The floor of a migration that does not replace files in place (Benchmarks goal 1, information):
 * the file operations of a migration by folder exchange, with the computing taken away.
 * For each document folder of <store> (sessions/, user-sessions/): every document is read and its
 * bytes written to a file of the same name in a new dot-named folder beside it. The file system
 * is flushed once (syncfs). Each new folder is exchanged with the old one in one atomic step
 * (renameat2 RENAME_EXCHANGE: a reader sees the whole old folder or the whole new one), the store
 * folder fsynced, and the old documents deleted (eight threads) with their folder. The files at
 * the store's top (settings.json, store.json) are replaced in place (temp, syncfs'd above, rename).
 * A migration also computes, and writes ~2 % more bytes (the v2 keys): this is a lower bound.
 * Usage: exchange_floor <store>     Prints the phase times on standard error. Linux only. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static void die(const char *what, const char *path) {
    fprintf(stderr, "exchange_floor: %s %s: ", what, path ? path : "");
    perror(NULL);
    exit(1);
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static char *buffer;
static size_t capacity;

static void copy_file(int from_dir, const char *name, int to_dir, const char *to_name) {
    int in = openat(from_dir, name, O_RDONLY | O_CLOEXEC);
    if (in < 0) die("open", name);
    struct stat st;
    if (fstat(in, &st) != 0) die("fstat", name);
    if ((size_t)st.st_size + 1 > capacity) {
        capacity = (size_t)st.st_size * 2 + 1;
        buffer = realloc(buffer, capacity);
        if (!buffer) die("realloc", name);
    }
    size_t have = 0;
    for (;;) {
        ssize_t n = read(in, buffer + have, capacity - have);
        if (n < 0) die("read", name);
        if (n == 0) break;
        have += (size_t)n;
        if (have == capacity) { capacity *= 2; buffer = realloc(buffer, capacity); if (!buffer) die("realloc", name); }
    }
    close(in);
    int out = openat(to_dir, to_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
    if (out < 0) die("create", to_name);
    for (size_t done = 0; done < have;) {
        ssize_t n = write(out, buffer + done, have - done);
        if (n < 0) die("write", to_name);
        done += (size_t)n;
    }
    close(out);
}

struct deletion { int dir; char **names; size_t count, next; pthread_mutex_t lock; };

static void *delete_some(void *arg) {
    struct deletion *d = arg;
    for (;;) {
        pthread_mutex_lock(&d->lock);
        size_t i = d->next++;
        pthread_mutex_unlock(&d->lock);
        if (i >= d->count) return NULL;
        if (unlinkat(d->dir, d->names[i], 0) != 0) die("unlink", d->names[i]);
    }
}

struct folder { const char *name; char staged[64]; char **names; size_t count; };

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: exchange_floor <store>\n"); return 64; }
    int store = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (store < 0) die("open", argv[1]);
    struct folder folders[] = { { "sessions" }, { "user-sessions" } };
    const char *top[] = { "settings.json", "store.json" };
    double t0 = now();
    for (size_t f = 0; f < 2; f++) {
        struct folder *folder = &folders[f];
        snprintf(folder->staged, sizeof folder->staged, ".floor-%s", folder->name);
        int from = openat(store, folder->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (from < 0) die("open", folder->name);
        struct stat st;
        if (fstat(from, &st) != 0) die("fstat", folder->name);
        if (mkdirat(store, folder->staged, st.st_mode & 07777) != 0) die("mkdir", folder->staged);
        int to = openat(store, folder->staged, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (to < 0) die("open", folder->staged);
        DIR *listing = fdopendir(dup(from));
        size_t cap = 1024;
        folder->names = malloc(cap * sizeof *folder->names);
        for (struct dirent *e; (e = readdir(listing));) {
            if (e->d_name[0] == '.') continue;
            if (folder->count == cap) folder->names = realloc(folder->names, (cap *= 2) * sizeof *folder->names);
            folder->names[folder->count++] = strdup(e->d_name);
        }
        closedir(listing);
        for (size_t i = 0; i < folder->count; i++) copy_file(from, folder->names[i], to, folder->names[i]);
        close(from);
        close(to);
    }
    for (size_t i = 0; i < 2; i++) {
        char temp[64];
        snprintf(temp, sizeof temp, ".floor-tmp-%s", top[i]);
        copy_file(store, top[i], store, temp);
    }
    double t1 = now();
    if (syncfs(store) != 0) die("syncfs", argv[1]);
    double t2 = now();
    for (size_t f = 0; f < 2; f++)
        if (syscall(SYS_renameat2, store, folders[f].staged, store, folders[f].name, RENAME_EXCHANGE) != 0)
            die("renameat2", folders[f].name);
    for (size_t i = 0; i < 2; i++) {
        char temp[64];
        snprintf(temp, sizeof temp, ".floor-tmp-%s", top[i]);
        if (renameat(store, temp, store, top[i]) != 0) die("rename", top[i]);
    }
    if (fsync(store) != 0) die("fsync", argv[1]);
    double t3 = now();
    for (size_t f = 0; f < 2; f++) {
        struct deletion d = { .names = folders[f].names, .count = folders[f].count };
        pthread_mutex_init(&d.lock, NULL);
        d.dir = openat(store, folders[f].staged, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (d.dir < 0) die("open", folders[f].staged);
        pthread_t threads[8];
        for (int t = 0; t < 8; t++) pthread_create(&threads[t], NULL, delete_some, &d);
        for (int t = 0; t < 8; t++) pthread_join(threads[t], NULL);
        close(d.dir);
        if (unlinkat(store, folders[f].staged, AT_REMOVEDIR) != 0) die("rmdir", folders[f].staged);
    }
    if (fsync(store) != 0) die("fsync", argv[1]);
    double t4 = now();
    fprintf(stderr, "exchange_floor: write %.3f s, syncfs %.3f s, exchange %.3f s, delete %.3f s, total %.3f s\n",
            t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0);
    printf("%zu\n", folders[0].count + folders[1].count + 2);
    return 0;
}
