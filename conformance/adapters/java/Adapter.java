// Adapter.java: the protocol half of the Java conformance adapter, JDK 17,
// standard library only (conformance/PROTOCOL.md).
//
// Reads request lines from stdin, answers each on stdout and flushes after
// every answer. The codec is reached only through the Adapter.Codec
// interface; OwnCodec puts WowGuidCodec.java behind it. To test your own
// codec, implement Adapter.Codec and pass it to Adapter.run (see README.md).
//
//   javac -d out Adapter.java WowGuidCodec.java
//   wow-guid-conformance run --strict-errors -- java -cp out Adapter

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

public final class Adapter {
    /** A rejection, with the protocol's error code (eof, invalid_utf8, ...). */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        public final String code;

        public Rejected(String code) {
            super(code);
            this.code = code;
        }
    }

    /** A decoded NamedGuid for the protocol: name is ignored when guid is 0. */
    public record Named(long guid, byte[] name) {}

    /**
     * The calls the protocol needs. Reads start at the buffer's position
     * and must leave it just past the value. A method you do not override
     * answers `unsupported` (the two sizes are optional).
     */
    public interface Codec {
        default long readPackedGuid(ByteBuffer in) throws Rejected {
            throw new UnsupportedOperationException();
        }

        default Named readNamedGuid(ByteBuffer in) throws Rejected {
            throw new UnsupportedOperationException();
        }

        default void writePackedGuid(ByteArrayOutputStream out, long guid) throws Rejected {
            throw new UnsupportedOperationException();
        }

        /** name: null when the request gives no name (an empty name is not null). */
        default void writeNamedGuid(ByteArrayOutputStream out, long guid, byte[] name) throws Rejected {
            throw new UnsupportedOperationException();
        }

        /** How many bytes the encoding of the value takes. */
        default int packedGuidSize(long guid) throws Rejected {
            throw new UnsupportedOperationException();
        }

        /** name: null when the request gives no name, as for writeNamedGuid. */
        default int namedGuidSize(long guid, byte[] name) throws Rejected {
            throw new UnsupportedOperationException();
        }
    }

    /** WowGuidCodec behind the Codec interface. */
    public static final class OwnCodec implements Codec {
        @Override
        public long readPackedGuid(ByteBuffer in) throws Rejected {
            try {
                return WowGuidCodec.readPackedGuid(in);
            } catch (WowGuidCodec.GuidFormatException e) {
                throw new Rejected(e.code());
            }
        }

        @Override
        public Named readNamedGuid(ByteBuffer in) throws Rejected {
            try {
                WowGuidCodec.NamedGuid v = WowGuidCodec.readNamedGuid(in);
                return new Named(v.guid(), v.name());
            } catch (WowGuidCodec.GuidFormatException e) {
                throw new Rejected(e.code());
            }
        }

        @Override
        public void writePackedGuid(ByteArrayOutputStream out, long guid) {
            WowGuidCodec.writePackedGuid(out, guid);
        }

        @Override
        public void writeNamedGuid(ByteArrayOutputStream out, long guid, byte[] name) throws Rejected {
            try {
                WowGuidCodec.writeNamedGuid(out, guid, name);
            } catch (WowGuidCodec.GuidFormatException e) {
                throw new Rejected(e.code());
            }
        }

        @Override
        public int packedGuidSize(long guid) {
            return WowGuidCodec.packedGuidSize(guid);
        }

        @Override
        public int namedGuidSize(long guid, byte[] name) throws Rejected {
            try {
                return WowGuidCodec.namedGuidSize(guid, name);
            } catch (WowGuidCodec.GuidFormatException e) {
                throw new Rejected(e.code());
            }
        }
    }

    private Adapter() {}

    public static void main(String[] args) throws IOException {
        run(new OwnCodec(), new BufferedInputStream(System.in), System.out);
    }

    /** Answers every request line of `in` on `out`, flushing after each; returns at end of input. */
    public static void run(Codec codec, InputStream in, OutputStream out) throws IOException {
        String line;
        while ((line = readLine(in)) != null) {
            if (line.isEmpty() || line.charAt(0) == ' ') {
                System.err.println("adapter: a request line without an id, ignored");
                continue;
            }
            out.write((answer(codec, line) + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** One line without its \n (and a \r before it); null at end of input. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int b = in.read();
        if (b == -1) return null;
        while (b != -1 && b != '\n') {
            buf.write(b);
            b = in.read();
        }
        byte[] bytes = buf.toByteArray();
        int len = bytes.length;
        if (len > 0 && bytes[len - 1] == '\r') len--;
        return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
    }

    /** The response line (without \n) to one request line. */
    public static String answer(Codec codec, String line) {
        String[] f = line.split(" ", -1);
        try {
            return f[0] + " " + answerFields(codec, f);
        } catch (Rejected e) {
            return f[0] + " error " + e.code;
        } catch (UnsupportedOperationException e) {
            return f[0] + " unsupported";
        }
    }

    private static String answerFields(Codec codec, String[] f) throws Rejected {
        if (f.length < 4) return "error other";
        boolean decode = f[1].equals("decode"), encode = f[1].equals("encode"), size = f[1].equals("size");
        boolean packed = f[2].equals("packed_guid"), named = f[2].equals("named_guid");
        if (!(decode || encode || size) || !(packed || named)) return "unsupported";
        if (decode) {
            byte[] input = parseBytes(f[3]);
            if (f.length != 4 || input == null) return "error other";
            ByteBuffer in = ByteBuffer.wrap(input);
            if (packed) {
                long guid = codec.readPackedGuid(in);
                return "ok " + formatGuid(guid) + " " + in.position();
            }
            Named v = codec.readNamedGuid(in);
            String r = "ok " + formatGuid(v.guid()) + " " + in.position();
            return v.guid() == 0 ? r : r + " " + formatBytes(v.name());
        }
        Long guid = parseGuid(f[3]);
        if (guid == null) return "error other";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (packed) {
            if (f.length != 4) return "error other";
            if (size) return "ok " + codec.packedGuidSize(guid);
            codec.writePackedGuid(out, guid);
        } else {
            if (f.length > 5) return "error other";
            byte[] name = null;
            if (f.length == 5) {
                name = parseBytes(f[4]);
                if (name == null) return "error other";
            }
            if (size) return "ok " + codec.namedGuidSize(guid, name);
            codec.writeNamedGuid(out, guid, name);
        }
        return "ok " + formatBytes(out.toByteArray());
    }

    // Protocol values -----------------------------------------------------

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /** Hex pairs, or "-" for the empty string; null when malformed. */
    static byte[] parseBytes(String s) {
        if (s.equals("-")) return new byte[0];
        if (s.isEmpty() || s.length() % 2 != 0) return null;
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = hexDigit(s.charAt(2 * i)), lo = hexDigit(s.charAt(2 * i + 1));
            if (hi < 0 || lo < 0) return null;
            out[i] = (byte) (hi * 16 + lo);
        }
        return out;
    }

    /** Exactly 16 hex digits, most significant first; null when malformed. */
    static Long parseGuid(String s) {
        if (s.length() != 16) return null;
        long guid = 0;
        for (int i = 0; i < 16; i++) {
            int d = hexDigit(s.charAt(i));
            if (d < 0) return null;
            guid = (guid << 4) | d;
        }
        return guid;
    }

    static String formatGuid(long guid) {
        return String.format("%016x", guid);
    }

    static String formatBytes(byte[] b) {
        if (b.length == 0) return "-";
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.toString();
    }
}
