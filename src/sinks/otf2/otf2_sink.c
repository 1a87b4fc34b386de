/* otf2_sink.c — the "otf2" convert target: an OTF2 archive.
 * The writer (otf2_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

/* Listed in every build; without its library it refuses to run. */
#ifdef PW_HAVE_OTF2
#define PW_SINK_OTF2_MISSING 0
#else
#define PW_SINK_OTF2_MISSING PW_SINK_MISSING
#endif

static const pw_sink_convert otf2_convert = {.write = pw_convert_otf2};

const pw_sink_ops pw_sink_otf2 = {
    .name = "otf2",
    .caps = PW_SINK_DIRECTORY | PW_SINK_TOGETHER | PW_SINK_OTF2_MISSING,
    .extensions = ".otf2",
    .description = "OTF2 archive directory (Vampir, Score-P tools)",
    .convert = &otf2_convert,
};
