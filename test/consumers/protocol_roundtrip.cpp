// The test protocol's writer against its reader: writes records whose
// values are hard to carry (quotes, backslashes, control characters, UTF-8
// and bytes that are not UTF-8, doubles that need 17 digits or are not
// finite, the extreme integers, a null string, lists, a 64-bit hash).
// test/lib/check_protocol.py reads them back with test/lib/protocol.py and
// compares every value with the one it expects.
#include "test_protocol.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

int main()
{
    using protocol::Record;
    Record("strings")
        .field("plain", "miopenConvolutionForward")
        .field("quote", "say \"hi\"")
        .field("backslash", "a\\b\\\\c")
        .field("controls", std::string("n\nt\tr\rb\bf\fz\x01" "e\x1f" "d\x7f", 16))
        .field("nul", std::string("a\0b", 3))
        .field("utf8", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82")
        .field("not_utf8", "x\xff" "y\xc3" "z\x80")
        .field("empty", "")
        .field("null", static_cast<const char*>(nullptr))
        .emit();
    Record("numbers")
        .field("tenth", 0.1)
        .field("tolerance", 1e-5)
        .field("third", 1.0 / 3.0)
        .field("negative_zero", -0.0)
        .field("smallest", std::numeric_limits<double>::denorm_min())
        .field("largest", DBL_MAX)
        .field("float", 0.1f)
        .field("inf", HUGE_VAL)
        .field("minus_inf", -HUGE_VAL)
        .field("nan", std::nan(""))
        .field("int_min", std::numeric_limits<std::int64_t>::min())
        .field("uint_max", std::numeric_limits<std::uint64_t>::max())
        .field("yes", true)
        .field("no", false)
        .hash("hash", 0x0123456789abcdefull)
        .emit();
    Record("lists").field("words", std::vector<std::string>{"tolerance", "gap \"written\"", ""})
        .field("none", std::vector<std::string>{})
        .emit();
    protocol::begin(7);
    protocol::begin("a \"case\"");
    protocol::end();
    return 0;
}
