package dev.remora.domain.profile;

import dev.remora.domain.model.FrameInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Every distinct frame of a profile, numbered in order of first appearance. */
public final class FrameTable {

    private static final int MAX_IDENTITIES = 1 << 20;

    private final Map<FrameInfo, Integer> ids = new HashMap<>();
    /** The walker hands out the same FrameInfo objects again and again: find those by identity first. */
    private final Map<FrameInfo, Integer> byIdentity = new IdentityHashMap<>();
    private final List<FrameInfo> frames = new ArrayList<>();

    int intern(FrameInfo frame) {
        Integer id = byIdentity.get(frame);
        if (id != null) {
            return id;
        }
        id = ids.get(frame);
        if (id == null) {
            id = frames.size();
            frames.add(frame);
            ids.put(frame, id);
        }
        if (byIdentity.size() >= MAX_IDENTITIES) {
            byIdentity.clear();
        }
        byIdentity.put(frame, id);
        return id;
    }

    public FrameInfo get(int id) {
        return frames.get(id);
    }

    public int size() {
        return frames.size();
    }
}
