#!/usr/bin/env bash
# Installs Debian's Go toolchain: its `go tool pprof` is the reference reader the pprof writer's
# tests check their output with. Idempotent (installs only when go is missing); needs root to
# install. Prints the path of the go binary.
set -euo pipefail

log() { printf 'provision-go: %s\n' "$*" >&2; }
die() { printf 'provision-go: error: %s\n' "$*" >&2; exit 1; }

if ! command -v go >/dev/null; then
    [ "$(id -u)" = 0 ] || die "go is missing and installing it needs root"
    log "installing golang-go"
    apt-get update -qq >&2 || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go >&2 || die "apt-get install golang-go failed"
fi
GO=$(command -v go) || die "golang-go is installed but go is not on PATH"

# The tests run go offline, with the toolchain as installed.
version=$(GOTOOLCHAIN=local "$GO" version 2>&1) || die "$GO does not run: $version"
log "$version ($GO)"
printf '%s\n' "$GO"
