#!/usr/bin/env python3
"""The test protocol's writer (test/consumers/test_protocol.hpp) against its
reader (test/lib/protocol.py): runs test/consumers/protocol_roundtrip and
requires every value it wrote to read back as written: strings with quotes,
backslashes, control characters, UTF-8 and non-UTF-8 bytes (as \\u00XX), a
null; doubles that need 17 digits, -0, the smallest and largest, the float
0.1 widened, the three non-finite ones (as "inf"/"-inf"/"nan"); the extreme
64-bit integers; lists; a hash as 16 hex digits; and the `begin`/`end`
markers on stderr as segments.

--corrupt drops the last character of the first record before reading
(negative control: the reader must refuse the line, not guess).
"""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol import number, records, segments  # noqa: E402
from wrapper_test import checked  # noqa: E402

EXPECTED = {
    "strings": {"plain": "miopenConvolutionForward", "quote": 'say "hi"', "backslash": "a\\b\\\\c",
                "controls": "n\nt\tr\rb\bf\fz\x01e\x1fd\x7f", "nul": "a\0b", "utf8": "caf\u00e9 \u2192 \U0001F642",
                "not_utf8": "x\u00ffy\u00c3z\u0080", "empty": "", "null": None},
    "numbers": {"tenth": 0.1, "tolerance": 1e-5, "third": 1.0 / 3.0, "negative_zero": -0.0,
                "smallest": 5e-324, "largest": 1.7976931348623157e308, "float": 0.10000000149011612,
                "inf": math.inf, "minus_inf": -math.inf, "nan": math.nan, "int_min": -2**63,
                "uint_max": 2**64 - 1, "yes": True, "no": False, "hash": "0123456789abcdef"},
    "lists": {"words": ["tolerance", 'gap "written"', ""], "none": []},
}
NUMERIC = {"inf", "minus_inf", "nan"}  # the header writes these as strings; protocol.number() reads them


def same(want, got):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float) and want == 0.0:
        return got == 0.0 and math.copysign(1.0, got) == math.copysign(1.0, want)
    return type(want) is type(got) and want == got


def compare(a):
    p = subprocess.run([a.binary], capture_output=True, timeout=60)
    if p.returncode != 0:
        return [f"{a.binary} exited {p.returncode}"]
    out = p.stdout.decode()
    if a.corrupt:
        first, rest = out.split("\n", 1)
        out = first[:-1] + "\n" + rest
    problems = []
    got = {r["kind"]: r for r in records(out)}
    for kind, fields in EXPECTED.items():
        r = got.get(kind)
        if r is None:
            problems.append(f"no `{kind}` record")
            continue
        if list(r)[1:] != list(fields):
            problems.append(f"{kind}: fields {list(r)[1:]}, expected {list(fields)} in that order")
        for key, want in fields.items():
            value = number(r.get(key)) if key in NUMERIC else r.get(key)
            if not same(want, value):
                problems.append(f"{kind}.{key}: read back {value!r}, written {want!r}")
    segs = segments(p.stderr.decode())
    if list(segs) != [7, 'a "case"'] or any(segs.values()):
        problems.append(f"stderr markers read back as {dict(segs)}, expected the cases 7 and 'a \"case\"'")
    print(f"{sum(len(f) for f in EXPECTED.values())} values and {len(segs)} markers written and read back")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="test/consumers/protocol_roundtrip")
    ap.add_argument("--corrupt", action="store_true", help="negative control: break the first record")
    a = ap.parse_args()
    return checked("check_protocol", lambda: compare(a))


if __name__ == "__main__":
    sys.exit(main())
