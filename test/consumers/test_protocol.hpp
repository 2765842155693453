// The tests' protocol, consumer side: what a consumer tells its checker goes
// out as JSON lines, one record per case or call, read by test/lib/protocol.py
// (docs/testing.md, "The test protocol"). Nothing but the C++ standard library:
// the consumers of an installed MIOpen and of a real one include it.
//
//   protocol::Record("case").field("case", i).field("entry", "miopenConvolutionForward")
//       .field("status", "miopenStatusSuccess").field("maxerr", err).emit();
//
// Records go to stdout (one write and a flush per record, so a crash loses
// none that were emitted). A `begin` marker goes to stderr instead, ahead of
// a case's calls: the wrapper's routing trace is on stderr, and the checker
// splits it per case at these markers (protocol.segments()).
//
// Strings are escaped for JSON (quote, backslash, control characters); bytes
// that are not UTF-8 are written as \u00XX so that a record stays readable
// whatever a library's error string holds. A double that is not finite is
// written as the string "inf", "-inf" or "nan" (JSON has no such number);
// a finite one always with a point or an exponent, an integer never.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace protocol {

// Appends `s` as a JSON string literal.
inline void append_string(std::string& out, std::string_view s)
{
    static const char hex[] = "0123456789abcdef";
    auto escaped_byte       = [&](unsigned char c) {
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    out += '"';
    for(size_t i = 0; i < s.size(); ++i)
    {
        const auto c = static_cast<unsigned char>(s[i]);
        if(c == '"' || c == '\\')
        {
            out += '\\';
            out += static_cast<char>(c);
        }
        else if(c == '\n')
            out += "\\n";
        else if(c == '\t')
            out += "\\t";
        else if(c == '\r')
            out += "\\r";
        else if(c < 0x20 || c == 0x7f)
            escaped_byte(c);
        else if(c < 0x80)
            out += static_cast<char>(c);
        else
        {
            // A whole UTF-8 sequence passes through; any other byte is escaped.
            const size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            bool whole     = n != 0 && i + n <= s.size();
            for(size_t k = 1; whole && k < n; ++k)
                whole = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
            if(whole)
            {
                out.append(s.substr(i, n));
                i += n - 1;
            }
            else
                escaped_byte(c);
        }
    }
    out += '"';
}

// The shortest decimal form that reads back as the same double, with a
// decimal point or an exponent so that a reader takes it for one (`-0.0`,
// not `-0`).
inline void append_number(std::string& out, double v)
{
    if(!std::isfinite(v))
    {
        out += std::isnan(v) ? "\"nan\"" : v > 0 ? "\"inf\"" : "\"-inf\"";
        return;
    }
    char buf[32];
    for(int digits = 1; digits <= 17; ++digits)
    {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if(std::strtod(buf, nullptr) == v)
            break;
    }
    out += buf;
    if(std::string_view(buf).find_first_of(".e") == std::string_view::npos)
        out += ".0";
}

// One record: {"kind": ..., then the fields in the order given}.
class Record
{
    public:
    explicit Record(std::string_view kind) { field("kind", kind); }

    Record& field(std::string_view key, std::string_view v)
    {
        key_(key);
        append_string(text_, v);
        return *this;
    }
    Record& field(std::string_view key, const char* v)
    {
        if(v == nullptr)
        {
            key_(key);
            text_ += "null";
            return *this;
        }
        return field(key, std::string_view(v));
    }
    Record& field(std::string_view key, const std::string& v) { return field(key, std::string_view(v)); }
    Record& field(std::string_view key, bool v)
    {
        key_(key);
        text_ += v ? "true" : "false";
        return *this;
    }
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Record& field(std::string_view key, T v)
    {
        key_(key);
        text_ += std::to_string(v);
        return *this;
    }
    template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
    Record& field(std::string_view key, T v)
    {
        key_(key);
        append_number(text_, static_cast<double>(v));
        return *this;
    }
    Record& field(std::string_view key, const std::vector<std::string>& v)
    {
        key_(key);
        text_ += '[';
        for(size_t i = 0; i < v.size(); ++i)
        {
            if(i)
                text_ += ',';
            append_string(text_, v[i]);
        }
        text_ += ']';
        return *this;
    }
    // A 64-bit checksum as 16 hex digits (a JSON number cannot hold every
    // 64-bit value exactly).
    Record& hash(std::string_view key, std::uint64_t v)
    {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
        return field(key, std::string_view(buf, 16));
    }

    // The record as one line, newline included.
    std::string line() const { return text_ + "}\n"; }

    // Writes the line in one call and flushes (stdout unless told otherwise).
    void emit(std::FILE* to = stdout) const
    {
        const std::string l = line();
        std::fwrite(l.data(), 1, l.size(), to);
        std::fflush(to);
    }

    private:
    void key_(std::string_view key)
    {
        text_ += text_.empty() ? "{" : ",";
        append_string(text_, key);
        text_ += ':';
    }
    std::string text_;
};

// The marker ahead of a case's calls, on stderr beside the routing trace.
template <class Id>
void begin(const Id& id)
{
    Record("begin").field("case", id).emit(stderr);
}

// The marker after the last case: stderr after it belongs to no case.
inline void end() { Record("end").emit(stderr); }

} // namespace protocol
