/* test_synthetic.c — a hand-made in-memory dataset that uses every part of
 * the model the converters draw: nested BEGIN/END, an END with nothing
 * open, SPANs with ends in a field, overlapping spans (nonblocking MPI),
 * blocking and nonblocking messages matched through requests, samples
 * with units, messages in virtual time, a profile value and an untimed
 * record (which timelines cannot hold).  It is converted to every target
 * (files synth.* in the working directory, checked further by
 * check_synthetic.py) and the accounts are checked here. */
#include "harness.h"
#include "model/dataset.h"
#include "model/mpi_roles.h"

enum { S_PHASE_B, S_PHASE_E, S_SEND, S_RECV, S_ISEND, S_IRECV, S_WAIT, S_POWER, S_MARK, S_LP_SEND, S_LP_RECV,
       S_PROFILE, S_UNTIMED, S_WAITALL, S_SENDRECV, S_REGION, N_SCHEMAS };

static const pw_field f_none[] = {{"x", PW_T_I64, NULL, NULL}};
static const pw_field f_send[] = {{"end", PW_T_I64, "ns", NULL}, {"dest", PW_T_I64, NULL, NULL},
                                  {"tag", PW_T_I64, NULL, NULL}, {"comm", PW_T_I64, NULL, NULL},
                                  {"request", PW_T_I64, NULL, NULL}};
static const pw_field f_recv[] = {{"end", PW_T_I64, "ns", NULL}, {"source", PW_T_I64, NULL, NULL},
                                  {"tag", PW_T_I64, NULL, NULL}, {"comm", PW_T_I64, NULL, NULL},
                                  {"request", PW_T_I64, NULL, NULL}};
static const pw_field f_wait[] = {{"end", PW_T_I64, "ns", NULL}, {"request", PW_T_I64, NULL, NULL}};
static const pw_field f_power[] = {{"watts", PW_T_F64, "W", NULL}, {"temp", PW_T_I64, "C", NULL}};
static const pw_field f_mark[] = {{"label", PW_T_STR, NULL, NULL}};
static const pw_field f_lp_send[] = {{"dest", PW_T_I64, NULL, NULL}};
static const pw_field f_lp_recv[] = {{"source", PW_T_I64, NULL, NULL}};
/* DUMPI's names: a request list with a status list (MPI_Waitall), and
 * MPI_Sendrecv's two tags */
static const pw_field f_waitall[] = {{"end", PW_T_I64, "ns", NULL}, {"requests", PW_T_LIST, NULL, NULL},
                                     {"statuses", PW_T_LIST, NULL, NULL}};
static const pw_field f_sendrecv[] = {{"end", PW_T_I64, "ns", NULL},     {"dest", PW_T_I64, NULL, NULL},
                                      {"sendtag", PW_T_I64, NULL, NULL}, {"source", PW_T_I64, NULL, NULL},
                                      {"recvtag", PW_T_I64, NULL, NULL}, {"comm", PW_T_I64, NULL, NULL}};
static const pw_field f_region[] = {{"name", PW_T_STR, NULL, NULL}}; /* names the instant */
static const pw_field f_status[] = {{"source", PW_T_I64, NULL, NULL}, {"tag", PW_T_I64, NULL, NULL}};

static const struct syn_schema {
    const char *name;
    pw_record_kind kind;
    const pw_field *fields;
    size_t n;
} schemas[N_SCHEMAS] = {
    [S_PHASE_B] = {"phase", PW_REC_BEGIN, f_none, 0},   [S_PHASE_E] = {"phase", PW_REC_END, f_none, 0},
    [S_SEND] = {"MPI_Send", PW_REC_SPAN, f_send, 4},    [S_RECV] = {"MPI_Recv", PW_REC_SPAN, f_recv, 4},
    [S_ISEND] = {"MPI_Isend", PW_REC_SPAN, f_send, 5},  [S_IRECV] = {"MPI_Irecv", PW_REC_SPAN, f_recv, 5},
    [S_WAIT] = {"MPI_Wait", PW_REC_SPAN, f_wait, 2},    [S_POWER] = {"power", PW_REC_SAMPLE, f_power, 2},
    [S_MARK] = {"mark", PW_REC_INSTANT, f_mark, 1},     [S_LP_SEND] = {"lp_send", PW_REC_MESSAGE, f_lp_send, 1},
    [S_LP_RECV] = {"lp_recv", PW_REC_MESSAGE, f_lp_recv, 1},
    [S_PROFILE] = {"profile", PW_REC_VALUE, f_none, 1}, [S_UNTIMED] = {"untimed", PW_REC_INSTANT, f_none, 1},
    [S_WAITALL] = {"MPI_Waitall", PW_REC_SPAN, f_waitall, 3}, [S_SENDRECV] = {"MPI_Sendrecv", PW_REC_SPAN, f_sendrecv, 6},
    [S_REGION] = {"region", PW_REC_INSTANT, f_region, 1},
};

/* Locations: 0 node, 1 rank.0, 2 t0, 3 rank.1, 4 t1, 5 gpu0, 6 lp.0, 7 lp.1 */
typedef struct syn_rec {
    uint32_t loc, schema;
    pw_clock clock;
    double t;
    int64_t a[6];
    double f;
    const char *s;
} syn_rec;

static const syn_rec recs[] = {
    {2, S_PHASE_B, PW_CLOCK_NS, 10, {0}, 0, NULL},
    {2, S_PHASE_B, PW_CLOCK_NS, 20, {0}, 0, NULL},
    {2, S_SEND, PW_CLOCK_NS, 25, {35, 1, 5, 0}, 0, NULL},
    {2, S_PHASE_E, PW_CLOCK_NS, 40, {0}, 0, NULL},
    {2, S_ISEND, PW_CLOCK_NS, 100, {200, 1, 6, 0, 77}, 0, NULL},
    {2, S_IRECV, PW_CLOCK_NS, 150, {260, 1, 9, 0, 78}, 0, NULL}, /* overlaps the Isend */
    {2, S_MARK, PW_CLOCK_NS, 270, {0}, 0, "hello, \"world\""},
    {2, S_REGION, PW_CLOCK_NS, 280, {0}, 0, "solver"},
    {2, S_WAIT, PW_CLOCK_NS, 300, {320, 78}, 0, NULL},
    {2, S_PHASE_E, PW_CLOCK_NS, 400, {0}, 0, NULL},
    {2, S_PHASE_E, PW_CLOCK_NS, 410, {0}, 0, NULL}, /* nothing open */
    {4, S_RECV, PW_CLOCK_NS, 30, {50, 0, 5, 0}, 0, NULL},
    {4, S_SEND, PW_CLOCK_NS, 120, {140, 0, 9, 0}, 0, NULL},
    {4, S_RECV, PW_CLOCK_NS, 210, {230, 0, 6, 0}, 0, NULL},
    {4, S_PROFILE, PW_CLOCK_NS, 500, {7}, 0, NULL},
    {4, S_UNTIMED, PW_CLOCK_NONE, 0, {1}, 0, NULL},
    {5, S_POWER, PW_CLOCK_NS, 0, {40}, 1.5, NULL},
    {5, S_POWER, PW_CLOCK_NS, 100, {41}, 2.25, NULL},
    {5, S_POWER, PW_CLOCK_NS, 200, {42}, 3.0, NULL},
    /* wildcards and two-way calls, with DUMPI's conventions */
    {2, S_IRECV, PW_CLOCK_NS, 600, {610, -1, -1, 0, 90}, 0, NULL}, /* MPI_ANY_SOURCE, MPI_ANY_TAG */
    {2, S_WAITALL, PW_CLOCK_NS, 700, {710}, 0, NULL},             /* requests [90], status 1/11 */
    {2, S_SENDRECV, PW_CLOCK_NS, 800, {820, 1, 21, 1, 22, 0}, 0, NULL},
    {4, S_SEND, PW_CLOCK_NS, 620, {630, 0, 11, 0}, 0, NULL},
    {4, S_SENDRECV, PW_CLOCK_NS, 805, {825, 0, 22, 0, 21, 0}, 0, NULL},
    {4, S_SEND, PW_CLOCK_NS, 900, {910, -2, 1, 0}, 0, NULL}, /* to MPI_PROC_NULL: no message */
    {6, S_LP_SEND, PW_CLOCK_VIRTUAL, 0.5, {1}, 0, NULL},
    {7, S_LP_RECV, PW_CLOCK_VIRTUAL, 0.75, {0}, 0, NULL},
};
#define N_RECS (sizeof recs / sizeof *recs)

static pw_status syn_next(pw_cursor *c, pw_error *err)
{
    (void)err;
    size_t *i = c->impl;
    while (*i < N_RECS && recs[*i].loc != c->location)
        ++*i;
    if (*i == N_RECS)
        return PW_END;
    const syn_rec *r = &recs[(*i)++];
    c->rec.schema = r->schema;
    c->rec.type = c->ds->schemas[r->schema]->name;
    c->rec.kind = schemas[r->schema].kind;
    c->rec.clock = r->clock;
    c->rec.t = (int64_t)r->t;
    c->rec.vt = r->t;
    return PW_OK;
}

/* MPI_Waitall's request list [90] and status list [{source 1, tag 11}]. */
static void syn_waitall(pw_value *v)
{
    static const pw_value request[] = {{.type = PW_T_I64, .present = 1, .v.i = 90}};
    static const pw_value status_fields[] = {{.type = PW_T_I64, .present = 1, .v.i = 1},
                                             {.type = PW_T_I64, .present = 1, .v.i = 11}};
    static const pw_value status[] = {
        {.type = PW_T_OBJECT, .present = 1, .v.list = {status_fields, 2, f_status}}};
    v[1].present = v[2].present = 1;
    v[1].v.list.items = request;
    v[1].v.list.n = 1;
    v[2].v.list.items = status;
    v[2].v.list.n = 1;
}

static void syn_decode(pw_cursor *c, pw_value *v)
{
    const syn_rec *r = &recs[*(size_t *)c->impl - 1];
    const struct syn_schema *sc = &schemas[r->schema];
    if (r->schema == S_WAITALL) {
        v[0].present = 1;
        v[0].v.i = r->a[0];
        syn_waitall(v);
        return;
    }
    int ints = 0;
    for (size_t k = 0; k < sc->n; k++) {
        v[k].present = 1;
        if (sc->fields[k].type == PW_T_I64)
            v[k].v.i = r->a[r->schema == S_POWER ? 0 : ints++];
        else if (sc->fields[k].type == PW_T_F64)
            v[k].v.f = r->f;
        else {
            v[k].v.s.p = r->s;
            v[k].v.s.n = strlen(r->s);
        }
    }
}

static void syn_close(pw_cursor *c) { free(c->impl); }
static const pw_cursor_ops syn_ops = {.next = syn_next, .decode = syn_decode, .close = syn_close};

static pw_status syn_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    (void)ds;
    (void)err;
    c->impl = calloc(1, sizeof(size_t));
    c->ops = &syn_ops;
    return c->impl ? PW_OK : PW_E_NOMEM;
}

static const pw_format_ops syn_format = {.name = "synthetic", .cursor_open = syn_cursor_open};

static pw_dataset *syn_dataset(void)
{
    pw_dataset *ds = pw_ds_new(&syn_format, "synthetic");
    CHECK(ds != NULL);
    int32_t node = pw_ds_add_location(ds, -1, PW_LOC_NODE, -1, "node0", NULL, 0);
    int32_t r0 = pw_ds_add_location(ds, node, PW_LOC_PROCESS, 0, "rank.0", NULL, 0);
    pw_ds_add_location(ds, r0, PW_LOC_THREAD, 0, "t0", "mem", 1);
    int32_t r1 = pw_ds_add_location(ds, node, PW_LOC_PROCESS, 1, "rank.1", NULL, 0);
    pw_ds_add_location(ds, r1, PW_LOC_THREAD, 0, "t1", "mem", 1);
    pw_ds_add_location(ds, node, PW_LOC_GPU, 0, "gpu0", "mem", 1);
    pw_ds_add_location(ds, -1, PW_LOC_LP, 0, "lp.0", "mem", 1);
    CHECK_EQ_INT(pw_ds_add_location(ds, -1, PW_LOC_LP, 1, "lp.1", "mem", 1), 7);
    /* Its MPI calls say which field holds which argument, as DUMPI's do. */
    static int16_t roles[N_SCHEMAS][PW_N_MPI_ROLES];
    for (int i = 0; i < N_SCHEMAS; i++) {
        CHECK_EQ_INT(pw_ds_add_schema(ds, schemas[i].name, NULL, schemas[i].kind, schemas[i].fields, schemas[i].n), i);
        if (!strncmp(schemas[i].name, "MPI_", 4)) {
            pw_mpi_roles_by_name(schemas[i].fields, schemas[i].n, roles[i]);
            pw_ds_schema_mpi_fields(ds, i, roles[i]);
        }
    }
    pw_ds_set_prop(ds, "made.by", "test_synthetic", NULL);
    return ds;
}

static const pw_convert_item *find_item(const pw_convert_report *rep, const char *prefix)
{
    for (size_t i = 0; i < rep->n_items; i++)
        if (!strncmp(rep->items[i].what, prefix, strlen(prefix)))
            return &rep->items[i];
    return NULL;
}

/* Every record either written or listed as lost; the two the timeline
 * cannot draw are the profile value and the untimed record. */
static void check_timeline_account(const pw_convert_report *rep)
{
    CHECK_EQ_INT(rep->records_in, N_RECS);
    CHECK_EQ_INT(rep->records_out, N_RECS - 2);
    uint64_t lost = 0;
    for (size_t i = 0; i < rep->n_items; i++)
        lost += rep->items[i].lost ? rep->items[i].count : 0;
    CHECK_EQ_INT(rep->records_out + lost, rep->records_in);
    const pw_convert_item *it = find_item(rep, "span ends with no open span");
    CHECK(it && it->count == 1 && !it->lost);
    it = find_item(rep, "profile values");
    CHECK(it && it->count == 1 && it->lost);
    it = find_item(rep, "records without a time");
    CHECK(it && it->count == 1 && it->lost);
    CHECK(find_item(rep, "sends with no matching") == NULL);
    CHECK(find_item(rep, "receives with no matching") == NULL);
}

static void convert_to(const char *out, int timeline)
{
    pw_dataset *ds = syn_dataset();
    pw_convert_report rep;
    pw_error e;
    pw_status s = pw_convert(ds, out, NULL, &rep, &e);
    if (s != PW_OK)
        fprintf(stderr, "%s: %s\n", out, e.message);
    CHECK_EQ_INT(s, PW_OK);
    if (timeline) {
        check_timeline_account(&rep);
    } else { /* tables hold every record */
        CHECK_EQ_INT(rep.records_in, N_RECS);
        CHECK_EQ_INT(rep.records_out, N_RECS);
        CHECK_EQ_INT(rep.n_items, 0);
    }
    pw_close(ds);
}

static void test_perfetto(void) { convert_to("synth.pftrace", 1); }
static void test_chrome(void) { convert_to("synth.json", 1); }
static void test_chrome_gz(void) { convert_to("synth.json.gz", 1); }
static void test_otf2(void)
{
    CHECK(system("rm -rf synth.otf2") == 0);
    convert_to("synth.otf2", 1);
}
static void test_paraver(void) { convert_to("synth.prv", 1); }
static void test_csv(void) { convert_to("synth.csv.d", 0); }
static void test_sqlite(void) { convert_to("synth.sqlite", 0); }

static void test_target_names(void)
{
    CHECK_STR(pw_convert_target_for_path("a/b.pftrace"), "perfetto");
    CHECK_STR(pw_convert_target_for_path("x.json.gz"), "chrome");
    CHECK_STR(pw_convert_target_for_path("x.otf2/"), "otf2");
    CHECK_STR(pw_convert_target_for_path("x.db"), "sqlite");
    CHECK(pw_convert_target_for_path("x.unknown") == NULL);
    CHECK_EQ_INT(pw_convert_target_count(), 6);
    pw_dataset *ds = syn_dataset();
    pw_error e;
    CHECK_EQ_INT(pw_convert(ds, "x.unknown", NULL, NULL, &e), PW_E_USAGE);
    CHECK_EQ_INT(pw_convert(ds, "x.out", "nosuch", NULL, &e), PW_E_USAGE);
    CHECK_EQ_INT(pw_convert(ds, "/no/such/dir/x.pftrace", NULL, NULL, &e), PW_E_IO);
    pw_close(ds);
}

TEST_MAIN(T(test_perfetto), T(test_chrome), T(test_chrome_gz), T(test_otf2), T(test_paraver), T(test_csv),
          T(test_sqlite), T(test_target_names))
