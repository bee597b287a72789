"""The fake GitHub as its own process, for benches/load.py: `python -m tests.fakegithub.standalone --repo O/R`.

Prints one line, `<api url> <control url>`, then serves until killed. The control server (loopback) answers
GET /stats (requests, writes, bot comments and label adds per issue) and POST /fail?n=&status=&retry_after=
(the next n write requests fail that way: 500, 429 with Retry-After, or 403 secondary rate limit).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlparse

import yaml

from tests.fakegithub.fake import FakeGitHub

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

MARKER = "<!-- envtriage:comment -->"


def bodies() -> list[tuple[str, str]]:
    """Real issue titles and bodies (the diagnosis corpus and the duplicate fixtures), in a fixed order."""
    found = []
    for path in sorted((FIXTURES / "issues" / "real").glob("*.yaml")) + sorted(
        FIXTURES.glob("duplicates/issues/*.yaml")
    ):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.append((str(data["title"]), str(data.get("body") or "")))
    return found


def stats(fake: FakeGitHub, repo: str) -> dict[str, Any]:
    with fake._lock:
        calls = list(fake.calls)
        issues = dict(fake._repo(repo).issues)
    comments = {n: sum(MARKER in str(c["body"]) for c in fake.comments_on(repo, n)) for n in issues}
    label_adds = Counter(
        f"{c.path} {c.body}"
        for c in calls
        # answered adds only: a refused one (an injected 403) that was retried is not a duplicate
        if c.method == "POST" and c.status < 300 and "/issues/" in c.path and c.path.endswith("/labels")
    )
    return {
        "requests": len(calls),
        "writes": sum(c.method in ("POST", "PATCH", "PUT", "DELETE") for c in calls),
        "failed": sum(c.status >= 400 for c in calls),
        "bot_comments": {str(n): count for n, count in comments.items()},
        "repeated_label_adds": sum(count - 1 for count in label_adds.values()),
    }


def control(fake: FakeGitHub, repo: str) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._answer(stats(fake, repo))

        def do_POST(self) -> None:
            query = dict(parse_qsl(urlparse(self.path).query))
            n, status = int(query.get("n", "1")), int(query.get("status", "500"))
            retry_after = int(query.get("retry_after", "1"))
            if status == 429:
                fake.too_many_requests_next(n, retry_after=retry_after, method="POST")
            elif status == 403:
                fake.secondary_rate_limit_next(n, retry_after=retry_after, method="POST")
            else:
                fake.fail_next(n, status=status, method="POST")
            self._answer({"ok": True})

        def _answer(self, data: dict[str, Any]) -> None:
            raw = json.dumps(data).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--issues", type=int, default=0, help="seed issues 1..N with real texts (issue_text)")
    args = parser.parse_args()
    texts = bodies()
    return serve_seeded(args.repo, args.issues, lambda number: texts[number % len(texts)])


def serve_seeded(repo: str, issues: int, text_of: Callable[[int], tuple[str, str]]) -> int:
    """Run the fake with issues 1..`issues` holding text_of(number) (title, body) until killed; its address and
    the control server's go to stdout."""
    fake = FakeGitHub().start()
    fake.add_repo(repo)
    for number in range(1, issues + 1):
        title, body = text_of(number)
        fake.add_issue(repo, number=number, title=title, body=body)
    server = control(fake, repo)
    sys.stdout.write(f"{fake.url} http://127.0.0.1:{server.server_address[1]}\n")
    sys.stdout.flush()
    threading.Event().wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
