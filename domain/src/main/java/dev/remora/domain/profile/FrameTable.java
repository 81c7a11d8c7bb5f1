package dev.remora.domain.profile;

import dev.remora.domain.model.FrameInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every distinct frame of a profile, numbered in order of first appearance. */
public final class FrameTable {

    private final Map<FrameInfo, Integer> ids = new HashMap<>();
    private final List<FrameInfo> frames = new ArrayList<>();

    int intern(FrameInfo frame) {
        Integer id = ids.get(frame);
        if (id == null) {
            id = frames.size();
            frames.add(frame);
            ids.put(frame, id);
        }
        return id;
    }

    public FrameInfo get(int id) {
        return frames.get(id);
    }

    public int size() {
        return frames.size();
    }
}
