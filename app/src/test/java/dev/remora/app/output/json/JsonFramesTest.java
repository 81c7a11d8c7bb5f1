package dev.remora.app.output.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

class JsonFramesTest {

    @Test
    void writesEveryPositionAndNullWhereAbsent() {
        List<FrameInfo> frames = List.of(
                new FrameInfo("Event.wait", "/usr/lib/python3.15/asyncio/locks.py", new SourceLocation(213, 214, 12, 21)),
                new FrameInfo("<genexpr>", "/app/\"t\".py", SourceLocation.NONE));

        assertThat(JsonWriter.text(json -> JsonFrames.write(json, frames))).isEqualTo("["
                + "{\"function\":\"Event.wait\",\"file\":\"/usr/lib/python3.15/asyncio/locks.py\","
                + "\"line\":213,\"end_line\":214,\"column\":12,\"end_column\":21},"
                + "{\"function\":\"<genexpr>\",\"file\":\"/app/\\\"t\\\".py\","
                + "\"line\":null,\"end_line\":null,\"column\":null,\"end_column\":null}]");
    }

    @Test
    void noFramesIsAnEmptyArray() {
        assertThat(JsonWriter.text(json -> JsonFrames.write(json, List.of()))).isEqualTo("[]");
    }
}
