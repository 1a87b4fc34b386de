"""headless.py - one headless Chromium for a whole test file, driven over
the DevTools protocol on a pipe (--remote-debugging-pipe: messages are JSON
texts ended by a NUL byte, the browser reading fd 3 and writing fd 4), so
that no websocket library is needed.

    with Browser() as b:
        page = b.load("/abs/path/page.html")   # console errors, requests, PNG
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

BROWSER_NAMES = ["chromium-headless-shell", "chromium", "chromium-browser"]


def find_browser():
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, width=1000, height=1400, timeout=60):
        self.width, self.height, self.timeout = width, height, timeout
        self.next_id = 0
        self.buf = b""
        self.events = []

    def __enter__(self):
        exe = find_browser()
        if not exe:
            raise RuntimeError("no headless Chromium (install chromium-headless-shell)")
        self.profile = tempfile.mkdtemp(prefix="pw-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def plumb():  # in the child: the pipes become fds 3 and 4
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--disable-gpu", "--no-sandbox", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--hide-scrollbars",
             "--user-data-dir=" + self.profile, "about:blank"],
            preexec_fn=plumb, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self.call("Target.createTarget", {"url": "about:blank"})
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True})["sessionId"]
        for domain in ["Page", "Runtime", "Log", "Network"]:
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def receive(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False):
        want = self.send(method, params, session)
        while True:
            msg = self.receive()
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def load(self, path, full_page=False, scale=1.0):
        """Loads a file; returns {errors, requests, png}: console errors and
        exceptions, every URL requested but the page itself, a screenshot
        (of the first screen, or the whole page; scaled by `scale`)."""
        url = "file://" + os.path.abspath(path)
        self.events = []
        self.call("Page.navigate", {"url": url}, session=True)
        deadline = time.time() + self.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.time() > deadline:
                raise RuntimeError("%s: no load event in %d s" % (path, self.timeout))
            self.events.append(self.receive())
        # Let scripts run their first tasks, then collect what they said.
        self.call("Runtime.evaluate", {"expression": "new Promise(r => setTimeout(r, 50))",
                                       "awaitPromise": True}, session=True)
        errors, requests = [], []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                errors.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                errors.append("console.%s" % p.get("type"))
            elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
                errors.append(p["entry"].get("text", ""))
            elif m == "Network.requestWillBeSent" and p["request"]["url"] != url:
                requests.append(p["request"]["url"])
        height = self.height
        if full_page:
            size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
            height = min(size["height"], 6000)
        params = {"format": "png", "captureBeyondViewport": full_page,
                  "clip": {"x": 0, "y": 0, "width": self.width, "height": height, "scale": scale}}
        png = base64.b64decode(self.call("Page.captureScreenshot", params, session=True)["data"])
        return {"errors": errors, "requests": requests, "png": png}

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        return r["result"].get("value")


def png_colours(png):
    """The number of distinct colours of a PNG's pixels (8-bit RGB/RGBA, no
    interlace: what Chromium writes), decoded with zlib."""
    import struct
    import zlib
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unexpected PNG type"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 8 == 0:  # a sample of the lines is enough to tell blank from drawn
            for x in range(0, width, 4):
                colours.add(bytes(line[x * bpp:x * bpp + 3]))
        prev = line
    return len(colours)
