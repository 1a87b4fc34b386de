#!/usr/bin/env python3
"""The README is the project's front door (issue 26): short, the quick start
where a newcomer looks first, no lab notebook in it.  Measurements belong in
docs/benchmarks.md, so a commit hash or a table cell of a page is a sign one
crept back.  Links of the README and of docs/*.md must lead somewhere.

usage: check_readme.py REPO_ROOT"""
import pathlib
import re
import sys

MAX_WORDS = 1200
QUICK_START_WITHIN = 40          # lines
MAX_CELL = 300                   # characters
# A commit hash, short or full: hex with both a digit and a letter (plain
# numbers and English words like "deface" are not hashes).
HASH = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z])")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose_lines(text):
    """(line number, line) outside fenced code blocks: code is not prose."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def table_cells(line):
    """A table row's cells; a backslash-escaped bar stays in its cell."""
    inner = line.strip().strip("|")
    return re.split(r"(?<!\\)\|", inner)


def readme_problems(readme):
    text = readme.read_text(encoding="utf-8")
    problems = []
    words = len(text.split())
    if words > MAX_WORDS:
        problems.append(f"{readme}: {words} words, more than {MAX_WORDS}")
    head = "\n".join(text.split("\n")[:QUICK_START_WITHIN])
    for needed in ("Quick start", "make demo", "make test"):
        if needed not in head:
            problems.append(f"{readme}: '{needed}' is not within the first "
                            f"{QUICK_START_WITHIN} lines")
    for number, line in enumerate(text.split("\n"), 1):
        for found in HASH.findall(line):
            problems.append(f"{readme}:{number}: '{found}' looks like a commit hash")
    for number, line in prose_lines(text):
        if line.lstrip().startswith("|"):
            for cell in table_cells(line):
                if len(cell.strip()) > MAX_CELL:
                    problems.append(f"{readme}:{number}: a table cell of "
                                    f"{len(cell.strip())} characters, more than {MAX_CELL}")
    return problems


def link_problems(page, root):
    """Relative links whose file does not exist (anchors are not checked)."""
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                problems.append(f"{page.relative_to(root)}:{number}: link "
                                f"'{target}' leads to no file")
    return problems


def main():
    root = pathlib.Path(sys.argv[1])
    readme = root / "README.md"
    problems = readme_problems(readme)
    for page in [readme] + sorted((root / "docs").glob("*.md")):
        problems += link_problems(page, root)
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print("README: front-door rules hold; every relative link resolves")


if __name__ == "__main__":
    main()
