#!/usr/bin/env bash
# Provisions the CPython interpreters the tests inspect: a Debian sid root with
# python3.13, 3.14 and 3.15 (GIL builds), plus pyenv's shared-library 3.13.0 when
# the machine has it. Idempotent; the root is cached outside the repository.
# Writes the list of targets to $REMORA_TARGETS_FILE (one "name<TAB>root<TAB>exe" line each).
set -euo pipefail

CACHE=${REMORA_CACHE:-/var/cache/remora}
ROOT=$CACHE/sid-root
TARGETS_FILE=${REMORA_TARGETS_FILE:-$CACHE/targets.tsv}
VERSIONS=(3.13 3.14 3.15)
# The shared libpythons let tests load a second, never-initialised runtime into a static interpreter.
PACKAGES=$(for v in "${VERSIONS[@]}"; do printf 'python%s,libpython%s,' "$v" "$v"; done)
PACKAGES=${PACKAGES%,}
MIRROR=${REMORA_DEBIAN_MIRROR:-http://deb.debian.org/debian}

log() { printf 'provision: %s\n' "$*" >&2; }
die() { printf 'provision: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot and mount need it)"

need_apt_update=1
apt_install() {
    if [ $need_apt_update = 1 ]; then apt-get update -qq >&2 || die "apt-get update failed"; need_apt_update=0; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2 || die "apt-get install $* failed"
}

command -v debootstrap >/dev/null || apt_install debootstrap

mkdir -p "$CACHE"
# The marker records what the root was built with; a different package list rebuilds it.
if [ "$(cat "$ROOT/.remora-ready" 2>/dev/null)" != "$PACKAGES" ]; then
    log "building Debian sid root in $ROOT ($PACKAGES)"
    for stale in "$ROOT" "$ROOT.tmp"; do
        if mountpoint -q "$stale/proc"; then umount "$stale/proc"; fi
    done
    rm -rf "$ROOT.tmp"
    debootstrap --variant=minbase --include="$PACKAGES" sid "$ROOT.tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
        || { tail -20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
    rm -rf "$ROOT"
    mv "$ROOT.tmp" "$ROOT"
    printf '%s' "$PACKAGES" >"$ROOT/.remora-ready"
fi

mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc" || die "cannot mount proc in $ROOT"

: >"$TARGETS_FILE.tmp"
# Wrappers that run the root's interpreters from outside, e.g. for
# `./remora bench --python $CACHE/bin/python3.15 --compare-cpython` (programs given with -c).
mkdir -p "$CACHE/bin"
for v in "${VERSIONS[@]}"; do
    exe=/usr/bin/python$v
    out=$(chroot "$ROOT" "$exe" -c 'import sys; print(sys.version.split()[0])' 2>&1) \
        || die "python$v in $ROOT does not run: $out"
    printf 'debian-%s\t%s\t%s\n' "$v" "$ROOT" "$exe" >>"$TARGETS_FILE.tmp"
    printf '#!/bin/sh\nexec chroot %s %s "$@"\n' "$ROOT" "$exe" >"$CACHE/bin/python$v"
    chmod +x "$CACHE/bin/python$v"
    log "python$v = $out (chroot $ROOT)"
done

# pyenv's 3.13.0 is built with --enable-shared: its runtime lives in libpython3.13.so.
# The tests also need it (a target run without a chroot) and an older pyenv Python (3.9-3.12, for the
# "unsupported version" errors); machines of this kind ship both, so their absence is an error.
PYENV_313=${PYENV_ROOT:-/root/.pyenv}/versions/3.13.0/bin/python3.13
ls -d "${PYENV_ROOT:-/root/.pyenv}"/versions/3.{9,10,11,12}.* >/dev/null 2>&1 \
    || die "no pyenv CPython 3.9-3.12 under ${PYENV_ROOT:-/root/.pyenv}/versions"
[ -x "$PYENV_313" ] || die "pyenv's shared-library CPython 3.13.0 is missing: $PYENV_313"
if out=$("$PYENV_313" -c 'import sys; print(sys.version.split()[0])' 2>&1); then
    printf 'pyenv-3.13.0-shared\t/\t%s\n' "$PYENV_313" >>"$TARGETS_FILE.tmp"
    log "pyenv python3.13 = $out (shared)"
else
    die "pyenv python3.13 at $PYENV_313 does not run: $out"
fi
mv "$TARGETS_FILE.tmp" "$TARGETS_FILE"
echo "$TARGETS_FILE"
