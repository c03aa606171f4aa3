// WowGuidCodec.java: a PackedGuid / NamedGuid codec, JDK 17, standard library
// only. The codec half of the Java conformance adapter (Adapter.java is the
// protocol half and reaches this class only through its Adapter.Codec
// interface).
//
// Values are read from a java.nio.ByteBuffer at its position, which a
// successful read moves just past the value (and an error leaves where it
// was); they are written to a ByteArrayOutputStream, which an error leaves
// untouched.
//
// Positions taken (vectors/NOTES.md): the PackedGuid mask selects byte
// positions, least significant first; the encoder writes the shortest form,
// the decoder accepts any. A NamedGuid is a little-endian u64, then, when it
// is not 0, a strict UTF-8 name ended by a NUL. Names have no length bound
// here. A name is a byte[] that may be null (no name), so GUID 0 with an
// empty name is refused (name_without_guid) and a non-zero GUID without a
// name is refused (other): both answers are `acceptable` in the corpus.

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

public final class WowGuidCodec {
    private WowGuidCodec() {}

    /** A rejected input or value; {@link #code()} is the protocol's error code. */
    public static final class GuidFormatException extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        public GuidFormatException(String code, String message) {
            super(message);
            this.code = code;
        }

        /** eof, invalid_utf8, interior_nul, name_without_guid, name_too_long or other. */
        public String code() {
            return code;
        }
    }

    /** A decoded NamedGuid: name is null exactly when guid is 0. */
    public record NamedGuid(long guid, byte[] name) {}

    // PackedGuid -----------------------------------------------------------

    public static long readPackedGuid(ByteBuffer in) throws GuidFormatException {
        int p = in.position();
        final int end = in.limit();
        if (p >= end) throw new GuidFormatException("eof", "no mask byte");
        final int mask = in.get(p++) & 0xFF;
        long guid = 0;
        for (int bit = 0; bit < 8; bit++) {
            if ((mask & (1 << bit)) != 0) {
                if (p >= end) throw new GuidFormatException("eof", "the mask promises more bytes");
                guid |= (long) (in.get(p++) & 0xFF) << (8 * bit);
            }
        }
        in.position(p);
        return guid;
    }

    public static void writePackedGuid(ByteArrayOutputStream out, long guid) {
        int mask = 0;
        byte[] bytes = new byte[8];
        int n = 0;
        for (int bit = 0; bit < 8; bit++) {
            int b = (int) (guid >>> (8 * bit)) & 0xFF;
            if (b != 0) {
                mask |= 1 << bit;
                bytes[n++] = (byte) b;
            }
        }
        out.write(mask);
        out.write(bytes, 0, n);
    }

    // NamedGuid ------------------------------------------------------------

    public static NamedGuid readNamedGuid(ByteBuffer in) throws GuidFormatException {
        final int start = in.position();
        final int end = in.limit();
        if (end - start < 8) throw new GuidFormatException("eof", "fewer than 8 bytes");
        long guid = 0;
        for (int i = 0; i < 8; i++) {
            guid |= (long) (in.get(start + i) & 0xFF) << (8 * i);
        }
        if (guid == 0) {
            in.position(start + 8);
            return new NamedGuid(0, null);
        }
        // Find the NUL first, then check the bytes before it
        // (NOTES.md, "Two faults in one input": eof before invalid_utf8).
        final int nameStart = start + 8;
        int nul = nameStart;
        while (true) {
            if (nul >= end) throw new GuidFormatException("eof", "the name has no NUL");
            if (in.get(nul) == 0) break;
            nul++;
        }
        byte[] name = new byte[nul - nameStart];
        for (int i = 0; i < name.length; i++) name[i] = in.get(nameStart + i);
        if (!isValidUtf8(name)) throw new GuidFormatException("invalid_utf8", "the name is not UTF-8");
        in.position(nul + 1);
        return new NamedGuid(guid, name);
    }

    /** name: null for no name (not the same as an empty name). */
    public static void writeNamedGuid(ByteArrayOutputStream out, long guid, byte[] name)
            throws GuidFormatException {
        if (name != null) {
            for (byte b : name) {
                if (b == 0) throw new GuidFormatException("interior_nul", "the name holds a NUL");
            }
            if (!isValidUtf8(name)) throw new GuidFormatException("invalid_utf8", "the name is not UTF-8");
            if (guid == 0) throw new GuidFormatException("name_without_guid", "GUID 0 has no name");
        } else if (guid != 0) {
            throw new GuidFormatException("other", "a non-zero GUID needs a name");
        }
        for (int i = 0; i < 8; i++) out.write((int) (guid >>> (8 * i)) & 0xFF);
        if (guid != 0) {
            out.write(name, 0, name.length);
            out.write(0);
        }
    }

    /** How many bytes writePackedGuid writes: the mask byte and one for each non-zero byte. */
    public static int packedGuidSize(long guid) {
        int size = 1;
        for (int i = 0; i < 8; i++) {
            if (((guid >>> (8 * i)) & 0xFF) != 0) size++;
        }
        return size;
    }

    /**
     * How many bytes writeNamedGuid writes: the GUID, then the name in bytes
     * (never characters) and its NUL when the GUID is not 0. A value
     * writeNamedGuid refuses is refused with the same code.
     */
    public static int namedGuidSize(long guid, byte[] name) throws GuidFormatException {
        writeNamedGuid(new ByteArrayOutputStream(), guid, name);
        return guid == 0 ? 8 : 8 + name.length + 1;
    }

    /**
     * Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF,
     * no stray or missing continuation bytes.
     */
    public static boolean isValidUtf8(byte[] s) {
        int i = 0;
        while (i < s.length) {
            int b = s[i] & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int extra;
            int lo = 0x80, hi = 0xBF; // allowed range of the second byte
            if (b >= 0xC2 && b <= 0xDF) {
                extra = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                extra = 2;
                if (b == 0xE0) lo = 0xA0;
                if (b == 0xED) hi = 0x9F;
            } else if (b >= 0xF0 && b <= 0xF4) {
                extra = 3;
                if (b == 0xF0) lo = 0x90;
                if (b == 0xF4) hi = 0x8F;
            } else {
                return false;
            }
            if (s.length - i <= extra) return false;
            int second = s[i + 1] & 0xFF;
            if (second < lo || second > hi) return false;
            for (int k = 2; k <= extra; k++) {
                if ((s[i + k] & 0xC0) != 0x80) return false;
            }
            i += extra + 1;
        }
        return true;
    }
}
