/* gen_dumpi_tables.c — build-time generator: turns the DUMPI fact tables
 * (src/formats/dumpi/dumpi-functions.tsv and dumpi-constants.tsv) into C
 * tables: per function its argument layout and schema fields, and per
 * handle/enum category a function naming the predefined values.  The 290
 * layouts stay data, never hand-typed readers.
 *
 * usage: gen_dumpi_tables FUNCTIONS.tsv CONSTANTS.tsv OUT.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dumpi/dumpi_table.h"
#include "model/mpi_roles.h"

#define MAX_LABELS 293
#define MAX_ARGS 32
#define MAX_CONSTS 512

typedef struct konst {
    char category[32];
    long value;
    char name[64];
} konst;

static konst consts[MAX_CONSTS];
static int n_consts;

/* Categories that get a naming function, and the kinds that use each. */
static const char *const categories[] = {
    "comm", "datatype", "op", "group", "request", "iorequest", "errhandler", "file", "info",
    "win", "keyval", "topology", "combiner", "comparison", "distribution", "filemode",
    "locktype", "ordering", "threadlevel", "typeclass", "whence", "win_assert", NULL};

static char *next_field(char **p, char sep)
{
    char *s = *p;
    if (!s)
        return NULL;
    char *t = strchr(s, sep);
    if (t) {
        *t = '\0';
        *p = t + 1;
    } else {
        *p = NULL;
    }
    return s;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* The next data row of a fact table (comments, blank lines and the column
 * header skipped) into line; 0 at the end. */
static int next_row(FILE *in, char *line, int size, int *header)
{
    while (fgets(line, size, in)) {
        chomp(line);
        if (line[0] == '#' || !line[0])
            continue;
        if (*header) {
            *header = 0;
            continue;
        }
        return 1;
    }
    return 0;
}

/* Reads the constants table; the special rows become the source/dest/tag
 * categories (the only translations the tracer makes, constants header). */
static int read_constants(const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    char line[1024];
    int header = 1;
    while (next_row(in, line, sizeof line, &header)) {
        char *p = line;
        char *cat = next_field(&p, '\t'), *val = next_field(&p, '\t'), *name = next_field(&p, '\t');
        if (!cat || !val || !name || n_consts + 3 > MAX_CONSTS)
            continue;
        if (!strcmp(cat, "datatype_size") || !strcmp(cat, "special_raw") || strstr(name, "FIRST_USER"))
            continue;
        const char *targets[3] = {cat, NULL, NULL};
        if (!strcmp(cat, "special")) {
            if (!strcmp(name, "MPI_ROOT")) {
                targets[0] = "source";
                targets[1] = "dest";
            } else if (!strcmp(name, "MPI_ANY_SOURCE")) {
                targets[0] = "source";
            } else {
                targets[0] = "tag";
            }
        }
        for (int i = 0; i < 3 && targets[i]; i++) {
            konst *k = &consts[n_consts++];
            snprintf(k->category, sizeof k->category, "%s", targets[i]);
            k->value = strtol(val, NULL, 10);
            if (!strcmp(cat, "win_assert") && k->value < 0)
                k->value += 256; /* stored as u8 */
            snprintf(k->name, sizeof k->name, "%s", name);
        }
    }
    fclose(in);
    return 0;
}

static void emit_label_function(FILE *out, const char *cat)
{
    /* Some categories name only array elements (distribution). */
    fprintf(out, "%sconst char *dumpi_label_%s(int64_t v)\n{\n    switch (v) {\n",
            strcmp(cat, "datatype") ? "__attribute__((unused)) static " : "", cat);
    for (int i = 0; i < n_consts; i++) {
        if (strcmp(consts[i].category, cat))
            continue;
        int dup = 0; /* first name wins when two share a value */
        for (int j = 0; j < i; j++)
            dup |= !strcmp(consts[j].category, cat) && consts[j].value == consts[i].value;
        if (!dup)
            fprintf(out, "    case %ld: return \"%s\";\n", consts[i].value, consts[i].name);
    }
    fprintf(out, "    default: return NULL;\n    }\n}\n\n");
}

/* The naming category of a kind, or NULL when its values have no names. */
static const char *label_category(const char *kind)
{
    static const char *const extra[][2] = {{"source", "source"}, {"dest", "dest"}, {"tag", "tag"},
                                           {"comm_keyval", "keyval"}, {"type_keyval", "keyval"},
                                           {"win_keyval", "keyval"}};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (!strcmp(kind, extra[i][0]))
            return extra[i][1];
    for (int i = 0; categories[i]; i++)
        if (!strcmp(kind, categories[i]))
            return categories[i];
    return NULL;
}

typedef struct kind_info {
    const char *kind;
    const char *enc;
    const char *type;
    int width; /* fixed bytes, 0 when variable */
} kind_info;

static const kind_info kinds[] = {
    {"i32", "DUMPI_ENC_I32", "PW_T_I64", 4}, {"dest", "DUMPI_ENC_I32", "PW_T_I64", 4},
    {"source", "DUMPI_ENC_I32", "PW_T_I64", 4}, {"tag", "DUMPI_ENC_I32", "PW_T_I64", 4},
    {"request", "DUMPI_ENC_I32", "PW_T_I64", 4}, {"iorequest", "DUMPI_ENC_I32", "PW_T_I64", 4},
    {"i64", "DUMPI_ENC_I64", "PW_T_I64", 8},
    {"i32[]", "DUMPI_ENC_I32_ARR", "PW_T_LIST", 0}, {"request[]", "DUMPI_ENC_I32_ARR", "PW_T_LIST", 0},
    {"iorequest[]", "DUMPI_ENC_I32_ARR", "PW_T_LIST", 0},
    {"datatype[]", "DUMPI_ENC_U16_ARR", "PW_T_LIST", 0}, {"info[]", "DUMPI_ENC_U16_ARR", "PW_T_LIST", 0},
    {"distribution[]", "DUMPI_ENC_U8_ARR", "PW_T_LIST", 0},
    {"i32[][]", "DUMPI_ENC_I32_2D", "PW_T_LIST", 0},
    {"string32", "DUMPI_ENC_STR", "PW_T_STR", 0}, {"string32[]", "DUMPI_ENC_STR_ARR", "PW_T_LIST", 0},
    {"string32[][]", "DUMPI_ENC_STR_2D", "PW_T_LIST", 0},
    {"status", "DUMPI_ENC_STATUS", "PW_T_LIST", 0}, {"status[]", "DUMPI_ENC_STATUS", "PW_T_LIST", 0},
};

static const char *const u16_kinds[] = {"comm", "datatype", "group", "info", "errhandler", "file",
                                        "win", "keyval", "comm_keyval", "type_keyval",
                                        "win_keyval", NULL};
static const char *const u8_kinds[] = {"op", "combiner", "comparison", "distribution", "filemode",
                                       "locktype", "ordering", "threadlevel", "topology",
                                       "typeclass", "whence", "win_assert", NULL};

static int in_list(const char *const *l, const char *s)
{
    for (; *l; l++)
        if (!strcmp(*l, s))
            return 1;
    return 0;
}

/* Encoding, field type and fixed width of a kind; 0 when unknown. */
static int classify(const char *kind, kind_info *out)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kinds[i].kind, kind)) {
            *out = kinds[i];
            return 1;
        }
    if (in_list(u16_kinds, kind)) {
        *out = (kind_info){kind, "DUMPI_ENC_U16", "PW_T_I64", 2};
        return 1;
    }
    if (in_list(u8_kinds, kind)) {
        *out = (kind_info){kind, "DUMPI_ENC_U8", "PW_T_I64", 1};
        return 1;
    }
    return 0;
}

typedef struct arg {
    char name[64];
    char kind[32];
    char cond_a[64], cond_b[64];
} arg;

/* One function row: its arg and field tables; returns the fixed size or -1,
 * or -2 on a table error. */
/* Per MPI role, the schema field (after the prefix fields) of the argument
 * MPI names so, or -1: the schema says where its count, datatype and
 * communicator are, and the analyses never look for them by name. */
static void emit_roles(FILE *out, int label, const arg *parsed, int n)
{
    pw_field fields[DUMPI_PREFIX_FIELDS + MAX_ARGS] = {{0}};
    for (int i = 0; i < DUMPI_PREFIX_FIELDS; i++)
        fields[i].name = ""; /* thread, wall, cpu, perf: no MPI arguments */
    for (int i = 0; i < n; i++)
        fields[DUMPI_PREFIX_FIELDS + i].name = parsed[i].name;
    int16_t roles[PW_N_MPI_ROLES];
    pw_mpi_roles_by_name(fields, DUMPI_PREFIX_FIELDS + (size_t)n, roles);
    fprintf(out, "static const int16_t roles_%d[PW_N_MPI_ROLES] = {%d", label, roles[0]);
    for (int r = 1; r < PW_N_MPI_ROLES; r++)
        fprintf(out, ", %d", roles[r]);
    fprintf(out, "};\n");
}

/* The leading arguments whose place does not depend on the data (the
 * scalars before the first array, string, status or conditional one):
 * where each starts, counted from the first, then how many and their
 * bytes, as the C initializers "{a, b, ...}, n, bytes". */
static void format_lead(const arg *parsed, int n, char *buf, size_t cap)
{
    int at = 0, lead = 0, used = snprintf(buf, cap, "{");
    for (; lead < n; lead++) {
        kind_info ki;
        classify(parsed[lead].kind, &ki);
        if (!ki.width || parsed[lead].cond_a[0])
            break;
        used += snprintf(buf + used, cap - (size_t)used, "%s%d", lead ? ", " : "", at);
        at += ki.width;
    }
    snprintf(buf + used, cap - (size_t)used, "}, %d, %d", lead, at);
}

static int emit_function(FILE *out, int label, char *args, arg *parsed, int *n_out)
{
    int n = 0, fixed = 0;
    if (args[0] == '!' || !strcmp(args, "-")) {
        *n_out = 0;
    } else {
        char *p = args, *item;
        while ((item = next_field(&p, ';')) && n < MAX_ARGS) {
            arg *a = &parsed[n++];
            memset(a, 0, sizeof *a);
            char *q = item;
            snprintf(a->name, sizeof a->name, "%s", next_field(&q, ':'));
            char *kind = next_field(&q, '?');
            if (!kind)
                return -2;
            snprintf(a->kind, sizeof a->kind, "%s", kind);
            if (q) {
                char *eq = strstr(q, "==");
                if (!eq)
                    return -2;
                *eq = '\0';
                snprintf(a->cond_a, sizeof a->cond_a, "%s", q);
                snprintf(a->cond_b, sizeof a->cond_b, "%s", eq + 2);
            }
        }
        *n_out = n;
    }
    fprintf(out, "static const pw_field fields_%d[] = {\n"
                 "    {\"thread\", PW_T_I64, NULL, NULL},\n"
                 "    {\"wall\", PW_T_LIST, \"s\", NULL},\n"
                 "    {\"cpu\", PW_T_LIST, \"s\", NULL},\n"
                 "    {\"perf\", PW_T_OBJECT, NULL, NULL},\n", label);
    for (int i = 0; i < n; i++) {
        kind_info ki;
        if (!classify(parsed[i].kind, &ki)) {
            fprintf(stderr, "gen_dumpi_tables: label %d: unknown kind %s\n", label, parsed[i].kind);
            return -2;
        }
        const char *cat = label_category(parsed[i].kind);
        int scalar = ki.width != 0;
        fprintf(out, "    {\"%s\", %s, NULL, %s%s},\n", parsed[i].name, ki.type,
                scalar && cat ? "dumpi_label_" : "NULL", scalar && cat ? cat : "");
        if (fixed >= 0)
            fixed = ki.width && !parsed[i].cond_a[0] ? fixed + ki.width : -1;
    }
    fprintf(out, "};\n");
    if (n) {
        fprintf(out, "static const dumpi_arg args_%d[] = {\n", label);
        for (int i = 0; i < n; i++) {
            kind_info ki;
            classify(parsed[i].kind, &ki);
            int ca = -1, cb = -1;
            for (int j = 0; j < i && parsed[i].cond_a[0]; j++) {
                if (!strcmp(parsed[j].name, parsed[i].cond_a))
                    ca = j;
                if (!strcmp(parsed[j].name, parsed[i].cond_b))
                    cb = j;
            }
            if (parsed[i].cond_a[0] && (ca < 0 || cb < 0)) {
                fprintf(stderr, "gen_dumpi_tables: label %d: condition on unknown fields\n", label);
                return -2;
            }
            fprintf(out, "    {\"%s\", %s, %d, %d},\n", parsed[i].name, ki.enc, ca, cb);
        }
        fprintf(out, "};\n");
    }
    emit_roles(out, label, parsed, n);
    return fixed;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_dumpi_tables FUNCTIONS.tsv CONSTANTS.tsv OUT.c\n");
        return 2;
    }
    if (read_constants(argv[2]) < 0) {
        perror(argv[2]);
        return 1;
    }
    FILE *in = fopen(argv[1], "r");
    FILE *out = fopen(argv[3], "w");
    if (!in || !out) {
        perror("gen_dumpi_tables");
        return 1;
    }
    fprintf(out, "/* Generated from dumpi-functions.tsv and dumpi-constants.tsv by "
                 "tools/gen_dumpi_tables.c. Do not edit. */\n"
                 "#include \"formats/dumpi/dumpi_table.h\"\n\n");
    for (int i = 0; categories[i]; i++)
        emit_label_function(out, categories[i]);
    emit_label_function(out, "source");
    emit_label_function(out, "dest");
    emit_label_function(out, "tag");
    static char names[MAX_LABELS][64];
    static int fixed[MAX_LABELS], n_args[MAX_LABELS], writable[MAX_LABELS], seen[MAX_LABELS];
    static arg parsed[MAX_ARGS];
    static char lead[MAX_LABELS][8 * MAX_ARGS];
    char line[4096];
    int header = 1;
    while (next_row(in, line, sizeof line, &header)) {
        char *p = line;
        char *lab = next_field(&p, '\t'), *name = next_field(&p, '\t'), *args = next_field(&p, '\t');
        int label = lab ? atoi(lab) : -1;
        if (!name || !args || label < 0 || label >= MAX_LABELS || seen[label]) {
            fprintf(stderr, "gen_dumpi_tables: bad row: %s\n", lab ? lab : "");
            return 1;
        }
        seen[label] = 1;
        snprintf(names[label], sizeof names[label], "%s", name);
        writable[label] = args[0] != '!';
        fixed[label] = emit_function(out, label, args, parsed, &n_args[label]);
        if (fixed[label] == -2)
            return 1;
        if (n_args[label] > DUMPI_MAX_ARGS) {
            fprintf(stderr, "gen_dumpi_tables: label %d: more than %d arguments\n", label, DUMPI_MAX_ARGS);
            return 1;
        }
        format_lead(parsed, n_args[label], lead[label], sizeof lead[label]);
    }
    fprintf(out, "\nconst dumpi_function dumpi_functions[DUMPI_N_LABELS] = {\n");
    for (int l = 0; l < MAX_LABELS; l++) {
        if (!seen[l]) {
            fprintf(stderr, "gen_dumpi_tables: label %d missing\n", l);
            return 1;
        }
        char args_name[32] = "NULL";
        if (n_args[l])
            snprintf(args_name, sizeof args_name, "args_%d", l);
        char roles_name[32] = "NULL"; /* Function_enter/exit are no MPI calls */
        if (!strncmp(names[l], "MPI", 3))
            snprintf(roles_name, sizeof roles_name, "roles_%d", l);
        fprintf(out, "    {\"%s\", %d, %d, %s, fields_%d, %d, %s, %s},\n", names[l], writable[l], n_args[l],
                args_name, l, fixed[l], roles_name, lead[l]);
    }
    fprintf(out, "};\n\nconst pw_field dumpi_status_fields[5] = {\n"
                 "    {\"bytes\", PW_T_I64, \"B\", NULL}, {\"source\", PW_T_I64, NULL, NULL},\n"
                 "    {\"cancelled\", PW_T_I64, NULL, NULL}, {\"error\", PW_T_I64, NULL, NULL},\n"
                 "    {\"tag\", PW_T_I64, NULL, NULL}};\n");
    fclose(in);
    return fclose(out) ? 1 : 0;
}
