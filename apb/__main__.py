"""The `apb` command's entry point (`apb ...` and `python -m apb ...`).

It imports the command inside a guard, so a Ctrl-C (or SIGTERM, see apb.stop) that arrives while Python is still
importing (the first second of every command) ends with the same one line and exit code 130 (143) as one that arrives
during the work.
"""

from __future__ import annotations

import sys


def run() -> None:
    from apb import stop

    stop.install()
    try:
        from apb.cli import main

        code = main()
    except KeyboardInterrupt:  # before apb.cli.main could handle it (during start-up)
        import os

        sys.stderr.write(stop.what() + "\n")
        sys.stderr.flush()
        os._exit(stop.exit_code())  # at once: nothing has been written yet, and no worker thread may delay the exit
    sys.exit(code)


if __name__ == "__main__":
    run()
