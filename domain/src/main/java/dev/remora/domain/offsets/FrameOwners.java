package dev.remora.domain.offsets;

/**
 * What a frame's {@code owner} byte means in one version ({@code enum _frameowner} in
 * {@code pycore_frame.h}).
 *
 * @param thread {@code FRAME_OWNED_BY_THREAD}: a frame on the thread's data stack (0 in every version)
 * @param generator {@code FRAME_OWNED_BY_GENERATOR}: the frame embedded in a generator or coroutine
 * @param entry owners of frames that carry no Python code and are skipped: C-stack shims where C code
 *     entered the interpreter (3.12 and 3.13 CSTACK=3; 3.14 INTERPRETER=3 and CSTACK=4; 3.15
 *     INTERPRETER=3); none in 3.11
 * @param bottom owners of the frame under a thread's first call, whose {@code previous} is NULL: a walk
 *     that ends there read the whole stack (the entry owners from 3.12; 3.11's first Python frame is a
 *     thread-owned one)
 * @param max the largest valid value; anything above means the frame is garbage
 */
public record FrameOwners(int thread, int generator, int[] entry, int[] bottom, int max) {

    public boolean isEntry(int owner) {
        return contains(entry, owner);
    }

    public boolean isBottom(int owner) {
        return contains(bottom, owner);
    }

    private static boolean contains(int[] owners, int owner) {
        for (int o : owners) {
            if (o == owner) {
                return true;
            }
        }
        return false;
    }
}
