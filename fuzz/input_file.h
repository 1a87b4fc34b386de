/* input_file.h — the readers read files, so harnesses write each input
 * to a private temporary file (in /dev/shm when it exists) first. */
#ifndef PW_FUZZ_INPUT_FILE_H
#define PW_FUZZ_INPUT_FILE_H
#include <stddef.h>
#include <stdint.h>

/* A directory private to this process, created on first use. */
const char *fuzz_tempdir(void);
/* Writes data to <tempdir>/<name> (creating subdirectories named in it)
 * and returns the full path (static storage, overwritten per call). */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);
/* Reads every record of every location with its fields through one of the
 * writers (text dump, JSON Lines dump, or a merge and the stats), picked
 * by `pick` (the input's size), so that each input costs one pass and
 * every writer still sees a third of the inputs: the harness body shared
 * by all readers. */
void fuzz_read_all(const char *path, const char *format, size_t pick);
#endif
