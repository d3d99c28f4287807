#!/usr/bin/env python3
"""{{name}}: a Reasonix extension (protocol v2), standard library only.

It speaks JSON-RPC 2.0 with the host, one JSON object per line on stdin and stdout; anything for
people goes to stderr (the host logs it). It publishes one card when the host says it is ready and
serves one tool, `greet`.
"""
import json
import sys

NAME = "{{name}}"
VERSION = "0.1.0"
TOOLS = ("greet",)

session = {}  # sessionId, workspaceRoot, generation: echoed on every call to the host
next_id = 1  # our own request ids


def log(message):
    sys.stderr.write(f"[{NAME}] {message}\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def fail(msg_id, code, message, reason):
    error = {"code": code, "message": message, "data": {"reason": reason, "retryable": False}}
    send({"jsonrpc": "2.0", "id": msg_id, "error": error})


def publish_card():
    """host/ui/publish, a request to the host; its answer arrives as a response line."""
    global next_id
    payload = {
        "title": NAME,
        "markdown": "Hello from **{{name}}**. Edit `sidecar.py` and save: the host restarts it.",
        "fields": [{"key": "Generation", "value": str(session["generation"])}],
    }
    params = {
        "surfaceId": "hello",
        "sessionId": session["sessionId"],
        "generation": session["generation"],
        "kind": "card",
        "payload": payload,
    }
    send({"jsonrpc": "2.0", "id": next_id, "method": "host/ui/publish", "params": params})
    next_id += 1


def greet(args):
    name = args.get("name") if isinstance(args, dict) else None
    if not isinstance(name, str) or not name.strip():
        return {"content": "greet needs a name", "isError": True}
    return {"content": f"Hello, {name.strip()}!"}


def initialize(params):
    session.update(params.get("session") or {})
    declared = (params.get("manifest") or {}).get("tools") or []
    return {
        "name": NAME,
        "version": VERSION,
        "protocolVersion": "2",
        "stateSchemaVersion": 0,
        "tools": [t for t in declared if t in TOOLS],
    }


def handle(msg):
    method = msg.get("method")
    if method is None:
        return  # an answer to our publish
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    if "id" not in msg:
        if method == "extension/initialized":
            log("ready")
            publish_card()
        return
    msg_id = msg["id"]
    if method == "extension/initialize":
        send({"jsonrpc": "2.0", "id": msg_id, "result": initialize(params)})
    elif method == "extension/tool/call":
        if params.get("name") != "greet":
            fail(msg_id, -32601, f"unknown tool {params.get('name')}", "unknown_method")
        else:
            send({"jsonrpc": "2.0", "id": msg_id, "result": greet(params.get("arguments") or {})})
    elif method == "extension/shutdown":
        send({"jsonrpc": "2.0", "id": msg_id, "result": {"accepted": True}})
        sys.exit(0)
    else:
        fail(msg_id, -32601, f"method not found: {method}", "unknown_method")


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            log(f"not JSON: {line[:80]}")
            continue
        if isinstance(msg, dict):
            handle(msg)


if __name__ == "__main__":
    main()
