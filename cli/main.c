/* main.c — the perfweave program: picks the subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_command *const commands[] = {&cli_info, &cli_dump, &cli_stats, &cli_check,
                                              &cli_convert, &cli_diff, &cli_report};
#define N_COMMANDS (sizeof commands / sizeof *commands)

static void print_main_help(FILE *out)
{
    fprintf(out,
            "perfweave %s - read, check, summarise and convert HPC performance data\n\n"
            "usage: perfweave COMMAND PATH [options]\n\n"
            "commands:\n",
            PW_VERSION_STRING);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out, "\nformats (detected from PATH; --format NAME overrides):\n");
    for (size_t i = 0; i < pw_format_count(); i++)
        fprintf(out, "  %-10s %s\n", pw_format_name(i), pw_format_description(i));
    fprintf(out,
            "\nexit codes: 0 ok, 1 the data is damaged (what could be read was written),\n"
            "            2 usage error, 3 I/O or system error\n\n"
            "'perfweave COMMAND --help' tells more about each command,\n"
            "'perfweave help FORMAT' about a format's options.\n");
}

static int help_topic(const char *topic)
{
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (!strcmp(topic, commands[i]->name)) {
            cli_print_help(commands[i], stdout);
            return EXIT_OK;
        }
    }
    if (cli_print_format_help(topic, stdout))
        return EXIT_OK;
    fprintf(stderr, "perfweave: no command or format named '%s' (see 'perfweave --help')\n", topic);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    cli_handle_signals();
    if (argc == 3 && !strcmp(argv[1], "help")) /* help FORMAT, help COMMAND */
        return help_topic(argv[2]);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        print_main_help(argc < 2 ? stderr : stdout);
        return cli_close_stdout(argc < 2 ? EXIT_USAGE : EXIT_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("perfweave %s\n", PW_VERSION_STRING);
        return cli_close_stdout(EXIT_OK);
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i]->name))
            continue;
        cli_args a;
        int code = cli_parse(commands[i], argc - 2, argv + 2, &a);
        if (code < 0)
            code = commands[i]->run(&a);
        return cli_close_stdout(code);
    }
    fprintf(stderr, "perfweave: unknown command '%s' (see 'perfweave --help')\n", argv[1]);
    return EXIT_USAGE;
}
