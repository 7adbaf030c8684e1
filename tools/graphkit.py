"""graphkit.py: a small builder of memtris graphs in the exporter's shape, for
the hand-made samples (make_demo.py, make_teaching.py): one ALLOC per op
output, ready when the op's inputs are; the op; a FREE after the last reader.
And the fork rule that spreads any memtris graph's compute nodes over streams
(assign_streams, set_streams), for fx2memtris.py and assign_streams.py; and
round_sig, write_compact and the FLOP estimate of --latency flops (op_flops,
flops_ms) for the exporters; open_output,
the output file whole or absent, for every tool that writes one; and what
makes every tool's error one line, never a traceback nor a repr (ArgumentParser, say,
describe, first_line, write_output, run_tool). And the exporters' post-passes: free_after_last_use
(Ids in execution order, each FREE right after its buffer's last use) and
inplace (--inplace: an elementwise op or a reshape writes its output over a
same-size input that dies there, as ONNX Runtime does)."""
import argparse
import contextlib
import heapq
import json
import os
import re
import signal
import stat
import sys
import tempfile

# Ops that move data between devices or host memory rather than compute: a
# copy engine's work, so they run on stream 1 whatever --streams says. On-device
# copies (contiguous, clone) are kernels like any other and are not here.
DATA_MOVEMENT_OPS = frozenset({"to", "cpu", "cuda", "copy_", "pin_memory"})
# Streams are 0..63.
MAX_STREAMS = 64
# --latency flops (fx2memtris.py, fxtrain.py, onnx2memtris.py): the throughput
# that turns operations into milliseconds; only the ratios between ops mean
# something.
FLOPS_PER_SECOND = 50e9
# op_flops's kinds of op.
FLOP_KINDS = ("none", "conv", "conv_transpose", "conv_backward", "matmul", "other")
# The largest Size memtris reads: 2^53-1 bytes, a JSON number exact in a double.
MAX_SIZE = 2**53 - 1
# The largest Latency memtris reads, in ms.
MAX_LATENCY_MS = 1e9


def printable(text):
    """text with control characters, DEL, C1 controls and undecodable bytes
    (argv's surrogate escapes) written as \\xNN: one line, nothing a terminal
    would act on."""
    return "".join(c if " " <= c < "\x7f" or "\xa0" <= c < "\ud800" or "\ue000" <= c <= "\U0010ffff"
                   else f"\\x{ord(c) & 0xFF:02x}" for c in str(text))


_REPR = re.compile(r"<[^<>]* at 0x[0-9a-fA-F]+>")


def _inner(e):
    """The exception Python wrapped in SystemError e ("<built-in method
    ParseFromString of ModelProto object at 0x7f...> returned a result with an
    exception set"), or e."""
    seen = set()
    while isinstance(e, SystemError) and (e.__cause__ or e.__context__) and id(e) not in seen:
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return e


def describe(e):
    """What exception e says, for a one-line message: its first line (of the
    exception inside a SystemError), never an object's repr ("<... at 0x...>")."""
    e = _inner(e)
    lines = [_REPR.sub("an object", line).strip() for line in str(e).strip().splitlines()]
    return lines[0] if lines and lines[0] else type(e).__name__


def first_line(e):
    """"TYPE: MESSAGE" of exception e (describe's), the type of the one inside
    a SystemError."""
    e, message = _inner(e), describe(e)
    return f"{type(e).__name__}: {message}" if message != type(e).__name__ else message


def say(name, message):
    """One line on standard error: "NAME: MESSAGE", made printable."""
    print(f"{name}: {printable(message)}", file=sys.stderr)


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, "NAME: MESSAGE (see --help)",
    exit 2 (argparse prints its usage first and says "PROG: error:")."""

    def __init__(self, *args, name, **kw):
        super().__init__(*args, **kw)
        self.name = name

    def error(self, message):
        say(self.name, f"{message} (see --help)")
        sys.exit(2)


def check_output_option(ap, path):
    """-o '' is a usage error (as memtris's -o)."""
    if path == "":
        ap.error("-o wants a file name, or - for standard output, not an empty string")


def output_problem(name, path):
    """Before long work: the one line write_output would print at the end for
    an -o into a folder or into a folder that does not exist (status 1), or
    None."""
    if path == "-":
        return None
    parent = os.path.dirname(path) or "."
    why = ("Is a directory" if os.path.isdir(path) else
           None if os.path.isdir(parent) else
           "Not a directory" if os.path.exists(parent) else "No such file or directory")
    if why:
        say(name, f"-o {path}: {why}")
    return why


def _silence_stdout():
    """After a failed write to standard output: send what is left to
    /dev/null, so that Python's flush at exit adds no second message."""
    with contextlib.suppress(OSError, ValueError):
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)


def write_output(name, path, write):
    """Calls write(f) with f open_output(path) gives; an OSError (a missing
    folder, a folder, a full disk, a closed pipe) is one line naming -o and
    the file, and status 1; else 0."""
    try:
        with open_output(path) as f:
            write(f)
    except OSError as e:
        where = "standard output" if path == "-" else f"-o {path}"
        say(name, f"{where}: {e.strerror or e}")
        if path == "-":
            _silence_stdout()
        return 1
    return 0


def run_tool(name, main):
    """main()'s exit status, with a last-resort net: Ctrl-C is "NAME:
    interrupted" (130), running out of memory "NAME: out of memory" (1), any
    other exception "NAME: internal error: TYPE: MESSAGE" (1), each one line;
    never a traceback."""
    try:
        rc = main()
    except KeyboardInterrupt:
        say(name, "interrupted")
        rc = 130
    except MemoryError:
        say(name, "out of memory")
        rc = 1
    except Exception as e:  # the net: every known error has its own message
        say(name, f"internal error: {first_line(e)}")
        rc = 1
    try:
        sys.stdout.flush()
    except OSError as e:
        say(name, f"standard output: {e.strerror or e}")
        _silence_stdout()
        rc = rc or 1
    return rc


class _Signalled(BaseException):
    """SIGTERM or SIGHUP while open_output writes: unwinds to its cleanup."""

    def __init__(self, sig):
        super().__init__(sig)
        self.sig = sig


def _on_signal(sig, frame):
    raise _Signalled(sig)


@contextlib.contextmanager
def open_output(path):
    """A text file to write path through, whole or absent (as memtris's -o):
    standard output for "-"; a device or a FIFO (not a regular file) written
    in place; otherwise a temporary file beside path (".NAME.XXXXXXXX", the
    old file's permissions or 0666 less the umask), synced and renamed over
    path when the block ends. An exception, Ctrl-C, SIGTERM or SIGHUP removes
    the temporary file and leaves an old path as it was (the signal then ends
    the process as it would have)."""
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(path, "w") as f:
            yield f
        return
    if old is not None and not os.access(path, os.W_OK):
        open(path, "a").close()  # the error open(path, "w") gives
    target = os.path.realpath(path) if old is not None else path
    try:
        tmp = tempfile.NamedTemporaryFile("w", dir=os.path.dirname(target) or ".", delete=False,
                                          prefix="." + os.path.basename(target)[:200] + ".")
    except PermissionError as e:
        if old is None:
            raise PermissionError(e.errno, e.strerror, path) from None
        with open(path, "w") as f:  # a folder that cannot hold it: in place
            yield f
        return
    except OSError as e:  # named as open(path, "w") names it
        raise OSError(e.errno, e.strerror, path) from None
    caught = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:
            caught[sig] = signal.signal(sig, _on_signal)
    try:
        if old is not None:
            os.fchmod(tmp.fileno(), stat.S_IMODE(old.st_mode))
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(tmp.fileno(), 0o666 & ~mask)
        yield tmp
        tmp.flush()
        os.fsync(tmp.fileno())
        tmp.close()
        os.replace(tmp.name, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.close()
        with contextlib.suppress(OSError):
            os.unlink(tmp.name)
        if isinstance(e, _Signalled):
            signal.signal(e.sig, signal.SIG_DFL)
            os.kill(os.getpid(), e.sig)
        raise
    finally:
        for sig, prev in caught.items():
            signal.signal(sig, prev)


def _name_text(value):
    """json's fallback: a protobuf string field that is not UTF-8 (python's
    protobuf gives bytes for it, in a corrupt .onnx) as text, bad bytes as
    U+FFFD; anything else is not JSON."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def write_compact(graph, path, name=None):
    """The exporters' output: graph as one line of compact JSON, to the file
    path (whole or absent: open_output) or to standard output for "-". With
    name, an OSError is write_output's one line and the result 1 (else 0);
    without, it is raised."""
    text = json.dumps(graph, separators=(",", ":"), default=_name_text) + "\n"
    if name is not None:
        return write_output(name, path, lambda f: f.write(text))
    with open_output(path) as f:
        f.write(text)
    return 0


def op_flops(kind, out=0, reads=0, k=0, src=0):
    """The operations of one op, --latency flops's estimate from shapes, the
    one every exporter uses: each says which kind its op is and counts its
    elements (fx2memtris.py's fx nodes, fxtrain.py's aten ops, onnx2memtris.py's
    ONNX nodes). One element read or written, or one multiply or add, counts
    as one operation:
    - "none": aliases, getitem, Input and Output: 0;
    - "conv": 2*out*k, out the output's elements (N*Cout*Hout*Wout), k one
      filter's (Cin/groups*kh*kw);
    - "conv_transpose": 2*src*k, src the input's elements (N*Cin*Hin*Win), k
      one filter's (Cout/groups*kh*kw);
    - "conv_backward": the input's and the weight's gradients, a convolution's
      2*src*k each, src the output gradient's elements, k one filter's;
    - "matmul" (linear, matmul, mm, bmm, addmm, baddbmm, Gemm): 2*out*k, out
      the output's elements (M*N, times the batch), k the summed dimension;
    - "other": the elements it reads and writes, reads + out.
    Integers in, an integer out."""
    if kind == "none":
        return 0
    if kind in ("conv", "matmul"):
        return 2 * out * k
    if kind == "conv_transpose":
        return 2 * src * k
    if kind == "conv_backward":
        return 4 * src * k
    if kind == "other":
        return reads + out
    raise ValueError(f"op_flops: no kind '{kind}' (one of {', '.join(FLOP_KINDS)})")


def flops_ms(flops):
    """flops operations in ms at FLOPS_PER_SECOND (unrounded)."""
    return 1e3 * flops / FLOPS_PER_SECOND


def round_sig(x, digits=4):
    """x rounded to `digits` significant digits (0 stays 0)."""
    return float(f"{x:.{digits}g}")


class Emitter:
    """Nodes and edges as an exporter writes them: node() gives each the next Id."""

    def __init__(self):
        self.nodes, self.edges = [], []

    def node(self, **kw):
        kw["Id"] = len(self.nodes)
        self.nodes.append(kw)
        return kw["Id"]

    def edge(self, u, v):
        """An edge u -> v, none where u is None or u is v."""
        if u is not None and u != v:
            self.edges.append([u, v])


class Graph(Emitter):
    def __init__(self):
        super().__init__()
        self.producer, self.readers, self.size, self.name = {}, {}, {}, {}

    def input(self, size, name="input"):
        """The network input: an ALLOC and an Input node that writes it."""
        buf = self._buffer(size, name)
        a = self.node(Op="ALLOC", Size=size, BufId=buf, Name=f"{name}.out")
        self.producer[buf] = self.node(Op="Input", Name=name, Inputs=[buf])
        self.edges.append([a, self.producer[buf]])
        return buf

    def op(self, name, opname, inputs, out_size):
        """An op reading the buffers `inputs` and writing a new buffer."""
        buf = self._buffer(out_size, name)
        alloc = self.node(Op="ALLOC", Size=out_size, BufId=buf, Name=f"{name}.out")
        for b in inputs:
            self.edges.append([self.producer[b], alloc])
        c = self.node(Op=opname, Name=name, Inputs=list(inputs) + [buf])
        self.edges.append([alloc, c])
        for b in inputs:
            self.edges.append([self.producer[b], c])
            self.readers.setdefault(b, []).append(c)
        self.producer[buf] = c
        return buf

    def output(self, bufs):
        """A final Output node reading bufs, then every buffer's FREE."""
        out = self.node(Op="Output", Name="output", Inputs=list(bufs))
        for b in bufs:
            self.edges.append([self.producer[b], out])
            self.readers.setdefault(b, []).append(out)
        for b in sorted(self.size):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.name[b]}")
            self.edges.append([self.producer[b], f])
            for r in self.readers.get(b, []):
                self.edges.append([r, f])
        return out

    def _buffer(self, size, name):
        buf = len(self.size) + 1
        self.size[buf], self.name[buf] = size, name
        return buf

    def dump(self, f=sys.stdout):
        json.dump({"Nodes": self.nodes, "Edges": self.edges}, f, separators=(", ", ": "))
        f.write("\n")


def is_compute(node):
    return node.get("Op") not in ("ALLOC", "FREE")


def assign_streams(graph, streams):
    """The fork rule: {Id: stream} for every compute node of a memtris JSON
    graph (a dict with "Nodes" and "Edges"), over streams 0..streams-1.

    The compute nodes are walked in the graph's order (the order of "Nodes";
    where an edge goes backwards in it, the topological order nearest it:
    Kahn's, the earliest node first). A compute node's compute predecessors are
    the compute nodes it depends on by an edge, looking through ALLOC and FREE
    nodes (they take no stream) and through data-movement ops. Then:
    - a data-movement op (Op in DATA_MOVEMENT_OPS: to, cpu, cuda, copy_,
      pin_memory) is on stream 1, whatever `streams` is, and counts as nobody's
      consumer;
    - a node with no compute predecessor is on stream 0;
    - a node that is the first compute consumer (in the walk) of one of its
      compute predecessors continues that predecessor's line; when it is the
      first consumer of several, the oldest of their lines (stream 0's line
      first, then the side branches in the order they forked): a chain stays
      on its stream, and a join (an add, a concat) goes back to the main
      branch's, whichever order its inputs were written in;
    - otherwise the node is a side branch of a fork (its producers' first
      consumers came before it): it starts a new line, on the next of streams
      1..streams-1 in turn (round robin, starting at 1), as people put a
      residual's downsample or an inception branch on a side stream; its own
      chain then follows it there.
    With streams 1 every compute node but data movement is on stream 0.
    Raises ValueError for streams outside 1..MAX_STREAMS, an edge naming an
    unknown Id, or a cycle."""
    if not isinstance(streams, int) or not 1 <= streams <= MAX_STREAMS:
        raise ValueError(f"streams must be an integer from 1 to {MAX_STREAMS}, not {streams!r}")
    nodes = graph["Nodes"]
    pos = {n["Id"]: i for i, n in enumerate(nodes)}
    preds = [[] for _ in nodes]
    indeg = [0] * len(nodes)
    for e in graph.get("Edges", []):
        u, v = pos.get(e[0]), pos.get(e[1])
        if u is None or v is None:
            raise ValueError(f"edge {list(e)} names a node that is not in Nodes")
        preds[v].append(u)
        indeg[v] += 1
    succ = [[] for _ in nodes]
    for v, ps in enumerate(preds):
        for u in ps:
            succ[u].append(v)
    ready = [i for i in range(len(nodes)) if indeg[i] == 0]
    heapq.heapify(ready)
    walk = []
    while ready:
        u = heapq.heappop(ready)
        walk.append(u)
        for v in succ[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                heapq.heappush(ready, v)
    if len(walk) != len(nodes):
        raise ValueError("the graph has a cycle; it has no order to walk")

    def forking(i):
        return is_compute(nodes[i]) and nodes[i]["Op"] not in DATA_MOVEMENT_OPS

    seen = [frozenset()] * len(nodes)   # what a consumer of node i sees as compute predecessors
    line, consumed, forks, out = {}, set(), 0, {}
    for v in walk:
        cp = set()
        for u in preds[v]:
            cp |= seen[u]
        if not forking(v):
            seen[v] = frozenset(cp)
            if is_compute(nodes[v]):
                out[nodes[v]["Id"]] = 1
            continue
        seen[v] = frozenset((v,))
        firsts = [u for u in cp if u not in consumed]
        if firsts:
            line[v] = min(line[u] for u in firsts)
        elif cp:
            forks += 1
            line[v] = forks
        else:
            line[v] = 0
        consumed |= cp
        k = line[v]
        out[nodes[v]["Id"]] = 0 if k == 0 or streams == 1 else 1 + (k - 1) % (streams - 1)
    return out


def set_streams(graph, streams):
    """Writes assign_streams's answer into graph: with streams > 1 a "Stream"
    on every compute node; with 1, only on data-movement ops (stream 1), the
    rest left to the default, stream 0. No ALLOC or FREE keeps a "Stream"."""
    got = assign_streams(graph, streams)
    for n in graph["Nodes"]:
        s = got.get(n["Id"])
        if s is None or streams == 1 and n["Op"] not in DATA_MOVEMENT_OPS:
            n.pop("Stream", None)
        else:
            n["Stream"] = s
    return graph


# --inplace (both exporters): the ops that may write their one output over an
# input (compared as op_key gives them). Elementwise: every output element is
# computed from the same element of each input (broadcast inputs are never the
# same size as the output, so never overwritten).
INPLACE_ELEMENTWISE_OPS = frozenset({
    "relu", "relu6", "leakyrelu", "leaky_relu", "prelu", "elu", "selu", "celu", "gelu", "silu", "mish",
    "sigmoid", "hardsigmoid", "hardswish", "hardtanh", "tanh", "softplus", "softsign", "clip", "clamp",
    "threshold", "thresholdedrelu", "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "erf", "sin",
    "cos", "floor", "ceil", "round", "sign", "not", "logical_not", "add", "sub", "mul", "div", "truediv",
    "pow", "minimum", "maximum", "where", "and", "or", "xor", "logical_and", "logical_or", "logical_xor"})
# Reshapes: the same elements in the same order under a new shape (where an
# exporter gives one its own buffer).
INPLACE_RESHAPE_OPS = frozenset({"reshape", "view", "_unsafe_view", "flatten", "unflatten", "squeeze",
                                 "unsqueeze"})
INPLACE_OPS = INPLACE_ELEMENTWISE_OPS | INPLACE_RESHAPE_OPS
# Buffers --inplace never overwrites (nor makes an alias of), by their ALLOC's
# Category: what the caller hands in or gets back, and what lives on.
INPLACE_KEPT_CATEGORIES = frozenset({"input", "weight", "output", "optimizer"})


def op_key(op):
    """An Op as INPLACE_OPS lists it: lower case, without a leading "aten::"
    or a trailing ".overload" (ONNX "Relu", torch "ReLU", "relu" and
    "relu.default" are all "relu")."""
    op = str(op)
    if op.startswith("aten::"):
        op = op[len("aten::"):]
    return op.split(".", 1)[0].lower()


def renumber(graph, order):
    """Rewrites graph with its nodes in `order` (a list of its node dicts),
    Ids 0, 1, ... in that order, the edges renamed (and those to a node not in
    order dropped)."""
    new = {n["Id"]: i for i, n in enumerate(order)}
    edges = []
    for u, v in graph.get("Edges", []):
        if u in new and v in new:
            edges.append([new[u], new[v]])
    for n in order:
        n["Id"] = new[n["Id"]]
    graph["Nodes"], graph["Edges"] = order, edges
    return graph


def free_after_last_use(graph):
    """Puts each FREE right after the last node it depends on (its buffer's
    last use), FREEs after one node in BufId order, the rest of the nodes in
    Id order, and renumbers the Ids 0, 1, ...: with the compute nodes and
    ALLOCs in execution order, Ids are then the framework's order with every
    buffer freed as soon as it is dead (memtris's policy `given`)."""
    nodes = sorted(graph["Nodes"], key=lambda n: n["Id"])
    preds = {}
    for u, v in graph.get("Edges", []):
        preds.setdefault(v, []).append(u)
    pos = {n["Id"]: i for i, n in enumerate(nodes) if n["Op"] != "FREE"}
    alloc = {n["BufId"]: n["Id"] for n in nodes if n["Op"] == "ALLOC"}
    after = {}
    for n in nodes:
        if n["Op"] == "FREE":
            anchor = max((u for u in preds.get(n["Id"], []) if u in pos), key=pos.get,
                         default=alloc.get(n["BufId"]))
            after.setdefault(anchor, []).append(n)
    order = list(after.pop(None, []))
    for n in nodes:
        if n["Op"] != "FREE":
            order.append(n)
            order += sorted(after.get(n["Id"], []), key=lambda f: f["BufId"])
    return renumber(graph, order)


def _inplace_state(graph):
    nodes = sorted(graph["Nodes"], key=lambda n: n["Id"])
    alloc, free, touchers, preds = {}, {}, {}, {}
    for u, v in graph.get("Edges", []):
        preds.setdefault(v, set()).add(u)
    for n in nodes:
        if n["Op"] == "ALLOC":
            alloc[n["BufId"]] = n
        elif n["Op"] == "FREE":
            free[n["BufId"]] = n
        else:
            for b in dict.fromkeys(n.get("Inputs", [])):
                touchers.setdefault(b, []).append(n["Id"])
    kept = {n_b for n_b, a in alloc.items() if a.get("Category") in INPLACE_KEPT_CATEGORIES}
    for b, a in alloc.items():
        f = free.get(b)
        if f is None or preds.get(f["Id"], set()) - set(touchers.get(b, [])) - {a["Id"]}:
            kept.add(b)      # never freed, or freed after something it does not touch: lives on
    for n in nodes:
        if n["Op"] in ("Input", "Output"):
            kept.update(n.get("Inputs", []))
    return nodes, alloc, free, touchers, kept


def inplace(graph):
    """The --inplace post-pass, on a memtris graph whose Ids are in execution
    order (at least its compute nodes'; tools/README.md states the rule): a
    compute node whose op_key is in INPLACE_OPS, that makes exactly one buffer
    O (O's first toucher), writes O over an input buffer B of the same Size
    when B dies at that node (the node is B's last toucher in Id order) and
    neither B nor O is kept (INPLACE_KEPT_CATEGORIES, a buffer an Input or
    Output node touches, a buffer never freed or freed after a node that does
    not touch it). O becomes B: O's ALLOC and B's FREE go, O's touchers read
    B, O's FREE frees B (so B's FREE moves to O's last use), and B's other
    touchers get an edge to the node (it overwrites what they read). B keeps
    its ALLOC, Category and BufId. Chains merge (relu over add over conv).
    Ids are renumbered 0, 1, ... in order. Returns how many outputs became
    aliases."""
    nodes, alloc, free, touchers, kept = _inplace_state(graph)
    by_id = {n["Id"]: n for n in nodes}
    made_by = {}
    for b, ts in touchers.items():
        if b in alloc:
            made_by.setdefault(ts[0], []).append(b)
    dropped, moved, extra = set(), {}, []     # ALLOCs gone; FREE gone -> the FREE that replaces it
    for c in nodes:
        if c["Op"] in ("ALLOC", "FREE") or op_key(c["Op"]) not in INPLACE_OPS:
            continue
        outs = made_by.get(c["Id"], [])
        if len(outs) != 1 or outs[0] in kept or outs[0] not in free:
            continue
        o = outs[0]
        b = next((b for b in dict.fromkeys(c.get("Inputs", [])) if b != o and b in alloc and b not in kept
                  and b in free and alloc[b]["Size"] == alloc[o]["Size"] and touchers[b][-1] == c["Id"]), None)
        if b is None:
            continue
        extra += [[alloc[b]["Id"], c["Id"]]] + [[t, c["Id"]] for t in touchers[b][:-1]]
        c["InPlace"] = list(dict.fromkeys(c.get("InPlace", []) + [b]))
        for t in touchers[o]:
            by_id[t]["Inputs"] = list(dict.fromkeys(b if x == o else x for x in by_id[t]["Inputs"]))
        touchers[b] += touchers[o][1:]
        fo, fb = free.pop(o), free[b]
        fo["BufId"], fo["Name"] = b, fb.get("Name", fo.get("Name"))
        moved[fb["Id"]] = fo["Id"]
        dropped.add(alloc.pop(o)["Id"])
        free[b] = fo
    if not dropped:
        return 0

    def find(x):
        while x in moved:
            x = moved[x]
        return x

    edges, seen = [], set()
    for u, v in graph.get("Edges", []) + extra:
        if u in dropped or v in dropped:   # O's ALLOC: its readiness is the op's, its reader the op
            continue
        u, v = find(u), find(v)
        if u != v and (u, v) not in seen:
            seen.add((u, v))
            edges.append([u, v])
    graph["Edges"] = edges
    renumber(graph, [n for n in nodes if n["Id"] not in dropped and n["Id"] not in moved])
    return len(dropped)
