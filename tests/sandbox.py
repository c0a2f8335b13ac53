"""Run commands where a hang or a runaway read cannot hurt the test run.

``python -m tests.sandbox`` imports rulebook and MkDocs once, then reads one request a line on
its standard input (``{"cwd": ..., "argv": ["rulebook", "i18n", "check"], "timeout": 30}``) and
runs each in a forked child (a fork of this single-threaded process costs milliseconds where a
fresh interpreter costs a second of imports) with a memory limit, its output captured. It
answers one line: ``{"code": N, "output": "...", "hung": false}``; a child past its time is
killed and answered as hung. The test process itself never blocks on what it tests.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback

#: Address space of a child: a build needs a few hundred MB; a read without end fails early.
MEMORY = 2 * 1024**3


def _run(argv: list[str]) -> int:
    if argv[0] == "mkdocs":
        from mkdocs.__main__ import cli

        cli.main(args=argv[1:], prog_name="mkdocs", standalone_mode=True)  # exits with its code
        return 0
    from rulebook.cli import main

    return main(argv[1:])


def _child(request: dict, output: int) -> None:
    code = 99
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)  # the requests are the server's, never a command's
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.chdir(request["cwd"])
        os.environ.update(request.get("env", {}))
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        code = _run(request["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported as what the test looks for: a traceback
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001, S110 - the output is all there is to save
                pass
        os._exit(code)


def _answer(request: dict) -> dict:
    with tempfile.TemporaryFile() as output:
        pid = os.fork()
        if pid == 0:
            _child(request, output.fileno())
        deadline = time.monotonic() + request.get("timeout", 30)
        hung = False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                hung = True
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                break
            time.sleep(0.01)
        output.seek(0)
        text = output.read().decode("utf-8", "replace")
    return {"code": os.waitstatus_to_exitcode(status), "output": text, "hung": hung}


def serve() -> None:
    import mkdocs.__main__  # noqa: F401 - imported once, for every child
    import rulebook.cli  # noqa: F401
    import rulebook.mkdocs_plugin  # noqa: F401

    for line in sys.stdin:
        answer = _answer(json.loads(line))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
