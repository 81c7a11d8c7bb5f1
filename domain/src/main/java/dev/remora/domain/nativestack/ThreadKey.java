package dev.remora.domain.nativestack;

/**
 * A thread state: the interpreter's id and the OS thread's id. One OS thread can hold a state in
 * each of several interpreters (a thread that runs code in a subinterpreter), each with frames of its own.
 */
public record ThreadKey(long interpreterId, long threadId) {}
