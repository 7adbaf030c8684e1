#!/usr/bin/env python3
"""make_corpus.py: regenerates the seed corpora of the libFuzzer harnesses in
tests/fuzz/corpus/<harness>/ from what the repository already holds: the
samples, tests/data (tests/data/fuzz: the inputs that crashed once), the JSON
the C tests and the shell tests write inline, and for the TUI and the command
line, scripted inputs in the harnesses' formats. With --memtris (a built
binary) it adds generated graphs and real saved replays.

Usage: tests/fuzz/make_corpus.py [--memtris build/memtris] [--max-size 16384]
Each corpus folder is emptied first; file names are stable (a prefix saying
where the input came from, then a hash of its bytes), so a rerun without
changes leaves git with nothing to commit.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(SRC, "tests", "fuzz", "corpus")


# ------------------------------------------------------------ C string literals

def c_unescape(body):
    """The bytes of a C string literal's body."""
    out = bytearray()
    i = 0
    raw = body.encode("utf-8")
    simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("0"): 0, ord("\\"): 92, ord('"'): 34, ord("'"): 39,
              ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("v"): 11, ord("?"): 63}
    while i < len(raw):
        c = raw[i]
        if c != 92:
            out.append(c)
            i += 1
            continue
        n = raw[i + 1]
        if n == ord("x"):
            j = i + 2
            while j < len(raw) and chr(raw[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(raw[i + 2:j], 16) & 0xFF)
            i = j
        elif ord("0") <= n <= ord("7"):
            j = i + 1
            while j < len(raw) and j < i + 4 and ord("0") <= raw[j] <= ord("7"):
                j += 1
            out.append(int(raw[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(simple.get(n, n))
            i += 2
    return bytes(out)


def strip_comments(text):
    """C source without comments (strings kept)."""
    out = []
    pat = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|//[^\n]*', re.S)
    last = 0
    for m in pat.finditer(text):
        tok = m.group(0)
        out.append(text[last:m.start()])
        out.append(" " if tok.startswith("/") else tok)
        last = m.end()
    out.append(text[last:])
    return "".join(out)


LIT = r'"(?:[^"\\\n]|\\.)*"'


def literal_groups(path):
    """Every run of adjacent string literals (and macros defined as one) in a
    C file, as bytes, with its position."""
    text = strip_comments(open(path, encoding="utf-8").read())
    macros = {m.group(1): c_unescape(m.group(2)[1:-1])
              for m in re.finditer(r'#define\s+(\w+)\s+(' + LIT + r')\s*\n', text)}
    names = "|".join(re.escape(k) for k in macros) or "(?!)"
    piece = r'(?:' + LIT + r'|\b(?:' + names + r')\b)'
    groups = []
    for m in re.finditer(piece + r'(?:\s*' + piece + r')*', text):
        data = b""
        for p in re.finditer(piece, m.group(0)):
            t = p.group(0)
            data += c_unescape(t[1:-1]) if t.startswith('"') else macros[t]
        groups.append((m.start(), m.end(), data))
    return text, groups


def looks_like_graph(b):
    s = b.lstrip()
    return b"Nodes" in b or b"Edges" in b or (s[:1] in (b"{", b"[") and b"steps" not in b and b"backend" not in b)


def looks_like_replay(b):
    return b"steps" in b or b"backend" in b


def replay_variants(path):
    """test_replay_io.c's malformed files: its good file with each case's
    replacement made."""
    text, groups = literal_groups(path)
    good = next((g for _, _, g in groups if g.startswith(b'{"backend": "host", "mode": "raw", "policy": "fifo"')), None)
    if good is None:
        return []
    start = text.find("cases[] = {")
    end = text.find("};", start)
    if start < 0:
        return [good]
    out = [good]
    # entries: {from, to, want}
    for m in re.finditer(r'\{\s*(' + LIT + r'(?:\s*' + LIT + r')*)\s*,\s*(' + LIT + r'(?:\s*' + LIT + r')*)\s*,',
                         text[start:end]):
        frm = b"".join(c_unescape(x[1:-1]) for x in re.findall(LIT, m.group(1)))
        to = b"".join(c_unescape(x[1:-1]) for x in re.findall(LIT, m.group(2)))
        if frm in good:
            out.append(good.replace(frm, to, 1))
    return out


def printf_strings(path):
    """The JSON a shell test writes with printf '...' (no % directives)."""
    out = []
    for m in re.finditer(r"printf '([^']*)'", open(path, encoding="utf-8").read()):
        s = m.group(1)
        if "%" in s:
            continue
        b = bytearray()
        i = 0
        raw = s.encode("utf-8")
        while i < len(raw):
            if raw[i] == 92 and i + 1 < len(raw):
                n = chr(raw[i + 1])
                b.append({"n": 10, "t": 9, "r": 13, "\\": 92}.get(n, raw[i + 1]))
                i += 2
            else:
                b.append(raw[i])
                i += 1
        out.append(bytes(b))
    return out


# ------------------------------------------------------------ the TUI's inputs

# fuzz_tui.c's format: graph, flags, title, settings, size (how, x, y), then
# events: op % 16 (0-9 a key byte follows; 10 resize: how, x, y; 11 click:
# u16 x, y; 12 ticks: count; 13 overlay: 4 bytes; 14 prompt: which, how,
# value bytes; 15 wait for R's background replay).
K_UP, K_DOWN, K_LEFT, K_RIGHT, K_HOME, K_END, K_PGUP, K_PGDN = (128 + i for i in range(8))
K_BACKSPACE, K_ENTER, K_ESC, K_TAB, K_BTAB, K_F1, K_F10, K_RESIZE = (136 + i for i in range(8))


def size(w, h):
    if w <= 120 and h <= 50:
        return bytes([0, w - 1, h - 1])
    return bytes([192 | ((w - 1) >> 8), (w - 1) & 255, h - 1])


def keys(*ks):
    out = b""
    for k in ks:
        out += bytes([0, ord(k) if isinstance(k, str) else k])
    return out


def tui_inputs():
    out = []
    scripts = [
        keys(" ", " ", " ", "n", K_RIGHT, "p", K_LEFT) + bytes([15]),
        keys(K_END, "p", K_HOME, "P") + bytes([15]),
        keys("c", " ", " ", "s", " ") + bytes([15]) + keys("c"),
        keys("a", "a", "a", "a", "a", "a", "t", K_TAB, K_TAB, K_UP, K_UP, K_DOWN),
        keys("t", " ", " ", " ") + bytes([11, 0, 50, 10]) + keys(K_ESC),
        bytes([10]) + size(1, 1) + bytes([10]) + size(59, 15) + bytes([10]) + size(60, 16) + bytes([10]) + size(300, 100),
        bytes([14, 0, 0, 0, 5]) + bytes([14, 1, 1, 0, 1]) + bytes([14, 0, 2, 0, 3, 40]) + bytes([14, 0, 3]),
        bytes([13, 0, 0, 0, 0]) + keys(" ", " ") + bytes([13, 1, 2, 0xf0, 20]) + keys(K_END) + bytes([13, 6, 0, 1, 3]),
        keys("r") + bytes([12, 7, 12, 7]) + keys("+", "+", "+") + bytes([12, 5]) + keys("-", K_ESC),
        keys("?", "x", K_F1, "q"),
        keys(K_PGDN, K_PGDN, K_PGUP, K_BTAB, K_DOWN) + bytes([11, 0, 30, 5, 11, 0, 100, 20]),
        keys("g", "1", "2", K_BACKSPACE, K_ENTER, "/", "9", K_ESC),
        keys("R") + bytes([15]) + keys(" ", " ", "R", K_ESC) + bytes([15]) + keys("R", "R", "s") + bytes([12, 3, 15]),
        keys(" ", "R", "c", "a") + bytes([15]) + keys(K_END, "R") + bytes([13, 0, 5, 0, 0, 15]),
    ]
    for g in range(8):
        for i, sc in enumerate(scripts):
            flags = (i * 5 + g) & 0x3F
            settings = (i * 7 + g) & 0x3F
            w, h = [(80, 24), (132, 40), (60, 16), (100, 30)][i % 4]
            out.append(("tui-g%d-s%02d" % (g, i), bytes([g, flags, i % 8, settings]) + size(w, h) + sc))
    return out


# ------------------------------------------------------------ the command line's inputs

def cli_inputs():
    """fuzz_cli.c's format: one argument a line; '<NAME' stdin from a
    prepared file, '>full' stdout to /dev/full; @IN/ the prepared files."""
    S = "@IN/seed.json"
    B = "@IN/branches.json"
    D = "@IN/demo.json"
    cmds = [
        [], ["--help"], ["-h"], ["--version"], ["-V"], ["--bogus"], ["frobnicate", S], [S], ["--ascii"],
        ["view", "--help"], ["view", S], ["view", "--bogus", S], ["view", "--policy", "nope", S],
        ["view", D, "--replay", "@IN/demo-fifo.replay.json"], ["view", S, "--replay", "@IN/seed.replay.json", "-p", "fifo"],
        ["view", S, "--replay", "@IN/bad.replay.json"], ["view", "--replay", "@IN/empty.replay.json"],
        ["view", "-b", "cuda", "-m", "async"], ["view", "-b", "host", "-m", "async"], ["view", "--compare", "priority"],
        ["view", "-l", "nope", S], ["view", S, S],
        ["schedule", S], ["schedule", "--format", "json", S], ["schedule", "-p", "fifo", "-f", "csv", B],
        ["schedule", "-f", "xml", S], ["schedule", S, "--policy"], ["schedule"], ["schedule", S, S],
        ["schedule", "@IN/quote.json", "-f", "csv"], ["schedule", "@IN/huge.json"], ["schedule", "@IN/overflow.json"],
        ["schedule", "@IN/cycle.json"], ["schedule", "@IN/order.json"], ["schedule", "@IN/missing.json"],
        ["schedule", "@IN/dir.json"], ["schedule", "@IN/dangling.json"], ["schedule", "@IN/empty.json"],
        ["<seed.json", "schedule", "-"], ["<bad-line3.json", "compare", "-"], [">full", "schedule", S],
        ["compare", S], ["compare", "-f", "json", B], ["compare", "--policies", "priority", B],
        ["compare", "--policies", "fifo,nope", S], ["compare", "--placers", "all", D], ["compare", "-L", "best,best", S],
        ["compare", "-L", "first-fit,pool", "-a", "4096", B], ["compare", "-f", "csv", S], ["compare", "--policies", ",", S],
        ["validate", S], ["validate", "@IN/repeated-edge.json"], ["validate", "@IN/bad-line3.json"], ["validate", "-x"],
        ["<nothing.json", "validate", "-"], ["validate", "@IN/zero.json"],
        ["plan", S], ["plan", D, "--placer", "pool", "-f", "json"], ["plan", B, "-l", "coloring", "-f", "csv"],
        ["plan", D, "--svg", "out.svg"], ["plan", D, "--svg", "-"], ["plan", S, "--align", "0"],
        ["plan", S, "--align", "1073741824"], ["plan", S, "-a", "3"], ["plan", "@IN/greedy.json", "-l", "greedy-size"],
        [">full", "plan", S, "--svg", "-"], ["plan", "--help"],
        ["gen", "chain", "-n", "7"], ["gen", "random", "-n", "50", "-s", "3", "-o", "@OUT/r.json"],
        ["gen", "huge", "-n", "13"], [">full", "gen", "randwire", "-n", "22"], ["gen", "branch", "-n", "999"],
        ["gen", "alloc-heavy", "-n", "9", "--seed", "18446744073709551615"], ["gen", "chain", "-n", "0"],
        ["gen", "chain", "-n", "100000001"], ["gen", "nope"], ["gen"], ["gen", "chain", "-n", "3"],
        ["gen", "chain", "--seed", "18446744073709551616"], ["gen", "--help"], ["gen", "chain", "-o", "sub/x.json", "-n", "7"],
        ["replay", S], ["replay", S, "-f", "json"], ["replay", B, "-m", "arena", "-l", "best-fit", "-f", "csv"],
        ["replay", S, "-m", "pool"], ["replay", S, "-m", "async"], ["replay", S, "-b", "cuda"],
        ["replay", S, "-l", "best"], ["replay", S, "-o", "@OUT/run.json", "-f", "json"], ["replay", S, "-o", ""],
        ["replay", "@IN/huge.json"], ["replay", "@IN/zero.json", "-m", "arena"], [">full", "replay", S, "-f", "csv"],
        ["replay", S, "-o", "null"],
        ["replay", "--help"], ["replay", S, "-b", "nope"], ["replay", S, "-m", "turbo"],
        ["plan", "@IN/near63.json", "-a", "1", "-f", "memory-viz", "-o", "@OUT/x.pkl"],
        ["plan", "@IN/near63.json", "-a", "1", "-f", "minimalloc", "-l", "first-fit"],
        ["plan", "@IN/overflow.json", "-a", "1073741824", "-f", "minimalloc"],
        ["place", "@IN/end53.csv"], ["place", "@IN/near53.csv", "-o", "@OUT/p.csv"],
        ["place", "@IN/near53.csv", "-f", "json", "-l", "coloring", "--svg", "@OUT/p.svg"],
    ]
    out = []
    for i, c in enumerate(cmds):
        out.append(("cli-%03d" % i, "".join(a + "\n" for a in c).encode()))
    return out


# ------------------------------------------------------------ generated with memtris

def gen_graphs(memtris):
    out = []
    for kind, n in [("chain", 7), ("branch", 13), ("alloc-heavy", 9), ("huge", 13), ("random", 20), ("randwire", 22),
                    ("random", 60)]:
        b = subprocess.run([memtris, "gen", kind, "-n", str(n), "-s", "1"], check=True, capture_output=True).stdout
        out.append(("gen-%s-%d" % (kind, n), b))
    return out


def real_replays(memtris):
    out = []
    for f in ["samples/seed-example.json", "tests/data/chain.json", "tests/data/branches.json", "samples/demo.json",
              "tests/data/huge.json"]:
        for pol in ["priority", "fifo"]:
            for mode in ["raw", "arena", "pool"]:
                if f.endswith("demo.json") and mode != "raw":
                    continue
                r = subprocess.run([memtris, "replay", os.path.join(SRC, f), "--backend", "host", "-p", pol, "-m", mode,
                                    "-f", "json"], capture_output=True)
                if r.returncode == 0:
                    out.append(("replay-%s-%s-%s" % (os.path.basename(f)[:-5], pol, mode), steady(r.stdout)))
    return out


def budget_replays(memtris):
    """Saved replays of budget plans as tools/runplan.py writes them (one step an event, the plan
    and the start), measured as predicted: of demo.json and branches.json, at their budget-free
    peak and below it."""
    out = []
    for f in ["samples/demo.json", "tests/data/branches.json"]:
        for pct in ["100%", "80%"]:
            r = subprocess.run([memtris, "budget", os.path.join(SRC, f), "-b", pct, "--allow", "recompute,offload",
                                "-f", "json"], capture_output=True)
            if r.returncode:
                continue
            plan = json.loads(r.stdout)
            steps = [{"step": k + 1, "node": e[1], "predicted": m, "measured": m, "ms": 0.125, "event": e[0]}
                     for k, (e, m) in enumerate(zip(plan["events"], plan["memory"]))]
            rep = {"backend": "torch-cpu", "mode": "raw", "policy": "given", "device": "fuzz", "device_total": 4096,
                   "versions": "fuzz", "steps": steps, "baseline": 0, "residual": 0, "held": 0, "seconds": 0.001,
                   "complete": True, "total_steps": len(steps), "start": {"measured": plan["initial"]},
                   "budget_plan": {"budget": plan["budget"], "bandwidth": plan["bandwidth"], "events": plan["events"]}}
            out.append(("replay-budget-%s-%s" % (os.path.basename(f)[:-5], pct[:-1]),
                        (json.dumps(rep) + "\n").encode()))
    return out


def steady(b):
    """A saved replay with what differs from run to run and machine to
    machine (times, readings, the device) replaced by fixed values, so that
    rerunning this script changes nothing."""
    t = b.decode()
    t = re.sub(r'"ms": [^,}]+', '"ms": 0.125', t)
    t = re.sub(r'"seconds": [^,}]+', '"seconds": 0.001', t)
    t = re.sub(r'"measured": -?\d+', '"measured": 4096', t)
    t = re.sub(r'"(device|versions)": "[^"]*"', r'"\1": "fuzz"', t)
    t = re.sub(r'"(device_total|baseline|measured_peak|max_excess)": -?\d+', r'"\1": 4096', t)
    t = re.sub(r'"residual": (-?\d+|null)', '"residual": 0', t)
    t = re.sub(r'"(measured_peak_step|max_excess_step)": \d+', r'"\1": 0', t)
    return t.encode()


# ------------------------------------------------------------ writing

def write_inputs():
    """fuzz_write.c's format: byte 0 the alignment's exponent, byte 1 the
    placer, then rows of 5 bytes (lower, length, size: edge indices << 3 | 3
    for the edge itself; a repeat count, >= 200 for 2^(b % 11) copies; flags,
    1: never freed). Edges: 0 1 2 4096 2^31-1 2^31 2^32 2^52 2^53-1025
    2^53-2 2^53-1."""
    def e(k):
        return k << 3 | 3
    rows = {
        # 1024 buffers of 2^53-1 never freed: memory-viz past 2^63-1
        "near63": bytes([0, 0, e(0), e(3), e(10), 208, 1]),
        "near63-align": bytes([30, 1, e(0), e(3), e(10), 208, 1]),
        "span53": bytes([10, 3, e(0), e(1), e(10), 0, 0, e(1), e(1), e(9), 0, 0]),
        "times53": bytes([0, 2, e(10), e(10), e(5), 0, 1, e(9), e(1), e(8), 0, 0]),
        "mixed": bytes([6, 4, e(0), e(7), e(7), 205, 0, e(4), e(6), e(10), 0, 1, e(2), e(3), e(3), 0, 0]),
        "small": bytes([0, 5, e(1), e(2), e(3), 0, 0, e(2), e(1), e(3), 0, 0]),
    }
    return [("write-" + k, v) for k, v in rows.items()]


def write(harness, items, max_size):
    d = os.path.join(CORPUS, harness)
    kept = {}
    for prefix, data in items:
        if len(data) > max_size:
            continue
        h = hashlib.sha1(data).hexdigest()[:12]
        if h not in kept:
            kept[h] = (prefix, data)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for h, (prefix, data) in sorted(kept.items()):
        with open(os.path.join(d, "%s-%s" % (prefix, h)), "wb") as f:
            f.write(data)
    print("%s: %d inputs" % (harness, len(kept)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memtris", help="a built memtris, for generated graphs and real saved replays")
    ap.add_argument("--max-size", type=int, default=16384, help="leave out bigger files (default 16384 bytes)")
    a = ap.parse_args()

    load, replay = [], []
    for f in sorted(glob.glob(os.path.join(SRC, "samples", "*.json")) + glob.glob(os.path.join(SRC, "tests", "data", "*.json"))):
        load.append(("file-" + os.path.basename(f)[:-5], open(f, "rb").read()))
    for f in sorted(glob.glob(os.path.join(SRC, "tests", "data", "fuzz", "*"))):
        data = open(f, "rb").read()
        name = os.path.basename(f)
        if name.startswith("replay-"):
            replay.append(("regress-" + name.rsplit(".", 1)[0], data))
        elif name.startswith("load-") or name.endswith(".json"):
            load.append(("regress-" + name.rsplit(".", 1)[0], data))
    for f in sorted(glob.glob(os.path.join(SRC, "tests", "test_*.c"))):
        tag = os.path.basename(f)[:-2]
        _, groups = literal_groups(f)
        for _, _, g in groups:
            if len(g) < 2:
                continue
            if looks_like_replay(g) and g.lstrip()[:1] == b"{":
                replay.append((tag, g))
            elif looks_like_graph(g):
                load.append((tag, g))
    replay += [("test_replay_io-variant", v) for v in replay_variants(os.path.join(SRC, "tests", "test_replay_io.c"))]
    for f in sorted(glob.glob(os.path.join(SRC, "tests", "*.sh"))):
        tag = os.path.basename(f)[:-3]
        for s in printf_strings(f):
            if looks_like_replay(s):
                replay.append((tag, s))
            elif b"Nodes" in s or b"Edges" in s:
                load.append((tag, s))
    if a.memtris:
        load += gen_graphs(a.memtris)
        replay += real_replays(a.memtris) + budget_replays(a.memtris)
    write("load", load, a.max_size)
    write("replay", replay, a.max_size)
    write("tui", tui_inputs(), a.max_size)
    write("cli", cli_inputs(), a.max_size)
    write("write", write_inputs(), a.max_size)


if __name__ == "__main__":
    main()
