package dev.remora.app.agent;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;

/** Opens a live process's ports, as the command's backend reads them. */
@FunctionalInterface
public interface ProcessOpener {
    TargetPorts open(int pid) throws InspectionException;
}
