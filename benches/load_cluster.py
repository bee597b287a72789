"""The processes of a load run (benches/load.py): the fake GitHub, the bot in either setup, and the faults."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("ENVTRIAGE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("ENVTRIAGE_TEST_REDIS", "redis://127.0.0.1:6379/15")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    def __init__(self, mode: str, folder: Path, repo: str, issues: int, secret: str, hostile: int = 0) -> None:
        self.mode, self.folder, self.repo, self.issues, self.secret = mode, folder, repo, issues, secret
        self.hostile = hostile
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.urls: list[str] = []
        self.database_url = f"sqlite:///{folder}/bot.db"
        self.control = ""
        self.database = ""
        self.servers: dict[str, tuple[dict[str, str], int]] = {}
        self.env: dict[str, str] = {}

    def __enter__(self) -> Cluster:
        # The fake GitHub stands for a service on other machines: on this box it yields the CPU like the workers.
        argv = ["nice", "-n", "10", sys.executable, str(REPO_ROOT / "benches" / "load_fake.py"), "--repo", self.repo]
        fake = self._spawn("fake", [*argv, "--issues", str(self.issues), "--hostile", str(self.hostile)],
                           stdout=subprocess.PIPE)  # fmt: skip
        assert fake.stdout is not None
        api, self.control = fake.stdout.readline().decode().split()
        env = {**os.environ, "GITHUB_WEBHOOK_SECRET": self.secret, "GITHUB_TOKEN": "t", "GITHUB_API_URL": api,
               "ENVTRIAGE_WRITE_SPACING": "0"}  # fmt: skip
        if self.mode == "scaled":
            self._fresh_servers()
            env |= {"DATABASE_URL": self.database_url, "QUEUE_URL": REDIS, "ENVTRIAGE_EMBEDDED_WORKER": "0"}
            self._bot("migrate", env, ["jobs"]).wait(60)  # the schema first, then everyone at once
            for n in range(2):
                self._serve(f"serve{n}", env)
                self._bot(f"worker{n}", env, ["worker", "--threads", "2"])
        else:
            self._serve("serve0", env | {"DATABASE_URL": self.database_url})
        self.env = env
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            proc.wait(15)
        if self.database:
            self._drop_database()

    # --- processes ------------------------------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None, **kwargs: Any
               ) -> subprocess.Popen[bytes]:  # fmt: skip
        with open(self.folder / f"{name}.log", "ab") as log:
            kwargs.setdefault("stdout", log)
            proc = subprocess.Popen(argv, cwd=REPO_ROOT, env=env, stderr=log, start_new_session=True, **kwargs)
        self.procs[name] = proc
        return proc

    def _bot(self, name: str, env: dict[str, str], args: list[str]) -> subprocess.Popen[bytes]:
        # Workers yield the CPU to the webhook replicas, as on one box they should: an answer within GitHub's
        # 10 s matters more than a comment a second sooner (on separate machines the question does not arise).
        nice = ["nice", "-n", "10"] if args[0] == "worker" else []
        return self._spawn(name, [*nice, sys.executable, "-m", "bot", *args], env)

    def _serve(self, name: str, env: dict[str, str], port: int | None = None) -> None:
        port = port or free_port()
        self._bot(name, env, ["serve", "--port", str(port)])
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        if url + "/webhook" not in self.urls:
            self.urls.append(url + "/webhook")
        self.servers[name] = (env, port)

    def _fresh_servers(self) -> None:
        import psycopg
        import redis

        self.database = f"envtriage_load_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
        self.database_url = f"{POSTGRES.rsplit('/', 1)[0]}/{self.database}"
        redis.Redis.from_url(REDIS).flushdb()

    def _drop_database(self) -> None:
        import psycopg

        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    # --- faults ---------------------------------------------------------------------------------------------

    def inject(self, fault: str) -> None:
        if fault == "none":
            return
        if fault.startswith("github-"):
            status = fault.removeprefix("github-")
            httpx.post(f"{self.control}/fail?n=60&status={status}&retry_after=2", timeout=5)
        elif fault == "kill-worker":
            self._kill_and_restart("worker0" if self.mode == "scaled" else "serve0")
        elif fault == "kill-server":
            self._kill_and_restart("serve0")
        elif fault == "restart-postgres":
            subprocess.run(["pg_ctlcluster", "15", "main", "restart"], check=True, timeout=60)
        elif fault == "restart-redis":
            subprocess.run(["redis-cli", "-p", "6379", "shutdown", "nosave"], check=False, timeout=30)
            subprocess.run(["redis-server", "--bind", "127.0.0.1", "--port", "6379", "--daemonize", "yes",
                            "--save", "", "--dir", str(self.folder)],
                           check=True, timeout=30)  # fmt: skip

    def _kill_and_restart(self, name: str) -> None:
        proc = self.procs[name]
        os.killpg(proc.pid, signal.SIGKILL)  # mid-job: the worker is busy all through the run
        proc.wait(10)
        time.sleep(1)
        if name.startswith("serve"):
            env, port = self.servers[name]
            self._serve(name, env, port)  # the same address: the sender's redeliveries reach it again
        else:
            self._bot(name, self.env, ["worker", "--threads", "2"])

    def stats(self) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(httpx.get(f"{self.control}/stats", timeout=30).text)
        return answer
