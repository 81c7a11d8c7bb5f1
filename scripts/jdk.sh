# Sourced by ./remora and ./run-tests: selects a JDK >= 25 (the build targets
# Java 25 and uses the FFM API), because the `java` on PATH is often older.
# Order: $JAVA_HOME, /usr/lib/jvm/* (temurin-25 first), then `java` on PATH.
# Exports JAVA_HOME and puts its bin/ first on PATH; exits 1 if none fits.

REMORA_MIN_JDK=25

# Prints the major version of "$1/bin/java" (e.g. 25, or 8 for "1.8.0_x").
remora_jdk_major() {
    local line ver
    line=$("$1/bin/java" -version 2>&1 | grep -m1 -E 'version "[^"]+"') || return 1
    ver=${line#*version \"}
    ver=${ver%%\"*}
    case $ver in 1.*) ver=${ver#1.} ;; esac
    ver=${ver%%[!0-9]*}
    [ -n "$ver" ] && printf '%s\n' "$ver"
}

# True if "$1" is a full JDK (javac is needed to build) of version >= 25.
remora_jdk_ok() {
    local major
    [ -n "$1" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
    major=$(remora_jdk_major "$1") || return 1
    [ "$major" -ge "$REMORA_MIN_JDK" ]
}

remora_find_jdk() {
    local candidates=() dir java_on_path
    candidates+=("${JAVA_HOME:-}")
    # temurin-25 first (the supported build JDK), then any other installed JDK.
    for dir in /usr/lib/jvm/temurin-25* /usr/lib/jvm/*; do
        [ -d "$dir" ] && candidates+=("$dir")
    done
    if java_on_path=$(command -v java 2>/dev/null); then
        java_on_path=$(readlink -f "$java_on_path")
        candidates+=("${java_on_path%/bin/java}")
    fi
    for dir in "${candidates[@]}"; do
        if remora_jdk_ok "$dir"; then
            export JAVA_HOME=$dir
            export PATH="$JAVA_HOME/bin:$PATH"
            return 0
        fi
    done
    echo "remora: needs a JDK 25 or newer; none found in JAVA_HOME, /usr/lib/jvm or PATH (install e.g. temurin-25-jdk)" >&2
    exit 1
}

remora_find_jdk
