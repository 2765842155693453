#!/usr/bin/env python3
"""Picks the committed model-list sample (model_sample.txt) from a MIOpen tree.

Usage: pick_sample.py <MIOpen>/test/perf_models > driver/tests/model_sample.txt

Every line of MIOpen's model lists is a MIOpenDriver command line. This keeps
the distinct problems (batch size ignored), sets the batch to BATCH, and picks
a small, varied set: for every network file, its cheapest problem per
(direction, data type, groups > 1, output layout, stride) class, up to LIMIT
multiply-accumulates. Deterministic (sorted), so the sample can be re-derived.
"""
import os
import re
import sys

BATCH = 2
LIMIT = 6_000_000


def flags(line):
    toks = line.split()
    return toks[1], dict(zip(toks[2::2], toks[3::2]))


def macs(f, batch):
    h, w = int(f["--in_h"]), int(f["--in_w"])
    fh, fw = int(f["--fil_h"]), int(f["--fil_w"])
    sh, sw = int(f["--conv_stride_h"]), int(f["--conv_stride_w"])
    ph, pw = int(f["--pad_h"]), int(f["--pad_w"])
    ho, wo = (h + 2 * ph - fh) // sh + 1, (w + 2 * pw - fw) // sw + 1
    g = int(f["--group_count"])
    return batch * int(f["--out_channels"]) * ho * wo * int(f["--in_channels"]) // g * fh * fw


def main():
    models = sys.argv[1]
    picked = {}
    for name in sorted(os.listdir(models)):
        if not name.endswith(".txt"):
            continue
        net = re.sub(r"_(FP16|FP32)_BS\d+\.txt$", "", name)
        for line in open(os.path.join(models, name)):
            if not line.startswith("./bin/MIOpenDriver"):
                continue
            base, f = flags(line)
            cost = macs(f, BATCH)
            if cost > LIMIT:
                continue
            cls = (net, base, f["--forw"], f["--group_count"] != "1", f["--out_layout"], f["--conv_stride_h"])
            line = re.sub(r"--batchsize \d+", f"--batchsize {BATCH}", line.strip())
            if cls not in picked or (cost, line) < picked[cls]:
                picked[cls] = (cost, line)
    lines = sorted({line for _, line in picked.values()})
    print(f"# {len(lines)} lines from MIOpen's test/perf_models (batch set to {BATCH}); "
          "picked by driver/tests/pick_sample.py")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
