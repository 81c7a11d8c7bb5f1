package dev.remora.domain.asyncio;

import dev.remora.domain.testing.DebugOffsetsFixtures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * The committed AsyncioDebug fixtures are what the provisioned Debian interpreters carry. When Debian
 * ships a new build whose bytes differ, the test writes them under {@code target/debug-offsets/} and
 * says where to copy them.
 */
@Tag("targets")
class AsyncioSectionFixturesTest {

    static List<String> minors() {
        return List.of("3.14", "3.15");
    }

    @ParameterizedTest(name = "CPython {0}")
    @MethodSource("minors")
    void theCommittedBytesAreTheProvisionedInterpreters(String minor) throws Exception {
        DebugOffsetsFixtures.assertSameAsProvisioned(DebugOffsetsFixtures.asyncioResource(minor), DebianAsyncioSections.raw(minor),
                "the AsyncioDebug section of Debian's python" + minor);
    }
}
