#!/usr/bin/env python3
"""results_table.py: rebuilds the three generated tables of samples/README.md
from the samples themselves, through the memtris CLI:
  - every sample: nodes, edges, buffers, bytes allocated in all;
  - the model samples: peak with fifo and with priority (`memtris compare
    --format json`), the saving, next to the savings reported on a phone for
    the same models (the table's last column);
  - the training and make_fx samples: measured, given, fifo, priority, best
    and exact peaks, and the bytes by Category at given's peak.
Usage: results_table.py MEMTRIS [README]   (default samples/README.md)
The tables go between <!-- NAME:begin --> and <!-- NAME:end --> markers."""
import json
import os
import re
import subprocess
import sys

# The saving reported on a phone for each model (the samples/README.md table's last column).
SEED = {"resnet50": ("ResNet-50", "about 15%"), "mobilenet_v2": ("MobileNetV2", "15.5% (342 -> 289 MB)"),
        "efficientnet_b0": ("EfficientNet-b0", "15.3% (413 -> 350 MB)"),
        "bert_base": ("BERT-base", "15.2% (587 -> 498 MB)"),
        "resnet18_onnx": ("ResNet-18 from ONNX", "(not in the seed)")}


def mib(b):
    return f"{b / 1048576:.2f} MiB"


def run(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"results_table: memtris {' '.join(args)} failed: {p.stderr.strip()}")
    return p.stdout


def samples_table(exe, d):
    rows = ["| sample | nodes | edges | buffers | allocated in all |", "|---|---:|---:|---:|---:|"]
    for f in sorted(os.listdir(d)):
        if not f.endswith(".json"):
            continue
        out = run(exe, "validate", os.path.join(d, f))
        get = lambda key: re.search(rf"^\s+{key}\s+(\d+)", out, re.M).group(1)
        total = int(re.search(r"allocated\s+.*\((\d+) bytes\)", out).group(1))
        rows.append(f"| {f} | {get('nodes')} | {get('edges')} | {get('buffers')} | {mib(total)} ({total} B) |")
    return rows


def results_table(exe, d):
    rows = ["| model | nodes | fifo peak | priority peak | saving | seed 001 reports |",
            "|---|---:|---:|---:|---:|---|"]
    for name, (label, seed) in SEED.items():
        path = os.path.join(d, name + ".json")
        res = {r["policy"]: r for r in json.loads(run(exe, "compare", path, "--format", "json"))["results"]}
        fifo, prio = res["fifo"]["peak"], res["priority"]["peak"]
        save = 100.0 * (fifo - prio) / fifo if fifo else 0.0
        rows.append(f"| {label} ({name}.json) | {res['fifo']['steps']} | {mib(fifo)} | {mib(prio)} | "
                    f"{save:.1f}% | {seed} |")
    return rows


TRAIN = ["resnet18_train", "transformer_block_train", "vit_b_16", "shufflenet_v2"]


def train_table(exe, d):
    """The training and make_fx samples: the measured peak (the graph's Measured), every
    policy's peak and, at given's peak, the live bytes by Category; in MiB."""
    rows = ["| sample | measured | given | fifo | priority | best | exact | at given's peak, MiB |",
            "|---|---:|---:|---:|---:|---:|---:|---|"]
    m = lambda b: f"{b / 1048576:.2f}"
    for name in TRAIN:
        path = os.path.join(d, name + ".json")
        measured = json.load(open(path)).get("Measured", {}).get("peak")
        out = run(exe, "compare", path, "-P", "given,fifo,priority,best,exact", "--time-limit", "20",
                  "--format", "json")
        res = {r["policy"]: r for r in json.loads(out)["results"]}
        ex = res["exact"]
        bycat = ", ".join(f"{k} {m(v)}" for k, v in res["given"]["peak_by_category"].items())
        rows.append(f"| {name}.json | {m(measured) if measured is not None else '-'} | "
                    + " | ".join(m(res[p]["peak"]) for p in ("given", "fifo", "priority", "best"))
                    + f" | {m(ex['peak'])}{' proven' if ex['proven_optimal'] else ''} | {bycat} |")
    return rows


def replace(text, name, rows):
    pat = re.compile(rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.S)
    if not pat.search(text):
        sys.exit(f"results_table: no <!-- {name}:begin/end --> markers in the README")
    return pat.sub(lambda m: m.group(1) + "\n".join(rows) + "\n" + m.group(2), text)


def main():
    exe = sys.argv[1]
    readme = sys.argv[2] if len(sys.argv) > 2 else "samples/README.md"
    d = os.path.dirname(readme) or "."
    text = open(readme).read()
    text = replace(text, "samples", samples_table(exe, d))
    text = replace(text, "results", results_table(exe, d))
    text = replace(text, "train", train_table(exe, d))
    open(readme, "w").write(text)


if __name__ == "__main__":
    main()
