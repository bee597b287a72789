"""The dashboard's numbers, checked against SQL on a database seeded from the real corpus; token, filters, CSV."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from bot.diagnosis.matrix import Index
from bot.service.app import Service, create_app
from bot.service.metrics import Metrics
from bot.service.queue import Queue
from bot.service.store import Store
from tests.bot.dashboard_seed import seeded_database
from tests.bot.harness import settings_for
from tests.fakegithub import FakeGitHub

TOKEN = "dash-board-token"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory, matrix: Index) -> str:
    return seeded_database(tmp_path_factory.mktemp("dashboard"), matrix)


@pytest.fixture
def client(database: str, fake_github: FakeGitHub, tmp_path: Path, matrix: Index) -> Iterator[TestClient]:
    settings = replace(settings_for(fake_github, tmp_path / "unused.db"), database_url=database,
                       dashboard_token=TOKEN, embedded_worker=False)  # fmt: skip
    store = Store(database)
    app = create_app(Service(settings, store, Queue(settings, None), matrix, Metrics()))
    with TestClient(app) as test_client:
        yield test_client


def sql(database: str, query: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(database)
    with engine.connect() as conn:
        rows = list(conn.execute(sa.text(query), params))
    engine.dispose()
    return rows


def get_json(client: TestClient, **params: str) -> dict[str, Any]:
    answer = client.get("/dashboard.json", params=params, headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_the_token_guards_every_view(client: TestClient) -> None:
    for path in ("/dashboard", "/dashboard.json", "/dashboard.csv"):
        assert client.get(path).status_code == 401
        assert client.get(path, params={"token": "wrong"}).status_code == 401
        assert client.get(path, params={"token": TOKEN}).status_code == 200
    assert client.post("/dashboard", params={"token": TOKEN}).status_code == 405, "read-only"


def test_counts_match_sql(client: TestClient, database: str) -> None:
    data = get_json(client)
    assert data["issues"] == sql(database, "SELECT count(*) FROM triaged")[0][0]
    categories = Counter(c for (raw,) in sql(database, "SELECT categories FROM triaged") for c in json.loads(raw))
    assert dict(data["categories"]) == dict(categories)
    torch = dict(sql(database, "SELECT coalesce(torch, 'not reported'), count(*) FROM triaged GROUP BY 1"))
    assert all(torch[value] == count for value, count in data["distributions"]["torch"])
    asked = sql(database, "SELECT count(*) FROM triaged WHERE needs_env_since IS NOT NULL")[0][0]
    answered = sql(database, "SELECT count(*) FROM triaged WHERE report_at IS NOT NULL")[0][0]
    assert (data["needs_env"]["asked"], data["needs_env"]["answered"]) == (asked, answered) and answered == 3
    assert sum(sum(counts) for counts in data["weekly"].values()) >= data["issues"]
    assert any(len(group) == 3 for group in data["clusters"]), "the Kangaroo cluster: #40, #81, #88"


def test_filters_narrow_the_numbers(client: TestClient, database: str) -> None:
    repo = "pytorch/pytorch"
    data = get_json(client, repo=repo)
    assert data["issues"] == sql(database, "SELECT count(*) FROM triaged WHERE repo = :r", r=repo)[0][0] > 5
    window = get_json(client, since="2026-07-01", until="2026-07-31")
    in_july = sql(database, "SELECT count(*) FROM triaged WHERE first_triaged_at >= '2026-07-01' AND "
                            "first_triaged_at < '2026-08-01'")[0][0]  # fmt: skip
    assert window["issues"] == in_july and 0 < in_july < data["issues"] + 300
    bad = client.get("/dashboard.json", params={"token": TOKEN, "since": "last week"})
    assert bad.status_code == 400 and "since" in bad.json()["error"]


def test_csv_carries_the_same_numbers(client: TestClient) -> None:
    data = get_json(client)
    text = client.get("/dashboard.csv", params={"token": TOKEN}).text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["section", "key", "value"] and ["total", "issues", str(data["issues"])] in rows
    assert ["needs_env", "answered", "3"] in rows


def test_the_page_escapes_what_comes_from_issues(client: TestClient) -> None:
    page = client.get("/dashboard", params={"token": TOKEN}).text
    assert "<svg" in page and 'id="weekly-chart"' in page and "<script" not in page


def test_report_writes_the_page_offline(database: str, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    env = {**os.environ, "DATABASE_URL": database}
    done = subprocess.run([sys.executable, "-m", "bot", "report", "example/gpu-app", "--html", str(out)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Wrote" in done.stdout and "3 issues of example/gpu-app" in done.stdout
    assert 'id="weekly-chart"' in out.read_text() and 'id="filters"' not in out.read_text()
    missing = subprocess.run([sys.executable, "-m", "bot", "report", "nobody/nothing", "--html", str(out)], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert missing.returncode != 0 and "no triaged issues of nobody/nothing" in missing.stderr


@pytest.mark.parametrize(
    ("api_url", "web"),
    [
        ("https://api.github.com", "https://github.com"),
        ("https://ghe.example.com/api/v3", "https://ghe.example.com"),  # GitHub Enterprise Server
        ("https://api.octocorp.ghe.com", "https://octocorp.ghe.com"),  # GitHub Enterprise Cloud, data residency
    ],
)
def test_issue_links_go_to_the_github_the_bot_talks_to(
    database: str, fake_github: FakeGitHub, tmp_path: Path, matrix: Index, api_url: str, web: str
) -> None:
    settings = replace(settings_for(fake_github, tmp_path / "unused.db"), database_url=database, api_url=api_url,
                       dashboard_token=TOKEN, embedded_worker=False)  # fmt: skip
    app = create_app(Service(settings, Store(database), Queue(settings, None), matrix, Metrics()))
    with TestClient(app) as ghe:
        urls = [issue["url"] for group in get_json(ghe)["clusters"] for issue in group]
        page = ghe.get("/dashboard", params={"token": TOKEN}).text
        table = ghe.get("/dashboard.csv", params={"token": TOKEN}).text
    assert urls and all(url.startswith(f"{web}/") and "/issues/" in url for url in urls), urls
    assert f'href="{urls[0]}"' in page and urls[0] in table
    if web != "https://github.com":
        assert "https://github.com/" not in page + table


def test_report_links_issues_to_the_configured_github(database: str, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    env = {**os.environ, "DATABASE_URL": database, "GITHUB_API_URL": "https://ghe.example.com/api/v3"}
    done = subprocess.run([sys.executable, "-m", "bot", "report", "--html", str(out)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert 'href="https://ghe.example.com/' in out.read_text() and "https://github.com/" not in out.read_text()
