"""A correct ReportBO receiver on Python's standard library, for the verify kit's tests.

Threaded (ThreadingHTTPServer, HTTP/1.1 keep-alive) with --threaded; otherwise a single-threaded
HTTPServer speaking HTTP/1.0, which closes the connection after every answer. Header names are read
case-insensitively (http.client.HTTPMessage), the Bearer scheme too. One record per BookingID: the
newer UpdateDate wins, a tie goes to the later lifecycle state; amounts are kept as Decimal. The
probe is GET /bookings/<BookingID>. Prints "listening on http://127.0.0.1:<port>".
"""

import argparse
import gzip
import json
import re
import threading
import time
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

RANK = {"Issued": 0, "Issued-Exch": 1, "Exchanged": 2, "Voided": 2}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--threaded", action="store_true")
    # The listen backlog: 128 by default, as a deployed server sets it. socketserver's own default
    # is 5: with the batch's 50 connections at once on a busy machine, the connections past the
    # backlog wait for SYN retries (1 s, 3 s, 7 s, 15 s, ...) and some passed the 30 s response
    # timeout, so the correct receiver failed survives-batch-burst. A receiver slow to accept
    # (verify-round3) gives a small one, and --handle-ms, the time each notification takes.
    parser.add_argument("--backlog", type=int, default=128)
    parser.add_argument("--handle-ms", type=int, default=0)
    # With --threaded: each notification's handling (--handle-ms) holds one lock for the whole
    # process, so the threads answer one at a time (a global lock around the store).
    parser.add_argument("--global-lock", action="store_true")
    args = parser.parse_args()
    bookings = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1" if args.threaded else "HTTP/1.0"

        def log_message(self, *a):
            pass

        def answer(self, status, text, content_type="text/plain"):
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            m = re.fullmatch(r"/bookings/(\d+)", self.path)
            with lock:
                state = bookings.get(int(m.group(1))) if m else None
            if state is None:
                self.answer(404, '{"error":"unknown booking"}', "application/json")
            else:
                self.answer(200, json.dumps(state, ensure_ascii=False), "application/json")

        def do_POST(self):
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            if args.handle_ms and args.global_lock:
                with lock:
                    time.sleep(args.handle_ms / 1000)
            elif args.handle_ms:
                time.sleep(args.handle_ms / 1000)
            auth = self.headers.get("AUTHORIZATION", "")
            scheme, _, token = auth.partition(" ")
            if scheme.lower() != "bearer" or token != args.api_key:
                self.answer(401, "unknown or missing Bearer ApiKey")
                return
            if self.headers.get("content-encoding", "").lower() == "gzip":
                raw = gzip.decompress(raw)
            body = json.loads(raw.decode("utf-8"), parse_float=Decimal)
            r = body["Reservation"]
            ratio = (body.get("Ratio") or [{}])[0].get("Amount")
            state = {
                "BookingID": r["BookingID"],
                "BookingNumber": r["BookingNumber"],
                "BookingStatus": r["BookingStatus"],
                "UpdateDate": r["UpdateDate"],
                "Pax": [{"FirstName": p["FirstName"], "LastName": p["LastName"]} for p in body["Pax"]],
                "RawDataLength": len(body["Ticket"][0]["RawData"]),
            }
            if ratio is not None:
                state["RatioAmount"] = str(ratio)
            with lock:
                current = bookings.get(state["BookingID"])
                if (
                    current is None
                    or state["UpdateDate"] > current["UpdateDate"]
                    or (
                        state["UpdateDate"] == current["UpdateDate"]
                        and RANK.get(state["BookingStatus"], 0) > RANK.get(current["BookingStatus"], 0)
                    )
                ):
                    bookings[state["BookingID"]] = state
            self.answer(200, "OK")

    server_class = ThreadingHTTPServer if args.threaded else HTTPServer
    server_class.request_queue_size = args.backlog
    server = server_class(("127.0.0.1", 0), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
