"""The house-rules page: pick two rule sets and watch the same moves under both.

Each scenario (``lessons/house/scenarios.toml``) is a position and a list of moves; every
move is checked under both rule sets, and the first place they part ways is highlighted,
with the engine's reason in the learner's language.
"""

from __future__ import annotations

import contextlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as w

from durak_core import PRESETS, Action, Rules, RulesError

from .bridge import PageBridge
from .controller import Comparison, _describe_action, compare_games
from .explain import explain
from .i18n import N_, Gettext
from .lessons import LESSON_DIR, _position_game
from .names import Term, term
from .page import PANEL_STYLE, BridgedPage, escape, language_menu

__all__ = ["HouseRulesApp", "Scenario", "compare", "load_scenarios"]


SCENARIOS = LESSON_DIR / "house" / "scenarios.toml"
SUBTITLE = N_("The same moves under two rule sets: where do they part ways?")


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    summary: str
    players: tuple[str, ...]
    position: dict[str, Any]
    play: tuple[Action, ...]


def load_scenarios(path: Path = SCENARIOS) -> list[Scenario]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Scenario(
            item["id"],
            item["title"],
            item["summary"],
            tuple(item["players"]),
            dict(item["position"]),
            tuple(Action.parse(a) for a in item["play"]),
        )
        for item in data["scenario"]
    ]


def compare(scenario: Scenario, ours: Rules, theirs: Rules, preset: str = "") -> Comparison:
    """Every move of ``scenario`` checked under both rule sets (an illegal move is skipped
    on that side, so the two games may part ways)."""
    a, b = _position_game(ours, scenario.position), _position_game(theirs, scenario.position)
    return compare_games(a, b, scenario.play, preset)


class HouseRulesApp(BridgedPage):
    """Two rule sets side by side over a chosen scenario."""

    def __init__(self, language: str | None = None, *, bridge: PageBridge | None = None) -> None:
        self._start_page(language, bridge)
        self.scenarios = load_scenarios()
        self.heading = w.HTML()
        self.language = language_menu(self.i18n)
        self.scenario = w.Dropdown(layout=w.Layout(width="auto"))
        self.left = w.Dropdown(options=list(PRESETS), value="durak_live_todos")
        self.right = w.Dropdown(options=list(PRESETS), value="durak_live_vecinos")
        self.transfer = w.Checkbox(value=False, indent=False)
        self.after_take = w.Checkbox(value=True, indent=False)
        self.result = w.HTML()
        controls = w.HBox([self.scenario, self.left, self.right])
        controls.add_class("durak-navbar")
        toggles = w.HBox([self.transfer, self.after_take])
        toggles.add_class("durak-navbar")
        header = w.HBox([self.heading, self.language])
        header.add_class("durak-header")
        panel = w.VBox([controls, toggles, self.result])
        panel.add_class("durak-panel")
        self.widget = w.VBox(
            [self.bridge, w.HTML(f"<style>{PANEL_STYLE}</style>"), header, self.notice, panel]
        )
        self.widget.add_class("durak-lesson")
        self._rendering = False
        for control in (self.scenario, self.left, self.right, self.transfer, self.after_take):
            control.observe(lambda _change: self.render(), names="value")
        self.i18n.on_change(lambda _code: self.render())
        self.render()
        self._finish_page()

    def page_title(self) -> str:
        return self.i18n.gettext("House rules")

    def rules(self) -> tuple[Rules, Rules]:
        """The two rule sets; the toggles change the right-hand one."""
        left = Rules.preset(str(self.left.value))
        right = Rules.preset(str(self.right.value))
        with contextlib.suppress(RulesError):
            right = right.replace(
                transfer=bool(self.transfer.value) or right.transfer,
                throw_in_after_take=bool(self.after_take.value),
            )
        return left, right

    def render(self) -> None:
        if self._rendering:
            return
        self._rendering = True
        try:
            self._render()
        finally:
            self._rendering = False

    def _render(self) -> None:
        tr = self.i18n
        title, subtitle = tr.gettext("House rules"), tr.gettext(SUBTITLE)
        self.heading.value = (
            f"<div class='durak-title'><h2>{escape(title)}</h2><p>{escape(subtitle)}</p></div>"
        )
        self.language.description = term(Term.LANGUAGE, tr)
        options = [(tr.gettext(s.title), s.id) for s in self.scenarios]
        current = (
            self.scenario.value
            if self.scenario.value in {s.id for s in self.scenarios}
            else self.scenarios[0].id
        )
        self.scenario.options = options
        self.scenario.value = current
        self.scenario.description = tr.gettext("Situation")
        self.left.description = tr.gettext("Rules A")
        self.right.description = tr.gettext("Rules B")
        self.transfer.description = tr.gettext("B: with transfer (perevodnoy)")
        self.after_take.description = tr.gettext("B: adding cards after a take")
        scenario = next(s for s in self.scenarios if s.id == current)
        left, right = self.rules()
        self.result.value = self._table(scenario, compare(scenario, left, right), left, right, tr)

    def _table(
        self, scenario: Scenario, comparison: Comparison, left: Rules, right: Rules, tr: Gettext
    ) -> str:
        names = [n or tr.pgettext("seat label", "You") for n in scenario.players]
        you = scenario.players.index("") if "" in scenario.players else None
        first = comparison.first_difference
        rows = []
        for i, row in enumerate(comparison.rows):
            cells = []
            for refusal, rules in ((row.ours, left), (row.theirs, right)):
                if refusal is None:
                    allowed = tr.gettext("allowed")
                    cells.append(f"<td class='ok'>{escape(allowed)}</td>")
                else:
                    text = explain(refusal, tr, players=names, you=you, rules=rules)
                    cells.append(f"<td class='no'>{escape(text)}</td>")
            move = _describe_action(row.action, tr, names, you if you is not None else -1)
            cls = " class='durak-diverge'" if i == first else ""
            rows.append(f"<tr{cls}><td>{escape(move)}</td>{''.join(cells)}</tr>")
        verdict = (
            tr.gettext("The two rule sets agree on every move here.")
            if first is None
            else tr.gettext("They part ways at move {n}.", n=first + 1)
        )
        summary, move = tr.gettext(scenario.summary), tr.gettext("Move")
        return (
            f"<p class='durak-say'>{escape(summary)}</p>"
            f"<table class='durak-compare'><tr><th>{escape(move)}</th>"
            f"<th>{escape(str(self.left.value))}</th><th>{escape(str(self.right.value))}</th></tr>"
            f"{''.join(rows)}</table><p class='durak-say'><strong>{escape(verdict)}</strong></p>"
        )
