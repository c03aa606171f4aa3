// CorpusTest.java: checks the codec behind Adapter.Codec against every vector
// of the exported corpus (vectors/vectors.json; schema
// conformance/export.schema.json). JUnit 5 and Gson are used by this test
// only; the adapter needs neither.
//
// The corpus path: the environment variable WOWGUID_VECTORS, else
// vectors/vectors.json (run from the repository root).

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CorpusTest {
    /** The codec under test: change this line to test your own Adapter.Codec. */
    private static final Adapter.Codec CODEC = new Adapter.OwnCodec();

    /** What one codec call gave: an error code, or a value. */
    private static final class Result {
        String error; // null on success
        long guid;
        int consumed;
        byte[] name;
        byte[] bytes;
        int size;
    }

    private static byte[] bytes(JsonElement e) {
        JsonArray a = e.getAsJsonArray();
        byte[] b = new byte[a.size()];
        for (int i = 0; i < b.length; i++) b[i] = (byte) a.get(i).getAsInt();
        return b;
    }

    private static long guid(JsonElement e) {
        return Long.parseUnsignedLong(e.getAsString(), 16);
    }

    private static Result call(JsonObject v) {
        JsonObject req = v.getAsJsonObject("request");
        boolean packed = v.get("type").getAsString().equals("packed_guid");
        Result r = new Result();
        try {
            if (v.get("op").getAsString().equals("decode")) {
                ByteBuffer in = ByteBuffer.wrap(bytes(req.get("bytes")));
                if (packed) {
                    r.guid = CODEC.readPackedGuid(in);
                } else {
                    Adapter.Named n = CODEC.readNamedGuid(in);
                    r.guid = n.guid();
                    r.name = n.name();
                }
                r.consumed = in.position();
            } else if (v.get("op").getAsString().equals("size")) {
                byte[] name = req.get("has_name").getAsBoolean() ? bytes(req.get("name")) : null;
                r.size = packed ? CODEC.packedGuidSize(guid(req.get("guid")))
                        : CODEC.namedGuidSize(guid(req.get("guid")), name);
            } else {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                if (packed) {
                    CODEC.writePackedGuid(out, guid(req.get("guid")));
                } else {
                    byte[] name = req.get("has_name").getAsBoolean() ? bytes(req.get("name")) : null;
                    CODEC.writeNamedGuid(out, guid(req.get("guid")), name);
                }
                r.bytes = out.toByteArray();
            }
        } catch (Adapter.Rejected e) {
            r.error = e.code;
        }
        return r;
    }

    /** null when the result is the expected value, else why not. */
    private static String valueMismatch(JsonObject v, Result r) {
        JsonObject e = v.getAsJsonObject("expect");
        if (r.error != null) return "error " + r.error + ", expected " + e.get("line").getAsString();
        if (v.get("op").getAsString().equals("decode")) {
            long guid = guid(e.get("guid"));
            boolean same = r.guid == guid && r.consumed == e.get("consumed").getAsInt();
            if (same && v.get("type").getAsString().equals("named_guid") && guid != 0) {
                same = r.name != null && Arrays.equals(r.name, bytes(e.get("name")));
            }
            return same ? null
                    : String.format("got %016x consumed %d, expected %s", r.guid, r.consumed,
                            e.get("line").getAsString());
        }
        if (v.get("op").getAsString().equals("size")) {
            return r.size == e.get("size").getAsInt() ? null
                    : "got size " + r.size + ", expected " + e.get("line").getAsString();
        }
        return Arrays.equals(r.bytes, bytes(e.get("bytes"))) ? null
                : "got " + Adapter.formatBytes(r.bytes) + ", expected " + e.get("line").getAsString();
    }

    /** null when the vector passes, else why not. */
    static String check(JsonObject v, Result r) {
        JsonObject e = v.getAsJsonObject("expect");
        String outcome = v.get("outcome").getAsString();
        JsonElement orError = e.get("or_error");
        if (r.error != null && !orError.isJsonNull() && r.error.equals(orError.getAsString())) return null;
        switch (outcome) {
            case "invalid": {
                String want = e.get("error").getAsString();
                return want.equals(r.error) ? null
                        : (r.error == null ? "a value" : "error " + r.error) + ", expected error " + want;
            }
            case "acceptable":
                return r.error != null ? null : valueMismatch(v, r);
            default:
                return valueMismatch(v, r);
        }
    }

    @Test
    void everyVectorOfTheCorpus() throws IOException {
        String env = System.getenv("WOWGUID_VECTORS");
        Path path = Path.of(env != null ? env : "vectors/vectors.json");
        JsonObject doc;
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            doc = JsonParser.parseReader(reader).getAsJsonObject();
        }
        assertEquals("wow-guid-vectors", doc.get("format").getAsString());
        assertEquals(1, doc.get("format_version").getAsInt());
        JsonArray vectors = doc.getAsJsonArray("vectors");
        assertEquals(doc.get("vector_count").getAsInt(), vectors.size());

        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (JsonElement el : vectors) {
            JsonObject v = el.getAsJsonObject();
            String why = check(v, call(v));
            if (why == null) {
                passed++;
            } else {
                failures.add(v.get("id").getAsString() + ": " + why);
            }
        }
        failures.forEach(System.out::println);
        System.out.println(passed + " passed, " + failures.size() + " failed");
        assertTrue(passed > 0, "no vector ran");
        assertEquals(List.of(), failures);
    }
}
