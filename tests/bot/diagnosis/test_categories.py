"""Each category's wording lives in one place (templates/categories/<category>.md.j2), and facts in it come from
the matrix, not from the template."""

from __future__ import annotations

from pathlib import Path

from bot.diagnosis.findings import CATEGORIES, templated
from bot.diagnosis.matrix import Index
from bot.diagnosis.matrix.model import ErrorSignature
from collector import templating

TEMPLATES = Path(templating.template_dir()) / "categories"


def test_every_category_has_its_wording_and_no_wording_lacks_a_category() -> None:
    assert {path.name.removesuffix(".md.j2") for path in TEMPLATES.glob("*.md.j2")} == set(CATEGORIES)


def known_error(category: str, matrix: Index) -> str:
    signature = ErrorSignature(id="x", category=category, strength="decisive", pattern="x", example="x", source="x")
    return templated(
        "known_error", category, "error", ["x"], signature=signature, quote="x", summary=CATEGORIES[category],
        have_report=True, families=matrix.matrix.families,
    ).fix  # fmt: skip


def test_driver_floors_in_the_wording_are_the_matrix_s(matrix: Index) -> None:
    fix = known_error("driver_too_old", matrix)
    for family in matrix.matrix.families:
        assert f"CUDA {family.major}.x wheels need >= {family.min_driver_linux}" in fix


def test_each_category_s_fix_renders(matrix: Index) -> None:
    for category in CATEGORIES:
        assert len(known_error(category, matrix)) > 20, category
