"""A broken engine whose words attack the terminal and the reports: after the handshake it answers every
request ``errored`` with a message holding every control character, terminal escape sequences (clear the
screen, set the window title, a fake prompt after a carriage return), a bidirectional override and a lone
surrogate, and writes the same to stderr. conform must report each case as errored, print it escaped,
and write JSON and JUnit XML reports that parse."""

from __future__ import annotations

import sys

from _loop import Reply, Request, dumps, serve_with

CONTROLS = "".join(chr(code) for code in range(32)) + "\x7f\x9b"
MESSAGE = f"boom{CONTROLS}\x1b[2J\x1b]0;owned\x07\r$ rm -rf / \u202edesrever\ud800 end"


def rewrite(request: Request, reply: Reply) -> str:
    if request.get("cmd") in ("hello", "quit"):
        return dumps(reply)
    sys.stderr.write(MESSAGE.encode("utf-8", "surrogatepass").decode("utf-8", "replace") + "\n")
    sys.stderr.flush()
    return dumps({"seq": request["seq"], "errored": {"message": MESSAGE}})


if __name__ == "__main__":
    serve_with(rewrite)
