"""``referee serve ROUND``: the round's web page -- players check and submit
their files, the organiser watches the ledger and reminds, locks and batches."""

from __future__ import annotations

import argparse
import errno
import socket
from typing import Any

from referee.commands.intake import add_smtp_arguments, smtp_settings
from referee.diagnostics import Diagnostic, ReferError

EXAMPLE = """examples:
  referee serve rounds/3                              on http://127.0.0.1:8000/ (this machine only)
  referee serve rounds/3 --smtp localhost:25          receipts and reminders by mail too
  referee serve rounds/3 --port 8003 --root-path /round3 --behind-proxy --https
                                                      behind a reverse proxy at https://example.org/round3/

Players sign in with their roster id and token (referee roster add prints
it), paste or upload each of their files, Check (the diagnostics under
their lines, nothing stored) and Submit (a receipt with the file's sha256,
mailed too with --smtp). The organiser's page is /organiser: the ledger,
every version with its diagnostics, and the remind, lock and batch buttons
(what referee remind, lock and batch do). Its key is in
ROUND/intake/web/organiser.key, made on the first run (mode 0600), beside
session.key, which signs the session cookie. Files sent by mail and by the
page go through the same inbox; run referee intake beside it as usual.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="the round's web page: players check and submit, the organiser locks and batches",
        description="Serve the round's page for players (check and submit files) and its organiser.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", metavar="ROUND_DIR")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    proxy = parser.add_argument_group("behind a reverse proxy (docs/intake.md)")
    proxy.add_argument("--root-path", default="", metavar="PATH",
                       help="the path the proxy serves the page under, such as /round3")
    proxy.add_argument("--behind-proxy", nargs="?", const="127.0.0.1", default=None, metavar="ADDRESSES",
                       help="trust X-Forwarded-For from these proxy addresses (default 127.0.0.1), so sign-in "
                            "limits count each visitor, not the proxy")
    proxy.add_argument("--https", action="store_true",
                       help="the proxy serves HTTPS: the session cookie is sent only over HTTPS, with HSTS")
    add_smtp_arguments(parser)
    parser.set_defaults(run=run)


def _root_path(text: str) -> str:
    path = text.strip().rstrip("/")
    if path and (not path.startswith("/") or any(c in path for c in "?#\\\"'<> ")):
        raise ReferError([Diagnostic("--root-path", 0, 0, "bad-root-path",
                                     f"{text!r} is not a path such as /round3")])
    return path


def _can_listen(host: str, port: int) -> None:
    """Refuse now, in words, a port that is taken or not ours to take."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        raise ReferError([Diagnostic("--host", 0, 0, "bad-host", f"cannot listen on {host!r}: {err.strerror}")]) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            why = "another program listens there" if err.errno == errno.EADDRINUSE else err.strerror
            raise ReferError([Diagnostic("--port", 0, 0, "cannot-listen", f"cannot listen on {host}:{port}: {why}",
                                         hint="choose another --port")]) from None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from referee.web.app import Site, make_app

    if not 0 < args.port < 65536:
        raise ReferError([Diagnostic("--port", 0, 0, "bad-port", f"{args.port} is not a port (1-65535)")])
    root = _root_path(args.root_path)
    site = Site(args.round, https=args.https, root_path=root)
    site.smtp = smtp_settings(args, site.round().roster.mail_from)
    _can_listen(args.host, args.port)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http{'s' if args.https else ''}://{shown}:{args.port}{root}"
    print(f"serving {site.round().roster.label} on {address}/ (Ctrl-C stops)")
    print(f"  players sign in at {address}/ with their roster id and token")
    print(f"  the organiser's page: {address}/organiser (its key: {args.round}/intake/web/organiser.key)")
    print("  receipts and reminders by mail: " + (f"through {site.smtp.host}:{site.smtp.port}" if site.smtp else
          "off (no --smtp); receipts wait in the ledger for referee intake --smtp"), flush=True)
    uvicorn.run(make_app(site), host=args.host, port=args.port, root_path=root,
                proxy_headers=args.behind_proxy is not None, forwarded_allow_ips=args.behind_proxy,
                server_header=False, limit_concurrency=128, log_level="info")
    return 0
