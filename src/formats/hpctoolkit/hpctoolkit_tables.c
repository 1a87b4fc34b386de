/* hpctoolkit_tables.c — the declarations of the HPCToolkit summary's
 * tables.  Metric columns are named after the database's metrics
 * ("cycles (I)", "CPUTIME (usec) (E %)") and keep its units. */
#include "formats/hpctoolkit/hpctoolkit.h"

static const pw_table_decl database = {
    "database", "HPCToolkit database",
    "the database, its contexts, profiles and traces, and the top-down total of the first metric", "one row",
    {{"path", "", 0}, {"format", "", 0}, {"contexts", "count", 0}, {"profiles", "count", 0},
     {"traces", "count", 0}, {"total", "", 0}, {"metric", "", 0}}};

static const pw_table_decl summary = {
    "summary", "hot path", "from the root down the child of largest inclusive value of the first metric",
    "depth", {{"depth", "", 1}, {"name", "", 0}, {"inclusive", "", 0}, {"inclusive_pct", "%", 0}}};

static const pw_table_decl metrics = {
    "metrics", "metrics", "the metrics of the profiles and of the summary profile", "database order",
    {{"id", "", 1}, {"in", "", 1}, {"name", "", 0}, {"scope", "", 0}, {"combine", "", 0}}};

static const pw_table_decl profiles = {
    "profiles", "profiles", "values, contexts and trace samples per profile (thread, rank, GPU stream)", "index",
    {{"index", "", 1}, {"profile", "", 0}, {"values", "count", 0}, {"contexts", "count", 0},
     {"trace_samples", "count", 0}}};

static const pw_table_decl top_down = {
    "top_down", "top-down tree", "the calling context tree of the summary profile, the hot path first",
    "depth first, siblings by inclusive value of the first metric, largest first",
    {{"id", "", 1}, {"name", "", 0}, {"depth", "", 0}, {"parent", "", 0}, {"kind", "", 0}, {"*", "", PW_TABLE_TREE_COST}}};

static const pw_table_decl flat = {
    "flat", "flat view", "inclusive and exclusive value of the first metric per procedure",
    "exclusive value, largest first", {{"procedure", "", 1}, {"module", "", 0}, {"*", "", 0}}};

static const pw_table_decl bottom_up = {
    "bottom_up", "bottom-up view", "the callers of the top procedures, by exclusive value",
    "procedure by exclusive value, then caller by exclusive value",
    {{"procedure", "", 1}, {"caller", "", 1}, {"*", "", 0}}};

static const pw_table_decl imbalance = {
    "imbalance", "imbalance across profiles",
    "min, mean and max over the profiles of the top procedures' exclusive value", "procedure by exclusive value",
    {{"procedure", "", 1}, {"profiles", "count", 0}, {"min", "", 0}, {"mean", "", 0}, {"max", "", 0},
     {"imbalance_pct", "%", 0}}};

static const pw_table_decl trace_lines = {
    "trace_lines", "trace lines", "samples and time span per traced profile", "database order",
    {{"profile", "", 1}, {"samples", "count", 0}, {"first_ns", "ns", 0}, {"last_ns", "ns", 0}, {"span_s", "s", 0}}};

static const pw_table_decl trace_time = {
    "trace_time", "time per procedure from traces", "time the trace samples spend in each procedure",
    "time, largest first", {{"procedure", "", 1}, {"time_s", "s", 0}, {"share_pct", "%", 0}}};

static const pw_table_decl lookup_of = {
    "lookup_of", "looked-up context", "the context and profile --lookup names", "one row",
    {{"context", "", 0}, {"profile", "", 0}}};

static const pw_table_decl lookup = {
    "lookup", "values of the looked-up context", "every metric value of one context in one profile",
    "metric", {{"metric", "", 1}, {"name", "", 0}, {"scope", "", 0}, {"value", "", 0}}};

const pw_table_decl *const hpc_table_decls[] = {&summary, &database,  &metrics,     &profiles,   &top_down,
                                                 &flat,      &bottom_up,   &imbalance,  &trace_lines,
                                                 &trace_time, &lookup_of,  &lookup,     NULL};
