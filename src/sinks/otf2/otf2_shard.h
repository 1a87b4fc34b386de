/* otf2_shard.h — when several processes write one archive, a location
 * another process writes has no event writer here: its events are drawn
 * and counted as if written (so that every process defines the same
 * regions, communicators and locations) but not encoded. */
#ifndef PW_SINKS_OTF2_SHARD_H
#define PW_SINKS_OTF2_SHARD_H

/* The OTF2 call when w writes this location, else success. */
#define OT_WRITE(w, call) ((w) ? (call) : OTF2_SUCCESS)
#endif
