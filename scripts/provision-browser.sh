#!/usr/bin/env bash
# Provisions the headless browser the flamegraph tests drive: Debian's chromium.
# Idempotent (nothing happens once /usr/bin/chromium exists); exits non-zero when
# it cannot install, so a test that needs the browser fails instead of skipping.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

log() { printf 'provision-browser: %s\n' "$*" >&2; }
die() { printf 'provision-browser: error: %s\n' "$*" >&2; exit 1; }

if [ -x "$CHROMIUM" ]; then
    exit 0
fi
[ "$(id -u)" = 0 ] || die "chromium is missing and installing it needs root"

log "installing chromium"
apt-get update -qq >&2 || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2 || die "apt-get install chromium failed"
[ -x "$CHROMIUM" ] || die "chromium installed but $CHROMIUM is missing"
log "$("$CHROMIUM" --version 2>/dev/null || echo chromium) installed"
