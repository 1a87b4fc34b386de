"""yaml_subset.py — a reader for the YAML subset hpctesttool writes.

The standard library has no YAML parser; the oracle dumps use only block
maps and lists by indentation, `!tags` (dropped), `&anchors` / `*aliases`,
`# comments`, plain scalars and the flow forms `[]`, `{}` and `[a, b]`."""


def _strip_comment(text):
    if text.lstrip().startswith("#"):
        return ""
    cut = text.find(" #")
    return text[:cut] if cut >= 0 else text


def _lines(source):
    out = []
    for raw in source.splitlines():
        text = _strip_comment(raw).rstrip()
        if text.strip():
            out.append([len(text) - len(text.lstrip(" ")), text.strip()])
    return out


class _Parser:
    def __init__(self, source):
        self.lines = _lines(source)
        self.i = 0
        self.anchors = {}

    def _decorations(self, text):
        """Drops a leading tag and anchor; returns (anchor, rest)."""
        anchor = None
        while text and text[0] in "!&":
            word, _, text = text.partition(" ")
            if word[0] == "&":
                anchor = word[1:]
            text = text.strip()
        return anchor, text

    def _scalar(self, text):
        if text.startswith("*"):
            return self.anchors[text[1:]]
        if text == "{}":
            return {}
        if text.startswith("[") and text.endswith("]"):
            inner = text[1:-1].strip()
            return [self._scalar(x.strip()) for x in inner.split(",")] if inner else []
        if text.startswith("'") and text.endswith("'"):
            return text[1:-1]
        for conv in (int, float):
            try:
                return conv(text)
            except ValueError:
                pass
        return text

    def _value_after(self, indent, text):
        """The value of `key:` whose inline text is `text`."""
        anchor, text = self._decorations(text)
        if text:
            value = self._scalar(text)
        elif self.i < len(self.lines) and (
            self.lines[self.i][0] > indent
            or (self.lines[self.i][0] == indent and self.lines[self.i][1].startswith("- "))
        ):
            value = self.block(self.lines[self.i][0])
        else:
            value = None
        if anchor:
            self.anchors[anchor] = value
        return value

    def block(self, indent):
        if self.lines[self.i][1].startswith("- ") or self.lines[self.i][1] == "-":
            return self._list(indent)
        return self._map(indent)

    def _list(self, indent):
        items = []
        while self.i < len(self.lines):
            ind, text = self.lines[self.i]
            if ind != indent or not text.startswith("-"):
                break
            rest = text[1:].strip()
            anchor, rest = self._decorations(rest)
            if rest and ":" in rest and not rest.startswith(("[", "*", "'")):
                # "- key: value": the item is a map whose first line is inline.
                self.lines[self.i] = [indent + 2, rest]
                value = self._map(indent + 2)
            else:
                self.i += 1
                if rest:
                    value = self._scalar(rest)
                elif self.i < len(self.lines) and self.lines[self.i][0] > indent:
                    value = self.block(self.lines[self.i][0])
                else:
                    value = None
            if anchor:
                self.anchors[anchor] = value
            items.append(value)
        return items

    def _map(self, indent):
        out = {}
        while self.i < len(self.lines):
            ind, text = self.lines[self.i]
            if ind != indent or text.startswith("- "):
                break
            key, sep, rest = text.partition(":")
            if not sep:
                raise ValueError("line %d: 'key: value' expected: %r" % (self.i + 1, text))
            self.i += 1
            key = key.strip()
            out[int(key) if key.isdigit() else key] = self._value_after(indent, rest.strip())
        return out


def load(path):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    p = _Parser(source)
    first = p.lines[0]
    if first[1].startswith("!") and ":" not in first[1]:
        p.i = 1  # the document's own tag line ("!db/v4")
    return p.block(p.lines[p.i][0])
