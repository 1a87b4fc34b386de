/* compiler.h — where a hot loop's code goes, said once for every file:
 * PW_RARE keeps a rare path (a damage, a layout few events have, the end
 * of a stream) out of line and cold, PW_NOINLINE keeps a slow path out of
 * line, PW_HOT_INLINE forces a small per-record step into its loop.
 * Inlined, a rare path made every call save registers only it needs;
 * left to the compiler, a per-record step was called.  Other compilers
 * get plain functions. */
#ifndef PW_CORE_COMPILER_H
#define PW_CORE_COMPILER_H
#if defined(__GNUC__)
#define PW_RARE __attribute__((noinline, cold))
#define PW_NOINLINE __attribute__((noinline))
#define PW_HOT_INLINE inline __attribute__((always_inline))
#else
#define PW_RARE
#define PW_NOINLINE
#define PW_HOT_INLINE inline
#endif
#endif
