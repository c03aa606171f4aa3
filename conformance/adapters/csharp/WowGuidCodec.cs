// WowGuidCodec.cs: a PackedGuid / NamedGuid codec over BinaryReader and
// BinaryWriter, the way C# packet parsers read packets. C# 7, standard
// library only. The codec half of the C# conformance adapter (Adapter.cs is
// the protocol half and reaches this class only through IGuidCodec).
//
// A read starts at the reader's position and leaves it just past the value;
// on an error the position is put back where it was (the stream must be
// seekable) and nothing is written.
//
// Positions taken (vectors/NOTES.md): the PackedGuid mask selects byte
// positions, least significant first; the encoder writes the shortest form,
// the decoder accepts any. A NamedGuid is a little-endian ulong, then, when
// it is not 0, a strict UTF-8 name ended by a NUL. A name is a byte[] that
// may be null (no name), so GUID 0 with an empty name is refused
// (name_without_guid), and a non-zero GUID without a name is refused (other):
// both answers are `acceptable` in the corpus. Names are bounded at
// MaxNameLength bytes (1024 by default, the NUL not counted; at least 255):
// a longer one is refused with name_too_long, never cut.
using System;
using System.IO;

namespace WowGuid
{
    public sealed class GuidFormatException : Exception
    {
        // The protocol's error code: eof, invalid_utf8, interior_nul,
        // name_without_guid, name_too_long or other.
        public readonly string Code;

        public GuidFormatException(string code, string message) : base(message)
        {
            Code = code;
        }
    }

    public static class WowGuidCodec
    {
        public static int MaxNameLength = 1024;

        // PackedGuid -------------------------------------------------------

        public static ulong ReadPackedGuid(BinaryReader reader)
        {
            Stream s = reader.BaseStream;
            long start = s.Position;
            long left = s.Length - start;
            if (left < 1) throw new GuidFormatException("eof", "no mask byte");
            byte mask = reader.ReadByte();
            int count = 0;
            for (int bit = 0; bit < 8; bit++) if ((mask & (1 << bit)) != 0) count++;
            if (left - 1 < count)
            {
                s.Position = start;
                throw new GuidFormatException("eof", "the mask promises more bytes");
            }
            ulong guid = 0;
            for (int bit = 0; bit < 8; bit++)
            {
                if ((mask & (1 << bit)) != 0) guid |= (ulong)reader.ReadByte() << (8 * bit);
            }
            return guid;
        }

        public static void WritePackedGuid(BinaryWriter writer, ulong guid)
        {
            byte mask = 0;
            var body = new byte[8];
            int n = 0;
            for (int bit = 0; bit < 8; bit++)
            {
                byte b = (byte)(guid >> (8 * bit));
                if (b != 0)
                {
                    mask |= (byte)(1 << bit);
                    body[n++] = b;
                }
            }
            writer.Write(mask);
            writer.Write(body, 0, n);
        }

        // NamedGuid --------------------------------------------------------

        // name is set to null exactly when the GUID is 0.
        public static ulong ReadNamedGuid(BinaryReader reader, out byte[] name)
        {
            Stream s = reader.BaseStream;
            long start = s.Position;
            name = null;
            if (s.Length - start < 8) throw new GuidFormatException("eof", "fewer than 8 bytes");
            ulong guid = reader.ReadUInt64(); // BinaryReader is little-endian
            if (guid == 0) return 0;
            // The name's extent first, then its bytes (NOTES.md, "Two faults
            // in one input": eof before invalid_utf8).
            long nameStart = s.Position;
            int len = 0;
            while (true)
            {
                int b = s.ReadByte();
                if (b < 0) Fail(s, start, "eof", "the name has no NUL");
                if (b == 0) break;
                if (len >= MaxNameLength) Fail(s, start, "name_too_long", "the name is too long");
                len++;
            }
            s.Position = nameStart;
            byte[] bytes = reader.ReadBytes(len);
            reader.ReadByte(); // the NUL
            if (!IsValidUtf8(bytes)) Fail(s, start, "invalid_utf8", "the name is not UTF-8");
            name = bytes;
            return guid;
        }

        // name: null when no name is given (not the same as an empty name).
        public static void WriteNamedGuid(BinaryWriter writer, ulong guid, byte[] name)
        {
            if (name != null)
            {
                if (Array.IndexOf(name, (byte)0) >= 0)
                    throw new GuidFormatException("interior_nul", "the name holds a NUL");
                if (!IsValidUtf8(name)) throw new GuidFormatException("invalid_utf8", "the name is not UTF-8");
                if (name.Length > MaxNameLength)
                    throw new GuidFormatException("name_too_long", "the name is too long");
                if (guid == 0) throw new GuidFormatException("name_without_guid", "GUID 0 has no name");
            }
            else if (guid != 0)
            {
                throw new GuidFormatException("other", "a non-zero GUID needs a name");
            }
            writer.Write(guid); // BinaryWriter is little-endian
            if (guid != 0)
            {
                writer.Write(name);
                writer.Write((byte)0);
            }
        }

        // Sizes ------------------------------------------------------------

        // How many bytes WritePackedGuid writes: the mask byte and one byte
        // for each non-zero GUID byte.
        public static int PackedGuidSize(ulong guid)
        {
            int size = 1;
            for (int i = 0; i < 8; i++)
                if ((byte)(guid >> (8 * i)) != 0) size++;
            return size;
        }

        // How many bytes WriteNamedGuid writes: the GUID, then the name in
        // bytes (never characters) and its NUL when the GUID is not 0. A
        // value WriteNamedGuid refuses is refused with the same code.
        public static int NamedGuidSize(ulong guid, byte[] name)
        {
            WriteNamedGuid(new BinaryWriter(Stream.Null), guid, name);
            return guid == 0 ? 8 : 8 + name.Length + 1;
        }

        static void Fail(Stream s, long start, string code, string message)
        {
            s.Position = start;
            throw new GuidFormatException(code, message);
        }

        // Strict UTF-8: no overlong forms, no surrogates, nothing above
        // U+10FFFF, no stray or missing continuation bytes.
        public static bool IsValidUtf8(byte[] s)
        {
            int i = 0;
            while (i < s.Length)
            {
                int b = s[i];
                if (b < 0x80) { i++; continue; }
                int extra, lo = 0x80, hi = 0xBF;
                if (b >= 0xC2 && b <= 0xDF) extra = 1;
                else if (b >= 0xE0 && b <= 0xEF)
                {
                    extra = 2;
                    if (b == 0xE0) lo = 0xA0;
                    if (b == 0xED) hi = 0x9F;
                }
                else if (b >= 0xF0 && b <= 0xF4)
                {
                    extra = 3;
                    if (b == 0xF0) lo = 0x90;
                    if (b == 0xF4) hi = 0x8F;
                }
                else return false;
                if (s.Length - i <= extra) return false;
                if (s[i + 1] < lo || s[i + 1] > hi) return false;
                for (int k = 2; k <= extra; k++)
                {
                    if ((s[i + k] & 0xC0) != 0x80) return false;
                }
                i += extra + 1;
            }
            return true;
        }
    }
}
