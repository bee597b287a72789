"""The worker's job: take one issue's pending deliveries, re-read the issue, decide, act, mark them done.

Deliveries of one issue are handled together and in order under a per-issue lock, so two workers never act on
one issue at once and a burst of edits costs one pass. The issue is read fresh from GitHub: whatever order the
events arrive in, the result matches the issue as it is now. A delivery that must be retried carries its time
(`due_at`): Retry-After and backoff hold whatever wakes the issue sooner. Texts already read are not read again:
an issue whose title, body and comments are those of its last triage costs its GETs and no parsing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.diagnosis.findings import Finding
from bot.diagnosis.matrix import Index
from bot.diagnosis.plan import conclude, plan_for, read_cleaned
from bot.diagnosis.readers import Case
from bot.diagnosis.rules import diagnose
from bot.insights.dedupe import DuplicateIndex, Features, duplicates, extract
from bot.insights.dedupe.features import TITLE_CHARS
from bot.insights.history import History, Triaged, categories_of
from bot.service.act import Outcome, apply
from bot.service.github_io import Clients, ConfigCache, Gone, RateLimited, Repo
from bot.service.settings import Settings
from bot.service.store import Delivery, IssueState, Store
from bot.service.store import now as wall_clock
from bot.service.webhook import INDEX_ACTIONS, LABEL_ACTIONS, NOT_DUPLICATE_LABEL, digest
from collector.redact import Redactor

log = logging.getLogger(__name__)
BACKOFF_CAP = 600.0
MAX_ROUNDS = 20
REMEMBERED_ISSUES = 10_000  # texts' fingerprints kept per worker (a few hundred bytes each)
REPO_TTL = 300.0  # seconds a repository's object is reused (it costs a GET to make)
NOT_DUPLICATE = re.compile(r"\bnot[ \t]{1,3}(?:an?[ \t]{1,3})?dup(?:e|licate)?s?\b|\bnot-duplicate\b", re.I)
MAINTAINERS = {"OWNER", "MEMBER", "COLLABORATOR"}  # a comment's author_association


class Retry(Exception):
    """Try this issue again after `delay` seconds (the queue schedules it)."""

    def __init__(self, delay: float, reason: str) -> None:
        super().__init__(reason)
        self.delay = delay


@dataclass(frozen=True)
class Result:
    outcome: str  # "done", "skipped", "dead", "nothing"
    detail: str = ""
    applied: Outcome | None = None
    comment: str | None = None  # the comment as it was (or, in a dry run, would have been) posted


class Processor:
    def __init__(self, settings: Settings, store: Store, matrix: Index, clients: Clients | None = None,
                 clock: Callable[[], datetime] = wall_clock) -> None:  # fmt: skip
        self.settings = settings
        self.store = store
        self.matrix = matrix
        self.clients = clients or Clients(settings)
        self.clock = clock
        self.configs = ConfigCache()
        self.index = DuplicateIndex(store.engine)
        self.history = History(store.engine)
        self.read = ReadTexts()
        self._repos: dict[tuple[int | None, str], tuple[float, Repo]] = {}
        self._repos_lock = threading.Lock()

    def process(self, repo: str | None, number: int | None) -> Result:
        """Handle the issue's deliveries whose time has come, then look again: deliveries that arrived meanwhile
        were not given a wake-up of their own (Store.waiting_before) and are taken here. One scheduled for later
        (a retry) is left for its time, however early the issue was woken."""
        result = Result("nothing")
        for _ in range(MAX_ROUNDS):
            batch = self.store.due(repo, number, self.clock())
            if not batch:
                return result
            result = self._round(batch)
            if result.outcome == "dead":
                return result
        raise Retry(0.0, f"{repo}#{number} keeps receiving deliveries; continuing in a fresh task")

    def _round(self, batch: list[Delivery]) -> Result:
        seqs = [delivery.seq for delivery in batch]
        try:
            result = self._handle(batch)
        except RateLimited as exc:
            self.store.attempt(seqs, str(exc))
            raise self._later(seqs, exc.wait, str(exc)) from exc
        except Retry:
            raise
        except Exception as exc:  # Transient or a bug: retried with backoff, then parked as a dead letter
            return self._failed(seqs, exc)
        self.store.finish(seqs, "done")
        return result

    def _failed(self, seqs: list[int], exc: Exception) -> Result:
        attempts = self.store.attempt(seqs, f"{type(exc).__name__}: {exc}")
        if attempts >= self.settings.max_attempts:
            log.error("giving up after %d attempts: %s", attempts, exc)
            self.store.finish(seqs, "dead", f"{type(exc).__name__}: {exc}")
            return Result("dead", str(exc))
        delay = min(BACKOFF_CAP, self.settings.retry_base_seconds**attempts)
        raise self._later(seqs, delay, f"{type(exc).__name__}: {exc}") from exc

    def _later(self, seqs: list[int], delay: float, reason: str) -> Retry:
        """The retry's time, kept with the deliveries: nothing takes them sooner (a sweep, a restart, a new
        delivery's wake-up), and the queue is told when to look again."""
        self.store.defer(seqs, self.clock() + timedelta(seconds=delay))
        return Retry(delay, reason)

    def _handle(self, batch: list[Delivery]) -> Result:
        last = batch[-1]
        if last.event == "installation" and last.action in ("deleted", "suspend"):
            self.clients.forget(last.installation_id)  # its token is revoked; a later unsuspend mints a new one
            with self._repos_lock:
                self._repos = {key: kept for key, kept in self._repos.items() if key[0] != last.installation_id}
            return Result("done", f"installation {last.action}: its client and token dropped")
        if last.number is None or last.repo is None:
            return Result("skipped", f"{last.event}: no issue to triage")
        rejected = [d for d in batch if d.event == "issues" and d.action in LABEL_ACTIONS]
        if rejected and self._rejections(rejected):  # triaged again below: the comment drops them
            state = self.store.issue(last.repo, last.number)
            self.store.save_issue(last.repo, last.number, dataclasses.replace(state, digest=None))
        elif rejected and last in rejected:
            return Result("done", "a label change that rejects no new suggestion")
        if last.event == "issues" and last.action in INDEX_ACTIONS:
            return self._reindex(last)
        try:
            return self._triage(last.repo, last.number, last.installation_id)
        except Gone as exc:
            return Result("skipped", f"{last.repo}#{last.number} is gone: {exc}")

    def triage_issue(self, full_name: str, number: int, installation_id: int | None) -> Result:
        """Triage one issue now, outside the queue (backfill): GitHub failures are raised, not retried."""
        try:
            return self._triage(full_name, number, installation_id)
        except Gone as exc:
            return Result("skipped", f"{full_name}#{number} is gone: {exc}")

    def _repo(self, full_name: str, installation_id: int | None) -> Repo:
        """The repository's object, made once per REPO_TTL. Made under a lock: its GET is the first call of a
        new client, which mints an App's installation token, and threads must not each mint one."""
        key = (installation_id, full_name)
        with self._repos_lock:
            kept = self._repos.get(key)
            if kept is None or time.monotonic() - kept[0] > REPO_TTL:
                repo = Repo(self.clients.client(installation_id), full_name, self.settings.dry_run)
                kept = self._repos[key] = (time.monotonic(), repo)
        return kept[1]

    def _triage(self, full_name: str, number: int, installation_id: int | None) -> Result:
        repo = self._repo(full_name, installation_id)
        issue = repo.issue(number)
        clean = Redactor(secrets_only=True).secrets
        if issue.state != "open":
            self._index(full_name, number, clean(issue.title or ""), clean(issue.body or ""), issue.state)
            return Result("skipped", "the issue is closed")
        config = self.configs.get(repo)
        if any(label.name in config.exempt_labels for label in issue.labels):
            return Result("skipped", "the issue carries an exempt label")
        bot = self.clients.bot_login(installation_id)
        comments = repo.comments(issue)
        theirs = [c.body or "" for c in comments if c.user is not None and c.user.login != bot
                  and c.user.type != "Bot"]  # fmt: skip
        before = self.store.issue(full_name, number)
        if self._said_not_duplicate(full_name, number, issue, comments, bot):
            before = dataclasses.replace(before, digest=None)  # triaged again: the comment drops them
        texts = (issue.title or "", issue.body or "", *theirs)
        if self.read.unchanged(full_name, number, texts, before):
            return Result("skipped", "nothing the diagnosis reads has changed (texts as last read)")
        title, body = clean(issue.title or ""), clean(issue.body or "")  # as the index and the history keep them
        case = read_cleaned(self.matrix, body, title, [clean(text) for text in theirs])
        now = self.read.remember(full_name, number, texts, digest(case))
        if before.digest == now:  # acted on this very content already (its comment, or its silence)
            if self.index.title_of(full_name, number) not in (None, title[:TITLE_CHARS]):
                self._index(full_name, number, title, body, "open", case)  # found by its new title
            return Result("skipped", "nothing the diagnosis reads has changed")
        findings = conclude(case, self.matrix, title, body)
        features = self._index(full_name, number, title, body, "open", case, findings)
        found = (self.index.similar(full_name, features, before=number, threshold=config.duplicate_threshold,
                                    exclude=number) if config.duplicates else [])  # fmt: skip
        plan = plan_for(case, findings, config, duplicates(found), self.matrix)
        outcome = apply(repo, issue, comments, bot, plan, self.store, config.needs_env_label, now)
        self.history.record(Triaged(full_name, number, title, "open", issue.created_at,
                                    categories_of(findings), plan.needs_env, features,
                                    [d.number for d in plan.duplicates]))  # fmt: skip
        return Result("done", f"comment {outcome.comment}; labels +{outcome.labels_added} -{outcome.labels_removed}",
                      outcome, plan.comment)  # fmt: skip

    def _index(self, repo: str, number: int, title: str, body: str, state: str, case: Case | None = None,
               findings: list[Finding] | None = None) -> Features:  # fmt: skip
        """Index an issue whose title and body are already cleaned of secrets."""
        case = case or read_cleaned(self.matrix, body, title)
        findings = diagnose(case, self.matrix) if findings is None else findings
        features = extract(case, findings, self.matrix, body)
        self.index.record(repo, number, title, state, features)
        return features

    def _said_not_duplicate(self, repo: str, number: int, issue: Any, comments: list[Any], bot: str | None) -> int:
        """A comment of the reporter's or a maintainer's saying "not a duplicate" rejects the issues suggested for
        it, as the label does (GitHub sends no webhook for a reaction). How many pairs were new."""
        reporter = issue.user.login if issue.user is not None else None
        if not any(_rejects(c, reporter, bot) for c in comments):
            return 0
        return self.index.reject(repo, number, self.history.suggested(repo, number))

    def _rejections(self, deliveries: list[Delivery]) -> int:
        """The duplicate label taken off, or `not-duplicate` put on: the issues suggested for it are remembered as
        not its duplicates (never suggested for it again, nor it for them). How many pairs were new."""
        last = deliveries[-1]
        repo, number = last.repo or "", last.number or 0
        wanted = {"unlabeled": self.configs.get(self._repo(repo, last.installation_id)).duplicate_label,
                  "labeled": NOT_DUPLICATE_LABEL}  # fmt: skip
        if not any(_label(d) == wanted.get(d.action or "") for d in deliveries):
            return 0
        return self.index.reject(repo, number, self.history.suggested(repo, number))

    def _reindex(self, delivery: Delivery) -> Result:
        """closed/deleted/transferred, from the payload alone: no GitHub call."""
        repo, number = delivery.repo or "", delivery.number or 0
        if delivery.action != "closed":
            self.index.remove(repo, number)  # deleted, or now another repository's issue
            return Result("done", f"issue {delivery.action}: removed from the duplicate index")
        issue = delivery.payload.get("issue") or {}
        clean = Redactor(secrets_only=True).secrets
        self._index(repo, number, clean(str(issue.get("title") or "")), clean(str(issue.get("body") or "")), "closed")
        self.history.set_state(repo, number, "closed")
        return Result("done", "issue closed: kept in the duplicate index as closed")


def _rejects(comment: Any, reporter: str | None, bot: str | None) -> bool:
    user = comment.user
    if user is None or user.type == "Bot" or user.login == bot:
        return False
    said = user.login == reporter or comment.author_association in MAINTAINERS
    return said and NOT_DUPLICATE.search(comment.body or "") is not None


def _label(delivery: Delivery) -> object:
    label = delivery.payload.get("label")
    return label.get("name") if isinstance(label, dict) else None


class ReadTexts:
    """What each issue's texts read as when last read: their fingerprint and the digest of the case read from
    them. Texts unchanged since a triage that left the issue at that digest need not be redacted and parsed again
    (a burst of edits and comments that change nothing the diagnosis reads costs GETs only)."""

    def __init__(self, size: int = REMEMBERED_ISSUES) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._seen: OrderedDict[tuple[str, int], tuple[bytes, str]] = OrderedDict()

    def unchanged(self, repo: str, number: int, texts: Sequence[str], before: IssueState) -> bool:
        with self._lock:
            seen = self._seen.get((repo, number))
        return seen is not None and before.digest is not None and seen == (_fingerprint(texts), before.digest)

    def remember(self, repo: str, number: int, texts: Sequence[str], case_digest: str) -> str:
        with self._lock:
            self._seen[(repo, number)] = (_fingerprint(texts), case_digest)
            self._seen.move_to_end((repo, number))
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        return case_digest


def _fingerprint(texts: Sequence[str]) -> bytes:
    hasher = hashlib.blake2b(digest_size=16)
    for text in texts:
        raw = text.encode("utf-8", "surrogatepass")
        hasher.update(len(raw).to_bytes(8, "big"))
        hasher.update(raw)
    return hasher.digest()
