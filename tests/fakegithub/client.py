"""The real PyGithub client on the fake, for the fake's own tests: the client() helper and the gh fixture."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import github
import pytest

from tests.fakegithub.fake import FakeGitHub

REPO = "octo-org/octo-repo"  # the repository the fake_github fixture holds


def client(fake: FakeGitHub, **kwargs: Any) -> github.Github:
    """A PyGithub client on the fake; no retries and no client-side throttling unless asked for."""
    kwargs.setdefault("retry", None)
    return github.Github(
        auth=github.Auth.Token("t"),
        base_url=fake.url,
        seconds_between_requests=None,
        seconds_between_writes=None,
        **kwargs,
    )


@pytest.fixture(name="gh")
def gh_fixture(fake_github: FakeGitHub) -> Iterator[github.Github]:
    """A client() on the started fake_github; import gh_fixture into a test module to use it as gh."""
    with client(fake_github) as g:
        yield g
