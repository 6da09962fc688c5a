"""The physical floor of a drift check: read every target once, find the markers, compare bytes.

Standard library only and no generality: one contract, one block, one region
per target.  ``python bench/floor.py ROOT`` exits 0 when every region holds the
contract's block byte for byte, 1 when any differs (naming it), like a checker.
"""

import glob
import os
import sys

BEGIN = b"<!-- contractc:begin "
END = b"<!-- contractc:end -->"


def main(root: str) -> int:
    os.chdir(root)
    with open("contracts/release.md", "rb") as handle:
        contract = handle.read()
    start = contract.find(b"```yaml\n")
    expected = contract[start : contract.find(b"```\n", start + 8) + 4]
    drifted = 0
    for name in sorted(glob.glob("docs/*.md")):
        with open(name, "rb") as handle:
            data = handle.read()
        begin = data.find(BEGIN)
        if begin < 0:
            continue
        body = data.find(b"\n", begin) + 1
        if data[body : data.find(END, body)] != expected:
            print(f"{name}: drifted")
            drifted += 1
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
