package dev.remora.domain.offsets;

import dev.remora.domain.testing.DebianRuntimeSections;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * The committed debug-offsets fixtures are what the provisioned Debian interpreters carry. When Debian
 * ships a new build whose bytes differ, the test writes them under {@code target/debug-offsets/} and
 * says where to copy them.
 */
@Tag("targets")
class DebugOffsetsFixturesTest {

    static List<String> minors() {
        return DebugOffsetsFixtures.MINORS;
    }

    @ParameterizedTest(name = "CPython {0}")
    @MethodSource("minors")
    void theCommittedBytesAreTheProvisionedInterpreters(String minor) throws Exception {
        DebugOffsetsFixtures.assertSameAsProvisioned(DebugOffsetsFixtures.resource(minor), DebianRuntimeSections.debugOffsets(minor),
                "Debian's python" + minor);
    }
}
