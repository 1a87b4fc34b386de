/* ross_record.c — recognising one record at a file offset, for every file
 * kind (ross-facts.md §2-6).  Shared by the open-time walk, the cursors and
 * stats, so all of them agree on what is a record and what is damage. */
#include "core/bytes.h"
#include "formats/ross/ross.h"

static pw_status truncated(pw_window *w, uint64_t off, size_t need, const char *what,
                           const char **code, pw_error *err)
{
    *code = "ross.truncated-record";
    return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                   "%s of %zu bytes expected, only %llu left in the file", what, need,
                   (unsigned long long)pw_window_left(w, off));
}

/* Header-only checks: the whole record is inside the file. */
static pw_status fits(pw_window *w, uint64_t off, size_t size)
{
    return size <= pw_window_left(w, off) ? PW_OK : PW_E_DATA;
}

/* The bytes [off, off+n): PW_END becomes a truncation error. */
static pw_status need(pw_window *w, uint64_t off, size_t n, const char *what, const uint8_t **p,
                      const char **code, pw_error *err)
{
    pw_status st = pw_window_need(w, off, n, p, err);
    if (st == PW_END)
        return truncated(w, off, n, what, code, err);
    return st;
}

/* The body size an engine record of `flag` must have (0: not an engine
 * flag).  LP bodies are 48 bytes since Dec 2023, 36 before; a forced layout
 * accepts only its own size. */
static int engine_body(int32_t flag, int32_t sz, int lp_forced)
{
    switch (flag) {
    case 0: return sz == ROSS_PE_BODY ? sz : 0;
    case 1: return sz == ROSS_KP_BODY ? sz : 0;
    case 2:
        if (lp_forced)
            return sz == lp_forced ? sz : 0;
        return sz == ROSS_LP_BODY || sz == ROSS_LP_BODY_OLD ? sz : 0;
    default: return 0;
    }
}

static pw_status engine_record(pw_window *w, uint64_t off, const uint8_t *p, int vt, int lp_forced,
                               int header_only, ross_hdr *h, const char **code, pw_error *err)
{
    int32_t flag = (int32_t)pw_le32(p), sz = (int32_t)pw_le32(p + 4);
    int body = engine_body(flag, sz, lp_forced);
    if (!body) {
        *code = "ross.bad-sample-header";
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                       "sample flag %d with sample_sz %d: a PE (0, 104), KP (1, 44) or LP "
                       "(2, %s) sample header expected",
                       flag, sz, lp_forced == 36 ? "36" : lp_forced == 48 ? "48" : "48 or 36");
    }
    h->size = ROSS_SAMPLE_HDR + (size_t)body;
    if (header_only)
        return fits(w, off, h->size);
    pw_status st = need(w, off, h->size, "sample", &p, code, err);
    if (st != PW_OK)
        return st;
    h->rec = (ross_rec)((vt ? ROSS_REC_VT_PE : ROSS_REC_PE) + flag);
    h->ts = pw_lef64(p + 8);
    h->peid = pw_le32(p + 24);
    h->kpid = flag >= 1 ? pw_le32(p + 28) : 0;
    h->lpid = flag == 2 ? pw_le32(p + 32) : 0;
    h->payload_off = h->payload_len = 0;
    h->p = p;
    return PW_OK;
}

static pw_status model_record(pw_window *w, uint64_t off, int header_only, ross_hdr *h,
                              const char **code, pw_error *err)
{
    const uint8_t *p;
    pw_status st = need(w, off, ROSS_SAMPLE_HDR + ROSS_MODEL_META, "model sample header", &p, code, err);
    if (st != PW_OK)
        return st;
    int32_t flag = (int32_t)pw_le32(p), sz = (int32_t)pw_le32(p + 4);
    int32_t stats_type = (int32_t)pw_le32(p + 40);
    uint32_t model_sz = pw_le32(p + 44);
    if (flag != 3 || sz != ROSS_MODEL_META || (stats_type != 1 && stats_type != 2) ||
        model_sz > ROSS_MAX_PAYLOAD) {
        *code = "ross.bad-model-header";
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                       "model sample header (flag 3, sample_sz 24, stats_type 1 or 2, model_sz "
                       "<= 16 MiB) expected, found flag %d, sample_sz %d, stats_type %d, model_sz %u",
                       flag, sz, stats_type, model_sz);
    }
    h->size = ROSS_SAMPLE_HDR + ROSS_MODEL_META + model_sz;
    if (header_only)
        return fits(w, off, h->size);
    st = need(w, off, h->size, "model sample", &p, code, err);
    if (st != PW_OK)
        return st;
    h->rec = ROSS_REC_MODEL;
    h->ts = pw_lef64(p + 8);
    h->peid = pw_le32(p + 24);
    h->kpid = pw_le32(p + 28);
    h->lpid = pw_le32(p + 32);
    h->payload_off = ROSS_SAMPLE_HDR + ROSS_MODEL_META;
    h->payload_len = model_sz;
    h->p = p;
    return PW_OK;
}

/* The 48-byte lp_metadata of VT model records: u64 lpid, kpid, peid, f64 ts,
 * f64 real_time (never set), i32 sample_sz (payload), i32 flag = 3. */
static pw_status vt_model_record(pw_window *w, uint64_t off, int header_only, ross_hdr *h,
                                 const char **code, pw_error *err)
{
    const uint8_t *p;
    pw_status st = need(w, off, ROSS_LP_METADATA, "sample header", &p, code, err);
    if (st != PW_OK)
        return st;
    int32_t sz = (int32_t)pw_le32(p + 40), flag = (int32_t)pw_le32(p + 44);
    if (flag != 3 || sz < 0 || (size_t)sz > ROSS_MAX_PAYLOAD) {
        *code = "ross.bad-sample-header";
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                       "an engine sample header (flag 0/1/2 with its body size) or a model "
                       "lp_metadata (flag 3 at +44, payload size 0..16 MiB at +40) expected; "
                       "found %d, %d at +0 and %d, %d at +40",
                       (int32_t)pw_le32(p), (int32_t)pw_le32(p + 4), sz, flag);
    }
    h->size = ROSS_LP_METADATA + (size_t)sz;
    if (header_only)
        return fits(w, off, h->size);
    st = need(w, off, h->size, "model sample", &p, code, err);
    if (st != PW_OK)
        return st;
    h->rec = ROSS_REC_VT_MODEL;
    h->lpid = pw_le64(p);
    h->kpid = pw_le64(p + 8);
    h->peid = pw_le64(p + 16);
    h->ts = pw_lef64(p + 24);
    h->payload_off = ROSS_LP_METADATA;
    h->payload_len = (size_t)sz;
    h->p = p;
    return PW_OK;
}

static pw_status event_record(pw_window *w, uint64_t off, int header_only, ross_hdr *h,
                              const char **code, pw_error *err)
{
    const uint8_t *p;
    pw_status st = need(w, off, ROSS_EVENT_HDR, "event record", &p, code, err);
    if (st != PW_OK)
        return st;
    uint32_t sz = pw_le32(p + 20);
    if (sz > ROSS_MAX_PAYLOAD) {
        *code = "ross.bad-event-size";
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off + 20,
                       "event model_data_sz <= 16 MiB expected, found %u", sz);
    }
    h->size = ROSS_EVENT_HDR + sz;
    if (header_only)
        return fits(w, off, h->size);
    st = need(w, off, h->size, "event record", &p, code, err);
    if (st != PW_OK)
        return st;
    h->rec = ROSS_REC_EVTRACE;
    h->lpid = pw_le32(p);
    h->peid = h->kpid = 0;
    h->ts = pw_lef32(p + 12); /* recv_vts: when the event is processed */
    h->payload_off = ROSS_EVENT_HDR;
    h->payload_len = sz;
    h->p = p;
    return PW_OK;
}

static pw_status record_at(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off,
                           int header_only, ross_hdr *h, const char **code, pw_error *err)
{
    if (pw_window_left(w, off) == 0)
        return PW_END;
    if (kind == ROSS_FILE_EVTRACE)
        return event_record(w, off, header_only, h, code, err);
    if (kind == ROSS_FILE_MODEL)
        return model_record(w, off, header_only, h, code, err);
    const uint8_t *p;
    pw_status st = need(w, off, 8, "sample header", &p, code, err);
    if (st != PW_OK)
        return st;
    int vt = kind == ROSS_FILE_VT;
    if (vt && !engine_body((int32_t)pw_le32(p), (int32_t)pw_le32(p + 4), lp_forced))
        return vt_model_record(w, off, header_only, h, code, err);
    return engine_record(w, off, p, vt, lp_forced, header_only, h, code, err);
}

pw_status ross_record_at(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off,
                         ross_hdr *h, const char **code, pw_error *err)
{
    return record_at(w, kind, lp_forced, off, 0, h, code, err);
}

int ross_record_fits(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off, size_t *size)
{
    ross_hdr h;
    const char *code;
    /* No message: resync tries every offset, and formatting one per try
     * cost more than the tries themselves. */
    if (record_at(w, kind, lp_forced, off, 1, &h, &code, NULL) != PW_OK)
        return 0;
    *size = h.size;
    return 1;
}
