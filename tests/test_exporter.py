#!/usr/bin/python3
"""test_exporter.py: tools/fx2memtris.py on a tiny module whose tensor sizes are
known by hand (every ALLOC size, the aliasing rule, the edges, dtype and
--params), on modules it must refuse, and on the committed model samples,
which it must reproduce byte for byte. Needs Debian's python3-torch; without
it the test says so and skips (exit 77). Usage: test_exporter.py MEMTRIS SRCDIR"""
import json
import os
import subprocess
import sys

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
try:
    import torch
    from torch import nn
except ImportError as e:
    print(f"SKIP: torch is not importable ({e}); the README's test command installs python3-torch")
    sys.exit(77)
sys.path.insert(0, os.path.join(src, "tools"))
import fx2memtris  # noqa: E402

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


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

# The committed model samples are what the exporter makes today.
for name, args in (("resnet50", ["resnet50"]), ("mobilenet_v2", ["mobilenet_v2"]),
                   ("efficientnet_b0", ["efficientnet_b0"]),
                   ("bert_base", ["models:bert_base_encoder", "--input-shape", "128,768"])):
    r = subprocess.run(["/usr/bin/python3", os.path.join(src, "tools", "fx2memtris.py"), *args],
                       capture_output=True, text=True, cwd=os.path.join(src, "tools"))
    check(r.returncode == 0, f"export {name}: {r.stderr.strip()[:300]}")
    if r.returncode:
        continue
    v = subprocess.run([exe, "validate", "-"], input=r.stdout, capture_output=True, text=True)
    check(v.returncode == 0 and v.stderr == "", f"{name} validates cleanly: {v.stderr.strip()[:300]}")
    committed = open(os.path.join(src, "samples", name + ".json")).read()
    check(r.stdout == committed, f"samples/{name}.json is what the exporter makes now")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
