/* peak_rss.c — runs a command and prints its peak resident set size in
 * KiB (wait4's ru_maxrss).  A small launcher, because a child forked from
 * a Python interpreter counts the interpreter's pages until its exec.
 *
 * usage: peak_rss COMMAND [ARG...]   (the command's stdout is discarded) */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss COMMAND [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0)
        return 2;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    printf("%ld\n", ru.ru_maxrss);
    return 0;
}
