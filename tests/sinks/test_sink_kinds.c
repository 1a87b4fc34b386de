/* test_sink_kinds.c — the sink registry against its contract: a sink has
 * exactly one kind (one of its kind pointers set) with the functions that
 * kind calls, a name unique within its kind, and the drivers' lookups (by
 * style, by name, by an output's extension) find the sink meant. */
#include <string.h>

#include "harness.h"
#include "sinks/sink.h"

/* How many of the sink's kind pointers are set. */
static int kinds_set(const pw_sink_ops *k)
{
    return (k->records != NULL) + (k->report != NULL) + (k->convert != NULL) + (k->plot != NULL);
}

/* Whether the sink has every function its kind's driver calls. */
static int has_kind_functions(const pw_sink_ops *k)
{
    if (k->records)
        return k->records->format_record && k->records->field_before && k->records->field_after;
    if (k->report)
        return k->report->render != NULL;
    if (k->convert)
        return k->convert->write && (!k->convert->states_extensions || k->convert->write_states);
    return k->plot->begin && k->plot->end;
}

static void test_one_kind_each(void)
{
    CHECK(pw_n_sinks > 0);
    for (size_t i = 0; i < pw_n_sinks; i++) {
        const pw_sink_ops *k = pw_sinks[i];
        CHECK_EQ_INT(kinds_set(k), 1);
        CHECK(k->name && k->description);
        if (kinds_set(k) == 1)
            CHECK(has_kind_functions(k));
        CHECK_EQ_INT(pw_sink_kind_of(i), pw_sink_kind_of_ops(k));
    }
}

static void test_names_unique_within_kind(void)
{
    for (size_t i = 0; i < pw_n_sinks; i++)
        for (size_t j = i + 1; j < pw_n_sinks; j++)
            CHECK(pw_sink_kind_of(i) != pw_sink_kind_of(j) || strcmp(pw_sink_name(i), pw_sink_name(j)));
}

static void test_lookups(void)
{
    CHECK(pw_sink_records_of(PW_DUMP_TEXT) == pw_sink_find(PW_SINK_RECORDS, "text")->records);
    CHECK(pw_sink_records_of(PW_DUMP_JSONL)->quoted_names);
    CHECK(pw_sink_report_of(PW_REPORT_JSON) == pw_sink_find(PW_SINK_REPORT, "json")->report);
    CHECK(pw_sink_report_of(PW_REPORT_JSON)->live != NULL);
    CHECK(pw_sink_report_of(PW_REPORT_TEXT) != NULL);
    /* "text" of dump and "text" of stats are two sinks */
    CHECK(pw_sink_find(PW_SINK_RECORDS, "text") != pw_sink_find(PW_SINK_REPORT, "text"));
    CHECK(pw_sink_find(PW_SINK_CONVERT, "text") == NULL);
    CHECK_STR(pw_sink_for_path("run.pftrace")->name, "perfetto");
    CHECK_STR(pw_sink_for_path("run.otf2/")->name, "otf2");
    CHECK(pw_sink_for_path("run.jsonl") == NULL); /* a RECORDS sink's extension names no target */
    CHECK(pw_sink_names_states(pw_sink_for_path("run.states.json"), "run.states.json"));
    CHECK(!pw_sink_names_states(pw_sink_for_path("run.json"), "run.json"));
    CHECK(pw_sink_names_states(pw_sink_find(PW_SINK_CONVERT, "paraver"), "states-dir"));
    CHECK(!pw_sink_names_states(pw_sink_find(PW_SINK_CONVERT, "csv"), "states-dir"));
}

TEST_MAIN(T(test_one_kind_each), T(test_names_unique_within_kind), T(test_lookups))
