#!/usr/bin/env bash
# Provisions gdb, whose gcore makes the core files the core-dump tests read (alongside cores the
# kernel writes). Idempotent (nothing happens once /usr/bin/gcore exists); exits non-zero when it
# cannot install, so the tests that need it fail instead of skipping.
set -euo pipefail

GCORE=/usr/bin/gcore

log() { printf 'provision-gdb: %s\n' "$*" >&2; }
die() { printf 'provision-gdb: error: %s\n' "$*" >&2; exit 1; }

if [ -x "$GCORE" ]; then
    exit 0
fi
[ "$(id -u)" = 0 ] || die "gdb is missing and installing it needs root"

log "installing gdb"
apt-get update -qq >&2 || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb >&2 || die "apt-get install gdb failed"
[ -x "$GCORE" ] || die "gdb installed but $GCORE is missing"
log "$(gdb --version 2>/dev/null | head -n 1) installed"
