// Adapter.cs: the protocol half of the C# conformance adapter
// (conformance/PROTOCOL.md). C# 7, standard library only; builds with Mono's
// mcs. Reads request lines on stdin, writes one answer line for each on
// stdout and flushes after every answer. The codec is reached only through
// IGuidCodec; OwnCodec puts WowGuidCodec.cs behind it.
//
//   mcs -langversion:7 -out:adapter-csharp.exe Adapter.cs WowGuidCodec.cs
//   wow-guid-conformance run --strict-errors -- mono adapter-csharp.exe
using System;
using System.IO;
using System.Text;

namespace WowGuid
{
    // A rejection, with the protocol's error code (eof, invalid_utf8, ...).
    public sealed class Rejected : Exception
    {
        public readonly string Code;
        public Rejected(string code) : base(code) { Code = code; }
    }

    // The calls the protocol needs (the two sizes are optional: throw
    // NotSupportedException from them to answer `unsupported`). Reads start at the reader's position
    // and leave it just past the value. Throw Rejected for an error, and
    // NotSupportedException for a kind of request you do not implement.
    public interface IGuidCodec
    {
        ulong ReadPackedGuid(BinaryReader reader);
        ulong ReadNamedGuid(BinaryReader reader, out byte[] name);
        void WritePackedGuid(BinaryWriter writer, ulong guid);
        // name: null when the request gives no name (an empty name is not null).
        void WriteNamedGuid(BinaryWriter writer, ulong guid, byte[] name);
        // How many bytes the encoding of the value takes.
        int PackedGuidSize(ulong guid);
        int NamedGuidSize(ulong guid, byte[] name);
    }

    // WowGuidCodec behind IGuidCodec.
    public sealed class OwnCodec : IGuidCodec
    {
        public ulong ReadPackedGuid(BinaryReader reader)
        {
            try { return WowGuidCodec.ReadPackedGuid(reader); }
            catch (GuidFormatException e) { throw new Rejected(e.Code); }
        }

        public ulong ReadNamedGuid(BinaryReader reader, out byte[] name)
        {
            try { return WowGuidCodec.ReadNamedGuid(reader, out name); }
            catch (GuidFormatException e) { throw new Rejected(e.Code); }
        }

        public void WritePackedGuid(BinaryWriter writer, ulong guid)
        {
            WowGuidCodec.WritePackedGuid(writer, guid);
        }

        public void WriteNamedGuid(BinaryWriter writer, ulong guid, byte[] name)
        {
            try { WowGuidCodec.WriteNamedGuid(writer, guid, name); }
            catch (GuidFormatException e) { throw new Rejected(e.Code); }
        }

        public int PackedGuidSize(ulong guid)
        {
            return WowGuidCodec.PackedGuidSize(guid);
        }

        public int NamedGuidSize(ulong guid, byte[] name)
        {
            try { return WowGuidCodec.NamedGuidSize(guid, name); }
            catch (GuidFormatException e) { throw new Rejected(e.Code); }
        }
    }

    public static class Adapter
    {
        public static int Main()
        {
            Run(new OwnCodec(), new BufferedStream(Console.OpenStandardInput()), Console.OpenStandardOutput());
            return 0;
        }

        // Answers every request line of input on output, flushing after each
        // answer; returns at end of input (answering a last line without \n).
        public static void Run(IGuidCodec codec, Stream input, Stream output)
        {
            string line;
            while ((line = ReadLine(input)) != null)
            {
                if (line.Length == 0 || line[0] == ' ')
                {
                    Console.Error.WriteLine("adapter: a request line without an id, ignored");
                    continue;
                }
                byte[] answer = Encoding.ASCII.GetBytes(Answer(codec, line) + "\n");
                output.Write(answer, 0, answer.Length);
                output.Flush();
            }
        }

        // One line without its \n (and a \r before it); null at end of input.
        static string ReadLine(Stream input)
        {
            var buf = new MemoryStream();
            int b = input.ReadByte();
            if (b < 0) return null;
            while (b >= 0 && b != '\n')
            {
                buf.WriteByte((byte)b);
                b = input.ReadByte();
            }
            byte[] bytes = buf.ToArray();
            int len = bytes.Length;
            if (len > 0 && bytes[len - 1] == '\r') len--;
            return Encoding.GetEncoding("iso-8859-1").GetString(bytes, 0, len);
        }

        // The response line (without \n) to one request line.
        public static string Answer(IGuidCodec codec, string line)
        {
            string[] f = line.Split(' ');
            try { return f[0] + " " + AnswerFields(codec, f); }
            catch (Rejected e) { return f[0] + " error " + e.Code; }
            catch (NotSupportedException) { return f[0] + " unsupported"; }
        }

        static string AnswerFields(IGuidCodec codec, string[] f)
        {
            if (f.Length < 4) return "error other";
            bool decode = f[1] == "decode", encode = f[1] == "encode", size = f[1] == "size";
            bool packed = f[2] == "packed_guid", named = f[2] == "named_guid";
            if (!(decode || encode || size) || !(packed || named)) return "unsupported";
            if (decode)
            {
                byte[] data = ParseBytes(f[3]);
                if (data == null || f.Length != 4) return "error other";
                var reader = new BinaryReader(new MemoryStream(data, false));
                if (packed)
                {
                    ulong g = codec.ReadPackedGuid(reader);
                    return "ok " + FormatGuid(g) + " " + reader.BaseStream.Position;
                }
                byte[] name;
                ulong guid = codec.ReadNamedGuid(reader, out name);
                string r = "ok " + FormatGuid(guid) + " " + reader.BaseStream.Position;
                return guid == 0 ? r : r + " " + FormatBytes(name);
            }
            ulong value;
            if (!ParseGuid(f[3], out value)) return "error other";
            var output = new MemoryStream();
            var writer = new BinaryWriter(output);
            if (packed)
            {
                if (f.Length != 4) return "error other";
                if (size) return "ok " + codec.PackedGuidSize(value);
                codec.WritePackedGuid(writer, value);
            }
            else
            {
                if (f.Length > 5) return "error other";
                byte[] name = null;
                if (f.Length == 5)
                {
                    name = ParseBytes(f[4]);
                    if (name == null) return "error other";
                }
                if (size) return "ok " + codec.NamedGuidSize(value, name);
                codec.WriteNamedGuid(writer, value, name);
            }
            writer.Flush();
            return "ok " + FormatBytes(output.ToArray());
        }

        // Protocol values -------------------------------------------------

        static int HexDigit(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        // Hex pairs, or "-" for the empty string; null when malformed.
        public static byte[] ParseBytes(string s)
        {
            if (s == "-") return new byte[0];
            if (s.Length == 0 || s.Length % 2 != 0) return null;
            var b = new byte[s.Length / 2];
            for (int i = 0; i < b.Length; i++)
            {
                int hi = HexDigit(s[2 * i]), lo = HexDigit(s[2 * i + 1]);
                if (hi < 0 || lo < 0) return null;
                b[i] = (byte)(hi * 16 + lo);
            }
            return b;
        }

        // Exactly 16 hex digits, most significant first.
        public static bool ParseGuid(string s, out ulong guid)
        {
            guid = 0;
            if (s.Length != 16) return false;
            foreach (char c in s)
            {
                int d = HexDigit(c);
                if (d < 0) return false;
                guid = (guid << 4) | (uint)d;
            }
            return true;
        }

        public static string FormatGuid(ulong guid)
        {
            return guid.ToString("x16");
        }

        public static string FormatBytes(byte[] b)
        {
            if (b.Length == 0) return "-";
            var sb = new StringBuilder(b.Length * 2);
            foreach (byte x in b) sb.Append(x.ToString("x2"));
            return sb.ToString();
        }
    }
}
