"""Running the benchmark binaries: one process per measurement, configurations
interleaved round by round (so a machine-wide slowdown hits every
configuration alike), and the statistics the report prints."""
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "lib"))
import wrapper_test  # noqa: E402


def environment(extra):
    """The tests' scrubbed environment, and no LD_LIBRARY_PATH: a
    configuration picks its library by setting one."""
    return wrapper_test.environment(dict({"LD_LIBRARY_PATH": None}, **extra))


def run(cmd, extra_env, timeout=600):
    p = subprocess.run(cmd, env=environment(extra_env), capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}) with {extra_env}:\n{p.stdout}\n{p.stderr}")
    return p.stdout + p.stderr


def field(text, name):
    m = re.search(rf"{name}=([0-9.]+)", text)
    if not m:
        raise RuntimeError(f"no {name}= in:\n{text}")
    return float(m.group(1))


def interleaved(configs, rounds, measure):
    """configs: {label: arg}; measure(arg) -> number. Returns {label: [values]}."""
    out = {label: [] for label in configs}
    for _ in range(rounds):
        for label, arg in configs.items():
            out[label].append(measure(arg))
    return out


def stats(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def callgrind_instructions(cmd, extra_env):
    text = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd, extra_env)
    m = re.search(r"Collected : (\d+)", text)
    if not m:
        raise RuntimeError(f"no callgrind total in:\n{text}")
    return int(m.group(1))


def instructions_per_call(binary, extra_env, n=100_000, args=(), tail=()):
    """(I(2n) - I(n)) / n: start-up and exit cancel out. The call count is
    the argument after `args` (and before `tail`)."""
    a = callgrind_instructions([binary, *args, str(n), *tail], extra_env)
    b = callgrind_instructions([binary, *args, str(2 * n), *tail], extra_env)
    return (b - a) / n


def evict_from_page_cache(paths):
    """Drops these files' pages from the page cache (posix_fadvise DONTNEED),
    so the next process that maps them takes major faults: a cold start of
    the libraries without dropping the whole machine's caches."""
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def inclusive_instructions(cmd, extra_env, function, out_file):
    """Instructions spent in `function` and its callees over a whole run
    (callgrind_annotate --inclusive=yes), or 0 when it never ran."""
    run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"] + cmd, extra_env)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", out_file], capture_output=True,
                          text=True).stdout
    for line in text.splitlines():
        if function in line:
            return int(line.split()[0].replace(",", ""))
    return 0


def machine():
    """What the figures were measured on."""
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    return {"cpu": model, "cores": os.cpu_count(), "kernel": platform.release(),
            "load_at_start": os.getloadavg()[0], "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%MZ")}
