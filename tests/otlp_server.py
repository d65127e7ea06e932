#!/usr/bin/env python3
"""otlp_server.py: a small OTLP/HTTP receiver on loopback that stands in for
an OpenTelemetry collector in the tests (no collector can be installed on
the machines the tests run on: Debian and npm carry clients only). It takes
POST /v1/traces, decodes each body with protoc against tests/otlp.proto, as
a collector's protobuf decoder would, and answers each request as SCRIPT
says, one answer a request in turn (the last one for every request after):

  200           full success: an empty ExportTraceServiceResponse
  partial:N:MSG a partial success: N spans rejected, error_message MSG
  503:S         503 with Retry-After: S (seconds); 429:S the same with 429
  503:date:S    503 with Retry-After an HTTP date S seconds ahead
  400:MSG       400 with a google.rpc.Status whose message is MSG

Writes its port to PORTFILE once listening, and a line to LOG per request
(JSON: the try's number, path, content type, bytes, spans decoded, the
seconds since the last request, the status answered); a body protoc does not
decode is logged with spans -1.

usage: otlp_server.py PORTFILE LOG SCRIPT
"""
import email.utils
import http.server
import json
import os
import subprocess
import sys
import time

SRC = os.environ.get("TIMELINE_SRC") or "."


def encode_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_bytes(field, data):
    return encode_varint(field << 3 | 2) + encode_varint(len(data)) + data


def spans_in(body):
    """The spans of an ExportTraceServiceRequest, decoded by protoc; -1 if not one."""
    r = subprocess.run(["protoc", "--decode=otlp.ExportTraceServiceRequest", "-I%s/tests" % SRC,
                        "otlp.proto"], input=body, capture_output=True)
    if r.returncode:
        return -1
    return sum(1 for line in r.stdout.decode().splitlines() if line.strip() == "spans {")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        srv = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        answer = srv.script[min(srv.served, len(srv.script) - 1)]
        srv.served += 1
        now = time.monotonic()
        since = now - srv.last if srv.last else 0
        srv.last = now
        parts = answer.split(":", 2)
        code, headers, out = int(parts[0]) if parts[0].isdigit() else 200, {}, b""
        if parts[0] == "partial":
            partial = (encode_varint(1 << 3) + encode_varint(int(parts[1])) +
                       field_bytes(2, parts[2].encode()))
            out = field_bytes(1, partial)
        elif code in (429, 503):
            if parts[1] == "date":
                headers["Retry-After"] = email.utils.formatdate(time.time() + int(parts[2]) + 1,
                                                                usegmt=True)
            else:
                headers["Retry-After"] = parts[1]
        elif code == 400:
            out = encode_varint(1 << 3) + encode_varint(3) + field_bytes(2, parts[1].encode())
        with open(srv.log, "a") as f:
            f.write(json.dumps({"try": srv.served, "path": self.path,
                                "type": self.headers.get("Content-Type"), "bytes": len(body),
                                "spans": spans_in(body), "since": round(since, 3),
                                "status": code}) + "\n")
        self.send_response(code)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(out)))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(out)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: otlp_server.py PORTFILE LOG SCRIPT")
    srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    srv.script = sys.argv[3].split(",")
    srv.served = 0
    srv.last = 0
    srv.log = sys.argv[2]
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
