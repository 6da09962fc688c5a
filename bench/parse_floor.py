"""The parse floor of ``contractc scan`` (issue 24): markdown-it-py parsing every Markdown file once.

``python bench/parse_floor.py ROOT`` reads each ``.md`` file under ROOT and parses it as
CommonMark with markdown-it-py (the parser scan itself uses), and does nothing else; it
exits 0. A scan of P files should take at most twice this.
"""

import os
import sys

from markdown_it import MarkdownIt


def main(root: str) -> int:
    parser = MarkdownIt("commonmark")
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    parser.parse(handle.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
