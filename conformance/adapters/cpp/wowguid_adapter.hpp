// wowguid_adapter.hpp: the protocol half of the C++ conformance adapter.
//
// Reads request lines (conformance/PROTOCOL.md) from an input stream and
// writes one response line for each, flushing after every response. It
// never calls a codec directly: the six calls go through `wowguid::Codec`,
// whose members you point at your own implementation (see README.md). A
// member left empty makes the adapter answer `unsupported` to that kind of
// request.
//
// C++17, header-only, standard library only.
#ifndef WOWGUID_ADAPTER_HPP
#define WOWGUID_ADAPTER_HPP

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "wowguid_codec.hpp"  // Status and ReadBuffer; the codec itself only in default_codec()

namespace wowguid {

struct Codec {
    // Decode one value from the front of `in`; on success `in.pos` is just
    // past the value.
    std::function<Status(ReadBuffer& in, std::uint64_t& guid)> read_packed;
    std::function<Status(ReadBuffer& in, std::uint64_t& guid, std::string& name)> read_named;
    // Append the encoding to `out`. `name` is nullptr when the request gives
    // no name at all (a request may also give an empty name).
    std::function<Status(std::vector<std::uint8_t>& out, std::uint64_t guid)> append_packed;
    std::function<Status(std::vector<std::uint8_t>& out, std::uint64_t guid, const std::string* name)>
        append_named;
    // Optional: how many bytes the encoding of the value takes, or the
    // refusal append_* gives it (`size` requests).
    std::function<Status(std::uint64_t guid, std::size_t& size)> size_packed;
    std::function<Status(std::uint64_t guid, const std::string* name, std::size_t& size)> size_named;
};

// The codec of wowguid_codec.hpp behind the six hooks.
inline Codec default_codec() {
    Codec c;
    c.read_packed = [](ReadBuffer& in, std::uint64_t& guid) { return read_packed_guid(in, guid); };
    c.read_named = [](ReadBuffer& in, std::uint64_t& guid, std::string& name) {
        return read_named_guid(in, guid, name);
    };
    c.append_packed = [](std::vector<std::uint8_t>& out, std::uint64_t guid) {
        return append_packed_guid(out, guid);
    };
    c.append_named = [](std::vector<std::uint8_t>& out, std::uint64_t guid, const std::string* name) {
        // A plain-string codec: no name is written as the empty name.
        return append_named_guid(out, guid, name ? *name : std::string());
    };
    c.size_packed = [](std::uint64_t guid, std::size_t& size) { return packed_guid_size(guid, size); };
    c.size_named = [](std::uint64_t guid, const std::string* name, std::size_t& size) {
        return named_guid_size(guid, name ? *name : std::string(), size);
    };
    return c;
}

namespace detail {

inline const char* status_code(Status s) {
    switch (s) {
        case Status::ok: return "ok";
        case Status::eof: return "eof";
        case Status::invalid_utf8: return "invalid_utf8";
        case Status::interior_nul: return "interior_nul";
        case Status::name_without_guid: return "name_without_guid";
        case Status::name_too_long: return "name_too_long";
        case Status::other: return "other";
        case Status::unsupported: return "unsupported";
    }
    return "other";
}

inline int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Protocol bytes: hex pairs, or "-" for the empty string.
inline bool parse_bytes(const std::string& s, std::vector<std::uint8_t>& out) {
    out.clear();
    if (s == "-") return true;
    if (s.empty() || s.size() % 2 != 0) return false;
    out.reserve(s.size() / 2);
    for (std::size_t i = 0; i < s.size(); i += 2) {
        const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
    }
    return true;
}

// Protocol GUID: exactly 16 hex digits, most significant first.
inline bool parse_guid(const std::string& s, std::uint64_t& guid) {
    if (s.size() != 16) return false;
    guid = 0;
    for (char c : s) {
        const int d = hex_digit(c);
        if (d < 0) return false;
        guid = (guid << 4) | static_cast<std::uint64_t>(d);
    }
    return true;
}

inline std::string format_bytes(const std::uint8_t* data, std::size_t len) {
    static const char digits[] = "0123456789abcdef";
    if (len == 0) return "-";
    std::string s;
    s.reserve(len * 2);
    for (std::size_t i = 0; i < len; ++i) {
        s += digits[data[i] >> 4];
        s += digits[data[i] & 15];
    }
    return s;
}

inline std::string format_guid(std::uint64_t guid) {
    static const char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, guid >>= 4) s[static_cast<std::size_t>(i)] = digits[guid & 15];
    return s;
}

inline std::vector<std::string> split_spaces(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t sp = line.find(' ', start);
        fields.push_back(line.substr(start, sp == std::string::npos ? std::string::npos : sp - start));
        if (sp == std::string::npos) return fields;
        start = sp + 1;
    }
}

// The answer after the id, for one request's fields (op, type, values...).
inline std::string answer_fields(const Codec& codec, const std::vector<std::string>& f) {
    if (f.size() < 4) return "error other";
    const std::string& op = f[1];
    const std::string& type = f[2];
    const bool packed = type == "packed_guid", named = type == "named_guid";
    const bool sizing = op == "size";
    if ((op != "decode" && op != "encode" && !sizing) || (!packed && !named)) return "unsupported";

    if (op == "decode") {
        if (f.size() != 4) return "error other";
        std::vector<std::uint8_t> input;
        if (!parse_bytes(f[3], input)) return "error other";
        const auto& hook_defined = packed ? static_cast<bool>(codec.read_packed)
                                          : static_cast<bool>(codec.read_named);
        if (!hook_defined) return "unsupported";
        ReadBuffer in{input.data(), input.size(), 0};
        std::uint64_t guid = 0;
        std::string name;
        const Status s = packed ? codec.read_packed(in, guid) : codec.read_named(in, guid, name);
        if (s == Status::unsupported) return "unsupported";
        if (s != Status::ok) return std::string("error ") + status_code(s);
        std::string r = "ok " + format_guid(guid) + " " + std::to_string(in.pos);
        if (named && guid != 0) {
            r += " " + format_bytes(reinterpret_cast<const std::uint8_t*>(name.data()), name.size());
        }
        return r;
    }

    // encode or size
    std::uint64_t guid = 0;
    if (!parse_guid(f[3], guid)) return "error other";
    std::vector<std::uint8_t> out;
    std::size_t size = 0;
    Status s;
    if (packed) {
        if (f.size() != 4) return "error other";
        if (!(sizing ? static_cast<bool>(codec.size_packed) : static_cast<bool>(codec.append_packed))) {
            return "unsupported";
        }
        s = sizing ? codec.size_packed(guid, size) : codec.append_packed(out, guid);
    } else {
        if (f.size() > 5) return "error other";
        if (!(sizing ? static_cast<bool>(codec.size_named) : static_cast<bool>(codec.append_named))) {
            return "unsupported";
        }
        std::vector<std::uint8_t> name_bytes;
        std::string name;
        if (f.size() == 5) {
            if (!parse_bytes(f[4], name_bytes)) return "error other";
            name.assign(name_bytes.begin(), name_bytes.end());
        }
        const std::string* given = f.size() == 5 ? &name : nullptr;
        s = sizing ? codec.size_named(guid, given, size) : codec.append_named(out, guid, given);
    }
    if (s == Status::unsupported) return "unsupported";
    if (s != Status::ok) return std::string("error ") + status_code(s);
    if (sizing) return "ok " + std::to_string(size);
    return "ok " + format_bytes(out.data(), out.size());
}

}  // namespace detail

// The whole response line (without its line feed) to one request line (the
// line feed, and a carriage return before it, already removed).
inline std::string answer(const Codec& codec, const std::string& line) {
    const std::vector<std::string> fields = detail::split_spaces(line);
    return fields[0] + " " + detail::answer_fields(codec, fields);
}

// The protocol loop: one response per request line, in order, each flushed
// at once (the runner pipelines requests; an answer left in a buffer is never
// seen). Returns at end of input, answering a last line that has no line feed.
inline int run(const Codec& codec, std::istream& in = std::cin, std::ostream& out = std::cout) {
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == ' ') {
            // No id to echo: nothing can be answered. The runner never sends this.
            std::cerr << "wowguid adapter: request line without an id, ignored\n";
            continue;
        }
        out << answer(codec, line) << '\n' << std::flush;
    }
    return 0;
}

}  // namespace wowguid

#endif  // WOWGUID_ADAPTER_HPP
