// Checks the codec behind wowguid::Codec against every vector of the
// exported corpus (vectors/vectors.json, schema conformance/export.schema.json).
// GoogleTest and nlohmann-json are used by this test only; the adapter needs
// neither.
//
//   g++ -std=c++17 -Wall -Wextra -pedantic -Werror -O2 -o corpus-test corpus_test.cpp -lgtest -lgtest_main -pthread
//   WOWGUID_VECTORS=vectors/vectors.json ./corpus-test
//
// WOWGUID_VECTORS defaults to vectors/vectors.json (run from the repository root).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "wowguid_adapter.hpp"

namespace {

using json = nlohmann::json;
using Bytes = std::vector<std::uint8_t>;

struct Result {
    wowguid::Status status = wowguid::Status::other;
    std::uint64_t guid = 0;
    std::size_t consumed = 0;
    std::string name;
    Bytes bytes;
    std::size_t size = 0;
};

std::uint64_t guid_of(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

Bytes bytes_of(const json& j) { return j.get<Bytes>(); }

std::string hex(const std::string& s) {
    return wowguid::detail::format_bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}
std::string hex(const Bytes& b) { return wowguid::detail::format_bytes(b.data(), b.size()); }

Result call(const wowguid::Codec& codec, const json& v) {
    Result r;
    const json& req = v["request"];
    const bool packed = v["type"] == "packed_guid";
    if (v["op"] == "decode") {
        const Bytes input = bytes_of(req["bytes"]);
        wowguid::ReadBuffer in{input.data(), input.size(), 0};
        r.status = packed ? codec.read_packed(in, r.guid) : codec.read_named(in, r.guid, r.name);
        r.consumed = in.pos;
    } else if (v["op"] == "size") {
        const std::uint64_t guid = guid_of(req["guid"]);
        if (packed) {
            r.status = codec.size_packed(guid, r.size);
        } else if (req["has_name"].get<bool>()) {
            const Bytes nb = bytes_of(req["name"]);
            const std::string name(nb.begin(), nb.end());
            r.status = codec.size_named(guid, &name, r.size);
        } else {
            r.status = codec.size_named(guid, nullptr, r.size);
        }
    } else {
        const std::uint64_t guid = guid_of(req["guid"]);
        if (packed) {
            r.status = codec.append_packed(r.bytes, guid);
        } else if (req["has_name"].get<bool>()) {
            const Bytes nb = bytes_of(req["name"]);
            const std::string name(nb.begin(), nb.end());
            r.status = codec.append_named(r.bytes, guid, &name);
        } else {
            r.status = codec.append_named(r.bytes, guid, nullptr);
        }
    }
    return r;
}

// Empty when the result matches the expected value; otherwise why not.
std::string value_mismatch(const json& v, const Result& r) {
    const json& e = v["expect"];
    std::ostringstream why;
    if (r.status != wowguid::Status::ok) {
        why << "error " << wowguid::detail::status_code(r.status) << ", expected a value";
    } else if (v["op"] == "decode") {
        const std::uint64_t guid = guid_of(e["guid"]);
        if (r.guid != guid) why << "guid " << wowguid::detail::format_guid(r.guid) << " ";
        if (r.consumed != e["consumed"].get<std::size_t>()) why << "consumed " << r.consumed << " ";
        if (v["type"] == "named_guid" && guid != 0) {
            const Bytes name = bytes_of(e["name"]);
            if (r.name != std::string(name.begin(), name.end())) why << "name " << hex(r.name) << " ";
        }
        if (!why.str().empty()) why << "(expected " << e["line"].get<std::string>() << ")";
    } else if (v["op"] == "size") {
        if (r.size != e["size"].get<std::size_t>()) why << "size " << r.size << " (expected " << e["size"] << ")";
    } else if (r.bytes != bytes_of(e["bytes"])) {
        why << "bytes " << hex(r.bytes) << " (expected " << hex(bytes_of(e["bytes"])) << ")";
    }
    return why.str();
}

// Empty when the vector passes.
std::string check(const json& v, const Result& r) {
    const json& e = v["expect"];
    const std::string code = wowguid::detail::status_code(r.status);
    const std::string outcome = v["outcome"];
    if (!e["or_error"].is_null() && code == e["or_error"].get<std::string>()) return "";
    if (outcome == "invalid") {
        if (code == e["error"].get<std::string>()) return "";
        return "answered " + code + ", expected error " + e["error"].get<std::string>();
    }
    if (outcome == "acceptable" && r.status != wowguid::Status::ok) return "";  // any error
    return value_mismatch(v, r);
}

json load_corpus() {
    const char* env = std::getenv("WOWGUID_VECTORS");
    const std::string path = env ? env : "vectors/vectors.json";
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot open " + path + " (set WOWGUID_VECTORS)");
    return json::parse(f);
}

TEST(Corpus, EveryVector) {
    const json doc = load_corpus();
    ASSERT_EQ(doc["format"], "wow-guid-vectors");
    ASSERT_EQ(doc["format_version"], 1);
    const json& vectors = doc["vectors"];
    ASSERT_EQ(vectors.size(), doc["vector_count"].get<std::size_t>());

    const wowguid::Codec codec = wowguid::default_codec();
    std::size_t passed = 0, failed = 0;
    for (const json& v : vectors) {
        const std::string why = check(v, call(codec, v));
        if (why.empty()) {
            ++passed;
        } else {
            ++failed;
            ADD_FAILURE() << v["id"].get<std::string>() << ": " << why;
        }
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    EXPECT_EQ(failed, 0u);
    EXPECT_GT(passed, 0u);
}

}  // namespace
