"""Drives `phux mcp` with the official MCP Python SDK (PyPI `mcp`) as the client.

    sdk_client.py PHUX SOCKET            the transcript: initialize, tools/list, a session
                                         created, a command run, text waited for, a snapshot,
                                         and an isError result for a missing pane; exit 0 when
                                         every step answered as it should
    sdk_client.py PHUX SOCKET --bench N  phux_snapshot through the SDK vs `phux snapshot
                                         --json` as a process, N each: medians and the ratio

Each transcript line is `STEP: what came back`, so a failing step is easy to find.
"""

import json
import statistics
import subprocess
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(result, snake, camel):
    """A result field under the SDK's name for it (2.x snake_case, 1.x camelCase)."""
    return getattr(result, snake, getattr(result, camel, None))


def document(result):
    """The JSON document in a tool result's one text block."""
    assert len(result.content) == 1, result.content
    assert result.content[0].type == "text", result.content[0]
    return json.loads(result.content[0].text)


def say(step, what):
    print(f"{step}: {what}", flush=True)


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


async def call_ok(session, name, arguments):
    result = await session.call_tool(name, arguments)
    check(not field(result, "is_error", "isError"), f"{name} failed: {result.content}")
    return document(result)


async def transcript(phux, socket):
    params = StdioServerParameters(command=phux, args=["mcp", "--socket", socket])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            version = field(init, "protocol_version", "protocolVersion")
            info = field(init, "server_info", "serverInfo")
            say("initialize", f"protocolVersion {version}, server {info.name} {info.version}")
            check(info.name == "phux", "the server is not phux")

            tools = (await session.list_tools()).tools
            names = [t.name for t in tools]
            say("tools/list", f"{len(tools)} tools: {', '.join(names)}")
            for wanted in ["phux_new", "phux_run", "phux_wait", "phux_snapshot", "phux_kill"]:
                check(wanted in names, f"{wanted} is not listed")
            for tool in tools:
                schema = field(tool, "input_schema", "inputSchema")
                check(schema.get("additionalProperties") is False, f"{tool.name}: not strict")
                output = field(tool, "output_schema", "outputSchema") or {}
                check("schema_version" in output.get("properties", {}), f"{tool.name}: no document in outputSchema")
            hints = {t.name: t.annotations for t in tools}
            for name in ["phux_run", "phux_send_keys", "phux_paste", "phux_new", "phux_spawn", "phux_kill", "phux_signal"]:
                check(
                    field(hints[name], "destructive_hint", "destructiveHint") is True
                    and field(hints[name], "open_world_hint", "openWorldHint") is True,
                    f"{name} is not said to run programs: {hints[name]}",
                )
            for name in ["phux_snapshot", "phux_wait", "phux_ls", "phux_status"]:
                check(field(hints[name], "read_only_hint", "readOnlyHint") is True, f"{name} is not read-only")
            say("annotations", "phux_run destructive+openWorld, phux_snapshot readOnly")

            created = await call_ok(
                session,
                "phux_new",
                {"name": "sdk", "command": ["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"]},
            )
            pane = f"@{created['terminal_id']}"
            say("phux_new", f"session {created['session']}, pane {pane}")

            ready = await call_ok(session, "phux_wait", {"target": pane, "until": "$", "timeout_secs": 15})
            say("phux_wait (prompt)", f"outcome {ready['outcome']}")
            check(ready["outcome"] == "met", "the prompt never showed")

            ran = await call_ok(session, "phux_run", {"target": pane, "command": "echo sdk-$((20 + 22))"})
            say("phux_run", f"exit_code {ran['exit_code']}, output {ran['output']!r}, {ran['duration_ms']} ms")
            check(ran["exit_code"] == 0 and ran["output"] == "sdk-42", "the command's output is wrong")

            await call_ok(session, "phux_send_keys", {"target": pane, "keys": ["sleep 0.3; echo the-sdk-waited", "Enter"]})
            waited = await call_ok(
                session, "phux_wait", {"target": pane, "regex": "^the-sdk-waited$", "timeout_secs": 15}
            )
            say("phux_wait (text)", f"outcome {waited['outcome']}, match {waited['match']['text']!r}")
            check(waited["outcome"] == "met", "the text never showed")

            result = await session.call_tool("phux_snapshot", {"target": pane})
            snapshot = document(result)
            structured = field(result, "structured_content", "structuredContent")
            shown = [line for line in snapshot["lines"] if line.strip()]
            say("phux_snapshot", f"{snapshot['cols']}x{snapshot['rows']}, {len(shown)} rows of text, last {shown[-1]!r}")
            check("the-sdk-waited" in snapshot["lines"], "the snapshot misses the output")
            check(structured == snapshot, "structuredContent differs from the text block")

            missing = await session.call_tool("phux_snapshot", {"target": "@999"})
            error = document(missing)
            say(
                "phux_snapshot @999",
                f"isError {field(missing, 'is_error', 'isError')}, code {error['error']['code']}, "
                f"exit_code {error['exit_code']}, remedy {error['remedy']!r}",
            )
            check(field(missing, "is_error", "isError") is True, "a missing pane is not an error")
            check(error["error"]["code"] == "no_such_target", "wrong error code")

            refused = await session.call_tool("phux_kill", {"target": pane})
            say("phux_kill (no confirm)", f"isError {field(refused, 'is_error', 'isError')}, code {document(refused)['error']['code']}")
            check(document(refused)["error"]["code"] == "confirmation_required", "kill ran without confirm")
            killed = await call_ok(session, "phux_kill", {"target": pane, "confirm": True})
            say("phux_kill (confirm)", f"killed {killed['killed']}")
    say("result", "OK")


async def bench(phux, socket, rounds):
    params = StdioServerParameters(command=phux, args=["mcp", "--socket", socket])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            created = await call_ok(session, "phux_new", {"name": "sdk-bench", "command": ["env", "PS1=$ ", "bash", "--norc", "-i"]})
            pane = f"@{created['terminal_id']}"
            await call_ok(session, "phux_wait", {"target": pane, "until": "$", "timeout_secs": 15})
            await call_ok(session, "phux_snapshot", {"target": pane})
            sdk = []
            for _ in range(rounds):
                started = time.perf_counter()
                await call_ok(session, "phux_snapshot", {"target": pane})
                sdk.append(time.perf_counter() - started)
    process = []
    for _ in range(rounds):
        started = time.perf_counter()
        out = subprocess.run([phux, "--socket", socket, "snapshot", "--json", pane], capture_output=True, check=True)
        process.append(time.perf_counter() - started)
        json.loads(out.stdout)
    subprocess.run([phux, "--socket", socket, "kill", "sdk-bench"], capture_output=True)
    sdk_ms = statistics.median(sdk) * 1000
    process_ms = statistics.median(process) * 1000
    print(f"phux_snapshot via the MCP SDK (tools/call round trip): median {sdk_ms:.2f} ms over {rounds}")
    print(f"phux snapshot --json as a process:                     median {process_ms:.2f} ms over {rounds}")
    print(f"ratio (process / MCP): {process_ms / sdk_ms:.2f}x")


def main():
    phux, socket = sys.argv[1], sys.argv[2]
    try:
        if len(sys.argv) > 4 and sys.argv[3] == "--bench":
            anyio.run(bench, phux, socket, int(sys.argv[4]))
        else:
            anyio.run(transcript, phux, socket)
    except Failed as failure:
        say("FAILED", failure)
        sys.exit(1)


if __name__ == "__main__":
    main()
