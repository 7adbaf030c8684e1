#!/usr/bin/env python3
"""test_skipaudit.py: scripts/check's skip audit (scripts/skipaudit.py), without
running the check. The README's test command is read for its packages; a
test skipped for one of them (whole, or in part after more output than ctest
keeps by default) fails the audit, naming the test and the package, through
ctest itself on a small CMake project as scripts/check runs it; a skip for
something no package of the command provides (a CUDA device) passes and is
listed; a skip without its reason, or a SKIP line that names no need, fails.
And every SKIP line the tests print says "SKIP: needs WHAT" or "SKIP (part):
needs WHAT" (tests/README.md). Usage: test_skipaudit.py SRCDIR"""
import glob
import os
import re
import subprocess
import sys
import tempfile

src = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402

AUDIT = os.path.join(src, "scripts", "skipaudit.py")
README = os.path.join(src, "README.md")
sys.path.insert(0, os.path.join(src, "scripts"))
import skipaudit  # noqa: E402


def audit(tmp, cases, readme=README, label="t"):
    """(status, stdout, the allowed list) of skipaudit.py audit on a JUnit file
    of cases: (name, skipped, output)."""
    from xml.sax.saxutils import escape
    path = os.path.join(tmp, "junit.xml")
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="t" tests="%d">\n' % len(cases))
        for name, skipped, out in cases:
            f.write(f'<testcase name="{name}" classname="{name}" time="0.1" status="{"notrun" if skipped else "run"}">\n')
            if skipped:
                f.write('<skipped message="SKIP_RETURN_CODE=77"/>\n')
            f.write(f"<system-out>{escape(out)}</system-out>\n</testcase>\n")
        f.write("</testsuite>\n")
    listed = os.path.join(tmp, "allowed.txt")
    if os.path.exists(listed):
        os.remove(listed)
    r = subprocess.run([sys.executable, AUDIT, "audit", "--readme", readme, "--list", listed, "--label", label, path],
                       capture_output=True, text=True)
    allowed = open(listed).read() if os.path.exists(listed) else ""
    return r.returncode, r.stdout + r.stderr, allowed


# The README's test command, read as .ci/run reads it.
packages = skipaudit.readme_packages(README)
want = {"python3-torch", "python3-torchvision", "python3-onnx", "tmux", "clang-format", "pyflakes3", "valgrind",
        "python3"}
check(want <= packages, f"the README's test command installs {sorted(want - packages)}: {sorted(packages)}")

with tempfile.TemporaryDirectory(prefix="memtris skipaudit.") as tmp:
    torch = ("test_exporter", True, "SKIP: needs python3-torch: torch is not importable (No module named 'torch')\n")
    rc, out, allowed = audit(tmp, [torch])
    check(rc == 1 and "test_exporter" in out and "python3-torch: the README's test command installs it" in out,
          f"a skip for python3-torch fails the audit: status {rc}, {out!r}")
    part = ("test_valgrind.tui", False, "x" * 2000 + "\nSKIP (part): needs tmux: the TUI under valgrind\n3 passed\n")
    rc, out, _ = audit(tmp, [part])
    check(rc == 1 and "test_valgrind.tui" in out and "tmux:" in out, f"a part skipped for tmux fails: {rc}, {out!r}")
    two = ("test_onnx", False, "SKIP (part): needs python3-torch python3-torchvision: no torch\n")
    rc, out, _ = audit(tmp, [two])
    check(rc == 1 and "python3-torch, python3-torchvision" in out, f"two packages named: {rc}, {out!r}")
    gpu = ("test_replay.cuda", False, "SKIP (part): needs a CUDA device: the replay on one is not run\n")
    ok = ("test_cli.help", False, "12 passed, 0 failed\n")
    rc, out, allowed = audit(tmp, [gpu, ok], label="normal")
    check(rc == 0 and allowed == "[normal] test_replay.cuda: SKIP (part): needs a CUDA device: the replay on one "
          "is not run\n", f"a skip for a CUDA device passes and is listed: {rc}, {out!r}, {allowed!r}")
    rc, out, _ = audit(tmp, [("test_x", True, "nothing to say\n")])
    check(rc == 1 and "test_x: skipped (status 77) without" in out, f"a skip without a SKIP line fails: {out!r}")
    rc, out, _ = audit(tmp, [("test_y", True, "SKIP: torch is missing\n")])
    check(rc == 1 and "names no need" in out, f"a SKIP line that names no need fails: {out!r}")
    rc, out, _ = audit(tmp, [("test_z", True, "SKIP (part): needs a CUDA device: none\n")])
    check(rc == 1 and "without a 'SKIP: needs" in out, f"a test that exits 77 saying only SKIP (part): {out!r}")
    bare = os.path.join(tmp, "README.md")
    with open(bare, "w") as f:
        f.write("# x\n\nInstall, build and run every test:\n\n```sh\nmake test\n```\n")
    rc, out, _ = audit(tmp, [ok], readme=bare)
    check(rc == 2 and "no test command" in out, f"a README without the test command: status {rc}, {out!r}")

    # Through ctest, as scripts/check runs it: a project whose tests skip.
    def project(name, tests):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\nenable_testing()\n")
            for t, script in tests:
                with open(os.path.join(d, t + ".sh"), "w") as s:
                    s.write(script)
                f.write(f'add_test(NAME {t} COMMAND sh "${{CMAKE_CURRENT_SOURCE_DIR}}/{t}.sh")\n'
                        f"set_tests_properties({t} PROPERTIES SKIP_RETURN_CODE 77)\n")
        b = os.path.join(d, "build")
        r = subprocess.run(["cmake", "-S", d, "-B", b], capture_output=True, text=True)
        check(r.returncode == 0, f"cmake configures {name}: {r.stderr[-300:]}")
        listed = os.path.join(tmp, name + ".txt")
        r = subprocess.run([sys.executable, AUDIT, "run", "--list", listed, "--label", name, b],
                           capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr, open(listed).read() if os.path.exists(listed) else ""

    pad = "i=0; while [ $i -lt 200 ]; do echo \"padding line $i of a long output\"; i=$((i+1)); done\n"
    rc, out, listed = project("installed", [
        ("fine", "echo '3 passed, 0 failed'\n"),
        ("torch", "echo 'SKIP: needs python3-torch: torch is not importable'; exit 77\n")])
    check(rc == 1 and "torch: SKIP: needs python3-torch" in out and "the README's test command installs it" in out,
          f"ctest, then the audit: a skip for python3-torch fails it: status {rc}, {out[-600:]!r}")
    rc, out, listed = project("late", [("part", pad + "echo 'SKIP (part): needs tmux: not run'\n")])
    check(rc == 1 and "part: SKIP (part): needs tmux" in out,
          f"ctest, then the audit: a part skipped for tmux after 8 KiB of output fails it: {rc}, {out[-600:]!r}")
    rc, out, listed = project("elsewhere", [
        ("gpu", pad + "echo 'SKIP (part): needs a CUDA device: not run'\n"),
        ("ns", "echo 'SKIP: needs a user namespace: none here'; exit 77\n")])
    check(rc == 0 and "[elsewhere] gpu: SKIP (part): needs a CUDA device" in listed and
          "[elsewhere] ns: SKIP: needs a user namespace" in listed,
          f"ctest, then the audit: skips for what the README does not install pass, listed: {rc}, {listed!r}")
    rc, out, listed = project("failing", [("bad", "echo 'FAIL: it'; exit 1\n")])
    check(rc == 1, f"ctest, then the audit: a failing test fails the run: {rc}")

# Every SKIP line the tests print names its need.
said = re.compile(r"SKIP( \(part\))?: needs ")
for path in sorted(glob.glob(os.path.join(src, "tests", "*.*")) + glob.glob(os.path.join(src, "tests", "fuzz", "*.*"))):
    if os.path.basename(path) == "test_skipaudit.py" or not path.endswith((".sh", ".py", ".c", ".h")):
        continue
    for i, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        for m in re.finditer(r"""["'](SKIP[^"']*)""", line):
            check(said.match(m.group(1)), f"{os.path.relpath(path, src)}:{i}: a SKIP line that names no need "
                  f"(tests/README.md: 'SKIP: needs WHAT: why'): {m.group(1)[:80]}")
        if re.search(r"""echo ["']skip""", line, re.I) and "SKIP" not in line:
            check(False, f"{os.path.relpath(path, src)}:{i}: a skip said other than 'SKIP: needs WHAT: why'")

finish()
