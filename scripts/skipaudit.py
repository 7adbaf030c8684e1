#!/usr/bin/env python3
"""skipaudit.py: what the suite did not run, and whether it may leave it out.

A test that cannot run, whole or in part, for something missing says so in
one line of its output (tests/README.md):
    SKIP: needs WHAT: why                  the whole test (it exits 77)
    SKIP (part): needs WHAT: what is not run
WHAT is the Debian package that provides the missing thing, named as the
README's test command names it (python3-torch, tmux, clang-format), or, for
what no package of that command provides, a few words (a CUDA device, a user
namespace, a build without sanitizers).

  skipaudit.py run [--readme FILE] [--list FILE] [--label L] BUILD_DIR [CTEST_ARG...]
      ctest --test-dir BUILD_DIR CTEST_ARG..., keeping every test's whole
      output in BUILD_DIR/Testing/junit.xml, then the audit of it;
  skipaudit.py audit [--readme FILE] [--list FILE] [--label L] JUNIT...
      the audit of ctest's JUnit results (ctest --output-junit).
The audit fails (status 1), naming each, on a SKIP line whose WHAT holds a
package that the README's test command installs (the `apt-get ... install -y
...` line after "Install, build and run every test", as .ci/run finds it:
every package on it counts), on a SKIP line that names no need, and on a test
that exits 77 without a SKIP line. The other skips are allowed; --list FILE
appends each there as a line "[L] TEST: SKIP ...", for scripts/check to show
at its end. Status 0 or 1 as said (run: 1 also when ctest fails), 2 for a
usage error, results that cannot be read or a README without that line."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "..", "README.md")
# ctest keeps 1024 bytes of a passed test's output by default: a SKIP (part)
# line further on would be lost.
OUTPUT_BYTES = 64 * 1024 * 1024
SKIP_LINE = re.compile(r"^SKIP( \(part\))?: (.*)$")
NEED = re.compile(r"^needs (.+?)(?:: (.*))?$")


class Refusal(Exception):
    """A usage error or unreadable input: status 2."""


def readme_packages(path):
    """The packages of the README's test command (the apt-get line after
    "Install, build and run every test")."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise Refusal(f"cannot read {path}: {e.strerror}")
    start = next((i for i, line in enumerate(lines) if line.startswith("Install, build and run every test")),
                 None)
    cmd = None if start is None else next((line for line in lines[start:] if line.startswith("apt-get")), None)
    if cmd is None:
        raise Refusal(f"{path}: no test command (an apt-get line after 'Install, build and run every test')")
    packages = set()
    for part in cmd.split("&&"):
        words = part.split()
        if "install" in words and words[0] in ("apt-get", "apt"):
            packages.update(w for w in words[words.index("install") + 1:] if not w.startswith("-"))
    if not packages:
        raise Refusal(f"{path}: the test command installs no package: {cmd}")
    return packages


def audit_case(name, out, skipped, packages):
    """(errors, allowed): lines about one test's output."""
    errors, allowed = [], []
    lines = [m for m in (SKIP_LINE.match(line.strip()) for line in out.splitlines()) if m]
    if skipped and not any(not m.group(1) for m in lines):
        errors.append(f"{name}: skipped (status 77) without a 'SKIP: needs WHAT: why' line")
    for m in lines:
        need = NEED.match(m.group(2))
        if not need:
            errors.append(f"{name}: a SKIP line that names no need ('SKIP: needs WHAT: why'): {m.group(0)}")
            continue
        words = {w.strip("()[],;:'\"") for w in need.group(1).split()}
        provided = sorted(words & packages)
        if provided:
            errors.append(f"{name}: {m.group(0)}\n    {', '.join(provided)}: the README's test command installs "
                          f"{'it' if len(provided) == 1 else 'them'}, so this must run")
        else:
            allowed.append(f"{name}: {m.group(0)}")
    return errors, allowed


def audit(junits, packages):
    errors, allowed = [], []
    for path in junits:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            raise Refusal(f"cannot read ctest's results {path}: {e}")
        for case in root.iter("testcase"):
            skipped = case.find("skipped") is not None
            out = "".join(case.findtext(tag) or "" for tag in ("system-out", "system-err"))
            e, a = audit_case(case.get("name", "?"), out, skipped, packages)
            errors += e
            allowed += a
    return errors, allowed


def main(argv):
    if not argv or argv[0] not in ("run", "audit"):
        raise Refusal("usage: skipaudit.py run|audit [--readme FILE] [--list FILE] [--label L] ...")
    mode, args = argv[0], argv[1:]
    opts = {"--readme": README, "--list": None, "--label": None}
    while args and args[0] in opts:
        if len(args) < 2:
            raise Refusal(f"{args[0]} wants a value")
        opts[args[0]] = args[1]
        args = args[2:]
    if not args:
        raise Refusal(f"skipaudit.py {mode}: {'a build folder' if mode == 'run' else 'JUnit files'} wanted")
    packages = readme_packages(opts["--readme"])
    status = 0
    if mode == "run":
        build, ctest_args = args[0], args[1:]
        junit = os.path.abspath(os.path.join(build, "Testing", "junit.xml"))
        os.makedirs(os.path.dirname(junit), exist_ok=True)
        if os.path.exists(junit):
            os.remove(junit)
        rc = subprocess.call(["ctest", "--test-dir", build, "--output-junit", junit,
                              "--test-output-size-passed", str(OUTPUT_BYTES), *ctest_args])
        status = 1 if rc else 0
        if not os.path.exists(junit):
            print(f"skipaudit: ctest wrote no results ({junit}), so its skips are not audited")
            return 1
        args = [junit]
    errors, allowed = audit(args, packages)
    if opts["--list"] and allowed:
        label = f"[{opts['--label']}] " if opts["--label"] else ""
        with open(opts["--list"], "a", encoding="utf-8") as f:
            f.writelines(f"{label}{line}\n" for line in allowed)
    if errors:
        print(f"\nskipaudit: {len(errors)} skip{'s' if len(errors) > 1 else ''} not allowed "
              "(a test left out for what the README's test command installs, or without its reason):")
        for e in errors:
            print(f"  {e}")
        status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Refusal as e:
        print(f"skipaudit: {e}", file=sys.stderr)
        sys.exit(2)
