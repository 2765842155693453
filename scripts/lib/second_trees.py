#!/usr/bin/env python3
"""The second build trees scripts/test.sh builds, from the groups' test data.

A group whose test folder's faults.json (test/groups/<group>/faults.json)
names `needs_group` is outside the default forwarding set: its tests run in a
tree of its own, configured with the default set (every group folder without
`needs_group`) plus the group. Prints one line per such group:

    <group> <forwarding set, ';'-separated>
"""
import glob
import json
import os
import sys


def main() -> int:
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    default, others = [], []
    for path in sorted(glob.glob(os.path.join(repo, "test", "groups", "*", "faults.json"))):
        group = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            needs = json.load(f).get("needs_group")
        if needs is None:
            default.append(group)
        elif needs != group:
            print(f"second_trees: {path}: needs_group {needs!r} is not its folder's group", file=sys.stderr)
            return 1
        else:
            others.append(group)
    for group in others:
        print(group, ";".join(default + [group]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
