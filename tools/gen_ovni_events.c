/* gen_ovni_events.c — build-time generator: turns the ovni event signature
 * table (src/formats/ovni/ovni-events.tsv) into C tables, so that the 365
 * signatures are data, never hand-typed code.
 *
 * usage: gen_ovni_events IN.tsv OUT.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes s as a C string literal body (escaping quotes and backslashes). */
static void put_c_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Byte width of a signature type, 0 for str, -1 when unknown. */
static int type_width(const char *t)
{
    if (!strcmp(t, "str"))
        return 0;
    if ((t[0] == 'u' || t[0] == 'i') && (!strcmp(t + 1, "8") || !strcmp(t + 1, "16") ||
                                         !strcmp(t + 1, "32") || !strcmp(t + 1, "64")))
        return atoi(t + 1) / 8;
    return -1;
}

/* Signature names that would collide with the keys every record already
 * has in JSON Lines ("loc", "t", "type", "payload") get a trailing '_':
 * the mark events' `i32 type` becomes "type_". */
static const char *field_name(const char *name)
{
    static char buf[128];
    static const char *const reserved[] = {"loc", "t", "type", "payload"};
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
        if (!strcmp(name, reserved[i])) {
            snprintf(buf, sizeof buf, "%s_", name);
            return buf;
        }
    }
    return name;
}

static char *next_tab(char **p)
{
    char *s = *p;
    if (!s)
        return NULL;
    char *t = strchr(s, '\t');
    if (t) {
        *t = '\0';
        *p = t + 1;
    } else {
        *p = NULL;
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_ovni_events IN.tsv OUT.c\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    FILE *out = fopen(argv[2], "w");
    if (!in || !out) {
        perror("gen_ovni_events");
        return 1;
    }
    fprintf(out, "/* Generated from ovni-events.tsv by tools/gen_ovni_events.c. Do not edit. */\n"
                 "#include \"formats/ovni/ovni_events.h\"\n\n");
    char line[4096];
    int n = 0, header_seen = 0, lineno = 0;
    /* First pass writes one field array per event; the table follows. */
    char defs[512][256];
    while (fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        if (!header_seen) { /* the column header line */
            header_seen = 1;
            continue;
        }
        char *p = line;
        char *model_id = next_tab(&p), *model = next_tab(&p), *version = next_tab(&p);
        char *mcv = next_tab(&p), *jumbo = next_tab(&p), *fields = p ? p : "";
        if (!model_id || !model || !version || !mcv || !jumbo || strlen(mcv) != 3 || n >= 512) {
            fprintf(stderr, "%s:%d: malformed line\n", argv[1], lineno);
            return 1;
        }
        fprintf(out, "static const pw_field ovni_f%d[] = {\n    {\"payload\", PW_T_BYTES, NULL, NULL},\n", n);
        char widths[64] = "";
        int nf = 0, fixed_bytes = 0, last_width = 0;
        for (char *f = strtok(fields, ";"); f; f = strtok(NULL, ";")) {
            char *colon = strchr(f, ':');
            if (!colon) {
                fprintf(stderr, "%s:%d: field without type: %s\n", argv[1], lineno, f);
                return 1;
            }
            *colon = '\0';
            int w = type_width(f);
            if (w < 0) {
                fprintf(stderr, "%s:%d: unknown type %s\n", argv[1], lineno, f);
                return 1;
            }
            fprintf(out, "    {");
            put_c_string(out, field_name(colon + 1));
            fprintf(out, ", %s, NULL, NULL},\n",
                    w == 0 ? "PW_T_STR" : f[0] == 'u' ? "PW_T_U64" : "PW_T_I64");
            char wb[24];
            snprintf(wb, sizeof wb, "%s%d", nf ? ", " : "", f[0] == 'i' ? -w : w);
            strcat(widths, wb);
            fixed_bytes += w;
            last_width = w;
            nf++;
        }
        fprintf(out, "};\n");
        if (nf)
            fprintf(out, "static const signed char ovni_w%d[] = {%s};\n", n, widths);
        /* A jumbo event's last field repeats or runs to the end: not fixed. */
        if (atoi(jumbo) && nf)
            fixed_bytes -= last_width;
        snprintf(defs[n], sizeof defs[n], "%c%c%c\t%s\t%s\t%d\t%d\t%d", mcv[0], mcv[1], mcv[2], model,
                 version, atoi(jumbo), fixed_bytes, nf);
        n++;
    }
    fprintf(out, "\nconst ovni_event_def ovni_event_defs[] = {\n");
    for (int i = 0; i < n; i++) {
        char mcv[4] = {defs[i][0], defs[i][1], defs[i][2], 0};
        char *p = defs[i] + 4;
        char *model = next_tab(&p), *version = next_tab(&p), *jumbo = next_tab(&p);
        char *fixed = next_tab(&p), *nf = p;
        fprintf(out, "    {");
        put_c_string(out, mcv);
        fprintf(out, ", ");
        put_c_string(out, model);
        fprintf(out, ", ");
        put_c_string(out, version);
        char wname[32] = "NULL";
        if (atoi(nf))
            snprintf(wname, sizeof wname, "ovni_w%d", i);
        fprintf(out, ", %s, ovni_f%d, %s, %s, %s},\n", jumbo, i, nf, wname, fixed);
    }
    fprintf(out, "};\nconst size_t ovni_n_event_defs = %d;\n", n);
    fclose(in);
    return fclose(out) == 0 ? 0 : 1;
}
