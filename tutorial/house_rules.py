"""The house-rules page: pick two rule sets and watch the same moves under both.

Each scenario (``lessons/house/scenarios.toml``) is a position, a list of moves, and a pair of
rule sets that part ways on it (``[scenario.compare]``); every move is checked under both rule
sets, and the first place they part ways is highlighted, with the engine's reason in the
learner's language.

The page opens on the first scenario's pair. Choosing another situation keeps the learner's
pair when it still parts ways there; when it would agree on every move, the page switches to
that situation's own pair and says so. A pair the learner picks that agrees gets a button
that shows one that does not.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as w

from durak_core import PRESETS, Action, Rules, RulesError

from .bridge import PageBridge
from .comparison import (
    Comparison,
    ComparisonView,
    RowView,
    compare_position,
    comparison_view,
    parting_html,
)
from .i18n import N_, Gettext
from .lessons import LESSON_DIR
from .names import Term, preset_description, preset_name, term, you_label
from .page import BridgedPage, escape, set_shown, title_html
from .people import seat_name
from .sources_page import PAGE as SOURCES_PAGE
from .sources_page import page_link, source_link

__all__ = [
    "HouseRulesApp",
    "Pair",
    "Scenario",
    "compare",
    "load_scenarios",
    "pair_rules",
    "side_label",
]


SCENARIOS = LESSON_DIR / "house" / "scenarios.toml"
SUBTITLE = N_("The same moves under two rule sets: where do they part ways?")


@dataclass(frozen=True, slots=True)
class Pair:
    """Two rule sets to compare: presets ``a`` and ``b``, and B's two switches."""

    a: str
    b: str
    transfer: bool = False
    """B with transfer (perevodnoy)."""
    after_take: bool = True
    """B lets the others add cards after the defender takes."""


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    summary: str
    players: tuple[str, ...]
    position: dict[str, Any]
    play: tuple[Action, ...]
    pair: Pair
    """The rule sets this situation is best seen with (they part ways on it)."""
    source: str = ""
    """The source (S0–S4) the situation is taken from, if any."""


def _pair(data: dict[str, Any], where: str) -> Pair:
    a, b = data.get("a"), data.get("b")
    for key, value in (("a", a), ("b", b)):
        if value not in PRESETS:
            raise ValueError(f"{where}: compare.{key} must be one of {', '.join(PRESETS)}")
    rules_b = PRESETS[str(b)].rules
    transfer = data.get("transfer", rules_b.transfer)
    after_take = data.get("after_take", rules_b.throw_in_after_take)
    if not isinstance(transfer, bool) or not isinstance(after_take, bool):
        raise ValueError(f"{where}: compare.transfer and compare.after_take must be true or false")
    return Pair(str(a), str(b), transfer, after_take)


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
            _pair(dict(item["compare"]), f"{path.name}, scenario {item['id']}"),
            str(item.get("source", "")),
        )
        for item in data["scenario"]
    ]


def pair_rules(pair: Pair) -> tuple[Rules, Rules]:
    """The two rule sets of ``pair``: B's switches change the right-hand one."""
    left = Rules.preset(pair.a)
    right = Rules.preset(pair.b)
    with contextlib.suppress(RulesError):
        right = right.replace(transfer=pair.transfer, throw_in_after_take=pair.after_take)
    return left, right


def compare(scenario: Scenario, ours: Rules, theirs: Rules, preset: str = "") -> Comparison:
    """Every move of ``scenario`` checked under both rule sets (an illegal move is skipped
    on that side, so the two games may part ways), with where they part and the rule that
    decides it."""
    return compare_position(scenario.position, ours, theirs, scenario.play, preset)


def side_label(
    preset: str, tr: Gettext, *, transfer: bool | None = None, after_take: bool | None = None
) -> str:
    """A rule set's name, with B's switches where they differ from the preset: "Matsuri (with
    transfer)"."""
    name = preset_name(preset, tr)
    found = PRESETS.get(preset)
    if found is None:
        return name
    options = []
    if transfer is not None and transfer != found.rules.transfer:
        options.append(tr.gettext("with transfer") if transfer else tr.gettext("without transfer"))
    if after_take is not None and after_take != found.rules.throw_in_after_take:
        options.append(
            tr.gettext("cards added after a take")
            if after_take
            else tr.gettext("nothing added after a take")
        )
    if not options:
        return name
    # "Matsuri (with transfer)": brackets read the same in every language of the explainer,
    # and keep the name whole inside a sentence.
    return f"{name} ({tr.format_list(options)})"


class HouseRulesApp(BridgedPage):
    """Two rule sets side by side over a chosen scenario."""

    def __init__(self, language: str | None = None, *, bridge: PageBridge | None = None) -> None:
        self._start_page(language, bridge)
        self.scenarios = load_scenarios()
        first = self.scenarios[0]
        presets = [(name, name) for name in PRESETS]
        self.scenario = w.Dropdown(options=[(s.id, s.id) for s in self.scenarios], value=first.id)
        self.left = w.Dropdown(options=presets, value=first.pair.a)
        self.right = w.Dropdown(options=presets, value=first.pair.b)
        self.transfer = w.Checkbox(value=first.pair.transfer, indent=False)
        self.after_take = w.Checkbox(value=first.pair.after_take, indent=False)
        self.situation = w.HTML()
        self.left_info = w.HTML()
        self.right_info = w.HTML()
        self.note = w.HTML()
        self.result = w.HTML()
        self.offer = w.Button(button_style="primary", layout=w.Layout(width="auto"))
        self.offer.add_class("durak-house-offer")
        self.footer = w.HTML()
        for control in (self.scenario, self.left, self.right):
            control.layout = w.Layout(width="auto")
        left = w.VBox([self.left, self.left_info])
        right = w.VBox([self.right, self.transfer, self.after_take, self.right_info])
        for side in (left, right):
            side.add_class("durak-house-side")
        sides = w.HBox([left, right])
        sides.add_class("durak-house-sides")
        situation = w.VBox([self.scenario, self.situation])
        situation.add_class("durak-house-situation")
        panel = w.VBox([situation, sides, self.note, self.result, self.offer, self.footer])
        panel.add_class("durak-panel")
        panel.add_class("durak-house")
        self._build_page(panel, styles=("house_rules.css",))
        self._quiet = 0
        self._note: Pair | None = None
        """The learner's pair, when the page replaced it because it agreed on the situation."""
        self.scenario.observe(lambda _change: self._scenario_changed(), names="value")
        for control in (self.left, self.right, self.transfer, self.after_take):
            control.observe(lambda _change: self._rules_changed(), names="value")
        self.offer.on_click(lambda _button: self.show_differing_pair())
        self.render()
        self._finish_page()

    # ------------------------------------------------------------------ state

    def page_title(self) -> str:
        return self.i18n.gettext("House rules")

    def current(self) -> Scenario:
        """The chosen scenario."""
        return next((s for s in self.scenarios if s.id == self.scenario.value), self.scenarios[0])

    def pair(self) -> Pair:
        """The chosen pair of rule sets."""
        return Pair(
            str(self.left.value),
            str(self.right.value),
            bool(self.transfer.value),
            bool(self.after_take.value),
        )

    def rules(self) -> tuple[Rules, Rules]:
        """The two rule sets; B's switches change the right-hand one."""
        return pair_rules(self.pair())

    def differs(self, scenario: Scenario | None = None, pair: Pair | None = None) -> bool:
        """Whether the pair (default: the chosen one) parts ways on the scenario."""
        scenario = scenario or self.current()
        left, right = pair_rules(pair or self.pair())
        try:
            return compare(scenario, left, right).first_difference is not None
        except (RulesError, ValueError):
            return False

    @contextlib.contextmanager
    def _quietly(self) -> Iterator[None]:
        """Change several controls, then render once."""
        self._quiet += 1
        try:
            with self.widget.hold_sync():
                yield
        finally:
            self._quiet -= 1
        if not self._quiet:
            self.render()

    def _set_pair(self, pair: Pair) -> None:
        self.left.value, self.right.value = pair.a, pair.b
        self.transfer.value, self.after_take.value = pair.transfer, pair.after_take

    def _scenario_changed(self) -> None:
        if self._quiet:
            return
        with self._quietly():
            self._note = None
            scenario = self.current()
            if not self.differs(scenario):
                self._note = self.pair()
                self._set_pair(scenario.pair)

    def _rules_changed(self) -> None:
        if self._quiet:
            return
        self._note = None
        self.render()

    def show_differing_pair(self) -> None:
        """Switch to the situation's own pair (two rule sets that part ways on it)."""
        with self._quietly():
            self._note = None
            self._set_pair(self.current().pair)

    def resume_state(self) -> dict[str, Any]:
        pair = self.pair()
        return {
            "scenario": str(self.scenario.value),
            "a": pair.a,
            "b": pair.b,
            "transfer": pair.transfer,
            "after_take": pair.after_take,
        }

    def resume(self, state: object) -> bool:
        """The situation and rule sets the learner had (``False`` when ``state`` does not fit)."""
        if not isinstance(state, dict) or set(state) != {
            "scenario",
            "a",
            "b",
            "transfer",
            "after_take",
        }:
            return False
        ids = {s.id for s in self.scenarios}
        if state["scenario"] not in ids or state["a"] not in PRESETS or state["b"] not in PRESETS:
            return False
        if not isinstance(state["transfer"], bool) or not isinstance(state["after_take"], bool):
            return False
        with self._quietly():
            self._note = None
            self.scenario.value = state["scenario"]
            self._set_pair(Pair(state["a"], state["b"], state["transfer"], state["after_take"]))
        return True

    # ------------------------------------------------------------------ rendering

    def render(self) -> None:
        if self._quiet:
            return
        self._quiet += 1
        try:
            with self.widget.hold_sync():
                self._render()
        finally:
            self._quiet -= 1
        self.sync_bridge()

    def _render(self) -> None:
        tr = self.i18n
        title, subtitle = tr.gettext("House rules"), tr.gettext(SUBTITLE)
        self.heading.value = title_html(title, subtitle)
        self.language.description = term(Term.LANGUAGE, tr)
        scenario, pair = self.current(), self.pair()
        self.scenario.options = [(tr.gettext(s.title), s.id) for s in self.scenarios]
        self.scenario.value = scenario.id
        presets = [(preset_name(name, tr), name) for name in PRESETS]
        for menu, value in ((self.left, pair.a), (self.right, pair.b)):
            menu.options = presets
            menu.value = value
        self.scenario.description = tr.gettext("Situation")
        self.left.description = tr.gettext("Rules A")
        self.right.description = tr.gettext("Rules B")
        self.transfer.description = tr.gettext("With transfer (perevodnoy)")
        self.after_take.description = tr.gettext("Cards may be added after a take")
        self.situation.value = self._situation_html(scenario, tr)
        self.left_info.value = self._preset_html(pair.a, tr)
        self.right_info.value = self._preset_html(pair.b, tr)
        label_a = side_label(pair.a, tr)
        label_b = side_label(pair.b, tr, transfer=pair.transfer, after_take=pair.after_take)
        note = self._note
        if note is None:
            self.note.value = ""
        else:
            text = tr.gettext(
                "{a} and {b} play this situation the same way, so the page now compares two "
                "rule sets that part ways here: {c} and {d}.",
                a=side_label(note.a, tr),
                b=side_label(note.b, tr, transfer=note.transfer, after_take=note.after_take),
                c=label_a,
                d=label_b,
            )
            self.note.value = f"<p class='durak-note' role='status'>{escape(text)}</p>"
        left, right = pair_rules(pair)
        try:
            comparison = compare(scenario, left, right)
        except (RulesError, ValueError):
            text = tr.ngettext(
                "These rule sets cannot be played with {n} player: pick other ones.",
                "These rule sets cannot be played with {n} players: pick other ones.",
                len(scenario.players),
            )
            self.result.value = f"<p class='durak-say'>{escape(text)}</p>"
            set_shown(self.offer, True)
            self.offer.description = tr.gettext("Show two rule sets that differ here")
            self.footer.value = self._footer_html(tr)
            return
        rows = comparison_rows(scenario, comparison, left, right, tr)
        first = comparison.first_difference
        if first is None:
            verdict = tr.gettext("The two rule sets agree on every move here.")
            a, b = scenario.pair.a, scenario.pair.b
            example = tr.gettext(
                "To see a difference, compare {a} and {b}.",
                a=side_label(a, tr),
                b=side_label(
                    b, tr, transfer=scenario.pair.transfer, after_take=scenario.pair.after_take
                ),
            )
            verdict_html = (
                f"<p class='durak-say durak-house-verdict durak-house-same'>"
                f"<strong>{escape(verdict)}</strong> {escape(example)}</p>"
            )
            set_shown(self.offer, True)
        else:
            verdict_html = ""
            set_shown(self.offer, False)
        self.offer.description = tr.gettext("Show two rule sets that differ here")
        self.result.value = (
            parting_block(scenario, comparison, label_a, label_b, tr)
            + table_html(
                rows, first, (tr.gettext("Rules A"), label_a), (tr.gettext("Rules B"), label_b), tr
            )
            + verdict_html
        )
        self.footer.value = self._footer_html(tr)

    def _situation_html(self, scenario: Scenario, tr: Gettext) -> str:
        summary = escape(tr.gettext(scenario.summary))
        source = ""
        if scenario.source:
            # TRANSLATORS: under a situation taken from a source; {source} is a link to it on
            # the sources page ("Durak Live").
            template = escape(tr.gettext("Taken from {source}."))
            source = " " + template.format(source=source_link(scenario.source, tr))
        return f"<p class='durak-say durak-house-summary'>{summary}{source}</p>"

    def _preset_html(self, preset: str, tr: Gettext) -> str:
        description = escape(preset_description(preset, tr))
        found = PRESETS.get(preset)
        follows = ""
        if found is not None and found.sources:
            links = tr.format_list([source_link(code, tr) for code in found.sources])
            follows = (
                f"<span class='durak-house-follows'>{escape(tr.gettext('Follows:'))} {links}</span>"
            )
        return f"<p class='durak-house-about'>{description} {follows}</p>"

    def _footer_html(self, tr: Gettext) -> str:
        lang = tr.language
        question = tr.gettext("Where do these rule sets come from?")
        sources = page_link(
            SOURCES_PAGE,
            tr.gettext("The five sources, and where they disagree"),
            lang,
            anchor="presets",
        )
        index = page_link("index", "← " + tr.gettext("All lessons"), lang)
        return (
            f"<nav class='durak-house-footer'><span>{escape(question)} {sources}</span>"
            f"{index}</nav>"
        )


def _worded(
    scenario: Scenario, comparison: Comparison, tr: Gettext, label_a: str = "", label_b: str = ""
) -> ComparisonView:
    """The comparison in ``tr``'s language (the scenario's names are msgids too: «Ана»)."""
    names = [seat_name(n, tr) if n else you_label(tr) for n in scenario.players]
    you = scenario.players.index("") if "" in scenario.players else None
    return comparison_view(comparison, tr, names, you, label_a, label_b)


def comparison_rows(
    scenario: Scenario, comparison: Comparison, left: Rules, right: Rules, tr: Gettext
) -> list[RowView]:
    """The comparison's moves and verdicts in ``tr``'s language; after the parting, a side
    that went its own way says so instead of giving a rule (``*_after``)."""
    if comparison.ours_rules is None:
        comparison = Comparison(comparison.preset, comparison.rows, comparison.parting, left, right)
    return _worded(scenario, comparison, tr)["rows"]


def parting_block(
    scenario: Scenario, comparison: Comparison, label_a: str, label_b: str, tr: Gettext
) -> str:
    """Where the two rule sets part ways, what happens under each, and the rule that decides
    it, as HTML ("" when they agree)."""
    view = _worded(scenario, comparison, tr, label_a, label_b)["parting"]
    return parting_html(view) if view is not None else ""


def table_html(
    rows: list[RowView],
    first: int | None,
    head_a: tuple[str, str],
    head_b: tuple[str, str],
    tr: Gettext,
) -> str:
    """The comparison as a table; ``head_a``/``head_b`` are (menu label, rule set label). On a
    phone each row becomes a block whose cells are labelled by their rule set."""
    move_label = tr.gettext("Move")

    def head(letter: str, label: str) -> str:
        return f"<th scope='col'><small>{escape(letter)}</small>{escape(label)}</th>"

    body = []
    for i, row in enumerate(rows):
        cells = []
        for text, ok, after, label in (
            (row["ours"], row["ours_ok"], row.get("ours_after", False), head_a[1]),
            (row["theirs"], row["theirs_ok"], row.get("theirs_after", False), head_b[1]),
        ):
            cls = "after" if after else ("ok" if ok else "no")
            cells.append(f"<td class='{cls}' data-label='{escape(label)}'>{escape(text)}</td>")
        cls = " class='durak-diverge'" if i == first else ""
        body.append(
            f"<tr{cls}><th scope='row' data-label='{escape(move_label)} {i + 1}'>"
            f"{escape(row['move'])}</th>{''.join(cells)}</tr>"
        )
    return (
        "<table class='durak-compare durak-house-table'>"
        f"<thead><tr><th scope='col'>{escape(move_label)}</th>"
        f"{head(*head_a)}{head(*head_b)}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )
