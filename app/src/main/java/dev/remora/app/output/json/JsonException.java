package dev.remora.app.output.json;

/** Text that is not JSON, or JSON that does not have the shape its reader asked for. */
public final class JsonException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public JsonException(String message) {
        super(message);
    }
}
