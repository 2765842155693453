// Shared by the consumers whose outputs the suite compares across the
// baseline and the wrapper (compare_outputs.py), on top of consumer_util.hpp
// (a failing call ends the program; tensor helpers): inputs come from a
// fixed pseudo-random sequence, every output tensor's raw bytes go to one
// file, and an `output` record (test/consumers/test_protocol.hpp: its name,
// size and sum) to stdout.
#pragma once

#include "consumer_util.hpp"
#include "test_protocol.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace consumer {

// Values in [-1, 1] in steps of 1/1000, the same for a seed on every run.
inline std::vector<float> pseudo_random(size_t n, std::uint32_t seed)
{
    std::vector<float> v(n);
    for(auto& x : v)
    {
        seed = seed * 1664525u + 1013904223u;
        x    = static_cast<float>((seed >> 8) % 2001) / 1000.0f - 1.0f;
    }
    return v;
}

// The output file (argv[1]); emit() appends a tensor and records it.
inline FILE*& output_file()
{
    static FILE* out = nullptr;
    return out;
}

// Opens argv[1] as the output file; false after a usage line otherwise.
inline bool open_output(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: %s <output file>\n", argv[0]);
        return false;
    }
    output_file() = std::fopen(argv[1], "wb");
    return output_file() != nullptr;
}

// The exit status: 0 when the file was written out whole.
inline int close_output() { return std::fclose(output_file()) == 0 ? 0 : 1; }

inline void emit(const char* what, const std::vector<float>& v)
{
    double sum = 0;
    for(float x : v)
        sum += x;
    protocol::Record("output").field("name", what).field("values", v.size()).field("sum", sum).emit();
    std::fwrite(v.data(), sizeof(float), v.size(), output_file());
}

} // namespace consumer
