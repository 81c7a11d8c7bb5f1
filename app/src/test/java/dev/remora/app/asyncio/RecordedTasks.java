package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The target's own view of its tasks (what asyncio_graph.py and asyncio_running.py record). */
record RecordedTasks(Map<Long, List<Recorded>> byThread) {

    /** One task as {@code asyncio.all_tasks()} and {@code task.get_name()} show it, with its await chain. */
    record Recorded(long taskId, String name, List<GraphView.FrameView> callStack) {}

    static RecordedTasks of(JsonNode root) {
        Map<Long, List<Recorded>> byThread = new LinkedHashMap<>();
        for (JsonNode t : root.get("threads")) {
            List<Recorded> tasks = new ArrayList<>();
            for (JsonNode task : t.get("tasks")) {
                List<GraphView.FrameView> frames = new ArrayList<>();
                for (JsonNode f : task.get("call_stack")) {
                    frames.add(new GraphView.FrameView(f.get("function").asText(), f.get("file").asText(),
                            f.get("line").intValue(), null, null, null));
                }
                tasks.add(new Recorded(task.get("task_id").asLong(), task.get("task_name").asText(), frames));
            }
            byThread.put(t.get("thread_id").asLong(), tasks);
        }
        return new RecordedTasks(byThread);
    }

    Map<Long, String> names() {
        Map<Long, String> names = new HashMap<>();
        byThread.values().forEach(tasks -> tasks.forEach(t -> names.put(t.taskId(), t.name())));
        return names;
    }
}
