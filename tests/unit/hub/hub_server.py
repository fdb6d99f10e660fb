#!/usr/bin/env python3
"""A loopback-only Hub endpoint for the hub tests, with failure modes chosen by the URL.

Usage: hub_server.py ROOT LOGFILE
Binds 127.0.0.1 on a free port, prints the port on stdout, and serves files written by
`wgk publish-layout` from ROOT. A request is /<mode>/<org>/<repo>/resolve/<rev>/<path>; each one is
logged to LOGFILE as a JSON line {"path", "host", "auth"}.

Modes:
  ok        serve the file; X-Repo-Commit is <rev> when it is 40 hex, else ROOT/<org>/<repo>/refs/<rev>
  noheader  serve the file without X-Repo-Commit
  delay     like ok, after 0.2 s (makes two concurrent clients overlap)
  slow      sleep 30 s before answering (clients must time out)
  truncate  files other than metadata.json: announce the full length, send half, close
  vanish    manifest.json: send half of it, then the whole server process exits
  flaky     the first 2 requests for each path answer 503, then like ok
  fail503   always 503
  redirect  302 to the same path on http://localhost:<port>/ok/... (another host name)
  trickle   like ok, but the body goes out one byte every 0.2 s: faster than curl's low-speed
            limit, so only an overall deadline stops it
  twolengths  like ok, with a second, different Content-Length header
  overlong  declares a Content-Length 100 bytes longer than the body, sends the body, then holds
            the connection open for 60 s
"""
import http.server
import json
import os
import re
import sys
import threading
import time

ROOT = sys.argv[1]
LOG = sys.argv[2]
lock = threading.Lock()
flaky_counts = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log_request_line(self):
        with lock, open(LOG, "a") as f:
            f.write(json.dumps({"path": self.path, "host": self.headers.get("Host", ""),
                                "auth": self.headers.get("Authorization", "")}) + "\n")

    def plain(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.log_request_line()
        parts = self.path.split("/", 2)
        if len(parts) < 3:
            return self.plain(404, "no mode")
        mode, rest = parts[1], parts[2]
        m = re.match(r"^([^/]+)/([^/]+)/resolve/([^/]+)/(.+)$", rest)
        if not m or ".." in rest.split("/"):
            return self.plain(404, "bad path")
        org, repo, rev, path = m.groups()
        if mode == "redirect":
            port = self.server.server_address[1]
            self.send_response(302)
            self.send_header("Location", "http://localhost:%d/ok/%s" % (port, rest))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "fail503":
            return self.plain(503, "unavailable")
        if mode == "flaky":
            with lock:
                flaky_counts[rest] = flaky_counts.get(rest, 0) + 1
                n = flaky_counts[rest]
            if n <= 2:
                return self.plain(503, "try again")
        if mode == "slow":
            time.sleep(30)
        if mode == "delay":
            time.sleep(0.2)
        file = os.path.join(ROOT, org, repo, "resolve", rev, path)
        if not os.path.isfile(file):
            return self.plain(404, "not found")
        with open(file, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body) + (100 if mode == "overlong" else 0)))
        if mode == "twolengths":
            self.send_header("Content-Length", str(len(body) + 5))
        if mode != "noheader":
            commit = rev if re.fullmatch(r"[0-9a-fA-F]{40}", rev) else None
            ref = os.path.join(ROOT, org, repo, "refs", rev)
            if commit is None and os.path.isfile(ref):
                commit = open(ref).read().strip()
            if commit:
                self.send_header("X-Repo-Commit", commit)
        self.end_headers()
        if mode == "truncate" and not path.endswith("metadata.json"):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if mode == "trickle":
            try:
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:  # the client gave up: that is the point
                pass
            self.close_connection = True
            return
        if mode == "overlong":
            self.wfile.write(body)
            self.wfile.flush()
            time.sleep(60)
            self.close_connection = True
            return
        if mode == "vanish" and path.endswith("manifest.json"):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            os._exit(0)
        self.wfile.write(body)


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
