// CorpusTest.cs: checks the codec behind IGuidCodec against every vector of
// the exported corpus (vectors/vectors.json; schema
// conformance/export.schema.json). Mono ships no JSON reader that mcs can
// reference without extra packages, so a small one is below; it is for this
// test only, like the test itself.
//
//   mcs -langversion:7 -main:WowGuid.CorpusTest -out:corpus-test.exe Adapter.cs WowGuidCodec.cs CorpusTest.cs
//   mono corpus-test.exe [vectors/vectors.json]     (prints "N passed, M failed"; exit 1 on a failure)
//
// The corpus path: the first argument, else WOWGUID_VECTORS, else
// vectors/vectors.json (run from the repository root).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;

namespace WowGuid
{
    public static class CorpusTest
    {
        // The codec under test: change this line to test your own IGuidCodec.
        static readonly IGuidCodec Codec = new OwnCodec();

        sealed class Result
        {
            public string Error; // null on success
            public ulong Guid;
            public long Consumed;
            public byte[] Name;
            public byte[] Bytes;
            public long Size;
        }

        public static int Main(string[] args)
        {
            string path = args.Length > 0 ? args[0]
                : Environment.GetEnvironmentVariable("WOWGUID_VECTORS") ?? "vectors/vectors.json";
            var doc = (Dictionary<string, object>)Json.Parse(File.ReadAllText(path, Encoding.UTF8));
            var vectors = (List<object>)doc["vectors"];
            if ((string)doc["format"] != "wow-guid-vectors" || (long)doc["format_version"] != 1
                || (long)doc["vector_count"] != vectors.Count)
            {
                Console.WriteLine("not a wow-guid-vectors document of format 1: " + path);
                return 2;
            }
            int passed = 0, failed = 0;
            foreach (Dictionary<string, object> v in vectors)
            {
                string why = Check(v, Call(v));
                if (why == null) passed++;
                else
                {
                    failed++;
                    Console.WriteLine("FAIL " + v["id"] + ": " + why);
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }

        static byte[] Bytes(object o)
        {
            return ((List<object>)o).Select(x => checked((byte)(long)x)).ToArray();
        }

        static ulong Guid(object o)
        {
            return ulong.Parse((string)o, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture);
        }

        static Result Call(Dictionary<string, object> v)
        {
            var req = (Dictionary<string, object>)v["request"];
            bool packed = (string)v["type"] == "packed_guid";
            var r = new Result();
            try
            {
                if ((string)v["op"] == "decode")
                {
                    var reader = new BinaryReader(new MemoryStream(Bytes(req["bytes"]), false));
                    if (packed) r.Guid = Codec.ReadPackedGuid(reader);
                    else r.Guid = Codec.ReadNamedGuid(reader, out r.Name);
                    r.Consumed = reader.BaseStream.Position;
                }
                else if ((string)v["op"] == "size")
                {
                    byte[] name = (bool)req["has_name"] ? Bytes(req["name"]) : null;
                    r.Size = packed ? Codec.PackedGuidSize(Guid(req["guid"]))
                                    : Codec.NamedGuidSize(Guid(req["guid"]), name);
                }
                else
                {
                    var output = new MemoryStream();
                    var writer = new BinaryWriter(output);
                    if (packed) Codec.WritePackedGuid(writer, Guid(req["guid"]));
                    else
                    {
                        byte[] name = (bool)req["has_name"] ? Bytes(req["name"]) : null;
                        Codec.WriteNamedGuid(writer, Guid(req["guid"]), name);
                    }
                    writer.Flush();
                    r.Bytes = output.ToArray();
                }
            }
            catch (Rejected e)
            {
                r.Error = e.Code;
            }
            return r;
        }

        // null when the result is the expected value, else why not.
        static string ValueMismatch(Dictionary<string, object> v, Result r)
        {
            var e = (Dictionary<string, object>)v["expect"];
            if (r.Error != null) return "error " + r.Error + ", expected " + e["line"];
            if ((string)v["op"] == "decode")
            {
                ulong guid = Guid(e["guid"]);
                bool same = r.Guid == guid && r.Consumed == (long)e["consumed"];
                if ((string)v["type"] == "named_guid" && guid != 0)
                    same = same && r.Name != null && r.Name.SequenceEqual(Bytes(e["name"]));
                return same ? null
                    : "got " + Adapter.FormatGuid(r.Guid) + " consumed " + r.Consumed + ", expected " + e["line"];
            }
            if ((string)v["op"] == "size")
                return r.Size == (long)e["size"] ? null : "got size " + r.Size + ", expected " + e["line"];
            return r.Bytes.SequenceEqual(Bytes(e["bytes"])) ? null
                : "got " + Adapter.FormatBytes(r.Bytes) + ", expected " + e["line"];
        }

        // null when the vector passes, else why not.
        static string Check(Dictionary<string, object> v, Result r)
        {
            var e = (Dictionary<string, object>)v["expect"];
            var orError = e["or_error"] as string;
            if (r.Error != null && r.Error == orError) return null;
            switch ((string)v["outcome"])
            {
                case "invalid":
                    var want = (string)e["error"];
                    if (r.Error == want) return null;
                    return (r.Error == null ? "a value" : "error " + r.Error) + ", expected error " + want;
                case "acceptable":
                    return r.Error != null ? null : ValueMismatch(v, r);
                default:
                    return ValueMismatch(v, r);
            }
        }
    }

    // A small JSON reader: objects become Dictionary<string, object>, arrays
    // List<object>, strings string, integers long, other numbers double,
    // true/false bool, null null.
    static class Json
    {
        public static object Parse(string text)
        {
            int i = 0;
            object value = Value(text, ref i);
            Space(text, ref i);
            if (i != text.Length) throw Bad(i, "text after the value");
            return value;
        }

        static Exception Bad(int at, string what)
        {
            return new FormatException("JSON at " + at + ": " + what);
        }

        static void Space(string s, ref int i)
        {
            while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
        }

        static void Expect(string s, ref int i, string word)
        {
            if (string.CompareOrdinal(s, i, word, 0, word.Length) != 0) throw Bad(i, "expected " + word);
            i += word.Length;
        }

        static object Value(string s, ref int i)
        {
            Space(s, ref i);
            if (i >= s.Length) throw Bad(i, "unexpected end");
            char c = s[i];
            if (c == '{')
            {
                var obj = new Dictionary<string, object>();
                i++;
                Space(s, ref i);
                if (i < s.Length && s[i] == '}') { i++; return obj; }
                while (true)
                {
                    Space(s, ref i);
                    if (i >= s.Length || s[i] != '"') throw Bad(i, "expected a key");
                    string key = Str(s, ref i);
                    Space(s, ref i);
                    Expect(s, ref i, ":");
                    obj[key] = Value(s, ref i);
                    Space(s, ref i);
                    if (i < s.Length && s[i] == ',') { i++; continue; }
                    Expect(s, ref i, "}");
                    return obj;
                }
            }
            if (c == '[')
            {
                var list = new List<object>();
                i++;
                Space(s, ref i);
                if (i < s.Length && s[i] == ']') { i++; return list; }
                while (true)
                {
                    list.Add(Value(s, ref i));
                    Space(s, ref i);
                    if (i < s.Length && s[i] == ',') { i++; continue; }
                    Expect(s, ref i, "]");
                    return list;
                }
            }
            if (c == '"') return Str(s, ref i);
            if (c == 't') { Expect(s, ref i, "true"); return true; }
            if (c == 'f') { Expect(s, ref i, "false"); return false; }
            if (c == 'n') { Expect(s, ref i, "null"); return null; }
            int start = i;
            while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) i++;
            string num = s.Substring(start, i - start);
            long l;
            if (long.TryParse(num, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l)) return l;
            double d;
            if (double.TryParse(num, NumberStyles.Float, CultureInfo.InvariantCulture, out d)) return d;
            throw Bad(start, "not a value");
        }

        static string Str(string s, ref int i)
        {
            var sb = new StringBuilder();
            i++; // the opening quote
            while (true)
            {
                if (i >= s.Length) throw Bad(i, "unterminated string");
                char c = s[i++];
                if (c == '"') return sb.ToString();
                if (c != '\\') { sb.Append(c); continue; }
                if (i >= s.Length) throw Bad(i, "unterminated escape");
                char e = s[i++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (i + 4 > s.Length) throw Bad(i, "short \\u escape");
                        sb.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.AllowHexSpecifier,
                            CultureInfo.InvariantCulture));
                        i += 4;
                        break;
                    default: throw Bad(i, "bad escape");
                }
            }
        }
    }
}
