#!/bin/sh
# Remora's launcher in an installed archive or wheel: runs the Java runtime shipped beside it, with
# the ahead-of-time cache the release trained; needs no JDK, Maven or network.
self=$(readlink -f "$0")
home=$(dirname "$(dirname "$self")")
# A dump is one short read: the quick compiler alone serves it best, and a small young generation
# keeps its memory small. Profiles run long and keep the optimizing compiler.
case "${1:-}" in
    dump) tuning="-XX:TieredStopAtLevel=1 -Xmn4m" ;;
    *) tuning="" ;;
esac
# An unusable cache (a changed jar) only slows the start: say nothing of it.
# JAVA_OPTS is split on whitespace, as other JVM launchers do.
# shellcheck disable=SC2086
exec "$home/runtime/bin/java" -XX:AOTCache="$home/lib/remora.aot" -Xlog:aot=off -Xlog:cds=off \
    @JVM_OPTS@ $tuning ${JAVA_OPTS:-} -jar "$home/lib/remora.jar" "$@"
