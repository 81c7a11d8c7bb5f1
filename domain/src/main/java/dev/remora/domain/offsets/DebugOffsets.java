package dev.remora.domain.offsets;

import java.util.OptionalLong;

/**
 * The validated subset of a target's {@code _Py_DebugOffsets} that Remora uses. Every offset here was
 * read from the target and checked to fit inside the struct it addresses; optional ones are absent in
 * versions that do not export them.
 */
public record DebugOffsets(PythonVersion version, VersionLayout layout, Runtime runtime,
                           Interpreter interpreter, Thread thread, Frame frame, Code code,
                           PyObject object, TypeObject type, Bytes bytes, Unicode unicode) {

    public record Runtime(long size, long interpretersHead) {}

    /**
     * @param readLength how many leading bytes of the interpreter state cover every field used
     *     (the whole struct is hundreds of KiB)
     */
    /**
     * @param gcFrame where the pointer to the frame that started the running collection sits (3.15+)
     */
    public record Interpreter(long size, long id, long next, long threadsHead, OptionalLong threadsMain,
                              long gilLocked, long gilHolder, OptionalLong codeObjectGeneration,
                              OptionalLong gcFrame, int readLength) {}

    public record Thread(long size, long next, long currentFrame, long nativeThreadId, long datastackChunk,
                         OptionalLong holdsGil, OptionalLong gilRequested, OptionalLong currentException,
                         OptionalLong excStateValue) {}

    public record Frame(long size, long previous, long executable, long instrPtr, long owner) {}

    public record Code(long size, long filename, long qualname, long linetable, long firstLineNo,
                       long codeAdaptive) {}

    public record PyObject(long obType) {}

    public record TypeObject(long size, long tpName, long tpFlags) {}

    public record Bytes(long size, long obSize, long obSval) {}

    public record Unicode(long size, long state, long length, long asciiDataOffset, long compactDataOffset) {}
}
