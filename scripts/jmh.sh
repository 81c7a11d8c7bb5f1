#!/usr/bin/env bash
# Runs the JMH micro-benchmarks (app/src/test/java/dev/remora/app/jmh): the line-table parser, the
# walker over a captured image of a real process, and reads through each backend and native binding.
# Usage: scripts/jmh.sh [JMH arguments, e.g. WalkerBenchmark -prof gc]
# The walker benchmark needs the provisioned interpreters (scripts/provision-targets.sh), as root.
set -euo pipefail
ROOT=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
cd "$ROOT"
# shellcheck source=jdk.sh
source scripts/jdk.sh
./mvnw -q -B install -DskipTests
./mvnw -q -B -pl app dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$ROOT/app/target/jmh.classpath"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -cp "app/target/test-classes:app/target/classes:$(cat app/target/jmh.classpath)" org.openjdk.jmh.Main "$@"
