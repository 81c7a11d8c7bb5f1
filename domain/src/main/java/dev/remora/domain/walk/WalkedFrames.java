package dev.remora.domain.walk;

import dev.remora.domain.frames.CallerLink;
import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.model.FrameInfo;

import java.util.Arrays;

/** The frames one walk read, innermost first, with what each showed; reused from walk to walk. */
final class WalkedFrames {

    /**
     * A frame shows at most a {@code <GC>} mark, itself and (3.11's frames entered from C) a
     * {@code <native>} mark under it; or, a shim frame, a {@code <native>} mark alone.
     */
    private static final int MAX_EVENTS = 3;

    private long[] address = new long[256];
    private long[] previous = new long[256];
    private long[] executable = new long[256];
    private long[] instrPtr = new long[256];
    /** The code each frame shows: its executable, or the one a frame that returned was found to run. */
    private long[] shownCode = new long[256];
    private FrameShape.CallsMade[] callsMade = new FrameShape.CallsMade[256];
    private CallerLink[] link = new CallerLink[256];
    private FrameInfo[] events = new FrameInfo[256 * MAX_EVENTS];
    private int[] eventCount = new int[256];
    private int frames;

    void clear() {
        frames = 0;
    }

    /** Starts the next frame; its raw executable is as read, tag bits included. */
    void add(long frameAddress, long previousFrame, long executableRaw, long instr, CallerLink callerLink,
             FrameShape.CallsMade calls) {
        if (frames == address.length) {
            int capacity = frames * 2;
            address = Arrays.copyOf(address, capacity);
            previous = Arrays.copyOf(previous, capacity);
            executable = Arrays.copyOf(executable, capacity);
            instrPtr = Arrays.copyOf(instrPtr, capacity);
            shownCode = Arrays.copyOf(shownCode, capacity);
            callsMade = Arrays.copyOf(callsMade, capacity);
            link = Arrays.copyOf(link, capacity);
            eventCount = Arrays.copyOf(eventCount, capacity);
            events = Arrays.copyOf(events, capacity * MAX_EVENTS);
        }
        address[frames] = frameAddress;
        previous[frames] = previousFrame;
        executable[frames] = executableRaw;
        instrPtr[frames] = instr;
        shownCode[frames] = executableRaw;
        callsMade[frames] = calls;
        link[frames] = callerLink;
        eventCount[frames] = 0;
        frames++;
    }

    /** Something the current frame showed, in the order shown. */
    void shown(FrameInfo frame) {
        int f = frames - 1;
        events[f * MAX_EVENTS + eventCount[f]++] = frame;
    }

    /**
     * What frame {@code f}, which showed nothing (its code reference read cleared: it had returned),
     * ran: {@code frame}, of the code at {@code code}.
     */
    void recovered(int f, FrameInfo frame, long code) {
        events[f * MAX_EVENTS] = frame;
        eventCount[f] = 1;
        shownCode[f] = code;
    }

    /** Forgets the {@code k} innermost frames (with what they showed). */
    void dropInnermost(int k) {
        int rest = frames - k;
        System.arraycopy(address, k, address, 0, rest);
        System.arraycopy(previous, k, previous, 0, rest);
        System.arraycopy(executable, k, executable, 0, rest);
        System.arraycopy(instrPtr, k, instrPtr, 0, rest);
        System.arraycopy(shownCode, k, shownCode, 0, rest);
        System.arraycopy(callsMade, k, callsMade, 0, rest);
        System.arraycopy(link, k, link, 0, rest);
        System.arraycopy(eventCount, k, eventCount, 0, rest);
        System.arraycopy(events, k * MAX_EVENTS, events, 0, rest * MAX_EVENTS);
        frames = rest;
    }

    int frames() {
        return frames;
    }

    long address(int i) {
        return address[i];
    }

    long previous(int i) {
        return previous[i];
    }

    long executable(int i) {
        return executable[i];
    }

    long instrPtr(int i) {
        return instrPtr[i];
    }

    /** The code frame {@code i} shows, as stored (maybe tagged): its executable unless {@link #recovered}. */
    long shownCode(int i) {
        return shownCode[i];
    }

    /**
     * Whether frame {@code f} starts where its caller's frame, of {@code callerSlots} pointers, ends, as
     * frames pushed one after the other on the data stack do; true where the size is unknown (0).
     */
    boolean startsWhereCallerEnds(int f, int callerSlots) {
        return callerSlots == 0 || address[f] == address[f + 1] + 8L * callerSlots;
    }

    /** What frame {@code i}'s {@code return_offset} said of the calls it made, as read. */
    FrameShape.CallsMade callsMade(int i) {
        return callsMade[i];
    }

    CallerLink callerLink(int i) {
        return link[i];
    }

    int eventCount(int i) {
        return eventCount[i];
    }

    FrameInfo event(int frame, int k) {
        return events[frame * MAX_EVENTS + k];
    }
}
