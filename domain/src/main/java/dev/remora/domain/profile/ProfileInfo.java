package dev.remora.domain.profile;

/**
 * What a profile is of.
 *
 * @param intervalNanos the requested time between samples
 * @param startEpochMillis when sampling started
 */
public record ProfileInfo(int pid, String pythonVersion, String backend, ProfileMode mode, long intervalNanos,
                          long startEpochMillis) {}
