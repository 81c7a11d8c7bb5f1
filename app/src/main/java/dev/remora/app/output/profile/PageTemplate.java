package dev.remora.app.output.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A self-contained HTML page around a profile's data: NAME.html with NAME.css and NAME.js inlined
 * (from the class path directory NAME/), so the written file needs nothing from the network or the
 * disk when it is opened. Its Content-Security-Policy forbids loading anything, so a stray
 * reference would show up as an error rather than a request. The flamegraph and the heatmap use it.
 */
public final class PageTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Z]+)}}");

    private final String html;
    private final String css;
    private final String script;

    private PageTemplate(String html, String css, String script) {
        this.html = html;
        this.css = css;
        this.script = script;
    }

    /** The page NAME: {@code NAME/NAME.html}, {@code .css} and {@code .js} on the class path. */
    public static PageTemplate load(String name) {
        String css = resource(name + "/" + name + ".css");
        String script = resource(name + "/" + name + ".js");
        // Inlined as they are: a closing tag inside would end the element early.
        if (css.toLowerCase().contains("</style") || script.toLowerCase().contains("</script")) {
            throw new IllegalStateException(name + " CSS or script contains its own closing tag");
        }
        return new PageTemplate(resource(name + "/" + name + ".html"), css, script);
    }

    /**
     * The page for one profile.
     *
     * @param title plain text; escaped here
     * @param json the data, already safe inside a script element ({@link dev.remora.app.output.json.JsonEscaping#HTML_SCRIPT})
     */
    public String fill(String title, String json) {
        Map<String, String> values = Map.of("TITLE", escapeHtml(title), "CSS", css, "SCRIPT", script, "DATA", json);
        // One pass, so nothing a value contains is ever taken for a placeholder.
        Matcher m = PLACEHOLDER.matcher(html);
        StringBuilder out = new StringBuilder(html.length() + css.length() + script.length() + json.length());
        int last = 0;
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("unknown placeholder " + m.group() + " in a page template");
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

    /** @throws IllegalStateException when the build left the file out */
    private static String resource(String path) {
        try (InputStream in = PageTemplate.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("class path resource " + path + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
