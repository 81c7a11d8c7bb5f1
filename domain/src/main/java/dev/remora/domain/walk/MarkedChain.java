package dev.remora.domain.walk;

import dev.remora.domain.model.FrameInfo;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's last proven stack, kept for frame markers (CPython 3.15+). The target moves its
 * {@code last_profiled_frame} to the caller whenever it pops the frame the marker points at; so
 * once the marker is proven to sit on a frame of this chain, the frames below wherever it points
 * later have not been popped since, and need neither reading nor decoding.
 *
 * <p>Frames are stored outermost first, so the part below the marker is a prefix that later walks
 * leave alone while they rewrite the frames above it. {@link #tailId} names the contents of such a
 * prefix: it changes whenever a frame inside a prefix already handed out is rewritten.
 */
final class MarkedChain {

    private static final AtomicLong NEXT_TAIL_ID = new AtomicLong(1);
    private static final int MAX_STAYS_NEEDED = 1024;
    private static final int WALKS_TO_PAY = 8;

    private long[] address = new long[64];
    private long[] executable = new long[64];
    /** {@code eventEnd[i]}: frames shown for chain frames {@code 0..i} fill {@code events[0 .. eventEnd[i])}. */
    private int[] eventEnd = new int[64];
    private FrameInfo[] events = new FrameInfo[64];
    private int size;
    /** Whether the marker was seen on a frame of this chain when the chain was proven. */
    private boolean anchored;
    private long tailId = NEXT_TAIL_ID.getAndIncrement();
    /** Prefixes up to this many chain frames were handed out under {@link #tailId}. */
    private int handedOut;
    /** The current frame of this thread's last walk (0 if it was not proven), and its code. */
    private long lastFirst;
    private long lastFirstExecutable;
    /** Proven walks in a row, before the last and since the last move, that began where it began. */
    private int stays;
    /**
     * Walks in a row a shallow stack's current frame must begin before the marker moves onto it. A
     * loop calling a short function meets a new call at the same address every walk, which looks
     * like a frame that stays: each move the next walk finds undone doubles the wait.
     */
    private int staysNeeded = 1;
    /** The frame the marker last moved onto because it stayed, until walks tell whether the move paid. */
    private long movedOnto;
    /** Walks since that move that found the marker still on that frame. */
    private int walksOnMove;

    /** The last checks of this thread's marker, kept while it stays where it is: steady walks allocate none. */
    private MarkerCheck lastHeld = MarkerCheck.NONE;
    private MarkerCheck lastStands = MarkerCheck.NONE;

    boolean anchored() {
        return anchored;
    }

    /** {@link MarkerCheck#held}, made again only when the marker moved. */
    MarkerCheck held(long field, long value) {
        if (lastHeld.field() != field || lastHeld.value() != value) {
            lastHeld = MarkerCheck.held(field, value);
        }
        return lastHeld;
    }

    /** {@link MarkerCheck#stands}, made again only when the marker moved. */
    MarkerCheck stands(long field, long value) {
        if (lastStands.field() != field || lastStands.value() != value) {
            lastStands = MarkerCheck.stands(field, value);
        }
        return lastStands;
    }

    void drop() {
        anchored = false;
    }

    /** Another writer may have moved the marker: prove it afresh, and judge no move of ours by where it is now. */
    void distrust() {
        anchored = false;
        movedOnto = 0;
        lastFirst = 0;
    }

    /** Whether the last walks were proven and began at this same frame, running the same code, often enough. */
    boolean stayedOn(long first, long executable) {
        return first != 0 && first == lastFirst && executable == lastFirstExecutable && stays + 1 >= staysNeeded;
    }

    /** Remembers where a walk began; 0 when it was not proven. */
    void provenOn(long first, long executable) {
        stays = first != 0 && first == lastFirst && executable == lastFirstExecutable ? stays + 1 : 0;
        lastFirst = first;
        lastFirstExecutable = executable;
    }

    /**
     * How a move of the marker onto the current frame ended: a failed one counts as undone. Stays
     * are counted afresh from here, so that the wait grows with each undone move.
     */
    void moveEnded(boolean moved, long frame) {
        stays = 0;
        if (moved) {
            movedOnto = frame;
            walksOnMove = 0;
        } else {
            movedOnto = 0;
            staysNeeded = Math.min(staysNeeded * 2, MAX_STAYS_NEEDED);
        }
    }

    /**
     * The marker a walk found in the thread state. A move costs about as much as the reads of a few
     * walks it spares: it paid when the marker stayed on the frame for {@value #WALKS_TO_PAY} walks,
     * and it was undone too soon when the frame was popped before.
     */
    void markerSeen(long marker) {
        if (movedOnto == 0) {
            return;
        }
        if (marker != movedOnto) {
            staysNeeded = Math.min(staysNeeded * 2, MAX_STAYS_NEEDED);
            movedOnto = 0;
        } else if (++walksOnMove >= WALKS_TO_PAY) {
            staysNeeded = 1;
            movedOnto = 0;
        }
    }

    /**
     * Where the marker's frame sits in the chain, searching from the innermost end (the marker sits
     * near it in a steady sampler); -1 when the chain does not hold it.
     */
    int positionOf(long frameAddress) {
        for (int i = size - 1; i >= 0; i--) {
            if (address[i] == frameAddress) {
                return i;
            }
        }
        return -1;
    }

    long executableOf(int position) {
        return executable[position];
    }

    long addressOf(int position) {
        return position < 0 ? 0 : address[position];
    }

    /** Frames shown for chain frames {@code 0 .. position - 1}: their count in {@link #events()}. */
    int eventsBelow(int position) {
        return position == 0 ? 0 : eventEnd[position - 1];
    }

    FrameInfo[] events() {
        return events;
    }

    /** The id of the first {@code frames} chain frames' contents, handing them out. */
    long tailId(int frames) {
        handedOut = Math.max(handedOut, frames);
        return tailId;
    }

    /**
     * Replaces the frames from {@code position} up with a walk's, given innermost first; the marker
     * was seen on the chain, which is anchored from now on.
     */
    void rewriteFrom(int position, WalkedFrames walked) {
        if (position < handedOut) {
            tailId = NEXT_TAIL_ID.getAndIncrement();
            handedOut = 0;
        }
        int frames = walked.frames();
        int oldEnd = size == 0 ? 0 : eventEnd[size - 1];
        ensureFrames(position + frames);
        int event = eventsBelow(position);
        for (int j = frames - 1, i = position; j >= 0; j--, i++) {
            address[i] = walked.address(j);
            executable[i] = walked.executable(j);
            int shown = walked.eventCount(j);
            ensureEvents(event + shown);
            for (int k = shown - 1; k >= 0; k--) {
                events[event++] = walked.event(j, k);
            }
            eventEnd[i] = event;
        }
        Arrays.fill(events, event, Math.max(event, oldEnd), null);
        size = position + frames;
        anchored = true;
    }

    private void ensureFrames(int frames) {
        if (address.length < frames) {
            int capacity = Math.max(frames, address.length * 2);
            address = Arrays.copyOf(address, capacity);
            executable = Arrays.copyOf(executable, capacity);
            eventEnd = Arrays.copyOf(eventEnd, capacity);
        }
    }

    private void ensureEvents(int count) {
        if (events.length < count) {
            events = Arrays.copyOf(events, Math.max(count, events.length * 2));
        }
    }
}
