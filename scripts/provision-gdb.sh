#!/usr/bin/env bash
# Provisions gdb, whose gcore makes the core files the core-dump tests read (alongside cores the
# kernel writes) and whose backtraces are the reference for C frames, and libc6-dbg, glibc's
# detached symbols that the C-frame tests find by build id. Idempotent (nothing happens once both
# are there); exits non-zero when it cannot install, so the tests that need them fail instead of
# skipping.
set -euo pipefail

GCORE=/usr/bin/gcore

log() { printf 'provision-gdb: %s\n' "$*" >&2; }
die() { printf 'provision-gdb: error: %s\n' "$*" >&2; exit 1; }

if [ -x "$GCORE" ] && dpkg -s libc6-dbg >/dev/null 2>&1; then
    exit 0
fi
[ "$(id -u)" = 0 ] || die "gdb or libc6-dbg is missing and installing them needs root"

log "installing gdb and libc6-dbg"
apt-get update -qq >&2 || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb libc6-dbg >&2 || die "apt-get install gdb libc6-dbg failed"
[ -x "$GCORE" ] || die "gdb installed but $GCORE is missing"
log "$(gdb --version 2>/dev/null | head -n 1) installed"
