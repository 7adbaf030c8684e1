#!/usr/bin/python3
"""test_tool_errors.py: every error of tools/onnx2memtris.py, tools/fx2memtris.py
and tools/assign_streams.py is one line naming the file, the node or the
option, never a traceback nor a Python object's repr, with status 1 (a bad,
missing or unreadable model or input, an output that cannot be written) or 2
(a usage error): -o into a missing folder, a folder, /dev/full or ''; option
values out of range, an --input-shape of '' or '3,,4'; a shape the model
cannot run (the node named, torch's words); graphkit.describe's words for a
wrapped SystemError; a junk ONNX file; and the models onnx2memtris
refuses, each built here with onnx.helper: an empty file, every truncation of
a model, a node reading its own output, a longer cycle, nodes out of order, a
tensor made twice or by nobody, a negative dimension, tensors over 2^53-1
bytes (and one of exactly 2^53-1, which memtris reads). The onnx part needs
python3-onnx and the fx part python3-torch (each says SKIP without them);
assign_streams.py needs neither. Usage: test_tool_errors.py MEMTRIS SRCDIR"""
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402

TOOLS = os.path.join(src, "tools")
sys.path.insert(0, TOOLS)
import graphkit  # noqa: E402

MAX = 2**53 - 1


def one_line(name, rc, err, want_rc, words, what):
    """rc is want_rc and err one line "NAME: ..." holding every word."""
    lines = err.splitlines()
    ok = (rc == want_rc and len(lines) == 1 and lines[0].startswith(name + ": ") and "Traceback" not in err
          and "\x1b" not in err and all(w in err for w in words))
    check(ok, f"{what}: status {rc} (want {want_rc}), stderr {err[-400:]!r} (want one line with {words})")


def cli(tool, args, want_rc, words, what, cwd=None, stdout=subprocess.PIPE):
    r = subprocess.run(["/usr/bin/python3", os.path.join(TOOLS, tool), *args], stdout=stdout,
                       stderr=subprocess.PIPE, text=True, cwd=cwd)
    one_line(tool.replace("2memtris.py", "2memtris"), r.returncode, r.stderr, want_rc, words, what)
    return r


def in_process(name, main, args):
    """(status, stderr, stdout) of main(args) under graphkit.run_tool, as the
    script's own last lines run it, without starting a Python per case."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            rc = graphkit.run_tool(name, lambda: main(args))
        except SystemExit as e:
            rc = e.code
    return rc, err.getvalue(), out.getvalue()


def outputs(tool, args, tmp, what, cwd=None):
    """-o into a missing folder, a file, a folder (left as it was), /dev/full, ''."""
    plain = os.path.join(tmp, "plain")
    with open(plain, "w") as f:
        f.write("plain\n")
    before = sorted(os.listdir(tmp))
    for o, rc, words in ((os.path.join(tmp, "none", "g.json"), 1, ["-o", "none/g.json", "No such file"]),
                         (os.path.join(plain, "g.json"), 1, ["-o", "plain/g.json", "Not a directory"]),
                         (tmp, 1, ["-o", "Is a directory"]), ("/dev/full", 1, ["/dev/full", "No space left"]),
                         ("", 2, ["-o", "empty"])):
        cli(tool, [*args, "-o", o], rc, words, f"{what} -o {o!r}", cwd=cwd)
    check(sorted(os.listdir(tmp)) == before, f"{what}: no file left behind in {tmp}")
    with open("/dev/full", "w") as full:
        cli(tool, args, 1, ["standard output", "No space left"], f"{what} > /dev/full", cwd=cwd, stdout=full)


# ---------------------------------------------------------------- assign_streams.py
with tempfile.TemporaryDirectory() as tmp:
    g = os.path.join(tmp, "g.json")
    with open(g, "w") as f:
        json.dump({"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 4, "BufId": 1}, {"Id": 1, "Op": "relu", "Inputs": [1]},
                             {"Id": 2, "Op": "FREE", "BufId": 1}], "Edges": [[0, 1], [1, 2]]}, f)
    outputs("assign_streams.py", [g, "--streams", "2"], tmp, "assign_streams.py")
    cli("assign_streams.py", [g, "--streams", "99999999999999999999"], 2, ["--streams"],
        "assign_streams --streams huge")
    cli("assign_streams.py", [tmp, "--streams", "2"], 1, [tmp, "Is a directory"], "assign_streams.py on a folder")
    deep = os.path.join(tmp, "deep.json")
    with open(deep, "w") as f:
        f.write("[" * 100000)
    cli("assign_streams.py", [deep, "--streams", "2"], 1, ["deep.json", "nested"], "assign_streams: nesting")
    os.unlink(deep)

# ---------------------------------------------------------------- graphkit.describe
def wrapped():
    """A SystemError around a RuntimeWarning, as protobuf's C code raises it."""
    try:
        try:
            raise RuntimeWarning("Unexpected end-group tag: Not all data was converted")
        except RuntimeWarning:
            raise SystemError(f"<built-in method ParseFromString of ModelProto object at {hex(id(exe))}> "
                              "returned a result with an exception set")
    except SystemError as e:
        return e


check(graphkit.describe(wrapped()) == "Unexpected end-group tag: Not all data was converted",
      f"describe: the warning inside the SystemError, not its repr: {graphkit.describe(wrapped())!r}")
check(graphkit.first_line(wrapped()) == "RuntimeWarning: Unexpected end-group tag: Not all data was converted",
      f"first_line: the inner exception's type: {graphkit.first_line(wrapped())!r}")
check(graphkit.describe(ValueError(f"bad <object object at {hex(id(exe))}>\nmore")) == "bad an object",
      "describe: a repr in a message becomes words, one line")
check(graphkit.describe(KeyError()) == "KeyError", "describe: an empty message is the type")
rc, err, _ = in_process("tool", lambda argv: (_ for _ in ()).throw(wrapped()), [])
one_line("tool", rc, err, 1, ["internal error: RuntimeWarning: Unexpected end-group tag"], "run_tool's net")
check(" at 0x" not in err, f"run_tool's net: no repr: {err!r}")

# ---------------------------------------------------------------- onnx2memtris.py
try:
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
except ImportError as e:
    onnx = None
    print(f"SKIP (part): needs python3-onnx: onnx is not importable ({e}); the onnx2memtris cases are not run")

if onnx is not None:
    import onnx2memtris

    def vi(name, shape, elem=T.FLOAT):
        return h.make_tensor_value_info(name, elem, shape)

    def model(nodes, inputs, outputs, inits=()):
        return h.make_model(h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits)),
                            opset_imports=[h.make_opsetid("", 13)])

    def relu(i, o, name):
        return h.make_node("Relu", [i], [o], name=name)

    def refused(tmp, m, words, what, args=()):
        path = os.path.join(tmp, "m.onnx")
        with open(path, "wb") as f:
            f.write(m if isinstance(m, bytes) else m.SerializeToString())
        rc, err, out = in_process("onnx2memtris", onnx2memtris.main, [path, *args])
        one_line("onnx2memtris", rc, err, 1, ["m.onnx", *words], what)
        check(out == "", f"{what}: nothing on standard output")
        return err

    with tempfile.TemporaryDirectory() as tmp:
        good = model([relu("X", "Y", "r")], [vi("X", ["N", 4])], [vi("Y", None)])
        path = os.path.join(tmp, "good.onnx")
        onnx.save(good, path)
        outputs("onnx2memtris.py", [path, "--batch", "2"], tmp, "onnx2memtris.py")
        for args, words in ((["--batch", "99999999999999999999"], ["--batch", "2^53-1"]),
                            (["--batch", "0"], ["--batch"]), (["--batch", "-3"], ["--batch"]),
                            (["--batch", "x"], ["--batch", "invalid int"]),
                            (["--dim", "N=99999999999999999999"], ["--dim", "N=99999999999999999999"]),
                            (["--dim", "N=0"], ["--dim"]), (["--latency", "fast"], ["--latency"]),
                            (["--bogus"], ["--bogus"])):
            rc, err, _ = in_process("onnx2memtris", onnx2memtris.main, [path, *args])
            one_line("onnx2memtris", rc, err, 2, words, f"onnx2memtris {args}")
        # a model file missing, unreadable or a folder is bad input, status 1 as for memtris (issue
        # 45: a missing one was a usage error, 2), one line naming it
        for m, words in ((tmp, [tmp, "Is a directory"]), (os.path.join(tmp, "missing.onnx"),
                                                            ["missing.onnx", "No such file"]),
                         (os.path.join(path, "x.onnx"), ["good.onnx/x.onnx", "Not a directory"]),
                         ("", ["''", "No such file"])):
            rc, err, out = in_process("onnx2memtris", onnx2memtris.main, [m])
            one_line("onnx2memtris", rc, err, 1, words, f"onnx2memtris on {m!r}")
        cli("onnx2memtris.py", [os.path.join(tmp, "missing.onnx")], 1, ["missing.onnx", "No such file"],
            "onnx2memtris.py missing.onnx (the issue's run)")
        if os.geteuid() != 0:   # root reads any file
            locked = os.path.join(tmp, "locked.onnx")
            onnx.save(good, locked)
            os.chmod(locked, 0)
            rc, err, _ = in_process("onnx2memtris", onnx2memtris.main, [locked])
            one_line("onnx2memtris", rc, err, 1, ["locked.onnx", "Permission denied"], "an unreadable model")
            os.unlink(locked)
        rc, err, out = in_process("onnx2memtris", onnx2memtris.main, [path, "--batch", "3"])
        check(rc == 0 and err == "" and json.loads(out)["Nodes"][0]["Size"] == 48, f"the good model exports: {err}")

        refused(tmp, b"", ["empty", "0 bytes"], "a 0-byte file")
        # junk: protobuf's warning comes wrapped in a SystemError whose text is a repr
        # ("<built-in method ParseFromString of ModelProto object at 0x7f...>"): its words instead
        err = refused(tmp, b"hello junk\n", ["cannot read an ONNX model", "Not all data was converted"],
                      "a junk file")
        check(" at 0x" not in err and "<built-in" not in err, f"a junk file: no Python repr in {err!r}")
        # Every truncation of a model with a weight: none exports.
        W = h.make_tensor("W", T.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
        full = model([h.make_node("Add", ["X", "W"], ["S"], name="add"), relu("S", "Y", "r")],
                     [vi("X", [4])], [vi("Y", None)], [W]).SerializeToString()
        bad = []
        for n in range(len(full)):
            with open(os.path.join(tmp, "m.onnx"), "wb") as f:
                f.write(full[:n])
            rc, err, out = in_process("onnx2memtris", onnx2memtris.main, [os.path.join(tmp, "m.onnx")])
            if rc != 1 or len(err.splitlines()) != 1 or "Traceback" in err or " at 0x" in err or out:
                bad.append((n, rc, err[-200:]))
        check(not bad, f"every one of the {len(full)} truncations of a model is refused in one line: {bad[:3]}")
        refused(tmp, full[:len(full) // 2], ["truncated"], "a model cut in half")

        refused(tmp, model([h.make_node("Add", ["X", "Y"], ["Y"], name="selfadd")], [vi("X", [2])], [vi("Y", None)]),
                ["selfadd", "Add", "'Y'", "cycle", "selfadd (Add) -> selfadd (Add)"], "a node reading its own output")
        refused(tmp, model([h.make_node("Add", ["X", "C"], ["A"], name="a"), relu("A", "B", "b"), relu("B", "C", "c")],
                           [vi("X", [2])], [vi("C", None)]),
                ["cycle", "a (Add) -> b (Relu) -> c (Relu) -> a (Add)"], "a cycle of three nodes")
        refused(tmp, model([relu("A", "B", "b"), relu("X", "A", "a")], [vi("X", [2])], [vi("B", None)]),
                ["node b (Relu)", "'A'", "before node a", "topological order"], "nodes out of order")
        refused(tmp, model([relu("Q", "Y", "r")], [vi("X", [2])], [vi("Y", None)]),
                ["node r (Relu)", "'Q'", "no node makes"], "a tensor nobody makes")
        refused(tmp, model([relu("X", "Y", "r1"), relu("X", "Y", "r2")], [vi("X", [2])], [vi("Y", None)]),
                ["r2", "'Y'", "r1", "makes too"], "a tensor made twice")
        refused(tmp, model([relu("X", "Y", "r")], [vi("X", [2])], [vi("Z", None)]),
                ["graph output 'Z'", "no node"], "a graph output nobody makes")
        refused(tmp, model([relu("X", "Y", "r")], [vi("X", [-3, 2])], [vi("Y", None)]),
                ["'X'", "-3", "negative"], "a negative dimension")
        refused(tmp, model([relu("X", "Y", "r")], [vi("X", [2**30, 2**30, 2**5])], [vi("Y", None)]),
                ["'X'", "147573952589676412928 bytes", "2^53-1"], "a graph input of 2^67 bytes")
        refused(tmp, model([relu("X", "Y", "r")], [vi("X", ["N", 4])], [vi("Y", None)]),
                ["'X'", "2^53-1"], "--batch 2^53-1 makes X too large", ["--batch", str(MAX)])
        ex = h.make_node("Expand", ["X", "s"], ["E"], name="ex")
        s54 = h.make_tensor("s", T.INT64, [2], [2**52, 2])
        refused(tmp, model([ex], [vi("X", [1], T.UINT8)], [vi("E", None, T.UINT8)], [s54]),
                ["node ex (Expand)", "'E'", str(2**53), "2^53-1"], "an op's output of 2^53 bytes")
        # A Constant whose raw_data is shorter than its shape: onnx 1.12's
        # shape inference dies of SIGSEGV on it; that is a message too.
        short = h.make_tensor("v", T.INT64, [2], [2, 2])
        short.raw_data = b"v"
        refused(tmp, model([h.make_node("Constant", [], ["shp"], name="shape", value=short),
                            h.make_node("Reshape", ["X", "shp"], ["Z"], name="rs")], [vi("X", [4])], [vi("Z", None)]),
                ["shape inference crashed", "SIGSEGV"], "a model that crashes onnx's shape inference")
        # Random bytes changed in a model of five ops: each run one line, or an export.
        sound = model([h.make_node("Add", ["X", "W"], ["S"], name="add"), relu("S", "Y", "r"),
                       h.make_node("Constant", [], ["shp"], name="shape",
                                   value=h.make_tensor("v", T.INT64, [2], [2, 2])),
                       h.make_node("Reshape", ["Y", "shp"], ["Z"], name="rs"),
                       h.make_node("Concat", ["Z", "Z"], ["C"], name="cat", axis=0)],
                      [vi("X", ["N"])], [vi("C", None)], [W]).SerializeToString()
        rnd, bad, kinds = random.Random(25), [], {}
        for k in range(400):
            c = bytearray(sound)
            for _ in range(rnd.randint(1, 4)):
                c[rnd.randrange(len(c))] = rnd.randrange(256)
            with open(os.path.join(tmp, "m.onnx"), "wb") as f:
                f.write(c)
            args = [os.path.join(tmp, "m.onnx"), "--batch", "4"] + (["--params"] if k % 2 else [])
            args += ["--latency", "flops"] if k % 3 else []
            rc, err, out = in_process("onnx2memtris", onnx2memtris.main, args)
            kinds[rc] = kinds.get(rc, 0) + 1
            lines = len(err.splitlines())
            if rc not in (0, 1) or "internal error" in err or lines != (rc == 1) or (rc == 0) != bool(out) \
                    or " at 0x" in err:
                bad.append((k, rc, err[-200:]))
        check(not bad and kinds.get(1), f"400 corrupted models: one line or an export each ({kinds}): {bad[:3]}")
        mm = model([h.make_node("MatMul", ["A", "A"], ["C"], name="mm")], [vi("A", [2**20, 2**20], T.FLOAT16)],
                   [vi("C", None, T.FLOAT16)])
        refused(tmp, mm, ["node mm (MatMul)", "4.612e+10 ms", "1e+09"], "a flops Latency over 1e9 ms",
                ["--latency", "flops"])
        for e in (30, 31, 52):   # onnx 1.12's Concat wraps at 2^31: -2^31, 0, 0
            refused(tmp, model([h.make_node("Concat", ["X", "X"], ["C"], name="cat", axis=0)],
                               [vi("X", [2**e], T.UINT8)], [vi("C", None, T.UINT8)]),
                    ["node cat (Concat)", "'C'"], f"Concat of two 2^{e}: a wrapped length")
        g = onnx2memtris.export(model([h.make_node("Cast", ["X"], ["Y"], name="c", to=T.UINT8)],
                                      [vi("X", [MAX], T.UINT8)], [vi("Y", None, T.UINT8)]))
        v = subprocess.run([exe, "validate", "-"], input=json.dumps(g), capture_output=True, text=True)
        sizes = [n["Size"] for n in g["Nodes"] if n["Op"] == "ALLOC"]
        check(v.returncode == 0 and sizes == [MAX, MAX], f"tensors of 2^53-1 bytes are written: {sizes} {v.stderr}")
        refused(tmp, model([relu("Q", "Y", "r\x1b]2;pwned\x07")], [vi("X", [2])], [vi("Y", None)]),
                ["node r\\x1b]2;pwned\\x07 (Relu)"], "a node name with escapes is printed escaped")

# ---------------------------------------------------------------- fx2memtris.py
try:
    import torch  # noqa: F401
except ImportError as e:
    torch = None
    print(f"SKIP (part): needs python3-torch: torch is not importable ({e}); the fx2memtris cases are not run")

if torch is not None:
    import fx2memtris
    from torch.fx.passes.shape_prop import TensorMetadata

    # An input twice this machine's memory: refused before it is made.
    MEMORY = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "tiny.py"), "w") as f:
            f.write("import torch\nclass Tiny(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
                    "def Broken():\n    raise ValueError('no model today')\n"
                    "class Lin(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                    "        self.l = torch.nn.Linear(4, 3)\n    def forward(self, x):\n        return self.l(x)\n")
        outputs("fx2memtris.py", ["tiny:Tiny", "--input-shape", "4"], tmp, "fx2memtris.py", cwd=tmp)
        for args, words in ((["--input", ""], ["--input-shape", "got ''"]),   # the run
                            (["--input-shape", ""], ["--input-shape", "got ''"]),
                            (["--input-shape", "3,,4"], ["--input-shape", "got '3,,4'"]),
                            (["--input-shape", "4,"], ["--input-shape", "got '4,'"]),
                            (["--input-shape", "3,99999999,99999999"], ["--input-shape 3,99999999,99999999", "2^53-1"]),
                            (["--input-shape", str(2 * MEMORY // 4)], ["--input-shape", "memory"]),
                            (["--input-shape", "3,0,4"], ["--input-shape", "[1, 3, 0, 4]"]),
                            (["--input-shape", "3,-1,4"], ["--input-shape"]),
                            (["--input-shape", "3,x"], ["--input-shape", "3,x"]),
                            (["--batch", "99999999999999999999"], ["--batch"]), (["--batch", "0"], ["--batch"]),
                            (["--threads", "99999999999999999999"], ["--threads"]),
                            (["--repeats", "0"], ["--repeats"]), (["--streams", "65"], ["--streams"])):
            rc, err, _ = in_process("fx2memtris", fx2memtris.main, ["tiny:Tiny", *args])
            one_line("fx2memtris", rc, err, 2, words, f"fx2memtris {args}")
        cwd = os.getcwd()
        os.chdir(tmp)
        for spec, words in (("tiny:Broken", ["tiny:Broken", "no model today"]), ("nosuch:X", ["nosuch"]),
                            ("tiny:Nope", ["tiny:Nope"])):
            rc, err, _ = in_process("fx2memtris", fx2memtris.main, [spec, "--input-shape", "4"])
            one_line("fx2memtris", rc, err, 1, words, f"fx2memtris {spec}")
        # a shape the model cannot run: one line naming the node and torch's words (ShapeProp
        # printed the traceback and said "ShapeProp error for: node=%l : [#users=1] = ...")
        for extra in ([], ["--make-fx"], ["--train"]):
            rc, err, _ = in_process("fx2memtris", fx2memtris.main, ["tiny:Lin", "--input-shape", "5", *extra])
            one_line("fx2memtris", rc, err, 1, ["Lin", "mat1 and mat2 shapes cannot be multiplied (1x5 and 4x3)"],
                     f"fx2memtris tiny:Lin --input-shape 5 {extra}")
            check("ShapeProp" not in err and "#users" not in err, f"no fx internals in {err!r}")
        rc, err, _ = in_process("fx2memtris", fx2memtris.main, ["tiny:Lin", "--input-shape", "5"])
        one_line("fx2memtris", rc, err, 1, ["running Lin on an input of shape [1, 5] failed at its node l:"],
                 "the node that failed is named")
        os.chdir(cwd)
        ex = fx2memtris.Exporter(None, torch.float32, False)
        meta = TensorMetadata(torch.Size([2**30, 2**30, 2**5]), torch.float32, False, (1, 1, 1),
                              torch.contiguous_format, False, {})
        try:
            ex.new_buffer(meta, "huge", [])
            check(False, "an op's tensor of 2^67 bytes is refused")
        except fx2memtris.ExportError as e:
            check("op huge" in str(e) and "2^53-1" in str(e), f"an op's tensor of 2^67 bytes is refused: {e}")
finish()
