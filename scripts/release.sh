#!/usr/bin/env bash
# Builds what a user installs, for linux-x86_64, into dist/:
#   remora-VERSION-linux-x86_64.tar.gz   a trimmed Java runtime (jlink), the application, an
#                                        ahead-of-time cache trained on a real dump and profile,
#                                        shell completions and bin/remora, which uses only these;
#   remora-VERSION-py3-none-manylinux_2_17_x86_64.whl   the same payload as a Python wheel whose
#                                        `remora` console command runs it (pip/pipx, offline).
# Needs the JDK 25 the build uses and a CPython 3.8-3.15 to train the cache on (python3 on PATH, or
# REMORA_TRAINING_PYTHON: one or more interpreters, space-separated; a 3.13+ and an older one give the
# quickest start on both).
set -euo pipefail

ROOT=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
cd "$ROOT"
# shellcheck source=scripts/jdk.sh
source scripts/jdk.sh

VERSION=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n1)
COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
NAME=remora-$VERSION
DIST=$ROOT/dist
STAGE=$DIST/$NAME
# Only what the application uses: java.management for the bench's allocation counter, java.logging for
# Guice, jdk.unsupported for Guice's and JNA's Unsafe and the agent's signals, java.net.http for the
# agent's uploads.
MODULES=java.base,java.logging,java.management,jdk.management,jdk.unsupported,java.net.http
# The launcher's JVM options; the cache is trained with the same ones. Guice without generated classes
# starts sooner, and the serial collector is the lightest for a short-lived tool.
JVM_OPTS=(-XX:+UseSerialGC -XX:-UsePerfData -Dguice_bytecode_gen_option=DISABLED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)

step() { echo "release: $*" >&2; }

step "building $NAME (commit $COMMIT)"
./mvnw -q -B -DskipTests -Dremora.commit="$COMMIT" -pl app -am package

rm -rf "$STAGE" "$DIST/$NAME"-*.tar.gz "$DIST/$NAME"-*.whl
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/share/bash-completion/completions" "$STAGE/share/zsh/site-functions"

step "linking the runtime ($MODULES)"
jlink --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
    --output "$STAGE/runtime"
# Its legal notices link to java.base's; a wheel holds no links, so both packages get copies.
find "$STAGE/runtime" -type l | while read -r link; do
    cp --remove-destination "$(readlink -f "$link")" "$link"
done

# picocli and AOP Alliance ship classes older than Java 6, which the ahead-of-time cache cannot hold:
# rewritten with stack maps, they load from the cache like the rest, and a start never opens the jar.
java scripts/release/UpgradeClasses.java app/target/remora.jar "$STAGE/lib/remora.jar" picocli/ org/aopalliance/ >&2
sed "s/@JVM_OPTS@/${JVM_OPTS[*]}/" scripts/release/launcher.sh >"$STAGE/bin/remora"
chmod 755 "$STAGE/bin/remora"

step "generating shell completions"
"$STAGE/runtime/bin/java" "${JVM_OPTS[@]}" -cp "$STAGE/lib/remora.jar" dev.remora.app.CompletionScript \
    >"$STAGE/share/bash-completion/completions/remora"
# picocli's script serves zsh through bashcompinit.
{
    echo '#compdef remora'
    echo 'autoload -U +X bashcompinit && bashcompinit'
    cat "$STAGE/share/bash-completion/completions/remora"
} >"$STAGE/share/zsh/site-functions/_remora"

step "training the ahead-of-time cache"
# One target per interpreter named (space-separated): a 3.13+ CPython reads debug offsets, an older one
# the built-in tables, and the cache keeps what the trained paths load. The code goes in with -c, so an
# interpreter may be a wrapper that runs it in another root.
pythons=${REMORA_TRAINING_PYTHON:-$(command -v python3 || true)}
[ -n "$pythons" ] || { echo "release: no python3 to train the cache on (set REMORA_TRAINING_PYTHON)" >&2; exit 1; }
targets=()
trap 'kill "${targets[@]}" 2>/dev/null || true' EXIT
for python in $pythons; do
    out=$DIST/training-${#targets[@]}.out
    "$python" -c "$(cat scripts/release/training_target.py)" >"$out" &
    targets+=($!)
    for _ in $(seq 100); do
        grep -q READY "$out" 2>/dev/null && break
        sleep 0.1
    done
    grep -q READY "$out" || { echo "release: the training target $python did not start" >&2; exit 1; }
done
"$STAGE/runtime/bin/java" -XX:AOTCacheOutput="$STAGE/lib/remora.aot" -Xlog:aot=error -Xlog:cds=error \
    "${JVM_OPTS[@]}" -cp "$STAGE/lib/remora.jar" dev.remora.app.AotTraining "${targets[@]}" >&2
kill "${targets[@]}" 2>/dev/null || true
rm -f "$DIST"/training-*.out
# The cache is checked against the jar's size and time: both must stay as trained.
"$STAGE/bin/remora" --version >&2

step "packing"
tar -C "$DIST" -czf "$DIST/$NAME-linux-x86_64.tar.gz" "$NAME"
python3 scripts/release/build_wheel.py "$STAGE" "$VERSION" "$DIST"

ls -l "$DIST"/*.tar.gz "$DIST"/*.whl | awk '{printf "release: %s %.1f MB\n", $NF, $5 / 1048576}' >&2
