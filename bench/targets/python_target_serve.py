"""
How the bench serves a Python target (bench/targets/python-sdk-target.py, fastmcp-target.py):
an ASGI app on uvicorn, the server both libraries' docs deploy on, bound to a free port on
127.0.0.1.
It prints one JSON line `{"type": "ready", "url": ..., "pid": ...}` on stdout once uvicorn is
listening, and exits when its stdin closes (the bench runner went away) or on SIGTERM. The bench
reads the process's CPU time from /proc/<pid>/stat, as it does for every target: nothing of the
measuring runs in here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
from typing import Any

import uvicorn


def _exit_when_stdin_closes() -> None:
    # Blocks in a thread of its own: the event loop never waits on it.
    sys.stdin.read()
    os._exit(0)


async def _serve(app: Any) -> None:
    # uvicorn binds the socket itself, as `uvicorn app:app` would (port 0: a free one), so it is
    # set up as in any deployment (TCP_NODELAY comes from asyncio for a socket made this way).
    # uvloop and httptools, the production speedups of `uvicorn[standard]`, named so that a missing
    # one fails here rather than quietly measuring the slower defaults. Per-request logging is off,
    # as in every target of the bench (Baton runs with a silent logger).
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            await serving
            raise RuntimeError("uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    print(json.dumps({"type": "ready", "url": f"http://127.0.0.1:{port}/mcp", "pid": os.getpid()}), flush=True)
    await serving


def serve(app: Any) -> None:
    """Serves `app` until stdin closes or SIGTERM (uvicorn's own handler)."""
    logging.getLogger().setLevel(logging.WARNING)
    threading.Thread(target=_exit_when_stdin_closes, daemon=True).start()
    asyncio.run(_serve(app))
