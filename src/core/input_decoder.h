/* input_decoder.h — streaming decompression of a stored .zst or .gz file,
 * in fixed buffers (memory does not grow with the file). */
#ifndef PW_CORE_INPUT_DECODER_H
#define PW_CORE_INPUT_DECODER_H
#include <stddef.h>
#include <stdint.h>

#include "perfweave.h"

typedef enum pw_codec { PW_CODEC_NONE, PW_CODEC_ZSTD, PW_CODEC_GZIP } pw_codec;

/* The codec a stored file name implies (by its suffix). */
pw_codec pw_codec_of_name(const char *name);

typedef struct pw_decoder pw_decoder;

/* Starts decoding the stored file open at fd (read from offset 0);
 * path names it in errors. */
pw_status pw_decoder_new(pw_codec codec, int fd, const char *path, pw_decoder **out,
                         pw_error *err);
/* Produces up to cap plain bytes at out; *got = 0 at the end of the data.
 * A damaged or cut compressed file is PW_E_DATA naming the compressed
 * offset. */
pw_status pw_decoder_read(pw_decoder *d, uint8_t *out, size_t cap, size_t *got, pw_error *err);
void pw_decoder_free(pw_decoder *d);

/* Decompresses the whole stored file open at fd into an unlinked temporary
 * file and returns its descriptor and plain size.  Copies are kept (keyed by
 * the stored file's identity) so a file read several times in one run is
 * decompressed once; *out_fd is the caller's own descriptor. */
pw_status pw_decoder_plain_copy(pw_codec codec, int fd, const char *path, int *out_fd,
                                uint64_t *out_size, pw_error *err);
#endif
