# tmuxlib.sh: what the tmux tests share, sourced after `pass=0 fail=0`:
# tmux_setup NAME (a server and a work folder of their own, both gone on
# exit; the server stays up between sessions; exit 77 when tmux is missing),
# T (tmux on that server), screen, ok, bad (with the screen), wait_for TEXT
# [TENTHS] and check WHAT TEXT [TENTHS]. $session names the session screen reads.

tmux_setup() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP: needs tmux: it is not installed (the README's test command installs it)"
        exit 77
    fi
    sock="memtris-$1-$$"
    work=$(mktemp -d "${TMPDIR:-/tmp}/memtris-$1.XXXXXX")
    # A server of our own that reads no ~/.tmux.conf, runs the session commands
    # with bash whatever the user's SHELL, and is not nested in the user's tmux.
    unset TMUX
    trap cleanup EXIT
    # A server that outlives its sessions: killing the last one would make it exit,
    # and a new-session racing that exit fails with "server exited unexpectedly".
    T start-server \; set-option -s exit-empty off
}
T() { SHELL=/bin/bash tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server 2>/dev/null; rm -rf "$work"; }

ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; echo "--- screen ---"; screen; echo "--------------"; }
screen() { T capture-pane -p -t "$session" 2>/dev/null; }
# wait_for TEXT [TENTHS]: polls the screen until TEXT shows (at most TENTHS tenths of a
# second, ~10 s by default).
wait_for() {
    for _ in $(seq "${2:-100}"); do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
# check WHAT TEXT [TENTHS]: ok when TEXT shows within the wait_for's time.
check() { if wait_for "${@:2}"; then ok "$1"; else bad "$1 (expected '$2')"; fi; }
