"""pycheck.py: the counting check() the Python end-to-end tests share
(test_samples.py, test_exporter.py, test_onnx.py, test_assign_streams.py):
check(ok, what) counts a pass or prints "FAIL: what"; finish() prints "N
passed, M failed" and exits 1 on any failure; require(module, package) imports
a module or skips the test (exit 77, ctest's SKIP_RETURN_CODE) naming the
Debian package it needs."""
import importlib
import sys

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def require(module, package):
    """The module, imported; without it, "SKIP: needs PACKAGE: ..." (the
    Debian package the README's test command installs; tests/README.md, and
    scripts/check fails on it) and exit 77."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        print(f"SKIP: needs {package}: {module} is not importable ({e}); the README's test command installs it")
        sys.exit(77)
