// wowguid_codec.hpp: a PackedGuid / NamedGuid codec in the shape of the
// byte-buffer classes of the C++ servers: values are read from a buffer with
// a read position, and appended to a growable buffer.
//
// C++17, header-only, standard library only. This is the codec half of the
// conformance adapter; wowguid_adapter.hpp is the protocol half, and reaches
// these functions only through the small `wowguid::Codec` struct it defines,
// so a user can put their own codec there instead (see README.md).
//
// Positions taken (vectors/NOTES.md):
// - PackedGuid: a mask byte, then one byte for each set bit, least
//   significant position first; the encoder writes the shortest form, the
//   decoder accepts any form.
// - NamedGuid: a little-endian u64, then, when it is not 0, a strict UTF-8
//   name ended by a NUL.
// - The name is a plain byte string here, as in the servers' ByteBuffer: an
//   empty name and no name are the same, so GUID 0 with an empty name writes
//   eight 00 bytes, and a non-zero GUID with no name writes the empty name
//   (both `acceptable` in the corpus).
// - Names are bounded: a name of more than `max_name_len` bytes (255 by
//   default, the NUL not counted) is refused with name_too_long, reading and
//   writing; never cut. Pass kUnbounded to read names of any length.
// - On any error the read position and the output buffer are left unchanged.
#ifndef WOWGUID_CODEC_HPP
#define WOWGUID_CODEC_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace wowguid {

// The outcome of one codec call. Every value but `ok` and `unsupported` is
// one of the protocol's error codes (conformance/PROTOCOL.md).
enum class Status {
    ok,
    eof,                // the input ended before the value did
    invalid_utf8,       // a name is not strict UTF-8
    interior_nul,       // a name to encode holds a 00 byte
    name_without_guid,  // encode: GUID 0 given with a non-empty name
    name_too_long,      // a name longer than the bound
    other,              // any other rejection
    unsupported,        // this kind of request is not implemented
};

// A read-only view of the input with a read position, like a ByteBuffer's
// rpos(): a successful read moves `pos` just past the value.
struct ReadBuffer {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t pos;
};

constexpr std::size_t kDefaultMaxNameLen = 255;
constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

// True when bytes[0, len) is strict UTF-8: no overlong forms, no surrogates,
// nothing above U+10FFFF, no stray or missing continuation bytes.
inline bool is_valid_utf8(const std::uint8_t* bytes, std::size_t len) {
    std::size_t i = 0;
    while (i < len) {
        const std::uint8_t b = bytes[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t extra;
        std::uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the 2nd byte
        if (b >= 0xC2 && b <= 0xDF) {
            extra = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            extra = 2;
            if (b == 0xE0) lo = 0xA0;       // no overlong 3-byte forms
            if (b == 0xED) hi = 0x9F;       // no surrogates
        } else if (b >= 0xF0 && b <= 0xF4) {
            extra = 3;
            if (b == 0xF0) lo = 0x90;       // no overlong 4-byte forms
            if (b == 0xF4) hi = 0x8F;       // nothing above U+10FFFF
        } else {
            return false;                   // 80..C1, F5..FF
        }
        if (len - i <= extra) return false; // sequence cut short
        if (bytes[i + 1] < lo || bytes[i + 1] > hi) return false;
        for (std::size_t k = 2; k <= extra; ++k) {
            if ((bytes[i + k] & 0xC0) != 0x80) return false;
        }
        i += extra + 1;
    }
    return true;
}

// PackedGuid --------------------------------------------------------------

inline Status read_packed_guid(ReadBuffer& in, std::uint64_t& guid) {
    if (in.pos >= in.size) return Status::eof;
    const std::uint8_t mask = in.data[in.pos];
    std::size_t p = in.pos + 1;
    std::uint64_t value = 0;
    for (unsigned bit = 0; bit < 8; ++bit) {
        if ((mask >> bit) & 1u) {
            if (p >= in.size) return Status::eof;
            // Widen before shifting: a byte >= 0x80 must not be sign-extended.
            value |= static_cast<std::uint64_t>(in.data[p]) << (8 * bit);
            ++p;
        }
    }
    guid = value;
    in.pos = p;
    return Status::ok;
}

inline Status append_packed_guid(std::vector<std::uint8_t>& out, std::uint64_t guid) {
    std::uint8_t mask = 0;
    std::uint8_t bytes[8];
    std::size_t n = 0;
    for (unsigned bit = 0; bit < 8; ++bit) {
        const auto b = static_cast<std::uint8_t>(guid >> (8 * bit));
        if (b != 0) {
            mask = static_cast<std::uint8_t>(mask | (1u << bit));
            bytes[n++] = b;
        }
    }
    out.push_back(mask);
    out.insert(out.end(), bytes, bytes + n);
    return Status::ok;
}

// NamedGuid ---------------------------------------------------------------

// Reads a NamedGuid. `name` is set to the name's bytes (without the NUL),
// and cleared for GUID 0, which has no name on the wire.
inline Status read_named_guid(ReadBuffer& in, std::uint64_t& guid, std::string& name,
                              std::size_t max_name_len = kDefaultMaxNameLen) {
    if (in.pos > in.size || in.size - in.pos < 8) return Status::eof;
    std::uint64_t value = 0;
    for (unsigned i = 0; i < 8; ++i) {
        value |= static_cast<std::uint64_t>(in.data[in.pos + i]) << (8 * i);
    }
    const std::size_t start = in.pos + 8;
    if (value == 0) {
        guid = 0;
        name.clear();
        in.pos = start;
        return Status::ok;
    }
    // First find where the name ends (its NUL), stopping at the bound; only
    // then look at its bytes (NOTES.md, "Two faults in one input").
    std::size_t len = 0;
    for (;;) {
        if (start + len >= in.size) return Status::eof;
        if (in.data[start + len] == 0) break;
        if (len >= max_name_len) return Status::name_too_long;
        ++len;
    }
    if (!is_valid_utf8(in.data + start, len)) return Status::invalid_utf8;
    guid = value;
    name.assign(reinterpret_cast<const char*>(in.data + start), len);
    in.pos = start + len + 1;
    return Status::ok;
}

// Appends a NamedGuid: the GUID, then, when it is not 0, the name and a NUL.
inline Status append_named_guid(std::vector<std::uint8_t>& out, std::uint64_t guid,
                                const std::string& name,
                                std::size_t max_name_len = kDefaultMaxNameLen) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(name.data());
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (bytes[i] == 0) return Status::interior_nul;
    }
    if (!is_valid_utf8(bytes, name.size())) return Status::invalid_utf8;
    if (name.size() > max_name_len) return Status::name_too_long;
    if (guid == 0 && !name.empty()) return Status::name_without_guid;
    for (unsigned i = 0; i < 8; ++i) {
        out.push_back(static_cast<std::uint8_t>(guid >> (8 * i)));
    }
    if (guid != 0) {
        out.insert(out.end(), bytes, bytes + name.size());
        out.push_back(0);
    }
    return Status::ok;
}

// Sizes ---------------------------------------------------------------------

// How many bytes append_packed_guid writes for `guid`: the mask byte and one
// byte for each non-zero GUID byte.
inline Status packed_guid_size(std::uint64_t guid, std::size_t& size) {
    size = 1;
    for (unsigned bit = 0; bit < 8; ++bit) {
        if (static_cast<std::uint8_t>(guid >> (8 * bit)) != 0) ++size;
    }
    return Status::ok;
}

// How many bytes append_named_guid writes for `guid` and `name`: the GUID,
// then the name in bytes (never characters) and its NUL when the GUID is not
// 0. A value append_named_guid refuses is refused with the same status.
inline Status named_guid_size(std::uint64_t guid, const std::string& name, std::size_t& size,
                              std::size_t max_name_len = kDefaultMaxNameLen) {
    std::vector<std::uint8_t> scratch;
    const Status s = append_named_guid(scratch, guid, name, max_name_len);
    if (s != Status::ok) return s;
    size = guid == 0 ? 8 : 8 + name.size() + 1;
    return Status::ok;
}

}  // namespace wowguid

#endif  // WOWGUID_CODEC_HPP
