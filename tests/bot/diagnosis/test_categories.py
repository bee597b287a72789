"""Each category's wording lives in one place (templates/categories/<category>.md.j2), and facts in it come from
the matrix, not from the template."""

from __future__ import annotations

from pathlib import Path

from bot.diagnosis.findings import CATEGORIES, templated
from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.model import ErrorSignature
from bot.diagnosis.rules.text import UNNAMED
from collector import templating

TEMPLATES = Path(templating.template_dir()) / "categories"


def test_every_category_has_its_wording_and_no_wording_lacks_a_category_or_a_row(matrix: Index) -> None:
    """A wording is a category's usual fix, or an error row's own (`fix`, named <category>_<what>)."""
    variants = {row.fix: row.category for row in [*matrix.matrix.errors, *matrix.matrix.cues] if row.fix}
    variants |= {fix: category for category, fix in UNNAMED.items()}
    assert all(fix.startswith(category + "_") for fix, category in variants.items()), variants
    assert {path.name.removesuffix(".md.j2") for path in TEMPLATES.glob("*.md.j2")} == set(CATEGORIES) | set(variants)


def test_a_row_s_own_wording_replaces_the_category_s_and_only_for_its_category(matrix: Index) -> None:
    host = known_error("oom_or_memory", matrix, fix="oom_or_memory_host_ram")
    assert "RAM" in host and "PYTORCH_CUDA_ALLOC_CONF" not in host
    assert "PYTORCH_CUDA_ALLOC_CONF" in known_error("oom_or_memory", matrix)
    # the prose moved the text to another of its causes (other_causes): that cause's usual fix, not the row's
    moved = known_error("wsl_specific", matrix, fix="oom_or_memory_host_ram", row_category="oom_or_memory")
    assert moved == known_error("wsl_specific", matrix)


def known_error(category: str, matrix: Index, fix: str | None = None, row_category: str | None = None) -> str:
    signature = ErrorSignature(
        id="x", category=row_category or category, strength="decisive", pattern="x", example="x", source="x", fix=fix
    )
    return templated(
        "known_error", category, "error", ["x"], signature=signature, quote="x", summary=CATEGORIES[category],
        have_report=True, families=matrix.matrix.families,
    ).fix  # fmt: skip


def test_driver_floors_in_the_wording_are_the_matrix_s(matrix: Index) -> None:
    fix = known_error("driver_too_old", matrix)
    majors = [family for family in matrix.matrix.families if family.minor is None]
    assert majors
    for family in majors:
        assert f"CUDA {family.major}.x wheels need >= {family.min_driver_linux}" in fix
    # The releases before CUDA 11, each with its own floor, are too old to list for an error text alone.
    assert "410.48" not in fix


def test_each_category_s_fix_renders(matrix: Index) -> None:
    for category in CATEGORIES:
        assert len(known_error(category, matrix)) > 20, category
