#!/bin/sh
# Remora's launcher in an installed archive or wheel: runs the Java runtime shipped beside it, with
# the ahead-of-time cache the release trained; needs no JDK, Maven or network.
# Every fork here delays the first sample: resolve a symlink only when there is one.
self=$0
if [ -L "$self" ]; then
    self=$(readlink -f "$self")
fi
home=${self%/*}/..
# A dump is one short read: the quick compiler alone serves it best, and a small young generation
# keeps its memory small. Profiles run long: a small young generation keeps their memory flat (they
# keep counts, and each walk leaves little garbage); they keep the optimizing compiler, but do not replay the
# training run's method profiles: compiling those at once competes with the start for the CPU and
# delays the first sample by some 20 ms, and a profile warms up on its own target within a second.
case "${1:-}" in
    dump) tuning="-XX:TieredStopAtLevel=1 -Xmn4m" ;;
    # The agent runs for months beside the services it watches: a small bounded heap (its windows are
    # counts, its queues bounded in bytes well below it), the quick compiler alone and two malloc arenas
    # keep its memory small and flat.
    agent) tuning="-Xmn8m -Xmx48m -XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining"
       MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
       export MALLOC_ARENA_MAX
       if [ "$(id -u)" = 0 ]; then
           tuning="$tuning -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=19"
       fi ;;
    *) tuning="-Xmn16m -XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining"
       # The compiler threads at the lowest priority where the JVM may set it (root): while they compile
       # the walk, they would otherwise hold the sampler's CPU and make its ticks late.
       if [ "$(id -u)" = 0 ]; then
           tuning="$tuning -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=19"
       fi ;;
esac
# An unusable cache (a changed jar) only slows the start: say nothing of it. The main class is named,
# not found through -jar: reading the jar's manifest means opening the jar, which the cache spares.
# JAVA_OPTS is split on whitespace, as other JVM launchers do.
# shellcheck disable=SC2086
exec "$home/runtime/bin/java" -XX:AOTCache="$home/lib/remora.aot" -Xlog:aot=off -Xlog:cds=off \
    @JVM_OPTS@ $tuning ${JAVA_OPTS:-} -cp "$home/lib/remora.jar" dev.remora.app.Main "$@"
