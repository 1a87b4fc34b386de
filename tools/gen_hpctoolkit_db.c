/* gen_hpctoolkit_db.c — writes a synthetic HPCToolkit database in the
 * released 4.0 format (FORMATS.md): meta.db, profile.db, trace.db and,
 * when small enough to transpose in memory, cct.db.  The bench uses it for
 * large inputs (1000 profiles x 100000 contexts, sparse); examples/ holds a
 * small one.  Everything is deterministic (fixed seed).
 *
 * The tree: context 1 is the entry point "main thread"; context i > 1 has
 * parent (i - 2) / 4 + 1, so children of one node have consecutive ids and
 * are written as one array.  Odd depths are functions (called), even depths
 * source lines or loops (lexical).  Each profile measures a sparse set of
 * contexts ("point" values); "function" (exclusive) values climb lexical
 * edges up to the enclosing function, "execution" (inclusive) values climb
 * to the root; the summary profile holds their sums.
 *
 * usage: gen_hpctoolkit_db OUTDIR PROFILES CONTEXTS [VALUES_PER_PROFILE [SAMPLES]] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define N_FUNCS 64
#define METRIC_POINT 0
#define METRIC_FUNCTION 1
#define METRIC_EXECUTION 2
#define N_METRICS 3

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "gen_hpctoolkit_db: out of memory\n");
        exit(3);
    }
    return q;
}

static size_t put(buf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    if (src)
        memcpy(b->p + b->n, src, n);
    else
        memset(b->p + b->n, 0, n);
    b->n += n;
    return b->n - n;
}
static void align(buf *b, size_t a) { put(b, NULL, (a - b->n % a) % a); }
static void le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void le32(uint8_t *p, uint32_t v) { le16(p, (uint16_t)v), le16(p + 2, (uint16_t)(v >> 16)); }
static void le64(uint8_t *p, uint64_t v) { le32(p, (uint32_t)v), le32(p + 4, (uint32_t)(v >> 32)); }
static void lef64(uint8_t *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    le64(p, u);
}
static size_t put_str(buf *b, const char *s) { return put(b, s, strlen(s) + 1); }

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* ---- the tree ------------------------------------------------------------ */
static uint32_t n_ctx;          /* ids 0 .. n_ctx (0 = global, 1 = entry) */
static uint32_t parent_of(uint32_t id) { return id <= 1 ? 0 : (id - 2) / 4 + 1; }
static uint32_t depth_of(uint32_t id)
{
    uint32_t d = 0;
    while (id > 1)
        id = parent_of(id), d++;
    return d;
}
static int is_function(uint32_t id) { return id > 1 && depth_of(id) % 2 == 1; }
static int is_loop(uint32_t id) { return id > 1 && !is_function(id) && id % 7 == 0; }
static const char *const func_names[8] = {"main", "solve", "exchange_halo", "MPI_Send",
                                          "MPI_Recv", "compute_flux", "update", "reduce"};

static void header(buf *b, const char *fmt, int n_sections)
{
    put(b, "HPCTOOLKIT", 10);
    put(b, fmt, 4);
    uint8_t v[2] = {4, 0};
    put(b, v, 2);
    put(b, NULL, 16 * (size_t)n_sections);
}
static void set_section(buf *b, int i, uint64_t size, uint64_t ptr)
{
    le64(b->p + 0x10 + 16 * i, size);
    le64(b->p + 0x18 + 16 * i, ptr);
}

static void write_file(const char *dir, const char *name, const buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
        fprintf(stderr, "gen_hpctoolkit_db: cannot write %s\n", path);
        exit(3);
    }
}

/* meta.db: sections General, IdNames, Metrics, Context, Strings, Modules,
 * Files, Functions (in this order in the file). */
static void write_meta(const char *dir)
{
    buf b = {0};
    header(&b, "meta", 8);
    align(&b, 8);
    /* General */
    uint64_t g = put(&b, NULL, 16);
    uint64_t t = put_str(&b, "perfweave synthetic database");
    uint64_t d = put_str(&b, "Written by tools/gen_hpctoolkit_db.c");
    le64(b.p + g, t), le64(b.p + g + 8, d);
    set_section(&b, 0, b.n - g, g);
    /* IdNames */
    align(&b, 8);
    static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD", "GPUDEVICE",
                                        "GPUCONTEXT", "GPUSTREAM", "CORE"};
    uint64_t in = put(&b, NULL, 16), arr = put(&b, NULL, 8 * 8);
    le64(b.p + in, arr);
    b.p[in + 8] = 8;
    for (int i = 0; i < 8; i++)
        le64(b.p + arr + 8 * i, put_str(&b, kinds[i]));
    set_section(&b, 1, b.n - in, in);
    /* Metrics: one metric, scopes point / function / execution */
    align(&b, 8);
    uint64_t ms = put(&b, NULL, 0x20), scopes = put(&b, NULL, 3 * 16);
    uint64_t md = put(&b, NULL, 0x20), insts = put(&b, NULL, 3 * 16), sums = put(&b, NULL, 3 * 24);
    le64(b.p + ms, md), le32(b.p + ms + 8, 1);
    b.p[ms + 0xc] = 0x20, b.p[ms + 0xd] = 16, b.p[ms + 0xe] = 24;
    le64(b.p + ms + 0x10, scopes), le16(b.p + ms + 0x18, 3), b.p[ms + 0x1a] = 16;
    static const char *const sn[3] = {"point", "function", "execution"};
    static const uint8_t st[3] = {1, 3, 2};
    for (int i = 0; i < 3; i++) {
        uint64_t name = put_str(&b, sn[i]);
        le64(b.p + scopes + 16 * i, name);
        b.p[scopes + 16 * i + 8] = st[i];
        b.p[scopes + 16 * i + 9] = i == 1 ? 0 : 255;
        le64(b.p + insts + 16 * i, scopes + 16 * i), le16(b.p + insts + 16 * i + 8, (uint16_t)i);
        le64(b.p + sums + 24 * i, scopes + 16 * i);
        le64(b.p + sums + 24 * i + 8, put_str(&b, "$$"));
        b.p[sums + 24 * i + 0x10] = 0;
        le16(b.p + sums + 24 * i + 0x12, (uint16_t)i);
    }
    le64(b.p + md, put_str(&b, "CPUTIME (sec)"));
    le64(b.p + md + 8, insts), le64(b.p + md + 0x10, sums);
    le16(b.p + md + 0x18, 3), le16(b.p + md + 0x1a, 3);
    set_section(&b, 2, b.n - ms, ms);
    /* Strings */
    uint64_t strs = b.n;
    uint64_t mod_path = put_str(&b, "/opt/perfweave/bin/synthetic-app");
    uint64_t file_path = put_str(&b, "src/synthetic.c");
    uint64_t entry_name = put_str(&b, "main thread");
    uint64_t fname[N_FUNCS];
    for (int i = 0; i < N_FUNCS; i++) {
        char s[64];
        if (i < 8)
            snprintf(s, sizeof s, "%s", func_names[i]);
        else
            snprintf(s, sizeof s, "kernel_%02d", i);
        fname[i] = put_str(&b, s);
    }
    set_section(&b, 4, b.n - strs, strs);
    /* Modules, Files, Functions */
    align(&b, 8);
    uint64_t mods = put(&b, NULL, 16), mod = put(&b, NULL, 16);
    le64(b.p + mods, mod), le32(b.p + mods + 8, 1), le16(b.p + mods + 0xc, 16);
    le64(b.p + mod + 8, mod_path);
    set_section(&b, 5, b.n - mods, mods);
    uint64_t files = put(&b, NULL, 16), file = put(&b, NULL, 16);
    le64(b.p + files, file), le32(b.p + files + 8, 1), le16(b.p + files + 0xc, 16);
    le64(b.p + file + 8, file_path);
    set_section(&b, 6, b.n - files, files);
    uint64_t fs = put(&b, NULL, 16), funcs = put(&b, NULL, 40 * N_FUNCS);
    le64(b.p + fs, funcs), le32(b.p + fs + 8, N_FUNCS), le16(b.p + fs + 0xc, 40);
    for (int i = 0; i < N_FUNCS; i++) {
        uint8_t *f = b.p + funcs + 40 * i;
        le64(f, fname[i]), le64(f + 8, mod), le64(f + 0x10, 0x1000 + 64u * (unsigned)i);
        le64(f + 0x18, file), le32(f + 0x20, 10 + 20u * (unsigned)i);
    }
    set_section(&b, 7, b.n - fs, fs);
    /* Context tree: the entry point, then every context in id order, so the
     * children of a node are consecutive. */
    align(&b, 8);
    uint64_t cs = put(&b, NULL, 16), entry = put(&b, NULL, 0x20);
    le64(b.p + cs, entry), le16(b.p + cs + 8, 1), b.p[cs + 0xa] = 0x20;
    uint64_t *off = xrealloc(NULL, ((size_t)n_ctx + 2) * sizeof *off);
    for (uint32_t id = 2; id <= n_ctx; id++) {
        int fn = is_function(id);
        uint8_t words = fn ? 1 : is_loop(id) ? 4 : 2;
        off[id] = put(&b, NULL, 0x20 + 8u * words);
        uint8_t *c = b.p + off[id];
        le32(c + 0x10, id);
        c[0x14] = fn ? 1 : is_loop(id) ? 6 : 2;       /* hasFunction / hasSrcLoc (+hasPoint) */
        c[0x15] = fn ? 1 : 0;                          /* call / lexical */
        c[0x16] = fn ? 0 : is_loop(id) ? 1 : 2;        /* function / loop / line */
        c[0x17] = words;
        le16(c + 0x18, fn ? 0 : 1);
        if (fn) {
            le64(c + 0x20, funcs + 40ull * (id % N_FUNCS));
        } else {
            le64(c + 0x20, file), le32(c + 0x28, 100 + id % 900);
            if (is_loop(id))
                le64(c + 0x30, mod), le64(c + 0x38, 0x2000 + id);
        }
    }
    for (uint32_t id = 1; id <= n_ctx; id++) {
        uint32_t first = 4 * (id - 1) + 2, last = first + 3;
        if (first > n_ctx)
            continue;
        if (last > n_ctx)
            last = n_ctx;
        uint64_t end = last < n_ctx ? off[last + 1] : b.n;
        uint8_t *holder = id == 1 ? b.p + entry : b.p + off[id];
        le64(holder, end - off[first]), le64(holder + 8, off[first]);
    }
    le32(b.p + entry + 0x10, 1), le16(b.p + entry + 0x14, 1), le64(b.p + entry + 0x18, entry_name);
    set_section(&b, 3, b.n - cs, cs);
    put(&b, "_meta.db", 8);
    write_file(dir, "meta.db", &b);
    free(off);
    free(b.p);
}

/* ---- values ---------------------------------------------------------------- */
/* Non-summary values kept for cct.db (only when it is written). */
typedef struct cct_value {
    uint32_t ctx, prof;
    uint16_t metric;
    double v;
} cct_value;
static cct_value *cct_values;
static size_t n_cct_values, cap_cct_values;
static int keep_cct;

typedef struct profile_values {
    double *v[N_METRICS];        /* dense scratch per metric, reset via touched */
    uint32_t *touched;
    uint32_t n_touched;
    uint8_t *mark;
} profile_values;

static void touch(profile_values *pv, uint32_t id)
{
    if (!pv->mark[id]) {
        pv->mark[id] = 1;
        pv->touched[pv->n_touched++] = id;
    }
}

/* One measurement at context id: point there, function up lexical edges,
 * execution up to the root (context 0 included). */
static void measure(profile_values *pv, uint32_t id, double x)
{
    touch(pv, id);
    pv->v[METRIC_POINT][id] += x;
    for (uint32_t a = id;; a = parent_of(a)) {
        touch(pv, a);
        pv->v[METRIC_EXECUTION][a] += x;
        if (a == 0)
            break;
    }
    for (uint32_t a = id; a > 1; a = parent_of(a)) {
        pv->v[METRIC_FUNCTION][a] += x;
        if (is_function(a))
            break;
    }
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

typedef struct block {
    uint64_t n_values, p_values, p_index;
    uint32_t n_ctxs;
} block;

/* Writes the sparse block of the touched contexts and clears the scratch. */
static block write_block(buf *b, profile_values *pv, uint32_t prof)
{
    qsort(pv->touched, pv->n_touched, sizeof *pv->touched, by_u32);
    block bl = {0, 0, 0, 0};
    align(b, 8);
    bl.p_values = b->n;
    uint64_t *starts = xrealloc(NULL, (pv->n_touched + 1) * sizeof *starts);
    uint32_t n = 0;
    for (uint32_t i = 0; i < pv->n_touched; i++) {
        uint32_t id = pv->touched[i];
        uint64_t first = bl.n_values;
        for (int m = 0; m < N_METRICS; m++) {
            double x = pv->v[m][id];
            if (x == 0)
                continue;
            uint8_t rec[10];
            le16(rec, (uint16_t)m), lef64(rec + 2, x);
            put(b, rec, 10);
            bl.n_values++;
            if (keep_cct && prof > 0) {
                if (n_cct_values == cap_cct_values) {
                    cap_cct_values = cap_cct_values ? 2 * cap_cct_values : 4096;
                    cct_values = xrealloc(cct_values, cap_cct_values * sizeof *cct_values);
                }
                cct_values[n_cct_values++] = (cct_value){id, prof, (uint16_t)m, x};
            }
        }
        if (bl.n_values > first) {
            pv->touched[n] = id;
            starts[n++] = first;
        }
    }
    align(b, 4);
    bl.p_index = b->n;
    bl.n_ctxs = n;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t rec[12];
        le32(rec, pv->touched[i]), le64(rec + 4, starts[i]);
        put(b, rec, 12);
    }
    for (uint32_t i = 0; i < n; i++) /* contexts without values hold zeros already */
        for (int m = 0; m < N_METRICS; m++)
            pv->v[m][pv->touched[i]] = 0;
    memset(pv->mark, 0, (size_t)n_ctx + 1);
    pv->n_touched = 0;
    free(starts);
    return bl;
}

/* profile.db: header, ProfileInfos, IdTuples, then the blocks; profile 0
 * (the summary, sums of all others) is written last. */
static void write_profiles(const char *dir, uint32_t n_prof, uint32_t per_profile,
                           uint32_t samples, uint32_t **trace_ctx)
{
    uint32_t total = n_prof + 1;
    buf b = {0};
    header(&b, "prof", 2);
    align(&b, 8);
    uint64_t pis = put(&b, NULL, 16), pi = put(&b, NULL, 0x30 * (size_t)total);
    le64(b.p + pis, pi), le32(b.p + pis + 8, total), b.p[pis + 0xc] = 0x30;
    set_section(&b, 0, b.n - pis, pis);
    uint64_t its = b.n;
    for (uint32_t p = 1; p < total; p++) {
        uint64_t t = put(&b, NULL, 8 + 3 * 16);
        le16(b.p + t, 3);
        uint8_t *id = b.p + t + 8;
        uint32_t rank = p - 1;
        id[0] = 1, le16(id + 2, 1), le32(id + 4, rank / 16), le64(id + 8, 0x7f000000u + rank / 16);
        id[16] = 2, le32(id + 20, rank), le64(id + 24, rank);
        id[32] = 3, le32(id + 36, 0), le64(id + 40, 0);
        le64(b.p + pi + 0x30 * (uint64_t)p + 0x20, t);
    }
    set_section(&b, 1, b.n - its, its);
    profile_values pv = {{0}, NULL, 0, NULL}, sum = {{0}, NULL, 0, NULL};
    for (int m = 0; m < N_METRICS; m++) {
        pv.v[m] = calloc((size_t)n_ctx + 1, sizeof(double));
        sum.v[m] = calloc((size_t)n_ctx + 1, sizeof(double));
    }
    pv.touched = xrealloc(NULL, ((size_t)n_ctx + 1) * sizeof *pv.touched);
    sum.touched = xrealloc(NULL, ((size_t)n_ctx + 1) * sizeof *sum.touched);
    pv.mark = calloc((size_t)n_ctx + 1, 1);
    sum.mark = calloc((size_t)n_ctx + 1, 1);
    for (uint32_t p = 1; p < total; p++) {
        /* measurements at random contexts; the trace samples some of them */
        for (uint32_t k = 0; k < per_profile; k++) {
            uint32_t id = 2 + (uint32_t)(next_rand() % (n_ctx - 1));
            double x = (double)(1 + next_rand() % 1000) / 1000.0;
            measure(&pv, id, x);
            if (k < samples)
                trace_ctx[p - 1][k] = id;
        }
        for (uint32_t i = 0; i < pv.n_touched; i++) {
            uint32_t id = pv.touched[i];
            touch(&sum, id);
            for (int m = 0; m < N_METRICS; m++)
                sum.v[m][id] += pv.v[m][id];
        }
        block bl = write_block(&b, &pv, p);
        uint8_t *rec = b.p + pi + 0x30 * (uint64_t)p;
        le64(rec, bl.n_values), le64(rec + 8, bl.p_values);
        le32(rec + 0x10, bl.n_ctxs), le64(rec + 0x18, bl.p_index);
    }
    block bl = write_block(&b, &sum, 0);
    le64(b.p + pi, bl.n_values), le64(b.p + pi + 8, bl.p_values);
    le32(b.p + pi + 0x10, bl.n_ctxs), le64(b.p + pi + 0x18, bl.p_index);
    le32(b.p + pi + 0x28, 1); /* isSummary */
    put(&b, "_prof.db", 8);
    write_file(dir, "profile.db", &b);
    for (int m = 0; m < N_METRICS; m++)
        free(pv.v[m]), free(sum.v[m]);
    free(pv.touched), free(sum.touched), free(pv.mark), free(sum.mark), free(b.p);
}

static int by_ctx_metric_prof(const void *a, const void *b)
{
    const cct_value *x = a, *y = b;
    if (x->ctx != y->ctx)
        return x->ctx < y->ctx ? -1 : 1;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    return (x->prof > y->prof) - (x->prof < y->prof);
}

/* cct.db: the same values, context-major. */
static void write_cct(const char *dir)
{
    qsort(cct_values, n_cct_values, sizeof *cct_values, by_ctx_metric_prof);
    buf b = {0};
    header(&b, "ctxt", 1);
    align(&b, 8);
    uint32_t n = n_ctx + 1;
    uint64_t cs = put(&b, NULL, 16), ci = put(&b, NULL, 0x20 * (size_t)n);
    le64(b.p + cs, ci), le32(b.p + cs + 8, n), b.p[cs + 0xc] = 0x20;
    set_section(&b, 0, b.n - cs, cs);
    size_t i = 0;
    for (uint32_t c = 0; c < n; c++) {
        size_t first = i;
        while (i < n_cct_values && cct_values[i].ctx == c)
            i++;
        if (i == first)
            continue;
        align(&b, 8);
        uint64_t pv = b.n;
        for (size_t k = first; k < i; k++) {
            uint8_t rec[12];
            le32(rec, cct_values[k].prof), lef64(rec + 4, cct_values[k].v);
            put(&b, rec, 12);
        }
        align(&b, 2);
        uint64_t pm = b.n;
        uint16_t nm = 0;
        for (size_t k = first; k < i; k++)
            if (k == first || cct_values[k].metric != cct_values[k - 1].metric) {
                uint8_t rec[10];
                le16(rec, cct_values[k].metric), le64(rec + 2, k - first);
                put(&b, rec, 10);
                nm++;
            }
        uint8_t *rec = b.p + ci + 0x20 * (uint64_t)c;
        le64(rec, i - first), le64(rec + 8, pv), le16(rec + 0x10, nm), le64(rec + 0x18, pm);
    }
    put(&b, "__ctx.db", 8);
    write_file(dir, "cct.db", &b);
    free(b.p);
}

/* trace.db: per profile, samples 1 ms apart (plus jitter) at the contexts
 * the profile measured, each held for a few samples. */
static void write_traces(const char *dir, uint32_t n_prof, uint32_t samples, uint32_t **trace_ctx)
{
    buf b = {0};
    header(&b, "trce", 1);
    align(&b, 8);
    uint64_t ts = put(&b, NULL, 0x20), th = put(&b, NULL, 24 * (size_t)n_prof);
    le64(b.p + ts, th), le32(b.p + ts + 8, n_prof), b.p[ts + 0xc] = 24;
    set_section(&b, 0, b.n - ts, ts);
    const uint64_t t0 = 1700000000000000000ull;
    uint64_t tmin = UINT64_MAX, tmax = 0;
    for (uint32_t p = 0; p < n_prof; p++) {
        align(&b, 8);
        uint64_t start = b.n, t = t0 + p * 1000ull;
        for (uint32_t k = 0; k < samples; k++) {
            uint8_t rec[12];
            t += 1000000 + next_rand() % 1000;
            le64(rec, t), le32(rec + 8, trace_ctx[p][k / 4 % (samples ? samples : 1)]);
            put(&b, rec, 12);
            tmin = t < tmin ? t : tmin;
            tmax = t > tmax ? t : tmax;
        }
        uint8_t *h = b.p + th + 24ull * p;
        le32(h, p + 1), le64(h + 8, start), le64(h + 0x10, b.n);
    }
    le64(b.p + ts + 0x10, samples ? tmin : 0), le64(b.p + ts + 0x18, samples ? tmax : 0);
    put(&b, "trace.db", 8);
    write_file(dir, "trace.db", &b);
    free(b.p);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: gen_hpctoolkit_db OUTDIR PROFILES CONTEXTS [VALUES_PER_PROFILE [SAMPLES]]\n");
        return 2;
    }
    const char *dir = argv[1];
    uint32_t n_prof = (uint32_t)strtoul(argv[2], NULL, 10);
    n_ctx = (uint32_t)strtoul(argv[3], NULL, 10);
    uint32_t per = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 100;
    uint32_t samples = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 10) : 200;
    if (n_prof < 1 || n_ctx < 2 || n_ctx > 50000000 || per < 1) {
        fprintf(stderr, "gen_hpctoolkit_db: PROFILES >= 1, 2 <= CONTEXTS <= 5e7, VALUES >= 1\n");
        return 2;
    }
    if (samples > per)
        samples = per;
    mkdir(dir, 0755);
    keep_cct = (uint64_t)n_prof * per < 2000000;
    uint32_t **trace_ctx = xrealloc(NULL, n_prof * sizeof *trace_ctx);
    for (uint32_t p = 0; p < n_prof; p++)
        trace_ctx[p] = calloc(samples ? samples : 1, sizeof **trace_ctx);
    write_meta(dir);
    write_profiles(dir, n_prof, per, samples, trace_ctx);
    if (keep_cct)
        write_cct(dir);
    write_traces(dir, n_prof, samples, trace_ctx);
    for (uint32_t p = 0; p < n_prof; p++)
        free(trace_ctx[p]);
    free(trace_ctx);
    free(cct_values);
    return 0;
}
