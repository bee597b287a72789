"""No secret in any log line: every record the service makes is redacted as it is made.

uvicorn's access log prints the request line with its query string (`GET /dashboard?token=...`), and an
exception's text may carry a header or a URL. A filter on a logger sees only the records made by that very
logger (not its children's, nor those of loggers configured later), so the redaction sits in the record factory,
which every logger of the process goes through, whatever handlers and formatters come to be configured.

Every pattern runs in linear time on any text: each repetition is bounded, or runs over a class that the element
after it excludes, and where a run could restart at every character a lookbehind lets it start only at the run's
beginning.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

REDACTED = "<redacted>"
MIN_KNOWN_SECRET = 8  # shorter configured values (a test's "t") would blank ordinary words
SECRET_NAMES = ("token", "secret", "passw", "pwd", "key", "sig", "auth", "credential", "session", "cookie")

# name=value, in a query string or a keyword argument: the value goes when the name is a secret's.
ASSIGNMENT = re.compile(r"(?<![\w-])([\w-]{1,64})=([\"']?)[^&;#\s\"'<>,)\]}]+", re.ASCII)
# A credential header, printed as "Authorization: token ..." or in a dict's repr.
HEADER = re.compile(
    r"((?:authorization|proxy-authorization|cookie|x-hub-signature(?:-256)?)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?)"
    r"([^\"'\s,;}]+(?:[ \t]+[^\"'\s,;}]+)?)",
    re.IGNORECASE,
)
SHAPES = [
    re.compile(r"(?<![\w-])(?:Bearer|Basic) +[A-Za-z0-9._~+/=-]{8,}", re.ASCII),
    re.compile(r"\bsha(?:1|256)=[0-9a-fA-F]{8,}"),  # a webhook signature
    re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
    re.compile(r"(?<![\w-])eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*", re.ASCII),  # a JWT (the GitHub App's)
    re.compile(r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[^-]*(?:-----END [A-Z ]{0,40}PRIVATE KEY-----)?"),
]


class Redaction:
    """Removes the configured secrets (as given and URL-encoded) and whatever has a secret's shape."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        values = {value for value in known if len(value) >= MIN_KNOWN_SECRET}
        encoded = {urllib.parse.quote(value, safe="") for value in values}
        self.known = sorted(values | encoded | {urllib.parse.quote_plus(v) for v in values}, key=len, reverse=True)

    def text(self, text: str) -> str:
        for value in self.known:
            text = text.replace(value, REDACTED)
        text = ASSIGNMENT.sub(_assignment, text)
        text = HEADER.sub(lambda m: m.group(1) + REDACTED, text)
        for shape in SHAPES:
            text = shape.sub(REDACTED, text)
        return text

    def record(self, record: logging.LogRecord) -> None:
        """Redact a record in place. Its arguments are kept where redacting each one is enough (uvicorn's access
        formatter reads them); otherwise the message is replaced by its redacted text."""
        try:
            message = record.getMessage()
        except Exception:  # a format string that does not fit its arguments: keep both, redacted, as text
            record.msg, record.args = self.text(f"{record.msg} {record.args!r}"), ()
        else:
            clean = self.text(message)
            if clean != message:
                record.msg, record.args = self._rebuilt(record, clean)
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = self.text(logging.Formatter().formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = self.text(record.stack_info)

    def _rebuilt(self, record: logging.LogRecord, clean: str) -> tuple[Any, Any]:
        if isinstance(record.args, tuple) and record.args and isinstance(record.msg, str):
            args = tuple(self.text(arg) if isinstance(arg, str) else arg for arg in record.args)
            try:
                if record.msg % args == clean:
                    return record.msg, args
            except (TypeError, ValueError):
                pass
        return clean, ()


def _assignment(match: re.Match[str]) -> str:
    name, quote = match.group(1), match.group(2)
    if any(part in name.lower() for part in SECRET_NAMES):
        return f"{name}={quote}{REDACTED}"
    return match.group(0)


def install(known: Iterable[str] = ()) -> Callable[[], None]:
    """Redact every log record made from now on; returns the function that stops it (the service's shutdown)."""
    previous = logging.getLogRecordFactory()
    redaction = Redaction(known)

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        redaction.record(record)
        return record

    def uninstall() -> None:
        if logging.getLogRecordFactory() is factory:  # another one installed since stays, and keeps ours inside
            logging.setLogRecordFactory(previous)

    logging.setLogRecordFactory(factory)
    return uninstall
