"""Expectations of the test scripts: one `ok`/`FAIL` line each, the failures
kept for the exit status (test/adopt/synthetic_build.py,
test/split/check_header_ties.py)."""

failures = []


def expect(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)
        if detail:
            print("     " + detail[-4000:].replace("\n", "\n     "))
