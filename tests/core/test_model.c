/* test_model.c — the model with a fake in-memory format: cursors, lazy
 * decoding, the k-way merge (order, ties, a failing location), the
 * diagnostic limit, check and the generic stats. */
#include "harness.h"
#include "model/dataset.h"

/* Location i yields records with the times in fake_times[i], ending with
 * damage where the time is -1. */
static const int64_t fake_times[3][6] = {
    {5, 10, 10, 20, 0, 0},
    {1, 10, 30, 0, 0, 0},
    {7, 8, -1, 0, 0, 0},
};
static const int fake_counts[3] = {4, 3, 3};
static int fake_decodes;

static const pw_field fake_fields[] = {{"value", PW_T_I64, "ns", NULL},
                                       {"absent", PW_T_STR, NULL, NULL}};

typedef struct fake_cursor {
    int i;
} fake_cursor;

static pw_status fake_next(pw_cursor *c, pw_error *err)
{
    fake_cursor *f = c->impl;
    int loc = (int)c->location;
    if (f->i >= fake_counts[loc])
        return PW_END;
    int64_t t = fake_times[loc][f->i];
    if (t < 0) {
        c->err_code = "fake.damage";
        return pw_fail(err, PW_E_DATA, "fake.bin", 100 + f->i, "damage expected by the test");
    }
    c->rec.schema = 0;
    c->rec.type = "fake";
    c->rec.clock = PW_CLOCK_NS;
    c->rec.t = t;
    c->rec.offset = (uint64_t)f->i;
    f->i++;
    return PW_OK;
}

static void fake_decode(pw_cursor *c, pw_value *v)
{
    fake_decodes++;
    v[0].present = 1;
    v[0].v.i = c->rec.t * 2;
}

static void fake_close(pw_cursor *c) { free(c->impl); }

static const pw_cursor_ops fake_cursor_ops = {.next = fake_next, .decode = fake_decode, .close = fake_close};

static pw_status fake_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    (void)ds;
    (void)err;
    c->impl = calloc(1, sizeof(fake_cursor));
    c->ops = &fake_cursor_ops;
    return PW_OK;
}

static const pw_format_ops fake_format = {.name = "fake", .cursor_open = fake_cursor_open};

static pw_dataset *fake_dataset(void)
{
    pw_dataset *ds = pw_ds_new(&fake_format, "fake-path");
    CHECK(ds != NULL);
    int32_t root = pw_ds_add_location(ds, -1, PW_LOC_NODE, -1, "node", NULL, 0);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        CHECK_EQ_INT(pw_ds_add_location(ds, root, PW_LOC_THREAD, i, name, "fake.bin", 1), i + 1);
    }
    CHECK_EQ_INT(pw_ds_add_schema(ds, "fake", NULL, PW_REC_INSTANT, fake_fields, 2), 0);
    return ds;
}

/* Locations 1..3 map to fake_times rows 0..2 through c->location - 1. */
static pw_status fake_next_shifted(pw_cursor *c, pw_error *err)
{
    c->location--;
    pw_status s = fake_next(c, err);
    c->location++;
    return s;
}

static const pw_cursor_ops fake_shifted_ops = {.next = fake_next_shifted,
                                                .decode = fake_decode,
                                                .close = fake_close};

static pw_status fake_cursor_open_shifted(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    pw_status s = fake_cursor_open(ds, c, err);
    c->ops = &fake_shifted_ops;
    return s;
}

static const pw_format_ops fake_format_shifted = {.name = "fake", .cursor_open = fake_cursor_open_shifted};

static void test_locations_and_paths(void)
{
    pw_dataset *ds = fake_dataset();
    CHECK_EQ_INT(pw_location_count(ds), 4);
    CHECK_STR(pw_location_get(ds, 2)->path, "node/t1");
    CHECK_EQ_INT(pw_location_get(ds, 2)->parent, 0);
    CHECK(pw_location_get(ds, 4) == NULL);
    CHECK_EQ_INT(pw_ds_add_location(ds, 99, PW_LOC_THREAD, 0, "bad", NULL, 0), -1);
    pw_close(ds);
}

static void test_merge_order_and_damage(void)
{
    pw_dataset *ds = fake_dataset();
    ds->fmt = &fake_format_shifted;
    pw_merge *m;
    pw_error e;
    CHECK_EQ_INT(pw_merge_open(ds, &m, &e), PW_OK);
    const pw_record *r;
    int64_t times[16];
    uint32_t locs[16];
    int n = 0;
    while (n < 16 && pw_merge_next(m, &r, &e) == PW_OK) {
        times[n] = r->t;
        locs[n++] = r->location;
    }
    pw_merge_close(m);
    /* 1(t1) 5(t0) 7(t2) 8(t2) 10(t0) 10(t0) 10(t1) 20(t0) 30(t1): ties by
     * location, one location's own order kept, t2 stops at its damage. */
    static const int64_t want_t[] = {1, 5, 7, 8, 10, 10, 10, 20, 30};
    static const uint32_t want_l[] = {2, 1, 3, 3, 1, 1, 2, 1, 2};
    CHECK_EQ_INT(n, 9);
    for (int i = 0; i < n && i < 9; i++) {
        CHECK_EQ_INT(times[i], want_t[i]);
        CHECK_EQ_INT(locs[i], want_l[i]);
    }
    CHECK_EQ_INT(pw_dataset_diag_count(ds), 1);
    const pw_diag *d = pw_dataset_diag(ds, 0);
    CHECK_STR(d->code, "fake.damage");
    CHECK(d->has_offset && d->offset == 102);
    CHECK_EQ_INT(pw_dataset_worst_severity(ds), PW_SEV_ERROR);
    pw_close(ds);
}

static void test_lazy_decoding(void)
{
    pw_dataset *ds = fake_dataset();
    ds->fmt = &fake_format_shifted;
    pw_cursor *c;
    pw_error e;
    CHECK_EQ_INT(pw_cursor_open(ds, 1, &c, &e), PW_OK);
    const pw_record *r;
    fake_decodes = 0;
    CHECK_EQ_INT(pw_cursor_next(c, &r, &e), PW_OK);
    CHECK_EQ_INT(fake_decodes, 0);
    const pw_value *v = pw_record_fields(r);
    v = pw_record_fields(r);
    CHECK_EQ_INT(fake_decodes, 1);
    CHECK(v[0].present && v[0].type == PW_T_I64 && v[0].v.i == 10);
    CHECK(!v[1].present && v[1].type == PW_T_STR);
    CHECK_EQ_INT(pw_cursor_next(c, &r, &e), PW_OK);
    CHECK_EQ_INT(pw_record_fields(r)[0].v.i, 20);
    CHECK_EQ_INT(fake_decodes, 2);
    pw_cursor_close(c);
    CHECK_EQ_INT(pw_cursor_open(ds, 0, &c, &e), PW_E_USAGE); /* no records there */
    pw_close(ds);
}

static void test_check_and_generic_stats(void)
{
    pw_dataset *ds = fake_dataset();
    ds->fmt = &fake_format_shifted;
    pw_error e;
    CHECK_EQ_INT(pw_check(ds, &e), PW_E_DATA);
    pw_report *r = pw_report_new();
    CHECK_EQ_INT(pw_stats_generic(ds, r, &e), PW_OK);
    char text[4096] = {0};
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    CHECK_EQ_INT(pw_report_write(r, f, PW_REPORT_JSON, &e), PW_OK);
    fclose(f);
    /* 4 + 3 + 2 records readable before the damage */
    CHECK(strstr(text, "\"records\": 9") != NULL);
    CHECK(strstr(text, "\"location\": \"node/t2\",\n      \"records\": 2") != NULL);
    pw_report_free(r);
    pw_close(ds);
}

static void test_diag_limit(void)
{
    pw_dataset *ds = fake_dataset();
    for (int i = 0; i < 1500; i++)
        pw_ds_diag(ds, i == 1400 ? PW_SEV_ERROR : PW_SEV_WARNING, "fake.w", "f", i, "finding %d", i);
    CHECK_EQ_INT(pw_dataset_diag_count(ds), 1000);
    CHECK_EQ_INT(pw_dataset_diag_dropped(ds), 500);
    CHECK_EQ_INT(pw_dataset_worst_severity(ds), PW_SEV_ERROR); /* counted though dropped */
    CHECK_STR(pw_dataset_diag(ds, 3)->message, "f: offset 3: finding 3");
    pw_close(ds);
}

static void test_props_and_options(void)
{
    pw_dataset *ds = fake_dataset();
    pw_error e;
    CHECK_EQ_INT(pw_ds_set_prop(ds, "a", "1", &e), PW_OK);
    CHECK_EQ_INT(pw_ds_set_prop(ds, "a", "2", &e), PW_OK);
    CHECK_EQ_INT(pw_dataset_prop_count(ds), 1);
    CHECK_STR(pw_dataset_prop_get(ds, "a"), "2");
    CHECK(pw_dataset_prop_get(ds, "b") == NULL);
    pw_option_kv kv[] = {{"fake.x", "1"}, {"other.x", "2"}, {"fake.x", "3"}};
    pw_options opt = {.n_kv = 3, .kv = kv};
    CHECK_STR(pw_options_get(&opt, "fake.x"), "3");
    ds->kv = kv;
    ds->n_kv = 3;
    CHECK_STR(pw_ds_option(ds, "x"), "3");
    CHECK(pw_ds_option(ds, "y") == NULL);
    ds->kv = NULL;
    ds->n_kv = 0;
    pw_close(ds);
}

static void test_open_errors(void)
{
    pw_dataset *ds;
    pw_error e;
    CHECK_EQ_INT(pw_open("", NULL, &ds, &e), PW_E_USAGE);
    CHECK_EQ_INT(pw_open("/no/such/path", NULL, &ds, &e), PW_E_IO);
    CHECK(strstr(e.message, "/no/such/path") != NULL);
    pw_options opt = {.format = "nosuchformat"};
    CHECK_EQ_INT(pw_open(".", &opt, &ds, &e), PW_E_USAGE);
    CHECK(strstr(e.message, "nosuchformat") != NULL);
    CHECK(ds == NULL);
}

TEST_MAIN(T(test_locations_and_paths), T(test_merge_order_and_damage), T(test_lazy_decoding),
          T(test_check_and_generic_stats), T(test_diag_limit), T(test_props_and_options),
          T(test_open_errors))
