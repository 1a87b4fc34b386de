/* ross_schemas.c — the record types as data: fields named as in
 * ross-facts.md, each decoded from a fixed offset of the record (a column
 * table per type), plus the payload and the user's payload fields.
 * Uninitialised bytes (LP s_process_event and padding, lp_metadata
 * real_time) have no field: they are never shown as data. */
#include <string.h>

#include "core/bytes.h"
#include "formats/ross/ross.h"

#define U(n) {n, PW_T_U64, NULL, NULL}
#define I(n) {n, PW_T_I64, NULL, NULL}
#define F(n, unit) {n, PW_T_F64, unit, NULL}
#define ENGINE_TAIL {"mode", PW_T_STR, NULL, NULL}, {"final_sample", PW_T_BOOL, NULL, NULL}

static const pw_field pe_fields[] = {
    F("real_time", "s"), U("peid"), U("nevent_processed"), U("nevent_abort"), U("e_rbs"),
    U("rb_total"), U("rb_secondary"), U("fc_attempts"), U("pq_qsize"), U("nsend_network"),
    U("nread_network"), U("ngvts"), U("pe_event_ties"), U("all_reduce_count"),
    F("efficiency", "%"), F("net_read", "s"), F("net_other", "s"), F("gvt", "s"),
    F("fossil_collect", "s"), F("event_abort", "s"), F("event_process", "s"), F("pq", "s"),
    F("rollback", "s"), F("cancel_q", "s"), F("avl", "s"), F("buddy", "s"), F("lz4", "s"),
    ENGINE_TAIL};
static const pw_field kp_fields[] = {
    F("real_time", "s"), U("peid"), U("kpid"), U("nevent_processed"), U("nevent_abort"),
    U("e_rbs"), U("rb_total"), U("rb_secondary"), U("nsend_network"), U("nread_network"),
    F("time_ahead_gvt", NULL), F("efficiency", "%"), ENGINE_TAIL};
static const pw_field lp_fields[] = {
    F("real_time", "s"), U("peid"), U("kpid"), U("lpid"), U("nevent_processed"),
    U("nevent_abort"), U("e_rbs"), U("nsend_network"), U("nread_network"), F("efficiency", "%"),
    ENGINE_TAIL};
static const pw_field model_fields[] = {F("real_time", "s"), U("peid"), U("kpid"), U("lpid"),
                                        F("gvt", NULL), I("stats_type"), U("model_sz")};
static const pw_field vt_model_fields[] = {U("lpid"), U("kpid"), U("peid"), I("sample_sz"),
                                           I("flag")};
static const pw_field event_fields[] = {U("src_lp"), U("dest_lp"), F("send_vts", NULL),
                                        F("recv_vts", NULL), F("real_ts", "s"), U("model_data_sz")};

/* Where a column lives: byte offset and encoding ('d' f64, 'f' f32, 'u' u32,
 * 'U' u64, 'i' i32, 'e' LP efficiency, whose offset depends on the layout). */
typedef struct ross_col {
    uint16_t off;
    char enc;
} ross_col;

#define PE_U(i) {24 + 4 * (i), 'u'}
#define PE_F(i) {76 + 4 * (i), 'f'}
static const ross_col pe_cols[] = {
    {16, 'd'}, PE_U(0),  PE_U(1),  PE_U(2),  PE_U(3),  PE_U(4),  PE_U(5),  PE_U(6),  PE_U(7),
    PE_U(8),   PE_U(9),  PE_U(10), PE_U(11), PE_U(12), PE_F(0),  PE_F(1),  PE_F(2),  PE_F(3),
    PE_F(4),   PE_F(5),  PE_F(6),  PE_F(7),  PE_F(8),  PE_F(9),  PE_F(10), PE_F(11), PE_F(12)};
static const ross_col kp_cols[] = {{16, 'd'}, PE_U(0), PE_U(1), PE_U(2), PE_U(3), PE_U(4),
                                   PE_U(5),   PE_U(6), PE_U(7), PE_U(8), {60, 'f'}, {64, 'f'}};
static const ross_col lp_cols[] = {{16, 'd'}, PE_U(0), PE_U(1), PE_U(2), PE_U(3),
                                   PE_U(4),   PE_U(5), PE_U(6), PE_U(7), {0, 'e'}};
static const ross_col model_cols[] = {{16, 'd'}, {24, 'u'}, {28, 'u'}, {32, 'u'},
                                      {36, 'f'}, {40, 'i'}, {44, 'u'}};
static const ross_col vt_model_cols[] = {{0, 'U'}, {8, 'U'}, {16, 'U'}, {40, 'i'}, {44, 'i'}};
static const ross_col event_cols[] = {{0, 'u'},  {4, 'u'},  {8, 'f'},
                                      {12, 'f'}, {16, 'f'}, {20, 'u'}};

typedef struct ross_type {
    const char *name;
    const char *description;
    pw_record_kind kind;
    const pw_field *fields;
    const ross_col *cols;
    size_t n_cols; /* fixed fields decoded from cols */
    size_t n_tail; /* engine: mode, final_sample; model types: payload */
} ross_type;

#define N(a) (sizeof a / sizeof *a)
static const ross_type ross_types[ROSS_N_RECS] = {
    {"pe", "PE engine sample (gvt/rt)", PW_REC_SAMPLE, pe_fields, pe_cols, N(pe_cols), 2},
    {"kp", "KP engine sample (gvt/rt)", PW_REC_SAMPLE, kp_fields, kp_cols, N(kp_cols), 2},
    {"lp", "LP engine sample (gvt/rt)", PW_REC_SAMPLE, lp_fields, lp_cols, N(lp_cols), 2},
    {"vt-pe", "PE engine sample (virtual time)", PW_REC_SAMPLE, pe_fields, pe_cols, N(pe_cols), 2},
    {"vt-kp", "KP engine sample (virtual time)", PW_REC_SAMPLE, kp_fields, kp_cols, N(kp_cols), 2},
    {"vt-lp", "LP engine sample (virtual time)", PW_REC_SAMPLE, lp_fields, lp_cols, N(lp_cols), 2},
    {"model", "model sample (gvt/rt)", PW_REC_SAMPLE, model_fields, model_cols, N(model_cols), 1},
    {"vt-model", "model sample (virtual time)", PW_REC_SAMPLE, vt_model_fields, vt_model_cols,
     N(vt_model_cols), 1},
    {"evtrace", "traced event", PW_REC_MESSAGE, event_fields, event_cols, N(event_cols), 1},
};

static const ross_payload_schema *user_schema(const ross_dataset *rd, int rec)
{
    if (rec == ROSS_REC_EVTRACE)
        return rd->event_schema.n_fields ? &rd->event_schema : NULL;
    if (rec == ROSS_REC_MODEL || rec == ROSS_REC_VT_MODEL)
        return rd->model_schema.n_fields ? &rd->model_schema : NULL;
    return NULL;
}

/* A model type's fields: the fixed ones, "payload", then the user's. */
static const pw_field *model_type_fields(pw_dataset *ds, const ross_type *t,
                                         const ross_payload_schema *ps, size_t *n)
{
    *n = t->n_cols + 1 + (ps ? ps->n_fields : 0);
    pw_field *f = pw_ds_alloc(ds, *n * sizeof *f);
    if (!f)
        return NULL;
    for (size_t i = 0; i < t->n_cols; i++)
        f[i] = t->fields[i];
    f[t->n_cols] = (pw_field){"payload", PW_T_BYTES, "B", NULL};
    for (size_t i = 0; ps && i < ps->n_fields; i++)
        f[t->n_cols + 1 + i] = ps->fields[i];
    return f;
}

pw_status ross_schemas_build(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    for (int r = 0; r < ROSS_N_RECS; r++) {
        const ross_type *t = &ross_types[r];
        size_t n = t->n_cols + t->n_tail;
        const pw_field *fields = t->fields;
        if (t->n_tail == 1)
            fields = model_type_fields(ds, t, user_schema(rd, r), &n);
        if (!fields || pw_ds_add_schema(ds, t->name, t->description, t->kind, fields, n) != r)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

static void decode_col(const ross_col *c, const ross_hdr *h, pw_value *v)
{
    const uint8_t *p = h->p;
    v->present = 1;
    switch (c->enc) {
    case 'd': v->v.f = pw_lef64(p + c->off); break;
    case 'f': v->v.f = (double)pw_lef32(p + c->off); break;
    case 'u': v->v.u = pw_le32(p + c->off); break;
    case 'U': v->v.u = pw_le64(p + c->off); break;
    case 'i': v->v.i = (int32_t)pw_le32(p + c->off); break;
    case 'e': /* after 8 u32 (+ the u64 s_process_event in the 48-byte layout) */
        v->v.f = (double)pw_lef32(p + (h->size == ROSS_SAMPLE_HDR + ROSS_LP_BODY ? 64 : 56));
        break;
    default: v->present = 0; break;
    }
}

static const char *const mode_names[] = {"gvt", "rt", "vt"};

void ross_decode(const ross_dataset *rd, const ross_hdr *h, int file_kind, pw_value *values)
{
    const ross_type *t = &ross_types[h->rec];
    for (size_t i = 0; i < t->n_cols; i++)
        decode_col(&t->cols[i], h, &values[i]);
    pw_value *tail = values + t->n_cols;
    if (t->n_tail == 2) {
        const char *mode = mode_names[file_kind <= ROSS_FILE_VT ? file_kind : ROSS_FILE_VT];
        tail[0].present = 1;
        tail[0].v.s.p = mode;
        tail[0].v.s.n = strlen(mode);
        if (h->ts >= ROSS_FINAL_TS) {
            tail[1].present = 1;
            tail[1].v.b = 1;
        }
        return;
    }
    const ross_payload_schema *ps = user_schema(rd, h->rec);
    if (ps && ps->size == h->payload_len) {
        ross_payload_decode(ps, h->p + h->payload_off, tail + 1);
        return;
    }
    if (h->payload_len) {
        tail[0].present = 1;
        tail[0].v.bytes.p = h->p + h->payload_off;
        tail[0].v.bytes.n = h->payload_len;
    }
}
