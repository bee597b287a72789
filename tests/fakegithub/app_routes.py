"""Route handlers for the authenticated user, the rate limit, and the GitHub App and its installations."""

from __future__ import annotations

from datetime import timedelta, timezone

from tests.fakegithub.model import PH, RATE_LIMIT, TS, _HTTPError, _Json, _Resp
from tests.fakegithub.state import _Ctx, _State


class _AppRoutes(_State):
    """GET /user, GET /rate_limit, and the App endpoints that want a JWT."""

    def _h_user(self, c: _Ctx) -> _Resp:
        return 200, self._user(*self._bot), {}

    def _h_rate_limit(self, c: _Ctx) -> _Resp:
        used = RATE_LIMIT - self.rate_remaining
        core = {
            "limit": RATE_LIMIT,
            "remaining": self.rate_remaining,
            "reset": self.rate_reset,
            "used": used,
            "resource": "core",
        }
        search = {**core, "limit": 30, "remaining": 30, "used": 0, "resource": "search"}
        graphql = {**core, "remaining": RATE_LIMIT, "used": 0, "resource": "graphql"}
        return 200, {"resources": {"core": core, "search": search, "graphql": graphql}, "rate": core}, {}

    def _app_auth(self, c: _Ctx) -> _Json:
        """App endpoints want a Bearer JWT: recorded, never verified."""
        auth = c.req.headers.get("Authorization", "")
        if not auth.lower().startswith("bearer "):
            raise _HTTPError(401, "A JSON web token could not be decoded")
        self.jwts.append(auth.split(" ", 1)[1])
        return {
            "app_id": self.app_id,
            "app_slug": self.app_slug,
            "created_at": self._now(),
            "updated_at": self._now(),
            "permissions": {"issues": "write", "contents": "read"},
            "events": ["issues", "issue_comment"],
        }

    def _h_app(self, c: _Ctx) -> _Resp:
        common = self._app_auth(c)
        return (
            200,
            {
                **common,
                "id": self.app_id,
                "slug": self.app_slug,
                "node_id": f"A_fake{self.app_id}",
                "name": self.app_slug,
                "owner": self._user("octo-org", "Organization"),
                "description": "",
                "external_url": "https://example.invalid",
                "html_url": f"https://github.com/apps/{self.app_slug}",
            },
            {},
        )

    def _h_mint_token(self, c: _Ctx) -> _Resp:
        common = self._app_auth(c)
        if int(c.p["id"]) != self.installation_id:
            raise _HTTPError(404)
        self.minted_tokens.append(f"ghs_fake{len(self.minted_tokens) + 1:032d}")
        expires = (self.clock() + timedelta(hours=1)).astimezone(timezone.utc).strftime(TS)
        return (
            201,
            {
                "token": self.minted_tokens[-1],
                "expires_at": expires,
                "repository_selection": "selected",
                "permissions": common["permissions"],
            },
            {},
        )

    def _h_repo_installation(self, c: _Ctx) -> _Resp:
        common, repo, iid = self._app_auth(c), c.repo, self.installation_id
        return (
            200,
            {
                **common,
                "id": iid,
                "account": repo.json["owner"],
                "target_type": "Organization",
                "repository_selection": "selected",
                "single_file_name": None,
                "access_tokens_url": f"{PH}/app/installations/{iid}/access_tokens",
                "repositories_url": f"{PH}/installation/repositories",
                "html_url": f"https://github.com/settings/installations/{iid}",
            },
            {},
        )
