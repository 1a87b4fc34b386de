/* fuzz_compressed_input.c — compressed inputs (src/core/input_decoder.c):
 * the input, read as a DUMPI rank file, is stored as .zst or as .gz (by
 * the size's parity) and, for a third of the inputs, the compressed bytes
 * are cut or have a byte flipped, so that the decoder meets whole, cut and
 * damaged streams; the reader must read the plain bytes or report the
 * damage, never crash or read past its buffers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* gzip (not zlib) framing: windowBits 15 + 16. */
static size_t gzip_into(const uint8_t *data, size_t size, uint8_t *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int r = deflate(&z, Z_FINISH);
    size_t n = r == Z_STREAM_END ? cap - z.avail_out : 0;
    deflateEnd(&z);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = ZSTD_compressBound(size) + 64 + size / 8;
    uint8_t *packed = malloc(cap);
    if (!packed)
        return 0;
    int zstd = size % 2 == 0;
    size_t n = zstd ? ZSTD_compress(packed, cap, data, size, 1) : gzip_into(data, size, packed, cap);
    if (zstd && ZSTD_isError(n))
        n = 0;
    if (n > 0 && size > 0 && size % 3 == 0) { /* damage the compressed bytes */
        size_t at = data[0] * n / 256;
        if (data[size - 1] & 1)
            n = at;
        else
            packed[at] ^= data[size - 1] | 1;
    }
    /* Only this input's copy may be there: the plain name opens .zst first. */
    unlink(fuzz_write(zstd ? "c/trace-0000.bin.gz" : "c/trace-0000.bin.zst", packed, 0));
    const char *path = fuzz_write(zstd ? "c/trace-0000.bin.zst" : "c/trace-0000.bin.gz", packed, n);
    char plain[512];
    strcpy(plain, path);
    *strrchr(plain, '.') = '\0'; /* opened under its plain name, as listed */
    fuzz_read_all(plain, "dumpi", size / 6);
    free(packed);
    return 0;
}
