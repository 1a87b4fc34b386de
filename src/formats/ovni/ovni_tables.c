/* ovni_tables.c — the declarations of the ovni summary's tables. */
#include "formats/ovni/ovni.h"

static const pw_table_decl trace = {
    "trace", "ovni trace", "streams, events and bytes of the whole trace, and its clock range", "one row",
    {{"format", "", 0}, {"version", "", 0}, {"streams", "count", 0}, {"events", "count", 0},
     {"event_bytes", "B", 0}, {"jumbo_events", "count", 0}, {"jumbo_bytes", "B", 0}, {"first_ns", "ns", 0},
     {"last_ns", "ns", 0}, {"span_s", "s", 0}}};

static const pw_table_decl payload_sizes = {
    "payload_sizes", "payload sizes", "events per payload size in bytes (jumbo: a payload of its own size)",
    "size", {{"payload", "", 1}, {"events", "count", 0}}};

static const pw_table_decl per_model = {
    "per_model", "events per model", "events per ovni model (the first letter of the MCV)", "model letter",
    {{"model", "", 1}, {"name", "", 0}, {"events", "count", 0}}};

static const pw_table_decl per_event_type = {
    "per_event_type", "events per type", "events per model-category-value code", "events, most first",
    {{"mcv", "", 1}, {"model", "", 0}, {"events", "count", 0}}};

static const pw_table_decl per_loom = {
    "per_loom", "events per loom", "threads and events per loom (node)", "loom",
    {{"loom", "", 1}, {"threads", "count", 0}, {"events", "count", 0}}};

static const pw_table_decl per_process = {
    "per_process", "events per process", "threads and events per process", "process",
    {{"process", "", 1}, {"threads", "count", 0}, {"events", "count", 0}}};

static const pw_table_decl per_stream = {
    "per_stream", "events per stream", "events, bytes and clock range per thread stream", "stream",
    {{"stream", "", 1}, {"events", "count", 0}, {"bytes", "B", 0}, {"first_ns", "ns", 0}, {"last_ns", "ns", 0},
     {"duration_s", "s", 0}, {"events_per_s", "1/s", 0}}};

const pw_table_decl *const ovni_table_decls[] = {&trace,    &payload_sizes, &per_model,  &per_event_type,
                                                  &per_loom, &per_process,   &per_stream, NULL};
