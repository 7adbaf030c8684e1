#!/usr/bin/python3
"""test_exporter.py: tools/fx2memtris.py on a tiny module whose tensor sizes are
known by hand (every ALLOC size, the aliasing rule, the edges, dtype and
--params), its latencies (measured; estimated from flops, by hand), data
movement on stream 1 and --streams's fork rule on tiny modules, on modules it
must refuse, and on the committed model samples, which it must reproduce byte
for byte but for their measured Latency. Needs Debian's python3-torch; without
it the test says so and skips (exit 77). Usage: test_exporter.py MEMTRIS SRCDIR"""
import contextlib
import io
import json
import math
import os
import subprocess
import sys
import tempfile

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish, require  # noqa: E402

torch = require("torch", "python3-torch")
from torch import nn  # noqa: E402

sys.path.insert(0, os.path.join(src, "tools"))
import fx2memtris  # noqa: E402
import graphkit  # noqa: E402


class Tiny(nn.Module):
    """x [1,3,4,4] -> conv [1,8,4,4] -> relu in place -> flatten [1,128]
    -> fc [1,10] -> *2 [1,10]."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        y = self.relu(self.conv(x))
        z = torch.flatten(y, 1)
        return self.fc(z) * 2


def memtris(g, *args):
    return subprocess.run([exe, *args, "-"], input=json.dumps(g), capture_output=True, text=True)


def by_name(g, name):
    return next(n for n in g["Nodes"] if n.get("Name") == name)


threads_before = torch.get_num_threads()
g = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, False)
allocs = {n["Name"]: n["Size"] for n in g["Nodes"] if n["Op"] == "ALLOC"}
check(allocs == {"input.out": 3 * 16 * 4, "conv.out": 8 * 16 * 4, "fc.out": 10 * 4, "mul.out": 10 * 4},
      f"ALLOC sizes by hand: {allocs}")
relu, flat = by_name(g, "relu"), by_name(g, "flatten")
conv_buf = next(n["BufId"] for n in g["Nodes"] if n.get("Name") == "conv.out")
check(relu["Op"] == "ReLU" and relu["Inputs"] == [conv_buf], "in-place ReLU works on conv's buffer, no ALLOC")
check(flat["Inputs"] == [conv_buf], "flatten aliases conv's buffer, no ALLOC")
ids = {n.get("Name"): n["Id"] for n in g["Nodes"]}
E = {tuple(e) for e in g["Edges"]}
check((ids["x"], ids["conv.out"]) in E, "conv's ALLOC waits for the producer of its input")
check((ids["conv.out"], ids["conv"]) in E and (ids["x"], ids["conv"]) in E, "conv waits for its ALLOC and input")
check((ids["conv"], ids["relu"]) in E and (ids["relu"], ids["flatten"]) in E, "relu after conv, flatten after relu")
check((ids["flatten"], ids["fc.out"]) in E and (ids["flatten"], ids["fc"]) in E, "fc waits for flatten")
free_conv = next(n["Id"] for n in g["Nodes"] if n["Op"] == "FREE" and n["BufId"] == conv_buf)
check({(ids[k], free_conv) for k in ("conv", "relu", "flatten", "fc")} <= E,
      "conv's buffer is freed after its last reader through every alias")
free_out = next(n["Id"] for n in g["Nodes"] if n["Op"] == "FREE" and n["Name"] == "free mul")
check((ids["output"], free_out) in E, "the network output is freed after the Output node")
frees = [n for n in g["Nodes"] if n["Op"] == "FREE"]
check(len(frees) == len(allocs), "one FREE per ALLOC")
v = memtris(g, "validate")
check(v.returncode == 0 and v.stderr == "", f"the tiny graph validates cleanly: {v.stderr}")
s = json.loads(memtris(g, "schedule", "--format", "json").stdout)
# Priority: input 192 + conv.out 512 = 704; the input is freed right after conv, before fc.out.
check(s["peak"] == 192 + 512, f"the tiny graph's priority peak by hand is 704, got {s['peak']}")

h = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float16, False)
check({n["Name"]: n["Size"] for n in h["Nodes"] if n["Op"] == "ALLOC"} ==
      {k: v // 2 for k, v in allocs.items()}, "--dtype float16 halves every float tensor")

p = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, True)
params = {n["Name"]: n["Size"] for n in p["Nodes"] if n["Op"] == "ALLOC" and n["Name"].startswith("param.")}
check(params == {"param.conv.weight.out": 8 * 3 * 9 * 4, "param.conv.bias.out": 32,
                 "param.fc.weight.out": 1280 * 4, "param.fc.bias.out": 40}, f"--params sizes: {params}")
v = memtris(p, "validate")
check(v.returncode == 0 and v.stderr == "", f"--params graph validates: {v.stderr}")


class TwoOut(nn.Module):
    def forward(self, x):
        r = torch.max(x, dim=1)          # (values, indices); unpacking does not trace on Python 3.11
        return r[0] + r[1]


t = fx2memtris.export(TwoOut().eval(), [2, 5], torch.float32, False)
sizes = sorted(n["Size"] for n in t["Nodes"] if n["Op"] == "ALLOC" and n["Name"].startswith("max_1."))
check(sizes == [2 * 4, 2 * 8], f"a tuple-output op gets one ALLOC per tensor (float32 values, int64 indices): {sizes}")
check(memtris(t, "validate").returncode == 0, "the tuple-output graph validates")


class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


def refused(model, shape, words):
    try:
        fx2memtris.export(model, shape, torch.float32, False)
    except fx2memtris.ExportError as e:
        return all(w in str(e) for w in words), str(e)
    return False, "exported"


ok, msg = refused(Branchy(), [1, 3], ["cannot trace", "Branchy"])
check(ok, f"control flow on a tensor is refused with a clear message: {msg}")


class TwoInputs(nn.Module):
    def forward(self, a, b):
        return a + b


ok, msg = refused(TwoInputs(), [1, 3], ["2 inputs"])
check(ok, f"two inputs are refused: {msg}")
r = subprocess.run(["/usr/bin/python3", os.path.join(src, "tools", "fx2memtris.py"), "no_such_model"],
                   capture_output=True, text=True)
check(r.returncode == 1 and "not a torchvision model name" in r.stderr, f"unknown model: {r.stderr.strip()}")

# --latency: measure (every compute node a finite time, no ALLOC/FREE one),
# flops (the conv and linear formulas by hand, so their ratio), none.
def compute_nodes(g):
    return [n for n in g["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]


m = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, False, latency="measure", repeats=2)
lats = [n.get("Latency") for n in compute_nodes(m)]
check(all(isinstance(x, float) and math.isfinite(x) and x >= 0 for x in lats) and any(x > 0 for x in lats),
      f"--latency measure: every compute node a finite time in ms: {lats}")
check(not any("Latency" in n for n in m["Nodes"] if n["Op"] in ("ALLOC", "FREE")), "no Latency on ALLOC/FREE")
check(all(x == float(f"{x:.4g}") for x in lats), "measured latencies are rounded to 4 significant digits")
check(torch.get_num_threads() == threads_before, "--latency measure puts torch's thread count back")
for n in m["Nodes"]:
    n.pop("Latency", None)
check(m == g, "--latency measure adds Latency and changes nothing else")
v = memtris(m, "validate")
check(v.returncode == 0 and v.stderr == "", f"the measured graph validates: {v.stderr}")

f = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, False, latency="flops")
conv_flops = 2 * 1 * 8 * 4 * 4 * 3 * 3 * 3            # 2*N*Cout*Hout*Wout*Cin/groups*kh*kw
fc_flops = 2 * 1 * 10 * 128                            # 2*M*N*K
ms = lambda x: float(f"{1e3 * x / fx2memtris.FLOPS_PER_SECOND:.4g}")
fl = {n["Name"]: n["Latency"] for n in compute_nodes(f)}
check(fl["conv"] == ms(conv_flops) and fl["fc"] == ms(fc_flops), f"--latency flops: conv and fc by hand: {fl}")
check(abs(fl["conv"] / fl["fc"] - conv_flops / fc_flops) < 1e-3, "flops: the conv/fc ratio is the formulas'")
check(fl["flatten"] == 0 and fl["x"] == 0 and fl["output"] == 0, "flops: aliases, Input and Output cost 0")
check(fl["relu"] == ms(2 * 128) and fl["mul"] == ms(10 + 10), f"flops: elementwise ops count elements: {fl}")


class Grouped(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 6, (3, 2), stride=2, groups=2)

    def forward(self, x):
        return self.conv(x)


gf = fx2memtris.export(Grouped().eval(), [2, 4, 9, 8], torch.float32, False, latency="flops")
check(by_name(gf, "conv")["Latency"] == ms(2 * 2 * 6 * 4 * 4 * (4 // 2) * 3 * 2),
      f"flops: a grouped, strided conv by the formula: {by_name(gf, 'conv')['Latency']}")
check(not any("Latency" in n or "Stream" in n for n in g["Nodes"]), "--latency none: no Latency, no Stream")


class Mover(nn.Module):
    """Data movement: x.cpu() and x.to(float64) run on stream 1."""
    def forward(self, x):
        y = torch.relu(x)
        return y.cpu() + y.to(torch.float64)


mv = fx2memtris.export(Mover().eval(), [1, 5], torch.float32, False)
st = {n["Name"]: n.get("Stream") for n in compute_nodes(mv)}
check(st == {"x": None, "relu": None, "cpu": 1, "to": 1, "add": None, "output": None}, f"data movement on Stream 1 only: {st}")
check(memtris(mv, "validate").returncode == 0, "the data-movement graph validates")


class Fork(nn.Module):
    """conv -> relu (its first consumer) and conv2 (a second: a side branch)
    -> add (the first consumer of both: back to stream 0) -> conv3."""
    def __init__(self):
        super().__init__()
        self.conv, self.conv2, self.conv3 = nn.Conv2d(2, 2, 1), nn.Conv2d(2, 2, 1), nn.Conv2d(2, 2, 1)

    def forward(self, x):
        y = self.conv(x)
        a = torch.relu(y)
        b = self.conv2(y)
        c = self.conv3(y)
        return (a + b + c).cpu()


for n_streams, want in ((2, {"x": 0, "conv": 0, "relu": 0, "conv2": 1, "conv3": 1, "add": 0, "add_1": 0,
                             "cpu": 1, "output": 0}),
                        (3, {"x": 0, "conv": 0, "relu": 0, "conv2": 1, "conv3": 2, "add": 0, "add_1": 0,
                             "cpu": 1, "output": 0})):
    fk = fx2memtris.export(Fork().eval(), [1, 2, 3, 3], torch.float32, False, streams=n_streams)
    st = {n["Name"]: n.get("Stream") for n in compute_nodes(fk)}
    check(st == want, f"--streams {n_streams}: the fork rule: {st}")
    check(not any("Stream" in n for n in fk["Nodes"] if n["Op"] in ("ALLOC", "FREE")), "no Stream on ALLOC/FREE")
    check(memtris(fk, "validate").returncode == 0, f"the --streams {n_streams} graph validates")

for args, words in ((["--latency", "fast"], "invalid choice"), (["--repeats", "0"], "--repeats"),
                    (["--threads", "0"], "--threads"), (["--streams", "65"], "from 1 to 64"),
                    (["--streams", "0"], "from 1 to 64")):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            rc = fx2memtris.main(["resnet50", *args])
        except SystemExit as e:
            rc = e.code
    check(rc == 2 and words in err.getvalue(), f"{args}: status {rc}, {err.getvalue().strip()[-200:]}")

# The committed model samples are what the exporter makes today, apart from
# their measured Latency (samples/README.md: --latency measure), which every
# compute node has and no ALLOC or FREE. The command line's main, in this
# process (torch is loaded already; a process each would load it again).
with tempfile.TemporaryDirectory(prefix="memtris-exporter.") as tmp:
    for name, args in (("resnet50", ["resnet50"]), ("mobilenet_v2", ["mobilenet_v2"]),
                       ("efficientnet_b0", ["efficientnet_b0"]),
                       ("bert_base", ["models:bert_base_encoder", "--input-shape", "128,768"])):
        out, err = os.path.join(tmp, name + ".json"), io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = graphkit.run_tool("fx2memtris", lambda: fx2memtris.main([*args, "-o", out]))
        check(rc == 0, f"export {name}: {err.getvalue().strip()[:300]}")
        if rc:
            continue
        text = open(out).read()
        v = subprocess.run([exe, "validate", "-"], input=text, capture_output=True, text=True)
        check(v.returncode == 0 and v.stderr == "", f"{name} validates cleanly: {v.stderr.strip()[:300]}")
        committed = json.load(open(os.path.join(src, "samples", name + ".json")))
        check(all(isinstance(n.get("Latency"), float) and n["Latency"] >= 0 for n in compute_nodes(committed)) and
              not any("Latency" in n for n in committed["Nodes"] if n["Op"] in ("ALLOC", "FREE")),
              f"samples/{name}.json: a measured Latency on every compute node, none on ALLOC/FREE")
        for n in committed["Nodes"]:
            n.pop("Latency", None)
        check(text == json.dumps(committed, separators=(",", ":")) + "\n",
              f"samples/{name}.json, its Latency fields removed, is what the exporter makes now")

finish()
