/* consumer.c — a program that uses the installed library the way a user
 * would: through pkg-config, the one header, and the public API only. */
#include <perfweave.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    pw_dataset *ds;
    pw_error err;
    if (pw_open(argv[1], NULL, &ds, &err) != PW_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    pw_summary s;
    if (pw_summarize(ds, &s, &err) != PW_OK)
        return 1;
    printf("%s %llu\n", pw_dataset_format(ds), (unsigned long long)s.records);
    pw_close(ds);
    return 0;
}
