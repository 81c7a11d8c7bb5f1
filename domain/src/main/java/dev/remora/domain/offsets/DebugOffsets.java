package dev.remora.domain.offsets;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The validated subset of a target's {@code _Py_DebugOffsets} that Remora uses. Every offset here was
 * read from the target and checked to fit inside the struct it addresses; optional ones are absent in
 * versions that do not export them.
 */
public record DebugOffsets(PythonVersion version, VersionLayout layout, Runtime runtime,
                           Interpreter interpreter, Thread thread, Frame frame, Code code,
                           PyObject object, TypeObject type, Bytes bytes, Unicode unicode,
                           Optional<LongObject> longObject, DictObject dict, Optional<Generator> generator,
                           Optional<LlistNode> llistNode, Optional<SetObject> set,
                           Optional<VariableLayout> variables) {

    /**
     * @param gilLocked where the runtime's one GIL keeps its {@code locked} flag (before 3.12; later
     *     versions keep a GIL per interpreter)
     * @param gilHolder where that GIL keeps its {@code last_holder}
     */
    public record Runtime(long size, long interpretersHead, OptionalLong gilLocked, OptionalLong gilHolder) {}

    /**
     * @param gilLocked where the interpreter's GIL keeps its {@code locked} flag (3.12+)
     * @param gilHolder where that GIL keeps its {@code last_holder} (3.12+)
     * @param gcFrame where the pointer to the frame that started the running collection sits (3.15+)
     * @param readLength how many leading bytes of the interpreter state cover every field used
     *     (the whole struct is hundreds of KiB)
     * @param importsModules where the pointer to {@code sys.modules} sits (not covered by readLength)
     */
    public record Interpreter(long size, long id, long next, long threadsHead, OptionalLong threadsMain,
                              OptionalLong gilLocked, OptionalLong gilHolder, OptionalLong codeObjectGeneration,
                              OptionalLong gcFrame, int readLength, long importsModules) {}

    /**
     * @param currentFrame where the pointer to the thread's innermost frame sits: in the thread state,
     *     or (where {@code cframe} is present) in the {@code _PyCFrame} the thread state points at
     * @param cframe the innermost eval loop's {@code _PyCFrame}, which holds the current frame (3.11, 3.12)
     * @param lastProfiledFrame where a profiler may leave a marker frame that the interpreter moves to
     *     the caller whenever it pops the marked frame (3.15+)
     * @param baseFrame where the thread state points at the sentinel frame under all others (3.15+)
     * @param excInfo where the pointer to the exception-stack item in use sits: the thread's own
     *     {@code exc_state}, or that of the generator or coroutine running (3.15+)
     * @param threadId where the {@code pthread_t} of the thread sits (the address of glibc's
     *     {@code struct pthread})
     * @param nativeThreadId where the kernel's thread id sits (3.11+; 3.10 keeps none)
     * @param datastackChunk where the data stack's current chunk sits (3.11+; 3.10's frames are heap objects)
     * @param readLength how many leading bytes of the thread state cover every field used
     */
    public record Thread(long size, long prev, long next, long interp, long currentFrame, Optional<CFrame> cframe,
                         OptionalLong baseFrame, long threadId,
                         OptionalLong nativeThreadId, OptionalLong datastackChunk,
                         OptionalLong holdsGil, OptionalLong gilRequested, OptionalLong currentException,
                         OptionalLong excStateValue, OptionalLong excInfo, OptionalLong lastProfiledFrame,
                         int readLength) {

        /** {@code datastack_top}: the data stack's first free slot (it follows the chunk in 3.11+). */
        public long datastackTop() {
            return datastackChunk.getAsLong() + 8;
        }

        /** {@code datastack_limit}: the end of the current chunk (it follows the top in 3.11+). */
        public long datastackLimit() {
            return datastackChunk.getAsLong() + 16;
        }
    }

    /**
     * The {@code _PyCFrame} of 3.11 and 3.12: it lives on the thread's C stack, in the frame of the
     * innermost {@code _PyEval_EvalFrameDefault}, or is the thread state's own {@code root_cframe}
     * when no eval loop runs. Every other one has a {@code previous}.
     *
     * @param pointer where the thread state keeps the pointer to it
     * @param previous where it keeps the pointer to the enclosing eval loop's
     */
    public record CFrame(long pointer, long previous, long size) {}

    /**
     * A frame: 3.11+'s {@code _PyInterpreterFrame}, or 3.10's heap {@code PyFrameObject} ({@code f_back},
     * {@code f_code}, {@code f_lasti}).
     *
     * @param size how many leading bytes of a frame cover every field used
     * @param instrPtr where the instruction pointer sits; in a 3.10 frame object, the {@code int f_lasti}
     *     (the instruction's index in code units, -1 before the first)
     * @param owner where the owner byte sits (3.11+)
     * @param localsPlus where {@code localsplus[]}, the locals and then the value stack, starts
     * @param stackPointer where {@code _PyStackRef *stackpointer} sits (3.14+)
     * @param isEntry where 3.11's {@code bool is_entry} sits: the frame was entered from C (later
     *     versions put a shim frame between instead)
     * @param frameObject 3.10's frame object facts; present exactly for 3.10
     */
    public record Frame(long size, long previous, long executable, long instrPtr, OptionalLong owner, long localsPlus,
                        OptionalLong stackPointer, OptionalLong isEntry, Optional<FrameObject> frameObject,
                        OptionalLong returnOffset) {}

    /**
     * 3.10's {@code PyFrameObject}: a frame in a thread's chain is executing, and every one of its
     * callers too (they wait in a call), or unwinding an exception (a tracer or a finalizer may run
     * Python code meanwhile); any other {@code f_state} means the chain changed under the walk.
     *
     * @param state where the {@code signed char f_state} sits
     * @param executing {@code FRAME_EXECUTING}
     * @param unwinding {@code FRAME_UNWINDING}
     * @param returned {@code FRAME_RETURNED}
     * @param raised {@code FRAME_RAISED}
     * @param cleared {@code FRAME_CLEARED}
     */
    public record FrameObject(long state, int executing, int unwinding, int returned, int raised, int cleared) {

        /** Whether a frame in this state can be in a thread's chain of calls. */
        public boolean inChain(byte frameState) {
            return frameState == executing || frameState == unwinding;
        }

        /** Whether a frame in this state has finished its call (a freed frame object keeps that state). */
        public boolean finished(byte frameState) {
            return frameState == returned || frameState == raised || frameState == cleared;
        }
    }

    /**
     * @param qualname where the qualified name sits (3.10, which has none: {@code co_name})
     * @param codeAdaptive where the bytecode starts inside the code object (3.11+; 0 in 3.10)
     * @param bytecode where 3.10 keeps the pointer to its bytecode, a separate bytes object
     * @param frameSize how to tell the pointers a frame of this code takes on the data stack (read where the
     *     current frame must be checked against the data stack's top: 3.11, 3.12)
     */
    public record Code(long size, long filename, long qualname, long linetable, long firstLineNo,
                       long codeAdaptive, OptionalLong bytecode, Optional<FrameSize> frameSize) {}

    /**
     * A frame takes {@code co_nlocalsplus + co_stacksize + FRAME_SPECIALS_SIZE} pointers on the data
     * stack (3.11, 3.12).
     *
     * @param nlocalsplus where the code object keeps {@code int co_nlocalsplus}
     * @param stacksize where it keeps {@code int co_stacksize}
     * @param specials the pointers the frame's header takes
     */
    public record FrameSize(long nlocalsplus, long stacksize, int specials) {}

    public record PyObject(long obType) {}

    public record TypeObject(long size, long tpName, long tpFlags) {}

    public record Bytes(long size, long obSize, long obSval) {}

    public record Unicode(long size, long state, long length, long asciiDataOffset, long compactDataOffset) {}

    /** {@code PyLongObject}: {@code lv_tag} (sign and digit count) and the 30-bit digits. */
    public record LongObject(long size, long lvTag, long obDigit) {}

    public record DictObject(long size, long maKeys) {}

    /**
     * {@code PyGenObject} (coroutines share its head), 3.14+.
     *
     * @param iframe where the embedded {@code _PyInterpreterFrame} starts; the whole frame fits in {@code size}
     * @param frameState the {@code int8_t gi_frame_state}
     */
    public record Generator(long size, long iframe, long frameState) {}

    /** {@code struct llist_node {next, prev}}, 3.14+; the struct has no exported size. */
    public record LlistNode(long next) {
        /** Two pointers. */
        public static final int SIZE = 16;
    }

    /** {@code PySetObject}, 3.14+: its table holds {@code mask + 1} entries of {key, hash}. */
    public record SetObject(long size, long used, long table, long mask) {}
}
