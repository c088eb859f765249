"""The Babel extractor for lesson TOML files, alone and wired through pyproject.toml."""

from __future__ import annotations

import importlib.metadata
import io
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import extract, extract_from_dir
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from tutorial.babel_extract import TEXT_KEYS, extract_lessons

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).parent / "data" / "lessons" / "fixture.toml"

EXPECTED = [
    "Beating a card",
    "How the defender covers an attack card.",
    "Ana leads the eight of clubs.",
    "Beat it with a higher club.",
    "Look for a club above the eight.",
    "A heart does not beat a club.",
    "That card is lower.",
    "Which card beats the eight of clubs?",
    "Pick one",
    "Within a suit, only a higher card beats.",
    "Trump",
    "Any trump beats any card of another suit.",
    "Inline table title",
]


def _run(data: bytes, options: dict[str, object] | None = None) -> list[tuple]:
    return list(extract_lessons(io.BytesIO(data), [], [], options or {}))


def _line_of(text: str) -> int:
    for number, line in enumerate(FIXTURE.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in the fixture")


def test_extracts_every_text_key_in_document_order() -> None:
    results = _run(FIXTURE.read_bytes())
    assert [message for _, _, message, _ in results] == EXPECTED
    assert all(funcname is None for _, funcname, _, _ in results)


def test_data_keys_and_empty_strings_are_not_extracted() -> None:
    messages = {message for _, _, message, _ in _run(FIXTURE.read_bytes())}
    assert "fixture" not in messages  # id
    assert "0:8C" not in messages  # action
    assert not any(m.startswith("hands:") for m in messages)  # position
    assert "" not in messages  # note = ""
    # the translators' comments are not messages either
    assert not any("player's name" in m for m in messages)


def test_line_numbers_point_at_the_text() -> None:
    for lineno, _, message, _ in _run(FIXTURE.read_bytes()):
        assert lineno == _line_of(message), message


def test_sibling_comment_is_the_translator_comment() -> None:
    comments = {message: comments for _, _, message, comments in _run(FIXTURE.read_bytes())}
    assert comments["Ana leads the eight of clubs."] == [
        "Ana is a player's name; keep it as it is."
    ]
    assert comments["Beating a card"] == [
        "The lesson's title and summary are shown on the lesson list."
    ]
    assert comments["Beat it with a higher club."] == []


def test_keys_option_replaces_the_default_keys() -> None:
    results = _run(FIXTURE.read_bytes(), {"keys": "title, hint"})
    assert [m for _, _, m, _ in results] == [
        "Beating a card",
        "Look for a club above the eight.",
        "Inline table title",
    ]


def test_default_keys_are_the_documented_ones() -> None:
    assert set(TEXT_KEYS) == {
        "title",
        "summary",
        "say",
        "hint",
        "explain",
        "question",
        "label",
        "note",
        "wrong",
        "teaches",
        "players",
    }


def test_invalid_toml_names_the_file() -> None:
    broken = io.BytesIO(b'say = "unterminated\n')
    broken.name = "lessons/broken.toml"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"broken\.toml"):
        list(extract_lessons(broken, [], [], {}))


def test_registered_as_a_babel_extractor_entry_point() -> None:
    points = importlib.metadata.entry_points(group="babel.extractors")
    found = [p for p in points if p.name == "durak_lessons"]
    assert found, "durak_lessons is not registered (is the project installed?)"
    assert found[0].load() is extract_lessons
    # Babel finds it by name, as pybabel does through the mapping
    messages = [m for _, m, _, _ in extract("durak_lessons", io.BytesIO(FIXTURE.read_bytes()))]
    assert messages == EXPECTED


def test_pyproject_maps_lesson_files_to_the_extractor() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mappings = config["tool"]["babel"]["mappings"]
    assert {"method": "durak_lessons", "pattern": "lessons/**.toml"} in mappings
    assert "tutorial" in config["tool"]["babel"]["extract_messages"]["input-paths"]


def test_extract_from_dir_with_the_project_mapping() -> None:
    found = list(
        extract_from_dir(
            str(FIXTURE.parent.parent),
            method_map=[("lessons/**.toml", "durak_lessons")],
        )
    )
    assert [message for _, _, message, _, _ in found] == EXPECTED


def test_pybabel_extract_uses_pyproject_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pybabel extract` from the repository root, as script/test runs it, on the fixture."""
    monkeypatch.chdir(ROOT)
    pot = tmp_path / "lessons.pot"
    CommandLineInterface().run(["pybabel", "--quiet", "extract", "-o", str(pot), "tests/data"])
    with pot.open("rb") as fp:
        catalog = read_po(fp)
    ids = [m.id for m in catalog if m.id]
    assert ids == EXPECTED
    message = catalog.get("Ana leads the eight of clubs.")
    assert message is not None and message.context is None
    assert message.auto_comments == ["Ana is a player's name; keep it as it is."]
    # file names only (add-location = "file" in pyproject.toml), relative to the root
    assert message.locations == [("tests/data/lessons/fixture.toml", None)]
