// The C++ conformance adapter: the protocol loop of wowguid_adapter.hpp over
// the codec of wowguid_codec.hpp.
//
//   g++ -std=c++17 -Wall -Wextra -pedantic -Werror -O2 -o adapter-cpp adapter.cpp
//   wow-guid-conformance run --strict-errors -- ./adapter-cpp
#include <iostream>

#include "wowguid_adapter.hpp"

int main() {
    std::ios::sync_with_stdio(false);
    return wowguid::run(wowguid::default_codec());
}
