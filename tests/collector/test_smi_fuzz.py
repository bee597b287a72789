"""nvidia-smi's outputs cut, spliced and salted: the parsers return a value or refuse with SmiParseError, nothing else.

The collector reads them from a driver that may be half broken (truncated XML, garbage after a crash); the bot
reads `topo -m` from anyone's paste. The seeds are the outputs captured on the H200 hosts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collector.parsers import smi
from tests.conftest import captured_output

SEEDS = {
    "qx": captured_output("h200", "nvidia-smi-qx.txt") + captured_output("h200-2gpu", "nvidia-smi-qx.txt"),
    "topo": captured_output("h200", "nvidia-smi-topo.txt") + captured_output("h200-2gpu", "nvidia-smi-topo.txt"),
    "csv": "00000000:00:06.0, 9.0\n00000000:00:07.0, 9.0\n",
}
FRAGMENTS = [
    "<", ">", "</gpu>", "<gpu id=", "&amp;", "&#0;", "]]>", "<!DOCTYPE x [<!ENTITY a 'b'>]>", "\x00", "N/A", "NV18",
    " X ", "GPU0", "\t", "\n", "\r", ",", "9.0", "CPU Affinity", "\x1b[31m", "-1", "99999999999999999999",
]  # fmt: skip
PARSERS: dict[str, Callable[[str], Any]] = {
    "driver_from_xml": smi.driver_from_xml,
    "gpus_from_xml": smi.gpus_from_xml,
    "topology_from_text": smi.topology_from_text,
    "ccs_from_csv": smi.ccs_from_csv,
}
SEED_OF = {"driver_from_xml": "qx", "gpus_from_xml": "qx", "topology_from_text": "topo", "ccs_from_csv": "csv"}


@st.composite
def mutated(draw: st.DrawFn, seed: str) -> str:
    text = SEEDS[seed]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["cut", "insert", "truncate", "repeat"]))
        if action == "cut":
            text = text[:at] + text[at + draw(st.integers(0, 400)) :]
        elif action == "insert":
            text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at:]
        elif action == "truncate":
            text = text[:at]
        else:
            end = min(len(text), at + draw(st.integers(1, 200)))
            text = text[:end] + text[at:end] * draw(st.integers(1, 5)) + text[end:]
    return text


@pytest.mark.parametrize("name", sorted(PARSERS))
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parsers_refuse_only_with_their_error(name: str, data: st.DataObject) -> None:
    text = data.draw(mutated(SEED_OF[name]))
    try:
        PARSERS[name](text)
    except smi.SmiParseError:
        pass


def test_an_entity_bomb_is_refused_not_expanded() -> None:
    """Expat (2.4 and later) refuses the amplification; unprotected, this one would still be only 100 MB."""
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(7))
        + "]><nvidia_smi_log><driver_version>&h;</driver_version></nvidia_smi_log>"
    )
    with pytest.raises(smi.SmiParseError):
        smi.driver_from_xml(bomb)
