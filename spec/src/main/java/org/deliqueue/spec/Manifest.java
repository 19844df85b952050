package org.deliqueue.spec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * spec/'s layout and its {@code manifest.json}, in the shape of tlaplus/Examples' manifests: per module its models,
 * each with {@code path} (from the repository root), {@code mode}, {@code result}, {@code distinctStates},
 * {@code stateDepth} and {@code runtime}; and what the runner needs besides: a mutant's {@code exitCode} and the
 * obligation it {@code violates}, {@code long} for a model that make test does not run, and {@code note}s.
 *
 * <p>Layout: the protocol and abstract modules at the top of spec/, the models in {@value #MODELS}/, the seeded-bug
 * models in {@value #MUTANTS}/, trace validation in {@value #TRACE}/. TLC and SANY run in a model's folder with
 * {@link #library} as TLA-Library, so that a model finds the top modules and a mutant the model it is built on.
 */
public final class Manifest {

    public static final String FILE = "manifest.json";
    public static final String MODELS = "models";
    public static final String MUTANTS = "mutants";
    public static final String TRACE = "trace";
    /** Where modules live, in the order they are looked up; "" is spec/ itself. */
    public static final List<String> FOLDERS = List.of("", MODELS, MUTANTS, TRACE);

    private Manifest() {
    }

    /** The file {@code module + ext} (".tla", ".cfg") in the first folder of spec/ that has it, else at the top. */
    public static Path file(Path specDir, String module, String ext) {
        for (String f : FOLDERS) {
            Path p = (f.isEmpty() ? specDir : specDir.resolve(f)).resolve(module + ext);
            if (Files.exists(p)) {
                return p;
            }
        }
        return specDir.resolve(module + ext);
    }

    /**
     * The TLA-Library path of a TLC or SANY run: spec/ (protocol and abstract modules), its models (which mutants
     * extend) and its mutants (a mutant may extend another that seeds the same bug).
     */
    public static String library(Path specDir) {
        return String.join(java.io.File.pathSeparator, specDir.toString(), specDir.resolve(MODELS).toString(),
                specDir.resolve(MUTANTS).toString());
    }

    /** The modules of spec/ and its folders (names, sorted). */
    public static List<String> modules(Path specDir) throws IOException {
        List<String> out = new ArrayList<>();
        for (String f : FOLDERS) {
            Path dir = f.isEmpty() ? specDir : specDir.resolve(f);
            if (Files.isDirectory(dir)) {
                try (var s = Files.list(dir)) {
                    s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tla"))
                            .map(n -> n.substring(0, n.length() - 4)).forEach(out::add);
                }
            }
        }
        return out.stream().sorted().collect(Collectors.toList());
    }

    /** The models of {@code specDir/manifest.json}, in its order. */
    public static List<Tlc.Expectation> read(Path specDir) throws IOException {
        List<Tlc.Expectation> out = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(specDir.resolve(FILE).toFile())) {
            p.nextToken();
            Map<String, Object> root = object(p);
            for (Object m : list(root.get("modules"))) {
                for (Object o : list(((Map<?, ?>) m).get("models"))) {
                    out.add(expectation((Map<?, ?>) o));
                }
            }
        }
        return out;
    }

    private static Tlc.Expectation expectation(Map<?, ?> m) {
        String path = (String) m.get("path");
        String name = path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.cfg$", "");
        String expect = Boolean.TRUE.equals(m.get("long")) ? "long"
                : m.get("exitCode") != null ? m.get("exitCode").toString()
                : "success".equals(m.get("result")) ? "pass" : String.valueOf(m.get("result"));
        Object violates = m.get("violates");
        return new Tlc.Expectation(name, expect, number(m.get("distinctStates")), (int) number(m.get("stateDepth")),
                seconds((String) m.get("runtime")), violates == null ? "-" : (String) violates,
                path.replaceFirst("^spec/", ""), ((Number) m.get("@line")).intValue(),
                !Boolean.FALSE.equals(m.get("coverage")));
    }

    private static long number(Object o) {
        return o == null ? -1 : ((Number) o).longValue();
    }

    /** "HH:MM:SS" as seconds; -1 for none. */
    private static double seconds(String hms) {
        if (hms == null) {
            return -1;
        }
        String[] f = hms.split(":");
        return Integer.parseInt(f[0]) * 3600 + Integer.parseInt(f[1]) * 60 + Double.parseDouble(f[2]);
    }

    private static List<?> list(Object o) {
        return o == null ? List.of() : (List<?>) o;
    }

    /** The object at the parser's START_OBJECT; "@line" holds the line it starts on. */
    private static Map<String, Object> object(JsonParser p) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("@line", p.currentLocation().getLineNr());
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            out.put(key, value(p));
        }
        return out;
    }

    private static Object value(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT:
                return object(p);
            case START_ARRAY: {
                List<Object> out = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    out.add(value(p));
                }
                return out;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected " + p.currentToken() + " at " + p.currentLocation());
        }
    }
}
