#!/usr/bin/env python3
"""Peak RSS of the emulator does not grow with the tasks of a trace.

bench/ovni/gen_emu_trace.c's "tasks" shape writes three processes (nOS-V,
Nanos6, OpenMP) whose task types alternate in id order and whose nOS-V
tasks are parallel (VTC), with two bodies each ended out of order and the
tasks themselves ended out of id order.  ovniemu keeps every task and
body (ovni src/emu/task.c); the emulator keeps a parallel task's ended
bodies as a count and every task's kind in a periodic id map
(src/analysis/ovniemu/emu_body.c, emu_task_map.h), which must emulate it
without a finding and, from 10 k to 100 k tasks per process, within
2 MB of the same peak RSS for `check`.  The RSS check is skipped under
the sanitizers (ASan keeps freed memory in quarantine), and so is the
large trace.

usage: task_rss.py GEN_EMU_TRACE PERFWEAVE PEAK_RSS SANITIZE(ON|OFF)
"""
import os
import subprocess
import sys
import tempfile

EVENTS_PER_TASK = 16 * 3  # one task per 16-event iteration, three processes


def main():
    gen, cli, launcher, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "ON"
    fails, rss = [], {}
    sizes = (10000,) if sanitized else (10000, 100000)
    for tasks in sizes:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([gen, d, str(tasks * EVENTS_PER_TASK), "3", "tasks"], check=True)
            r = subprocess.run([cli, "check", d, "-q"], capture_output=True, text=True)
            if r.returncode != 0 or "0 errors, 0 warnings" not in r.stdout:
                fails.append(f"{tasks} tasks: check exit {r.returncode}: "
                             f"{r.stdout.strip()} {r.stderr[:400]}")
            if not sanitized:
                rss[tasks] = min(int(subprocess.run([launcher, cli, "check", d, "-q"],
                                                    capture_output=True, text=True,
                                                    check=True).stdout) for _ in range(2))
    if rss and rss[100000] > rss[10000] + 2048:
        fails.append(f"peak RSS grows with the tasks: {rss[10000]} KB at 10 k tasks per "
                     f"process, {rss[100000]} KB at 100 k")
    for f in fails:
        print("FAIL:", f)
    print(f"{len(fails)} failures; RSS {rss if rss else 'not checked (sanitizers)'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
