"""Build the context from settings and run every probe (in the probe process); redact (in the collector)."""

from __future__ import annotations

import datetime
import getpass
import os
import subprocess

from collector.collect import OnResult, collect
from collector.context import Context, NvmlSession, Options, load_pynvml
from collector.host import Host
from collector.probes import Probe, all_probes
from collector.redact import Redactor
from collector.report.model import Meta, Report
from collector.run import Deadline, ProcessGroups, SubprocessRunner
from collector.version import version


def probe_report(
    options: Options,
    env: dict[str, str],
    deadline: Deadline | None = None,
    started: dict[str, subprocess.Popen[bytes]] | None = None,
    on_result: OnResult | None = None,
    probes: list[Probe] | None = None,
) -> Report:
    """Every probe's facts as found, before redaction (`on_result` hears each probe's as it returns)."""
    deadline = deadline or Deadline(options.timeout)
    groups = ProcessGroups()
    for proc in (started or {}).values():
        groups.add(proc)
    ctx = Context(
        run=SubprocessRunner(deadline, env, groups),
        host=Host("/"),
        env=env,
        options=options,
        deadline=deadline,
        nvml=NvmlSession(load_pynvml),
        groups=groups,
        started=dict(started or {}),
    )
    return collect(ctx, all_probes() if probes is None else probes, meta_for(options), on_result)


def meta_for(options: Options) -> Meta:
    return Meta(
        generator=version(),
        created=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        options={"smoke": options.smoke, "timeout": f"{options.timeout:g}", "python": options.python},
    )


def redacted(options: Options, env: dict[str, str], report: Report) -> Report:
    # --no-redact keeps names, paths and addresses for private use; tokens and passwords go all the same.
    return (redactor_for(env) if options.redact else Redactor(secrets_only=True)).report(report)


def host_name() -> str:
    """What gethostname() answers, without importing socket where uname has it; never the FQDN, which may ask DNS."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # Windows has no uname

    return socket.gethostname()


def redactor_for(env: dict[str, str]) -> Redactor:
    host = host_name()
    users = {env.get("USER", ""), env.get("LOGNAME", ""), env.get("SUDO_USER", ""), env.get("USERNAME", "")}
    try:
        users.add(getpass.getuser())
    except (KeyError, OSError, ImportError):  # Windows without USERNAME: no pwd module to fall back on (< 3.13)
        pass
    homes = {env.get("HOME", ""), env.get("USERPROFILE", ""), os.path.expanduser("~")}
    return Redactor(host_names={host, host.split(".")[0]}, user_names=users, homes=homes)
