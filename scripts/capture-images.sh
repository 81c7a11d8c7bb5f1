#!/usr/bin/env bash
# Captures the memory a stack dump reads from parked targets, with the stacks each target recorded of
# itself, into domain/src/test/resources/images: the fixtures of the walk's root-free tests.
# Usage: scripts/capture-images.sh [TARGET_NAME...]   (as root, targets provisioned; names as in the
# targets file; default: one target per supported version)
set -euo pipefail
ROOT=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
cd "$ROOT"
# shellcheck source=jdk.sh
source scripts/jdk.sh
[ $# -gt 0 ] || set -- pyenv-3.8.18-shared pyenv-3.9.18-shared pyenv-3.10.13-shared pyenv-3.11.7-shared pyenv-3.12.1-shared debian-3.13 debian-3.14 debian-3.15
./mvnw -q -B install -DskipTests
./mvnw -q -B -pl app dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$ROOT/app/target/capture.classpath"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
    -cp "app/target/test-classes:app/target/classes:$(cat app/target/capture.classpath)" \
    dev.remora.app.testing.CaptureImage domain/src/test/resources/images "$@"
