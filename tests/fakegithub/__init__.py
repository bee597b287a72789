"""An in-memory fake of the GitHub REST API, served over loopback HTTP for PyGithub to talk to.

``github.Github(auth=github.Auth.Token("t"), base_url=fake.url)`` works against it. State is seeded with helpers
(``add_repo``, ``add_issue``, ...), every request is recorded in ``fake.calls``, and failures, rate limits and
slowness can be injected. Stored JSON uses the placeholder base ``PH``, replaced by ``fake.url`` on the way out.
"""

from tests.fakegithub.fake import FakeGitHub, fake_github
from tests.fakegithub.model import DOCS_URL, PH, RATE_LIMIT, SECONDARY_MESSAGE, TS, WRITE_METHODS, Call

__all__ = [
    "DOCS_URL",
    "PH",
    "RATE_LIMIT",
    "SECONDARY_MESSAGE",
    "TS",
    "WRITE_METHODS",
    "Call",
    "FakeGitHub",
    "fake_github",
]
