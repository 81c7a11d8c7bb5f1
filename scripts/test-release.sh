#!/usr/bin/env bash
# Installs what scripts/release.sh built the way a user would, where no JDK and no Maven exist (the
# Debian 12 root that scripts/provision-targets.sh provides), and runs it against a real CPython:
# the archive unpacked (bin/remora dump, --version, completions, agent), and the wheel installed with pip
# into a fresh venv (remora dump and remora attach -a --pstats). Exits non-zero on the first failure.
set -euo pipefail

ROOT=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
DIST=$ROOT/dist
CHROOT=${REMORA_CACHE:-/var/cache/remora}/bookworm-root
PYTHON=/usr/bin/python3.11
WORK=/tmp/remora-release-test   # inside the root
CLEAN_ENV=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8)

fail() { echo "test-release: FAILED: $*" >&2; exit 1; }
pass() { echo "test-release: ok: $*" >&2; }
in_root() { chroot "$CHROOT" "${CLEAN_ENV[@]}" "$@"; }

shopt -s nullglob
archives=("$DIST"/remora-*-linux-x86_64.tar.gz)
wheels=("$DIST"/remora-*-py3-none-manylinux_2_17_x86_64.whl)
[ ${#archives[@]} = 1 ] && [ ${#wheels[@]} = 1 ] || fail "expected one archive and one wheel in $DIST (run scripts/release.sh)"
archive=${archives[0]}
wheel=${wheels[0]}
name=$(basename "$archive" -linux-x86_64.tar.gz)

[ -x "$CHROOT$PYTHON" ] || fail "no $PYTHON in $CHROOT (run scripts/provision-targets.sh)"
mountpoint -q "$CHROOT/proc" || mount -t proc proc "$CHROOT/proc"
# The point: nothing Java or Maven to fall back on.
in_root sh -c 'command -v java || command -v mvn || ls -d /usr/lib/jvm' >/dev/null 2>&1 \
    && fail "$CHROOT has a JDK or Maven"

rm -rf "${CHROOT:?}$WORK"
mkdir -p "$CHROOT$WORK"
tar -xzf "$archive" -C "$CHROOT$WORK"
cp "$wheel" "$CHROOT$WORK/"
cp "$ROOT/scripts/release/release_target.py" "$CHROOT$WORK/"

chroot "$CHROOT" "$PYTHON" "$WORK/release_target.py" >"$CHROOT$WORK/target.out" 2>&1 &
target=$!
trap 'kill "$target" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    grep -q READY "$CHROOT$WORK/target.out" && break
    sleep 0.1
done
grep -q READY "$CHROOT$WORK/target.out" || fail "the target did not start: $(cat "$CHROOT$WORK/target.out")"

remora=$WORK/$name/bin/remora
out=$(in_root "$remora" --version) || fail "bin/remora --version: $out"
[[ $out =~ ^remora\ [0-9][^\ ]*\ \(commit\ [0-9a-f]{7,}\)$ ]] || fail "--version printed '$out'"
pass "archive: $out"

out=$(in_root "$remora" dump -a "$target" 2>&1) || fail "bin/remora dump -a: $out"
grep -q parked_in_release_test <<<"$out" || fail "the archive's dump lacks the parked function: $out"
grep -q busy_in_release_test <<<"$out" || fail "the archive's dump lacks the busy thread: $out"
pass "archive: bin/remora dump -a $target"

# The trimmed runtime must hold what every native binding needs.
for binding in jna jnr; do
    out=$(in_root "$remora" dump --native-binding "$binding" "$target" 2>&1) || fail "dump --native-binding $binding: $out"
    grep -q parked_in_release_test <<<"$out" || fail "the $binding dump lacks the parked function: $out"
done
pass "archive: dump with the jna and jnr bindings"

# zstd's native library, loaded from its jar, must work in the trimmed runtime too.
out=$(in_root "$remora" attach -a -d 0.5 --binary -o "$WORK/capture.bin" "$target" 2>&1) || fail "bin/remora attach --binary: $out"
out=$(in_root "$remora" replay --collapsed -o "$WORK/replayed.txt" "$WORK/capture.bin" 2>&1) || fail "bin/remora replay: $out"
grep -q busy_in_release_test "$CHROOT$WORK/replayed.txt" || fail "the replayed capture lacks the busy thread: $out"
pass "archive: attach --binary (zstd) and replay"

# The agent needs what the trimmed runtime must carry for it (java.net.http, the signal API): a window
# of the target written, then SIGTERM delivers the one under way and exits 0.
# Not through in_root: a function run in the background is a subshell, which the signal would end instead.
chroot "$CHROOT" "${CLEAN_ENV[@]}" "$remora" agent --pid "$target" --upload-interval 1 --directory "$WORK/agent" \
    >"$CHROOT$WORK/agent.log" 2>&1 &
agent=$!
for _ in $(seq 100); do
    compgen -G "$CHROOT$WORK/agent/*.$target.*.pb.gz" >/dev/null && break
    sleep 0.1
done
kill -TERM "$agent"
wait "$agent" || fail "bin/remora agent did not exit 0 on SIGTERM: $(cat "$CHROOT$WORK/agent.log")"
compgen -G "$CHROOT$WORK/agent/*.$target.*.pb.gz" >/dev/null || fail "the agent wrote no window: $(cat "$CHROOT$WORK/agent.log")"
pass "archive: agent --directory, stopped by SIGTERM"

in_root bash -c "source $WORK/$name/share/bash-completion/completions/remora && complete -p remora" >/dev/null \
    || fail "the bash completion does not load"
[ -s "$CHROOT$WORK/$name/share/zsh/site-functions/_remora" ] || fail "no zsh completion"
pass "archive: completions"

in_root "$PYTHON" -m venv "$WORK/venv" || fail "python3.11 -m venv"
in_root "$WORK/venv/bin/pip" install --no-index --quiet "$WORK/$(basename "$wheel")" || fail "pip install of the wheel"
venv_remora=(chroot "$CHROOT" env -i PATH="$WORK/venv/bin:/usr/bin:/bin" HOME=/root LANG=C.UTF-8 remora)
out=$("${venv_remora[@]}" dump -a "$target" 2>&1) || fail "the wheel's remora dump -a: $out"
grep -q parked_in_release_test <<<"$out" || fail "the wheel's dump lacks the parked function: $out"
pass "wheel: pip install into a fresh venv; remora dump -a $target"

out=$("${venv_remora[@]}" attach -a -d 1 --pstats -o "$WORK/profile.pstats" "$target" 2>&1) \
    || fail "the wheel's remora attach: $out"
check='import pstats, sys
stats = pstats.Stats(sys.argv[1]).stats
names = {func[2] for func in stats}
assert "busy_in_release_test" in names, sorted(names)'
in_root "$PYTHON" -c "$check" "$WORK/profile.pstats" || fail "the profile lacks the busy function: $out"
pass "wheel: remora attach -a -d 1 --pstats $target"

kill "$target" 2>/dev/null || true
rm -rf "${CHROOT:?}$WORK"
echo "test-release: all passed" >&2
