/* Runs a command and prints its peak resident set size in KiB on stderr as "maxrss_kib=N".
 *
 * Python cannot measure this itself: wait4's ru_maxrss for a child started by Python counts the
 * pages the child had right after fork, i.e. Python's own memory (~46 MiB in the benchmark
 * driver), so every command under ~46 MiB read as 46 MiB. This wrapper is a small process, so
 * the child it forks starts small and ru_maxrss is the command's own peak.
 *
 *   maxrss <command> [args...]     exit status: the command's (128 + signal if killed) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: maxrss <command> [args...]\n"); return 64; }
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 71; }
    if (pid == 0) { execvp(argv[1], argv + 1); perror(argv[1]); _exit(127); }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 71; }
#ifdef __APPLE__
    long kib = usage.ru_maxrss / 1024; /* bytes on macOS */
#else
    long kib = usage.ru_maxrss;        /* KiB on Linux */
#endif
    fprintf(stderr, "maxrss_kib=%ld\n", kib);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 71;
}
