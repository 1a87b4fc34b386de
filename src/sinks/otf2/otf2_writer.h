/* otf2_writer.h — the state of the OTF2 writer (otf2_write.c) while it
 * draws, shared with the unification of the definitions of processes
 * that each drew their share alone (otf2_unify.c). */
#ifndef PW_SINKS_OTF2_WRITER_H
#define PW_SINKS_OTF2_WRITER_H
#include <otf2/otf2.h>

#include "views/timeline.h"
#include "sinks/otf2/otf2_call_metrics.h"
#include "sinks/otf2/otf2_mpi.h"

typedef struct ot_loc {
    OTF2_EvtWriter *w;
    uint32_t track;     /* the track it draws (thread or child) */
    uint32_t group;     /* location group = process track's index */
    uint32_t ds_loc;    /* the dataset location it belongs to */
    uint64_t events;
    int64_t last_t;
    int done;           /* its dataset location was drawn (writer closed, if any) */
    struct ot_open {
        uint32_t region;
        pw_mpi_call call; /* op PW_COLL_NONE: not a collective */
        ot_metric_values end; /* the call's metrics at its Leave */
    } *stack;           /* the open slices */
    size_t n_stack, cap_stack;
} ot_loc;

typedef struct ot_writer {
    pw_dataset *ds;
    uint8_t *drawn; /* per dataset location: it has a thread track */
    OTF2_Archive *archive;
    const char *path;
    struct ot_track {
        uint32_t loc;   /* thread/child: its location index + 1; counter: its metric + 1 */
        uint32_t owner; /* counter: the thread track it belongs to */
        uint32_t name;
        pw_tl_track_kind kind;
        const char *unit;
    } *tracks;          /* per track id */
    uint32_t cap_tracks, n_tracks_seen;
    ot_loc *locs;
    uint32_t n_locs, cap_locs;
    uint32_t n_metrics;
    uint32_t *region_of; /* per name id: region ref + 1, dense in first use */
    uint32_t cap_regions, n_regions;
    uint32_t *region_names; /* per region ref: its name id */
    uint32_t cap_region_names;
    struct ot_region_kind {
        OTF2_Paradigm paradigm;
        OTF2_RegionRole role;
    } *region_kinds; /* per region ref */
    uint32_t cap_region_kinds;
    uint32_t n_groups;
    int64_t t_min, t_max;
    int any_time;
    uint64_t raised;
    ot_mpi mpi;
    ot_call_metrics call_metrics;
    pw_mpi_calls calls;
    int closed;         /* event writers closed */
    uint32_t open_from; /* locs before this one have their writers closed */
    uint8_t *owned;     /* per dataset location: its files are written here (NULL: all) */
    const pw_collectives *together; /* several processes write the archive, or NULL */
    int agreed;         /* ot_agree was called */
    /* This process drew its share alone (pw_dataset_drew_share_alone):
     * its refs are its own, mapped to the archive's (otf2_unify.h); its
     * event writers have temporary location refs from ref_base. */
    int alone;
    uint64_t ref_base;
    int defs_written;   /* the local definition files were written */
    int replay_begun;   /* the communicator replay was started */
    const pw_names *names; /* the timeline's, at the end of the run */
} ot_writer;


/* The global definitions of w's archive (names: the timeline's); an error
 * only when the writer cannot be had. */
pw_status ot_definitions(ot_writer *w, const pw_names *nm, pw_error *err);
#endif
