"""The otf2-print listing beside each archive of ../shared/data/otf2, read
for the OTF2 tests' oracles: its text, its event lines and the clock's
resolution (otf2-print -G)."""
import os
import re
import subprocess

EVENT_LINE = re.compile(r"^([A-Z][A-Z0-9_]*)\s+(\d+)\s+(\d+)\s+(.*)$")


def listing(archive):
    """The listing's text (zstd-compressed when large)."""
    plain = os.path.join(archive, "otf2-print.txt")
    if os.path.exists(plain):
        with open(plain, encoding="utf-8", errors="replace") as f:
            return f.read()
    out = subprocess.run(["zstd", "-dc", plain + ".zst"], check=True, capture_output=True)
    return out.stdout.decode("utf-8", errors="replace")


def events(archive):
    """(kind, location, tick, the rest of the line) per event line."""
    for line in listing(archive).splitlines():
        m = EVENT_LINE.match(line)
        if m:
            yield m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


def ticks_per_second(archive):
    """The archive's ClockProperties resolution, as otf2-print -G gives it."""
    out = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")], check=True,
                         capture_output=True, text=True).stdout
    return int(re.search(r"Ticks per Seconds: (\d+)", out).group(1))
