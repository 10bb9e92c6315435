"""The `apb` command's entry point (`apb ...` and `python -m apb ...`).

It imports the command inside a guard, so a Ctrl-C that arrives while Python is still importing (the first
second of every command) ends with the same one line and exit code 130 as one that arrives during the work.
"""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from apb.cli import main

        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    run()
