#!/usr/bin/python3
"""test_memviz.py: 'memtris plan --format memory-viz' against the plan's JSON
and Debian's torch.cuda._memory_viz. For a few graphs and placers it loads the
pickle with python3's pickle and checks the snapshot: the one segment is the
arena at the base address, its blocks cover it and are the buffers live at the
end, those never freed (inactive blocks between them), the trace has the segment_alloc
and then each buffer's alloc at base + offset with its held size and each freed
buffer's free_requested and free_completed, in schedule order, every frame
naming the node (filename the graph, line its Id, name its Name). Then torch
1.13's readers (stats, segments, memory) on the snapshot's segments, checked
against the plan's numbers; and the binary refused on a terminal, -o - to a
pipe. Needs Debian's python3-torch; without it the test says so and skips
(exit 77). Usage: test_memviz.py MEMTRIS SRCDIR"""
import json
import os
import pickle
import pty
import subprocess
import sys
import tempfile

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
try:
    import torch.cuda._memory_viz as mv
except ImportError as e:
    print(f"SKIP: needs python3-torch: torch is not importable ({e}); the README's test command installs it")
    sys.exit(77)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402

BASE = 0x7F0000000000
os.chdir(src)


def plan(path, args, fmt, out=None):
    cmd = [exe, "plan", path, "-f", fmt, *args] + (["-o", out] if out else [])
    return subprocess.run(cmd, capture_output=True, check=True).stdout


def span(size, align):
    return -(-size // align) * align


def names(path):
    """BufId -> (ALLOC's Id, name shown, FREE's Id or None, its name): a node's Name, else
    what it does to its buffer, by the ALLOC's Name less ".out" (shortened from the left past
    32 columns) or by its BufId, as graph_display says it."""
    nodes = json.load(open(path))["Nodes"]
    alloc_name = {n["BufId"]: n.get("Name") for n in nodes if n["Op"] == "ALLOC"}
    out = {}
    for n in nodes:
        if n["Op"] not in ("ALLOC", "FREE"):
            continue
        nm = alloc_name.get(n["BufId"])
        if nm:
            nm = nm[:-4] if len(nm) > 4 and nm.endswith(".out") else nm
            nm = nm if len(nm) <= 32 else "\u2026" + nm[-31:]
        shown = n.get("Name") or f"{n['Op'].lower()} {nm or 'b' + str(n['BufId'])}"
        a = out.setdefault(n["BufId"], [None, None, None, None])
        if n["Op"] == "ALLOC":
            a[0], a[1] = n["Id"], shown
        else:
            a[2], a[3] = n["Id"], shown
    return out


def frame_ok(frames, path, nid, name):
    return frames == [{"filename": path, "line": nid, "name": name}]


def case(path, args, align, pool=False):
    what = f"{path} {' '.join(args)}"
    args = [*args, "-a", str(align)]
    js = json.loads(plan(path, args, "json"))
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "plan.pickle")
        plan(path, args, "memory-viz", out)
        snap = pickle.load(open(out, "rb"))
    bufs = {b["buf"]: b for b in js["buffers"]}
    nm = names(path)
    held = {}
    seg = snap["segments"][0]
    check(len(snap["segments"]) == 1, f"{what}: one segment")
    check(seg["address"] == BASE and seg["device"] == 0 and seg["stream"] == 0, f"{what}: segment at base")
    if pool:
        check(seg["total_size"] >= js["arena"], f"{what}: pool's segment holds the arena")
    else:
        check(seg["total_size"] == js["arena"], f"{what}: segment total_size {seg['total_size']} == arena {js['arena']}")
    check(seg["segment_type"] == "large" and seg["segment_pool_id"] == (0, 0) and seg["is_expandable"] is False,
          f"{what}: segment fields")
    # The trace: schedule order, every buffer's events.
    tr = snap["device_traces"][0]
    check(len(snap["device_traces"]) == 1, f"{what}: one device's trace")
    check(tr[0] == {"action": "segment_alloc", "addr": BASE, "size": seg["total_size"], "stream": 0,
                    "time_us": 0, "frames": []}, f"{what}: segment_alloc first")
    times = [e["time_us"] for e in tr]
    check(times == sorted(times) and len(set(times)) == len(times) - sum(e["action"] == "free_completed" for e in tr),
          f"{what}: one step per event, in schedule order")
    allocs = {}
    for i, e in enumerate(tr[1:], 1):
        b = next((b for b in bufs.values() if BASE + b["offset"] == e["addr"] and
                  (b["alloc_step"] if e["action"] == "alloc" else b["free_step"]) == e["time_us"]), None)
        check(b is not None, f"{what}: event {i} {e['action']} at step {e['time_us']} is a buffer's")
        if b is None:
            continue
        n = nm[b["buf"]]
        if e["action"] == "alloc":
            allocs[b["buf"]] = e
            held[b["buf"]] = e["size"]
            size_ok = e["size"] >= span(b["size"], align) if pool else e["size"] == span(b["size"], align)
            check(size_ok, f"{what}: buf {b['buf']} alloc size {e['size']}")
            check(frame_ok(e["frames"], path, n[0], n[1]), f"{what}: buf {b['buf']} alloc frames {e['frames']}")
        else:
            check(frame_ok(e["frames"], path, n[2], n[3]), f"{what}: buf {b['buf']} free frames {e['frames']}")
            if e["action"] == "free_requested":
                check(tr[i + 1]["action"] == "free_completed" and tr[i + 1]["addr"] == e["addr"],
                      f"{what}: free_completed follows free_requested")
    check(set(allocs) == set(bufs), f"{what}: one alloc per buffer")
    freed = [b for b in bufs.values() if b["free_step"] is not None]
    check(sum(e["action"] == "free_requested" for e in tr) == len(freed), f"{what}: one free per freed buffer")
    # The blocks: the arena as it is at the end of the trace (PyTorch's viewer
    # walks the trace back from them), the buffers never freed, holes inactive.
    kept = [b for b in bufs.values() if b["free_step"] is None and held[b["buf"]] > 0]
    want = sorted((BASE + b["offset"], held[b["buf"]], b["size"], b["buf"]) for b in kept)
    blocks = seg["blocks"]
    active = [bl for bl in blocks if bl["state"] == "active_allocated"]
    check([(bl["address"], bl["size"], bl["requested_size"]) for bl in active] == [w[:3] for w in want],
          f"{what}: active blocks are the buffers never freed")
    check(all(frame_ok(bl["frames"], path, nm[w[3]][0], nm[w[3]][1]) for bl, w in zip(active, want)),
          f"{what}: active blocks' frames")
    at = BASE
    for bl in blocks:
        check(bl["address"] == at and bl["size"] > 0, f"{what}: blocks tile the segment at {bl['address']:#x}")
        at = bl["address"] + bl["size"]
    check(at == BASE + seg["total_size"], f"{what}: blocks end at the segment's end")
    alloc = sum(w[1] for w in want)
    check(seg["allocated_size"] == alloc == seg["active_size"], f"{what}: allocated_size {seg['allocated_size']}")
    check(seg["requested_size"] == sum(w[2] for w in want), f"{what}: requested_size is their Sizes")
    # torch 1.13 reads a list of segments (what _snapshot() returned then).
    st = mv.stats(snap["segments"])
    check(st["segments"] == 1 and st["total_size"].value == seg["total_size"], f"{what}: 1.13 stats total {st}")
    active_stat = st["active_allocated"].value if "active_allocated" in st else 0
    check(active_stat == alloc, f"{what}: 1.13 stats active_allocated {st}")
    if seg["total_size"] > alloc:
        check(st["inactive"].value == seg["total_size"] - alloc, f"{what}: 1.13 stats inactive {st}")
    lines = mv.segments(snap["segments"], format_flamegraph=lambda s: s).splitlines()
    check(lines == [f"stream_0;seg_{BASE};{bl['state']} {bl['size']}" for bl in blocks], f"{what}: 1.13 segments")
    mem = mv.memory(snap["segments"], format_flamegraph=lambda s: s).splitlines()
    check(sum(int(x.split()[-1]) for x in mem if "active_allocated" in x) == alloc, f"{what}: 1.13 memory")
    print(f"{what}: arena {seg['total_size']}, {len(tr)} events, at the end: {alloc} bytes in "
          f"{len(active)} blocks; torch 1.13 stats {st}")


case("samples/demo.json", [], 256)
case("tests/data/branches.json", ["-l", "first-fit"], 512)
case("tests/data/branches.json", ["-p", "bfs", "-l", "greedy-size"], 1)
case("samples/mobilenet_v2.json", ["-l", "xla"], 512)
case("samples/demo.json", ["-l", "pool"], 256, pool=True)
case("samples/demo.json", ["-l", "first-fit"], 256)
case("samples/efficientnet_b0.json", ["-l", "best-fit"], 512)
# Two buffers never freed, a hole before them: what the end's blocks show.
case("tests/data/leaks.json", ["-l", "first-fit"], 1)

# Binary: refused on a terminal, written to a pipe with -o -.
pid, fd = pty.fork()
if pid == 0:
    os.execv(exe, [exe, "plan", "samples/demo.json", "-f", "memory-viz"])
err = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    err += chunk
_, status = os.waitpid(pid, 0)
check(os.waitstatus_to_exitcode(status) == 2 and b"not written to a terminal" in err,
      f"a terminal is refused: {err!r}")
piped = subprocess.run([exe, "plan", "samples/demo.json", "-f", "memory-viz", "-o", "-"],
                       capture_output=True, check=True).stdout
check(pickle.loads(piped)["segments"][0]["total_size"] == json.loads(plan("samples/demo.json", [], "json"))["arena"],
      "-o - writes the pickle to a pipe")
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "plan.json")
    plan("samples/demo.json", [], "json", out)
    check(open(out, "rb").read() == plan("samples/demo.json", [], "json"), "-o FILE writes what standard output gets")
finish()
