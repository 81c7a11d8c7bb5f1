package dev.remora.app.cli;

import dev.remora.domain.asyncio.AsyncMode;

import java.util.Arrays;

/** {@code --async-mode} as users spell it. */
final class AsyncModeOption {

    private AsyncModeOption() {}

    static AsyncMode parse(String name) {
        return Arrays.stream(AsyncMode.values()).filter(m -> m.label().equals(name)).findFirst()
                .orElseThrow(() -> new UserError("unknown --async-mode '%s' (running, all)".formatted(name), UserErrorHandler.EXIT_USAGE));
    }
}
