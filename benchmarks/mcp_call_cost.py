"""An MCP server's own cost per call, outside agentconf: N calls of one tool one after another,
then N sent at once, over stdio with the MCP client SDK. Beside a run's time it tells whether a
slow run is the kit's or the server's (docs/benchmarks.md: Desktop Commander's CONCUR-04).

    .venv/bin/python benchmarks/mcp_call_cost.py --calls 100 -- node path/to/index.js {root}
    .venv/bin/python benchmarks/mcp_call_cost.py --home-file .claude-server-commander/config.json \
        '{"allowedDirectories": ["{root}"], "telemetryEnabled": false}' -- node dc/dist/index.js

`{root}` is a fresh folder holding doc.txt (50 lines of 1,200 characters, as CONCUR-04 reads);
the server runs in it, with a fresh HOME. The tool is read_file with that file's absolute path.
"""

import argparse
import asyncio
import os
import shutil
import tempfile
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def measure(command: list[str], calls: int, home_files: list[list[str]]) -> str:
    root, home = tempfile.mkdtemp(prefix="call-cost-"), tempfile.mkdtemp(prefix="call-cost-home-")
    try:
        with open(os.path.join(root, "doc.txt"), "w", encoding="utf-8") as handle:
            handle.write(("<v1>" * 300 + "\n") * 50)
        for relative, text in home_files:
            path = os.path.join(home, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text.replace("{root}", root))
        # The server runs in the root: a path given relative to here is made absolute.
        argv = [os.path.abspath(part) if os.path.exists(part) else part.replace("{root}", root)
                for part in command]
        params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=root,
                                       env={**os.environ, "HOME": home})
        arguments = {"path": os.path.join(root, "doc.txt")}
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("read_file", arguments)  # warm
            began = time.monotonic()
            for _ in range(calls):
                await session.call_tool("read_file", arguments)
            serial = time.monotonic() - began
            began = time.monotonic()
            await asyncio.gather(*(session.call_tool("read_file", arguments)
                                   for _ in range(calls)))
            together = time.monotonic() - began
        return (f"{calls} reads one after another: {serial:.2f} s ({1000 * serial / calls:.1f} ms "
                f"each); {calls} sent at once: {together:.2f} s")
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--home-file", nargs=2, action="append", default=[],
                        metavar=("PATH", "TEXT"), help="a file to write under the fresh HOME")
    parser.add_argument("command", nargs="+", help="the server's command line ({root} filled)")
    args = parser.parse_args()
    print(asyncio.run(measure(args.command, args.calls, args.home_file)))


if __name__ == "__main__":
    main()
