#!/usr/bin/env python3
"""Whether `buf lsp serve` shows a Buf check plugin's findings, measured as an editor would
see them: a minimal LSP client over stdio opens (and saves) a .proto file of a buf workspace,
waits for the diagnostics buf publishes for it, and prints them, then prints every call buf
made to the plugin (docs/buf.md, "In an editor").

    python3 ci/buf-lsp-probe.py BUF WORKSPACE FILE PROTOCOMPAT [SECONDS]

WORKSPACE holds a buf.yaml naming the plugin `protocompat`; FILE is the .proto file to open,
relative to it; PROTOCOMPAT is the executable. buf finds, first on its PATH, a wrapper of it
that logs each call's arguments.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read_messages(proc, inbox):
    out = proc.stdout
    while True:
        headers = {}
        while True:
            line = out.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        body = out.read(int(headers["content-length"]))
        inbox.append(json.loads(body))


def main():
    buf, workspace, file, protocompat = sys.argv[1:5]
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 15
    wrappers = tempfile.mkdtemp(prefix="buf-lsp-probe-")
    log = os.path.join(wrappers, "calls.log")
    wrapper = os.path.join(wrappers, "protocompat")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' % (log, os.path.abspath(protocompat)))
    os.chmod(wrapper, 0o755)
    env = dict(os.environ, PATH=wrappers + os.pathsep + os.environ.get("PATH", ""))
    workspace = os.path.abspath(workspace)
    path = os.path.join(workspace, file)
    uri = "file://" + path
    proc = subprocess.Popen(
        [buf, "lsp", "serve"],
        cwd=workspace,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    inbox = []
    threading.Thread(target=read_messages, args=(proc, inbox), daemon=True).start()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(),
        "rootUri": "file://" + workspace,
        "workspaceFolders": [{"uri": "file://" + workspace, "name": "w"}],
        "capabilities": {"textDocument": {"publishDiagnostics": {}}},
    }})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    with open(path) as f:
        text = f.read()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "protobuf", "version": 1, "text": text},
    }})
    # A save is what editors send when the user saves; buf may run its checks then.
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {
        "textDocument": {"uri": uri}, "text": text,
    }})
    time.sleep(seconds)
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
    published = [m["params"] for m in inbox if m.get("method") == "textDocument/publishDiagnostics"]
    for params in published:
        if params["uri"] != uri:
            continue
        print("publishDiagnostics: %d diagnostics" % len(params["diagnostics"]))
        for d in params["diagnostics"]:
            start = d["range"]["start"]
            print("  %d:%d %s %s: %s" % (start["line"] + 1, start["character"] + 1,
                                          d.get("source", ""), d.get("code", ""), d["message"]))
    if not any(p["uri"] == uri for p in published):
        print("publishDiagnostics: none for", file)
    calls = open(log).read().splitlines() if os.path.exists(log) else []
    print("plugin calls: %d" % len(calls))
    for call in calls:
        print("  protocompat " + call)


if __name__ == "__main__":
    main()
