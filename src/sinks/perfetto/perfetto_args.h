/* perfetto_args.h — a record's fields as the debug annotations of its
 * track event, so the slice's details in the Perfetto UI show what `dump`
 * shows (field numbers: upstream protos/perfetto/trace/track_event/
 * debug_annotation.proto and interned_data.proto).  Field names are
 * interned per packet sequence (DebugAnnotationName); a field with named
 * constants (MPI communicators, datatypes) carries the name; lists are
 * array_values, objects dict_entries (an MPI status); raw bytes (ovni
 * payloads, shown decoded in other fields) are left out. */
#ifndef PW_SINKS_PERFETTO_ARGS_H
#define PW_SINKS_PERFETTO_ARGS_H
#include <stdint.h>

#include "model/dataset.h"
#include "sinks/convert/value_text.h"
#include "sinks/perfetto/pb.h"

/* Lists and objects nest as array_values / dict_entries this deep; deeper
 * ones are text. */
#define PF_ARGS_DEPTH 4

typedef struct pf_args {
    uint32_t **iid;    /* per schema, per field: its name's iid (0: none yet) */
    size_t n_schemas;
    uint32_t n_iids;
    pb_buf level[PF_ARGS_DEPTH]; /* an annotation being built, per nesting level */
    pb_buf name;
    pw_text text;
} pf_args;

/* The interned names of one packet sequence. */
typedef struct pf_args_seq {
    uint8_t *interned; /* per iid: sent on this sequence */
    uint32_t cap;
} pf_args_seq;

int pf_args_init(pf_args *a, const pw_dataset *ds);
void pf_args_free(pf_args *a);
/* Does rec have a field to show? */
int pf_args_any(const pw_record *rec);
/* Appends rec's present fields to the track event `e` (debug_annotations),
 * and the names the sequence lacks to the packet's interned data.  0 when
 * memory runs out. */
int pf_args_add(pf_args *a, pf_args_seq *q, const pw_record *rec, pb_buf *e, pb_buf *packet);
#endif
