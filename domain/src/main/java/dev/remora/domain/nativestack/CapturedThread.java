package dev.remora.domain.nativestack;

import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;

/**
 * What a stopped thread's C stack is unwound from, taken while it is stopped: its registers and its
 * stack copied in one read. The walk itself can then run after the target goes on, so that the
 * target waits only for the copy, however deep its C stack.
 */
public record CapturedThread(ThreadRegisters registers, RemoteMemory stack) {}
