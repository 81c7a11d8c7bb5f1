/**
 * The ELF64 structures both the runtime discovery (reading a mapped library's sections) and the core
 * file reader (reading a core's segments) decode: one decoding, shared, so the two cannot drift.
 * Records here decode bytes and name the constants; judging what a file may contain is the caller's.
 */
package dev.remora.ports.elf;
