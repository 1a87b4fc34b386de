/* emu_task.c — task types and tasks by id.  A type's value is a hash of
 * its label (Bob Jenkins' public-domain lookup2, which ovniemu uses
 * through uthash), plus 666, kept positive and away from the reserved
 * values below 1000 (ovni src/emu/task.c task_get_type_gid). */
#include "analysis/ovniemu/emu_task.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lookup2's mixing step. */
#define MIX(a, b, c)                                                                           \
    do {                                                                                       \
        a -= b; a -= c; a ^= (c >> 13);                                                        \
        b -= c; b -= a; b ^= (a << 8);                                                         \
        c -= a; c -= b; c ^= (b >> 13);                                                        \
        a -= b; a -= c; a ^= (c >> 12);                                                        \
        b -= c; b -= a; b ^= (a << 16);                                                        \
        c -= a; c -= b; c ^= (b >> 5);                                                         \
        a -= b; a -= c; a ^= (c >> 3);                                                         \
        b -= c; b -= a; b ^= (a << 10);                                                        \
        c -= a; c -= b; c ^= (b >> 15);                                                        \
    } while (0)

static uint32_t le32(const unsigned char *k, size_t n)
{
    uint32_t v = 0;
    for (size_t i = 0; i < n && i < 4; i++)
        v |= (uint32_t)k[i] << (8 * i);
    return v;
}

static uint32_t lookup2(const unsigned char *k, size_t len)
{
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = 0xfeedbeefu;
    size_t left = len;
    for (; left >= 12; k += 12, left -= 12) {
        a += le32(k, 4);
        b += le32(k + 4, 4);
        c += le32(k + 8, 4);
        MIX(a, b, c);
    }
    c += (uint32_t)len;
    /* The tail: bytes 0-3 into a, 4-7 into b, 8-10 into c's high bytes. */
    a += le32(k, left);
    if (left > 4)
        b += le32(k + 4, left - 4);
    if (left > 8)
        c += le32(k + 8, left - 8) << 8;
    MIX(a, b, c);
    return c;
}

uint32_t emu_task_type_gid(const char *label)
{
    uint32_t gid = lookup2((const unsigned char *)label, strlen(label));
    gid += 666;
    gid &= 0x7FFFFFFF;
    if (gid < 1000)
        gid += 1000;
    return gid;
}

emu_task_type *emu_task_type_find(const emu_task_info *ti, uint32_t id)
{
    for (size_t i = 0; i < ti->n_types; i++)
        if (ti->types[i].id == id)
            return &ti->types[i];
    return NULL;
}

emu_task_type *emu_task_type_add(emu_task_info *ti, uint32_t id, const char *label, size_t n,
                                 int *dup)
{
    *dup = emu_task_type_find(ti, id) != NULL;
    if (*dup)
        return NULL;
    if (!pw_grow((void **)&ti->types, ti->n_types, &ti->cap_types, sizeof *ti->types))
        return NULL;
    char *copy = malloc(n ? n + 1 : 48);
    if (!copy)
        return NULL;
    if (n) {
        memcpy(copy, label, n);
        copy[n] = '\0';
    } else {
        snprintf(copy, 48, "(unlabeled task type %u)", id);
    }
    emu_task_type *t = &ti->types[ti->n_types++];
    *t = (emu_task_type){id, emu_task_type_gid(copy), copy};
    return t;
}

uint32_t emu_task_home(uint32_t id)
{
    /* Runtimes number tasks in order: runs of 16 ids keep their order
     * in the table, so the tasks in flight share cache lines, while the
     * runs themselves scatter, which keeps strided ids apart. */
    return ((id >> 4) * 2654435761u) << 4 | (id & 15);
}

static size_t slot_of(const emu_task_info *ti, uint32_t id)
{
    size_t mask = ti->cap_tasks - 1;
    size_t i = emu_task_home(id) & mask;
    while (ti->tasks[i].id && ti->tasks[i].id != id)
        i = (i + 1) & mask;
    return i;
}

emu_task *emu_task_find(const emu_task_info *ti, uint32_t id)
{
    if (!ti->cap_tasks || !id)
        return NULL;
    emu_task *t = &ti->tasks[slot_of(ti, id)];
    return t->id ? t : NULL;
}

static int grow_tasks(emu_task_info *ti)
{
    size_t cap = ti->cap_tasks ? ti->cap_tasks * 2 : 64;
    emu_task *old = ti->tasks;
    size_t old_cap = ti->cap_tasks;
    ti->tasks = calloc(cap, sizeof *ti->tasks);
    if (!ti->tasks) {
        ti->tasks = old;
        return -1;
    }
    ti->cap_tasks = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].id)
            ti->tasks[slot_of(ti, old[i].id)] = old[i];
    free(old);
    return 0;
}

/* A task's type and flags as one non-zero value (flags take 5 bits). */
static uint32_t kind_of(uint32_t type_index, unsigned flags) { return (type_index << 5 | flags) + 1; }

static int insert(emu_task_info *ti, emu_task t)
{
    if ((ti->n_tasks + 1) * 4 > ti->cap_tasks * 3 && grow_tasks(ti) != 0)
        return -1;
    ti->tasks[slot_of(ti, t.id)] = t;
    ti->n_tasks++;
    return 0;
}

int emu_task_add(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags, int *dup)
{
    *dup = id && emu_task_map_get(&ti->kinds, id) != 0;
    if (*dup || !id || type_index >= UINT32_MAX >> 5)
        return -1;
    if (emu_task_map_set(&ti->kinds, id, kind_of(type_index, flags)) != 0)
        return -1;
    if (flags & EMU_TASK_BODILESS)
        return 0;
    return insert(ti, (emu_task){.id = id, .type = type_index, .flags = (uint8_t)flags});
}

int emu_task_ended(const emu_task_info *ti, uint32_t id, uint32_t *type_index, unsigned *flags)
{
    uint32_t kind = emu_task_map_get(&ti->kinds, id);
    if (!kind || emu_task_find(ti, id))
        return 0;
    *type_index = (kind - 1) >> 5;
    *flags = (kind - 1) & 31;
    return 1;
}

/* Linear probing's deletion: the entries after the hole that may not
 * stay past it move back into it. */
static void delete_slot(emu_task_info *ti, size_t hole)
{
    size_t mask = ti->cap_tasks - 1;
    for (size_t i = (hole + 1) & mask; ti->tasks[i].id; i = (i + 1) & mask) {
        size_t home = emu_task_home(ti->tasks[i].id) & mask;
        /* Stays when its home lies cyclically in (hole, i]. */
        if (((i - home) & mask) < ((i - hole) & mask))
            continue;
        ti->tasks[hole] = ti->tasks[i];
        hole = i;
    }
    ti->tasks[hole].id = 0;
}

int emu_task_retire(emu_task_info *ti, uint32_t id)
{
    size_t i = slot_of(ti, id);
    const emu_task *t = &ti->tasks[i];
    if ((t->flags & EMU_TASK_PARALLEL) && emu_task_map_set(&ti->parallel_ended, id, t->n_bodies) != 0)
        return -1;
    delete_slot(ti, i);
    ti->n_tasks--;
    return 0;
}

emu_task *emu_task_revive(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags)
{
    emu_task t = {.id = id, .type = type_index, .flags = (uint8_t)flags};
    if (flags & EMU_TASK_PARALLEL)
        t.n_bodies = t.dead_bodies = emu_task_map_get(&ti->parallel_ended, id);
    if (insert(ti, t) != 0)
        return NULL;
    return emu_task_find(ti, id);
}

void emu_task_info_free(emu_task_info *ti)
{
    for (size_t i = 0; i < ti->n_types; i++)
        free(ti->types[i].label);
    free(ti->types);
    free(ti->tasks);
    emu_task_map_free(&ti->kinds);
    emu_task_map_free(&ti->parallel_ended);
    memset(ti, 0, sizeof *ti);
}
