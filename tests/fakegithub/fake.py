"""The route table, and FakeGitHub: the server, the state helpers and the route handlers in one object."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.fakegithub.app_routes import _AppRoutes
from tests.fakegithub.issue_routes import _IssueRoutes
from tests.fakegithub.seeding import _Seeding
from tests.fakegithub.server import _HTTP

_PARAMS = {
    "{repo}": r"(?P<repo>[^/]+/[^/]+)",
    "{n}": r"(?P<n>\d+)",
    "{id}": r"(?P<id>\d+)",
    "{name}": r"(?P<name>[^/]+)",
    "{path}": r"(?P<path>.+)",
}
_ROUTES = [
    ("GET", "/user", "_h_user"),
    ("GET", "/rate_limit", "_h_rate_limit"),
    ("GET", "/app", "_h_app"),
    ("POST", "/app/installations/{id}/access_tokens", "_h_mint_token"),
    ("GET", "/repos/{repo}/installation", "_h_repo_installation"),
    ("GET", "/repos/{repo}", "_h_repo"),
    ("GET", "/repos/{repo}/issues", "_h_list_issues"),
    ("GET", "/repos/{repo}/issues/comments/{id}", "_h_get_comment"),
    ("PATCH", "/repos/{repo}/issues/comments/{id}", "_h_edit_comment"),
    ("DELETE", "/repos/{repo}/issues/comments/{id}", "_h_delete_comment"),
    ("GET", "/repos/{repo}/issues/{n}", "_h_get_issue"),
    ("GET", "/repos/{repo}/issues/{n}/comments", "_h_list_comments"),
    ("POST", "/repos/{repo}/issues/{n}/comments", "_h_create_comment"),
    ("GET", "/repos/{repo}/issues/{n}/labels", "_h_issue_labels"),
    ("POST", "/repos/{repo}/issues/{n}/labels", "_h_add_labels"),
    ("DELETE", "/repos/{repo}/issues/{n}/labels/{name}", "_h_remove_label"),
    ("GET", "/repos/{repo}/issues/{n}/events", "_h_events"),
    ("GET", "/repos/{repo}/issues/{n}/timeline", "_h_timeline"),
    ("GET", "/repos/{repo}/labels", "_h_list_labels"),
    ("POST", "/repos/{repo}/labels", "_h_create_label"),
    ("GET", "/repos/{repo}/labels/{name}", "_h_get_label"),
    ("GET", "/repos/{repo}/contents/{path}", "_h_contents"),
]


class FakeGitHub(_HTTP, _Seeding, _IssueRoutes, _AppRoutes):
    """A thread-safe fake GitHub REST server; see the package docstring."""

    def __init__(
        self,
        bot_login: str = "envtriage[bot]",
        app_id: int = 4242,
        installation_id: int = 42,
        app_slug: str = "envtriage",
    ) -> None:
        super().__init__(bot_login, app_id, installation_id, app_slug)
        self._routes = [
            (m, re.compile(re.sub(r"\{\w+\}", lambda k: _PARAMS[k[0]], p)), getattr(self, h)) for m, p, h in _ROUTES
        ]


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A started FakeGitHub holding the repository "octo-org/octo-repo"; stopped afterwards."""
    with FakeGitHub() as fake:
        fake.add_repo("octo-org/octo-repo")
        yield fake
