package dev.remora.domain.linetable;

/** Trailer of a dump shard: what the interpreter compiled and how many code objects it wrote. */
record DumpTotals(String pythonVersion, int filesCompiled, int filesSkipped, int codeObjects) {
}
