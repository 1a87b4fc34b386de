/* perfetto_fields.h — the field numbers of Perfetto's trace protos that we
 * write (google/perfetto protos/perfetto/trace/: trace.proto,
 * trace_packet.proto, track_event/track_event.proto, track_descriptor.proto,
 * process_descriptor.proto, thread_descriptor.proto, counter_descriptor.proto,
 * interned_data.proto, clock_snapshot.proto).  tests/convert/perfetto.proto
 * repeats them for protoc --decode. */
#ifndef PW_SINKS_PERFETTO_FIELDS_H
#define PW_SINKS_PERFETTO_FIELDS_H

enum {
    TRACE_PACKET = 1,

    PACKET_CLOCK_SNAPSHOT = 6,
    PACKET_TIMESTAMP = 8,
    PACKET_SEQUENCE_ID = 10, /* trusted_packet_sequence_id */
    PACKET_TRACK_EVENT = 11,
    PACKET_INTERNED_DATA = 12,
    PACKET_SEQUENCE_FLAGS = 13,
    PACKET_TIMESTAMP_CLOCK_ID = 58,
    PACKET_DEFAULTS = 59, /* trace_packet_defaults */
    PACKET_TRACK_DESCRIPTOR = 60,

    SEQ_INCREMENTAL_STATE_CLEARED = 1,

    DEFAULTS_TIMESTAMP_CLOCK_ID = 58,
    DEFAULTS_TRACK_EVENT = 11,
    TRACK_EVENT_DEFAULTS_TRACK_UUID = 11,

    PF_CLOCK_SNAPSHOT_CLOCKS = 1,
    PF_CLOCK_ID = 1,
    PF_CLOCK_TIMESTAMP = 2,
    PF_CLOCK_IS_INCREMENTAL = 3,
    PF_CLOCK_BOOTTIME = 6,
    PF_CLOCK_SEQUENCE_INCREMENTAL = 64, /* the first sequence-scoped clock id */

    TRACK_EVENT_TYPE = 9,
    TRACK_EVENT_NAME_IID = 10,
    TRACK_EVENT_NAME = 23,
    TRACK_EVENT_TRACK_UUID = 11,
    TRACK_EVENT_DOUBLE_COUNTER_VALUE = 44,
    TRACK_EVENT_FLOW_IDS = 47,
    TRACK_EVENT_TERMINATING_FLOW_IDS = 48,
    TYPE_SLICE_BEGIN = 1,
    TYPE_SLICE_END = 2,
    TYPE_INSTANT = 3,
    TYPE_COUNTER = 4,

    INTERNED_EVENT_NAMES = 2,
    EVENT_NAME_IID = 1,
    EVENT_NAME_NAME = 2,

    TRACK_DESC_UUID = 1,
    TRACK_DESC_NAME = 2,
    TRACK_DESC_PROCESS = 3,
    TRACK_DESC_THREAD = 4,
    TRACK_DESC_PARENT_UUID = 5,
    TRACK_DESC_COUNTER = 8,
    PROCESS_PID = 1,
    PROCESS_NAME = 6,
    THREAD_PID = 1,
    THREAD_TID = 2,
    THREAD_NAME = 5,
    COUNTER_UNIT = 3,
    COUNTER_UNIT_COUNT = 2,
    COUNTER_UNIT_NAME = 6
};
#endif
