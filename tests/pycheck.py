"""pycheck.py: the counting check() the Python end-to-end tests share
(test_samples.py, test_exporter.py, test_assign_streams.py): check(ok, what)
counts a pass or prints "FAIL: what"; finish() prints "N passed, M failed" and
exits 1 on any failure."""
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
