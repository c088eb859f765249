"""Build a page's widgets first, then open them: one ``comm_open`` each, with its final state.

An ipywidget opens its comm (one message to the browser, with its whole state) as soon as it
is constructed; every trait the page then sets while it renders for the first time is one
more message. A page change is mostly those messages: a lesson page opened 65 widgets and
then sent 40 updates to them, and in a class changing pages at once the server and the
kernels spend their time on exactly that. Inside :func:`built_then_opened` a new widget's
comm is not opened; when the block ends, every widget made in it (and not closed) is
opened, the widgets it refers to (children, layout, style) before it, each in the state the
page left it. The browser receives the same models, fewer messages.

Layouts and styles made in the block are shared, too: every widget gets a layout and most a
style, and a page's are nearly all alike (a lesson page made 20 layouts for 45 widgets).
Widgets whose layout (or style) has the same state get one model; a layout or style that no
widget refers to is not opened at all. A shared model must not change afterwards (it would
change every widget that shares it): it refuses, and pages show and hide widgets by class
(:func:`tutorial.page.set_shown`).

Those shared layouts and styles are kept for the kernel's life (:func:`keep`), as are the
front-end files of :mod:`tutorial.assets`: the next page's widgets of the same state refer to
the same models, which the browser already has, and a page change closes none of them
(:func:`kept_ids`).

Outside the block nothing changes. The block is what :class:`tutorial.pages.Site` builds
each page in; a widget that is closed inside it is never opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import ipywidgets as w
from ipywidgets.widgets.widget import widget_serialization
from ipywidgets.widgets.widget_style import Style
from traitlets import All

W = TypeVar("W", bound=w.Widget)

#: The kinds of model a page's widgets share when their states are equal.
SHARED_KINDS = (w.Layout, Style)

__all__ = ["built_then_opened", "keep", "kept_ids", "waiting"]

_ORIGINAL_OPEN = w.Widget.open
_ORIGINAL_CLOSE = w.Widget.close
#: A trait not set yet (its default), in the key that compares two models' states.
_DEFAULT = "<default>"
#: The widgets waiting to be opened, one list per open block (innermost last).
_WAITING: list[dict[int, w.Widget]] = []


#: Models that live as long as the kernel (see :func:`keep`), by ``id``.
_KEPT: dict[int, w.Widget] = {}
#: The kept layouts and styles by kind and state (see :func:`_share_models`).
_KEPT_SHARED: dict[tuple[type, str], w.Widget] = {}


def keep(widget: W) -> W:
    """Mark ``widget`` as a model for the kernel's life: pages refer to it, none closes it
    (:func:`kept_ids`). Returns it."""
    _KEPT[id(widget)] = widget
    return widget


def kept_ids() -> set[str]:
    """The model ids of the kept models that are open."""
    return {widget.model_id for widget in list(_KEPT.values()) if widget.comm is not None}


def waiting(widget: w.Widget) -> bool:
    """Whether ``widget`` was made in an open block that has not ended yet."""
    return any(id(widget) in block for block in _WAITING)


def _open_or_wait(self: w.Widget) -> None:
    if self.comm is None and _WAITING:
        _WAITING[-1][id(self)] = self
        return
    _ORIGINAL_OPEN(self)


def _close(self: w.Widget) -> None:
    if _ORIGINAL_CLOSE is None:  # the interpreter is shutting down (Widget.__del__)
        return
    for block in _WAITING or ():
        block.pop(id(self), None)
    if _KEPT is not None:
        _KEPT.pop(id(self), None)
    _ORIGINAL_CLOSE(self)


w.Widget.open = _open_or_wait
w.Widget.close = _close


def _referenced(value: Any) -> Iterator[w.Widget]:
    if isinstance(value, w.Widget):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _referenced(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _referenced(item)


# Per widget class, weakly: anywidget gives every instance a class of its own (traitlets'
# add_traits), which must die with its widget.
_WIDGET_TRAITS: WeakKeyDictionary[Any, tuple[tuple[str, type | None], ...]] = WeakKeyDictionary()


def _widget_traits(cls: Any) -> tuple[tuple[str, type | None], ...]:
    """The synced traits of ``cls`` that hold widgets (children, layout, style…: those sent
    as model references), each with the layout or style class its default is made of when
    that default is a new model made with no arguments (ipywidgets makes it when the trait
    is first read), else ``None``."""
    found = _WIDGET_TRAITS.get(cls)
    if found is None:
        to_json = widget_serialization["to_json"]
        found = _WIDGET_TRAITS[cls] = tuple(
            (name, _default_kind(trait))
            for name, trait in cls.class_traits(sync=True).items()
            if trait.metadata.get("to_json") is to_json
        )
    return found


def _default_kind(trait: Any) -> type | None:
    kind = getattr(trait, "klass", None)
    plain = not getattr(trait, "default_args", None) and not getattr(trait, "default_kwargs", None)
    return kind if isinstance(kind, type) and issubclass(kind, SHARED_KINDS) and plain else None


def _open(widget: w.Widget, waiting: dict[int, w.Widget]) -> None:
    """Open ``widget`` after every waiting widget its state refers to."""
    if waiting.pop(id(widget), None) is None:
        return
    for name, _kind in _widget_traits(type(widget)):
        for child in _referenced(getattr(widget, name)):
            _open(child, waiting)
    _ORIGINAL_OPEN(widget)


def _refuse_change(change: dict[str, Any]) -> None:
    model = change["owner"]
    if change["name"] in model.keys:
        raise RuntimeError(
            f"{type(model).__name__} is shared by several widgets of the page and cannot "
            f"change ({change['name']!r}): show or hide widgets with tutorial.page.set_shown"
        )


def _kept_twin(key: tuple[type, str]) -> w.Widget | None:
    """The kept layout or style of this kind and state, if it is still open."""
    twin = _KEPT_SHARED.get(key)
    if twin is not None and twin.comm is None:
        del _KEPT_SHARED[key]  # closed (Widget.close_all()): a new one will be kept
        return None
    return twin


def _share_models(waiting: dict[int, w.Widget]) -> None:
    """Give widgets whose waiting layout (or style) states are equal one model between them,
    the one kept from an earlier page when there is one; drop the layouts and styles that no
    widget refers to (they are never opened)."""
    shared: dict[tuple[type, str], w.Widget] = {}
    used: set[int] = set()
    defaults: dict[type, w.Widget] = {}
    for widget in list(waiting.values()):
        if isinstance(widget, SHARED_KINDS):
            continue
        # A layout or style not made yet would be made now, only to be dropped for its twin:
        # every such widget gets the block's one default model of that kind instead.
        for name, kind in _widget_traits(type(widget)):
            if kind is not None and name not in widget._trait_values:
                if kind not in defaults:
                    defaults[kind] = kind()
                widget.set_trait(name, defaults[kind])
            model = getattr(widget, name)
            if not isinstance(model, SHARED_KINDS) or id(model) not in waiting:
                continue
            values = model._trait_values  # what get_state would read, without its cost
            key = (type(model), repr([(k, values.get(k, _DEFAULT)) for k in model.keys]))
            twin = shared.get(key) or _kept_twin(key) or model
            shared[key] = twin
            if twin is not model:
                setattr(widget, name, twin)  # not opened yet: nothing is sent
            used.add(id(twin))
    for model_key, model in list(waiting.items()):
        if isinstance(model, SHARED_KINDS) and model_key not in used:
            del waiting[model_key]
    for key, model in shared.items():
        if id(model) in waiting:  # new: kept for the next pages
            model.observe(_refuse_change, names=All)
            _KEPT_SHARED[key] = keep(model)


@contextmanager
def built_then_opened() -> Iterator[None]:
    """Widgets constructed inside the block are opened when it ends (see the module's
    docstring). If the block raises, they are dropped unopened: the browser never hears of
    them. Blocks may nest; an inner block opens its widgets when it ends."""
    waiting: dict[int, w.Widget] = {}
    _WAITING.append(waiting)
    try:
        yield
        # Reading a widget's layout or style makes its default model (ipywidgets makes them
        # when first read): inside the block, so that they wait and are shared too.
        _share_models(waiting)
    finally:
        _WAITING.remove(waiting)
    while waiting:  # in the order they were made, each after what it refers to
        _open(next(iter(waiting.values())), waiting)
