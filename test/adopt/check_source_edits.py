#!/usr/bin/env python3
"""src_patches/source_edits.py on fixture trees (CTest source_edits_fixture).

  1. the test bed's logger (MIOpen's shape): --check says an edit is due
     (exit 1) and writes nothing; a run applies the edits; a second --check
     finds nothing due (exit 0) and the file is unchanged;
  2. a logger without the anchor line: exit 3, the file untouched, the
     message names the anchor;
  3. a tree without logger.hpp: exit 3 naming the file.
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "src_patches/source_edits.py"
LOGGER = REPO / "test/mini-miopen/src/include/miopen/logger.hpp"
REL = Path("include/miopen/logger.hpp")


def run(src_root: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-B", str(TOOL), "--src-root", str(src_root), *extra],
                          capture_output=True, text=True)


def expect(cond: bool, what: str, p: subprocess.CompletedProcess) -> None:
    if not cond:
        sys.exit(f"FAIL: {what} (exit {p.returncode})\n{p.stdout}{p.stderr}")
    print(f"ok: {what}")


def tree(root: Path, logger_text: str | None) -> Path:
    src = root / "src"
    if logger_text is not None:
        (src / REL).parent.mkdir(parents=True)
        (src / REL).write_text(logger_text)
    else:
        src.mkdir(parents=True)
    return src


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        original = LOGGER.read_text()
        src = tree(Path(tmp) / "a", original)
        p = run(src, "--check")
        expect(p.returncode == 1 and (src / REL).read_text() == original, "--check on an unedited logger: due, nothing written", p)
        p = run(src)
        edited = (src / REL).read_text()
        expect(p.returncode == 0 and "LoggingPublicName" in edited and edited != original, "a run applies the edits", p)
        p = run(src, "--check")
        expect(p.returncode == 0 and (src / REL).read_text() == edited and "applied" not in p.stdout,
               "a second --check finds nothing due", p)

        no_anchor = "\n".join(l for l in original.splitlines() if "LoggingParseFunction(" not in l) + "\n"
        src = tree(Path(tmp) / "b", no_anchor)
        p = run(src)
        expect(p.returncode == 3 and (src / REL).read_text() == no_anchor and "LoggingParseFunction" in p.stderr,
               "a logger without the anchor: exit 3, untouched, the anchor named", p)

        src = tree(Path(tmp) / "c", None)
        p = run(src)
        expect(p.returncode == 3 and "logger.hpp" in p.stderr, "no logger.hpp: exit 3 naming it", p)
        shutil.rmtree(Path(tmp) / "c")


if __name__ == "__main__":
    main()
