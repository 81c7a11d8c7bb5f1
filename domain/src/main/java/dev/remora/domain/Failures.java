package dev.remora.domain;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.ProcessImageException;

/** Translates port failures into the domain's inspection failures, keeping their messages. */
public final class Failures {

    private Failures() {}

    public static InspectionException from(MemoryAccessException e, int pid) {
        return switch (e) {
            case MemoryAccessException.ProcessGone g -> new InspectionException.TargetGone("process " + pid + " exited");
            case MemoryAccessException.PermissionDenied d -> new InspectionException.AccessDenied(d.getMessage());
            case MemoryAccessException.Unmapped u -> new InspectionException.Unreadable(u.getMessage());
            case MemoryAccessException.Unavailable u -> new InspectionException.Unreadable(u.getMessage());
        };
    }

    public static InspectionException from(ProcessImageException e) {
        return switch (e.reason()) {
            case NO_SUCH_PROCESS -> new InspectionException.TargetGone(e.getMessage());
            case PERMISSION_DENIED -> new InspectionException.AccessDenied(e.getMessage());
            case UNREADABLE -> new InspectionException.Unreadable(e.getMessage());
        };
    }
}
