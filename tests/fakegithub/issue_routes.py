"""Route handlers for a repository: its issues, comments, labels, label events and file contents."""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import quote

from tests.fakegithub.model import PH, _find, _HTTPError, _Json, _norm_ts, _Resp
from tests.fakegithub.state import _Ctx, _State


class _IssueRoutes(_State):
    """The /repos/{repo} endpoints: the repository, its issues, comments, labels, events and contents."""

    def _h_repo(self, c: _Ctx) -> _Resp:
        repo = c.repo
        return 200, {**repo.json, "open_issues_count": sum(i["state"] == "open" for i in repo.issues.values())}, {}

    def _h_list_issues(self, c: _Ctx) -> _Resp:
        q, state = c.req.query, c.req.query.get("state", "open")
        items = [i for i in c.repo.issues.values() if state in ("all", i["state"])]
        since = _norm_ts(q["since"]) if q.get("since") else ""
        wanted = {x.strip().lower() for x in q.get("labels", "").split(",") if x.strip()}
        items = [i for i in items if i["updated_at"] >= since and wanted <= {x["name"].lower() for x in i["labels"]}]
        sort = {"created": "created_at", "updated": "updated_at", "comments": "comments"}.get(q.get("sort", ""))
        items.sort(key=lambda i: (i[sort or "created_at"], i["number"]), reverse=q.get("direction") != "asc")
        return self._page(c.req, items)

    def _h_get_issue(self, c: _Ctx) -> _Resp:
        return 200, c.issue, {}

    def _h_list_comments(self, c: _Ctx) -> _Resp:
        since = _norm_ts(c.req.query["since"]) if c.req.query.get("since") else ""
        return self._page(c.req, [x for x in self._comments_of(c.repo, c.issue) if x["updated_at"] >= since])

    def _h_create_comment(self, c: _Ctx) -> _Resp:
        if not isinstance(c.body.get("body"), str) or not c.body["body"]:
            raise _HTTPError(422, "Validation Failed")
        return 201, self._new_comment(c.repo, c.issue, c.body["body"], self._bot), {}

    def _comment(self, c: _Ctx) -> _Json:
        return _find(c.repo.comments, int(c.p["id"]))

    def _h_get_comment(self, c: _Ctx) -> _Resp:
        return 200, self._comment(c), {}

    def _h_edit_comment(self, c: _Ctx) -> _Resp:
        comment = self._comment(c)
        if not isinstance(c.body.get("body"), str):
            raise _HTTPError(422, "Validation Failed")
        comment.update(body=c.body["body"], updated_at=self._now())
        return 200, comment, {}

    def _h_delete_comment(self, c: _Ctx) -> _Resp:
        comment = c.repo.comments.pop(self._comment(c)["id"])
        issue = next(i for i in c.repo.issues.values() if i["url"] == comment["issue_url"])
        issue["comments"] -= 1
        return 204, None, {}

    def _h_issue_labels(self, c: _Ctx) -> _Resp:
        return self._page(c.req, c.issue["labels"])

    def _h_add_labels(self, c: _Ctx) -> _Resp:
        """Body {"labels": [...]} or a bare list, of names or {"name": ...}; missing repo labels are created."""
        items = c.req.body.get("labels") if isinstance(c.req.body, dict) else c.req.body
        if not isinstance(items, list):
            raise _HTTPError(422, "Validation Failed")
        for item in items:
            self._attach(c.repo, c.issue, item["name"] if isinstance(item, dict) else str(item), self._bot)
        return 200, c.issue["labels"], {}

    def _h_remove_label(self, c: _Ctx) -> _Resp:
        self._detach(c.repo, c.issue, c.p["name"], self._bot)
        return 200, c.issue["labels"], {}

    def _h_events(self, c: _Ctx) -> _Resp:
        return self._page(c.req, c.repo.events.get(c.issue["number"], []))

    def _h_timeline(self, c: _Ctx) -> _Resp:
        items = list(c.repo.events.get(c.issue["number"], []))
        items += [{**x, "event": "commented", "actor": x["user"]} for x in self._comments_of(c.repo, c.issue)]
        return self._page(c.req, sorted(items, key=lambda i: (i["created_at"], i["id"])))

    def _h_list_labels(self, c: _Ctx) -> _Resp:
        return self._page(c.req, list(c.repo.labels.values()))

    def _h_create_label(self, c: _Ctx) -> _Resp:
        name = c.body.get("name")
        if not isinstance(name, str) or not name:
            raise _HTTPError(422, "Validation Failed")
        if name.lower() in c.repo.labels:
            errors = [{"resource": "Label", "code": "already_exists", "field": "name"}]
            raise _HTTPError(422, "Validation Failed", errors=errors)
        label = self._label(c.repo, name)
        label.update(color=str(c.body.get("color", "ededed")).lstrip("#"), description=c.body.get("description") or "")
        return 201, label, {}

    def _h_get_label(self, c: _Ctx) -> _Resp:
        return 200, _find(c.repo.labels, c.p["name"].lower()), {}

    def _h_contents(self, c: _Ctx) -> _Resp:
        repo, path = c.repo, c.p["path"].strip("/")
        ref = (c.req.query.get("ref") or str(repo.json["default_branch"])).removeprefix("refs/heads/")
        if (ref, path) not in repo.files:
            raise _HTTPError(404)
        raw = repo.files[(ref, path)].encode()
        sha = hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest()
        url, git = f"{PH}/repos/{repo.name}/contents/{quote(path)}?ref={ref}", f"{PH}/repos/{repo.name}/git/blobs/{sha}"
        html = f"https://github.com/{repo.name}/blob/{ref}/{path}"
        return (
            200,
            {
                "type": "file",
                "encoding": "base64",
                "size": len(raw),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": base64.encodebytes(raw).decode(),
                "sha": sha,
                "url": url,
                "git_url": git,
                "html_url": html,
                "_links": {"self": url, "git": git, "html": html},
                "download_url": f"https://raw.githubusercontent.com/{repo.name}/{ref}/{path}",
            },
            {},
        )
