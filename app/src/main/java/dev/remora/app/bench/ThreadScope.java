package dev.remora.app.bench;

/** Which threads each call reads, as CPython's benchmark names the choices. */
public enum ThreadScope { all, main, only_active }
