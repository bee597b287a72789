"""The dashboard in a real headless Chromium (Debian's, driven by Playwright): it loads without console errors,
its charts draw the seeded data, the filters change them. Screenshots are kept in .artifacts/ (or
$ENVTRIAGE_ARTIFACTS). Skipped, saying why, where Playwright or Chromium is missing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.diagnosis.matrix import Index
from tests.bot.dashboard_seed import seeded_database
from tests.bot.processes import bot_env, free_port, serving
from tests.fakegithub import FakeGitHub

TOKEN = "browser-token"
ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("ENVTRIAGE_ARTIFACTS") or ROOT / ".artifacts")


def chromium() -> str:
    found = os.environ.get("ENVTRIAGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("no Chromium: apt-get install chromium (or set ENVTRIAGE_CHROMIUM)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    executable = chromium()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def dashboard_url(fake_github: FakeGitHub, tmp_path: Path, matrix: Index) -> Iterator[str]:
    database = seeded_database(tmp_path, matrix)
    port = free_port()
    env = bot_env(fake_github, database, ENVTRIAGE_DASHBOARD_TOKEN=TOKEN, ENVTRIAGE_EMBEDDED_WORKER="0")
    with serving(env, port, tmp_path / "serve.log"):
        yield f"http://127.0.0.1:{port}"


def expected(base: str, **params: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{base}/dashboard.json", params={"token": TOKEN, **params}, timeout=10).json()
    return data


def bars(data: dict[str, Any]) -> int:
    return sum(1 for counts in data["weekly"].values() for count in counts if count)


def test_the_page_renders_the_data_and_the_filters_change_it(browser: Any, dashboard_url: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{dashboard_url}/dashboard?token={TOKEN}")
    everything = expected(dashboard_url)
    assert page.locator("#total").inner_text() == str(everything["issues"])
    assert page.locator("#weekly-chart rect.bar").count() == bars(everything) > 50
    assert page.locator("#findings-chart rect.bar").count() == min(12, len(everything["categories"]))
    assert page.locator("#clusters a").count() == sum(len(group) for group in everything["clusters"])
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)

    page.select_option("#repo", "pytorch/pytorch")
    page.fill("#since", "2026-06-01")
    page.fill("#until", "2026-12-31")
    with page.expect_navigation():
        page.click("#apply")
    narrowed = expected(dashboard_url, repo="pytorch/pytorch", since="2026-06-01", until="2026-12-31")
    assert page.locator("#total").inner_text() == str(narrowed["issues"]) != str(everything["issues"])
    assert page.locator("#weekly-chart rect.bar").count() == bars(narrowed) < bars(everything)
    assert page.locator("#repo").input_value() == "pytorch/pytorch"
    page.screenshot(path=str(ARTIFACTS / "dashboard-pytorch.png"), full_page=True)
    assert problems == []
