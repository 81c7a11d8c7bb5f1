#!/usr/bin/env bash
# Provisions the CPython interpreters the tests inspect: a Debian sid root with
# python3.13, 3.14 and 3.15 (GIL builds), a Debian 12 (bookworm) root with its
# statically linked python3.11, a Debian 11 (bullseye) root with its statically linked python3.9,
# and pyenv's shared-library 3.8, 3.9, 3.10, 3.11, 3.12 and 3.13.0,
# which machines of this kind ship. Idempotent; the roots are cached outside the
# repository. A target that cannot be provisioned fails the run.
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
# scripts/version-tables compiles a small program against each old version's headers.
command -v gcc >/dev/null || apt_install gcc
# The live view (remora top) is tested in a tmux window.
command -v tmux >/dev/null || apt_install tmux

mkdir -p "$CACHE"
# build_root SUITE DIR PACKAGES: a minimal Debian root with PACKAGES. The marker records what the root
# was built with; a different package list rebuilds it.
build_root() {
    local suite=$1 root=$2 packages=$3
    if [ "$(cat "$root/.remora-ready" 2>/dev/null)" = "$packages" ]; then
        return
    fi
    log "building Debian $suite root in $root ($packages)"
    for stale in "$root" "$root.tmp"; do
        if mountpoint -q "$stale/proc"; then umount "$stale/proc"; fi
    done
    rm -rf "$root.tmp"
    debootstrap --variant=minbase --include="$packages" "$suite" "$root.tmp" "$MIRROR" >"$CACHE/debootstrap-$suite.log" 2>&1 \
        || { tail -20 "$CACHE/debootstrap-$suite.log" >&2; die "debootstrap $suite failed (log: $CACHE/debootstrap-$suite.log)"; }
    rm -rf "$root"
    mv "$root.tmp" "$root"
    printf '%s' "$packages" >"$root/.remora-ready"
}
build_root sid "$ROOT" "$PACKAGES"

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

# Debian 12's python3.11 links libpython statically into the executable, as most distributions'
# interpreters do; its headers (libpython3.11-dev) let scripts/version-tables check its layout. With no
# JDK and no Maven in it, it is also where scripts/test-release.sh installs the release as a user would
# (python3.11-venv and what it needs, named because debootstrap resolves no virtual packages: a fresh venv
# with pip, for the wheel).
BOOKWORM=$CACHE/bookworm-root
BOOKWORM_PACKAGES=python3.11,libpython3.11-dev,python3.11-venv,python3-distutils,python3-lib2to3,python3-pip-whl,python3-setuptools-whl
build_root bookworm "$BOOKWORM" "$BOOKWORM_PACKAGES"
mountpoint -q "$BOOKWORM/proc" || mount -t proc proc "$BOOKWORM/proc" || die "cannot mount proc in $BOOKWORM"
out=$(chroot "$BOOKWORM" /usr/bin/python3.11 -c 'import sys; print(sys.version.split()[0])' 2>&1) \
    || die "python3.11 in $BOOKWORM does not run: $out"
printf 'debian12-3.11\t%s\t%s\n' "$BOOKWORM" /usr/bin/python3.11 >>"$TARGETS_FILE.tmp"
printf '#!/bin/sh\nexec chroot %s %s "$@"\n' "$BOOKWORM" /usr/bin/python3.11 >"$CACHE/bin/debian12-python3.11"
chmod +x "$CACHE/bin/debian12-python3.11"
log "debian 12 python3.11 = $out (static, chroot $BOOKWORM)"

# Debian 11's python3.9, statically linked and stripped like bookworm's 3.11, is the second build of
# 3.9 (scripts/version-tables checks its headers give pyenv's layout). bullseye's Release file is past
# its Valid-Until date: apt inside the root needs -o Acquire::Check-Valid-Until=false.
BULLSEYE=$CACHE/bullseye-root
build_root bullseye "$BULLSEYE" python3.9,libpython3.9-dev
mountpoint -q "$BULLSEYE/proc" || mount -t proc proc "$BULLSEYE/proc" || die "cannot mount proc in $BULLSEYE"
out=$(chroot "$BULLSEYE" /usr/bin/python3.9 -c 'import sys; print(sys.version.split()[0])' 2>&1) \
    || die "python3.9 in $BULLSEYE does not run: $out"
printf 'debian11-3.9\t%s\t%s\n' "$BULLSEYE" /usr/bin/python3.9 >>"$TARGETS_FILE.tmp"
log "debian 11 python3.9 = $out (static, chroot $BULLSEYE)"

# pyenv's builds are made with --enable-shared: their runtime lives in libpython3.X.so, run without a
# chroot. The tests also need a CPython older than any supported one (3.7, for the "unsupported
# version" errors).
PYENV_VERSIONS=${PYENV_ROOT:-/root/.pyenv}/versions
ls -d "$PYENV_VERSIONS"/3.7.* >/dev/null 2>&1 || die "no pyenv CPython 3.7 under $PYENV_VERSIONS"
for minor in 3.8 3.9 3.10 3.11 3.12 3.13; do
    # The newest patch release of each; 3.13 is pinned to 3.13.0, the first release with debug offsets.
    if [ "$minor" = 3.13 ]; then dir=$PYENV_VERSIONS/3.13.0; else dir=$(ls -d "$PYENV_VERSIONS/$minor".* 2>/dev/null | sort -V | tail -1 || true); fi
    exe=$dir/bin/python$minor
    [ -n "$dir" ] && [ -x "$exe" ] || die "pyenv's CPython $minor is missing under $PYENV_VERSIONS"
    ls "$dir"/lib/libpython"$minor".so* >/dev/null 2>&1 || die "pyenv's CPython $minor at $dir is not built with --enable-shared"
    out=$("$exe" -c 'import sys; print(sys.version.split()[0])' 2>&1) || die "pyenv python$minor at $exe does not run: $out"
    printf 'pyenv-%s-shared\t/\t%s\n' "$out" "$exe" >>"$TARGETS_FILE.tmp"
    log "pyenv python$minor = $out (shared)"
done
mv "$TARGETS_FILE.tmp" "$TARGETS_FILE"
echo "$TARGETS_FILE"
