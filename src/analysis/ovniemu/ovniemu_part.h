/* ovniemu_part.h — the emulator's time per state by share (ovniemu_part.c)
 * and what the registered analysis shares with it. */
#ifndef PW_OVNIEMU_PART_H
#define PW_OVNIEMU_PART_H
#include "model/dataset.h"

/* 1 when each share's looms can be emulated alone with the serial result:
 * the same for every process of a run (decided from what opening found). */
int ovniemu_in_shares(pw_dataset *ds);
/* The time per state of the share's looms as a part (declined: *part NULL
 * when not ovniemu_in_shares), and the report of every share's parts. */
pw_status ovniemu_part(pw_dataset *ds, void **part, size_t *size, pw_error *err);
pw_status ovniemu_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                       pw_error *err);
/* The finding the emulator's refusal (err) makes; PW_OK. */
pw_status ovniemu_cannot_emulate(pw_dataset *ds, pw_error *err);
#endif
