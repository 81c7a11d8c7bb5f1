package dev.remora.app.output.profile.flamegraph;

import dev.remora.app.output.profile.PageResource;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The page around the data: flamegraph.html with flamegraph.css and flamegraph.js inlined, so the
 * written file needs nothing from the network or the disk when it is opened. Its Content-Security-Policy
 * forbids loading anything, so a stray reference would show up as an error rather than a request.
 */
final class FlamegraphTemplate {

    private static final String DIR = "flamegraph/";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Z]+)}}");

    private final String html;
    private final String css;
    private final String script;

    private FlamegraphTemplate(String html, String css, String script) {
        this.html = html;
        this.css = css;
        this.script = script;
    }

    static FlamegraphTemplate load() {
        String css = resource("flamegraph.css");
        String script = resource("flamegraph.js");
        // Inlined as they are: a closing tag inside would end the element early.
        if (css.toLowerCase().contains("</style") || script.toLowerCase().contains("</script")) {
            throw new IllegalStateException("flamegraph CSS or script contains its own closing tag");
        }
        return new FlamegraphTemplate(resource("flamegraph.html"), css, script);
    }

    /**
     * The page for one profile.
     *
     * @param title plain text; escaped here
     * @param json the data, already safe inside a script element ({@link dev.remora.app.output.json.JsonEscaping#HTML_SCRIPT})
     */
    String fill(String title, String json) {
        Map<String, String> values = Map.of("TITLE", escapeHtml(title), "CSS", css, "SCRIPT", script, "DATA", json);
        // One pass, so nothing a value contains is ever taken for a placeholder.
        Matcher m = PLACEHOLDER.matcher(html);
        StringBuilder out = new StringBuilder(html.length() + css.length() + script.length() + json.length());
        int last = 0;
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("unknown placeholder " + m.group() + " in flamegraph.html");
            }
            out.append(html, last, m.start()).append(value);
            last = m.end();
        }
        return out.append(html, last, html.length()).toString();
    }

    static String escapeHtml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static String resource(String name) {
        return PageResource.text(DIR + name);
    }
}
