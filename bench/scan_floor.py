"""The floor of ``contractc scan``: read every Markdown file once, compare fenced blocks by bytes.

Standard library only: ``python bench/scan_floor.py ROOT`` exits 1 when two blocks
that start with the same line under the same ``##`` heading differ, 0 when every such group is identical.
It knows nothing of stages, keys, examples or templates; it is the least work
that finds a drifted copy.
"""

import os
import sys


def main(root: str) -> int:
    first: dict[str, str] = {}
    drifted = 0
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if not name.endswith(".md"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read()
            at = text.find("```")
            while at != -1:
                body = text.find("\n", at) + 1
                end = text.find("```", body)
                if end == -1:
                    break
                block = text[body:end]
                # The same key in another stage is another shape: the section heading above is part of the key.
                heading = text.rfind("\n## ", 0, at)
                key = text[heading : text.find("\n", heading + 1)] + block.split("\n", 1)[0]
                if first.setdefault(key, block) != block:
                    drifted += 1
                at = text.find("```", end + 3)
    if drifted:
        print(f"{drifted} blocks differ from the first copy")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
