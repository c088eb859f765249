"""Endgame puzzles proven by the exact two-player solver (issue 39).

The set is the data file ``puzzles.jsonl`` beside this module (:data:`PUZZLES_PATH`), one
puzzle a line; :mod:`tutorial.puzzles.generate` says how it is made and proven, and
``script/make_puzzles.py`` builds it.
"""

from __future__ import annotations

from .generate import PUZZLES_PATH, Puzzle, PuzzleError, load_puzzles, prove

__all__ = ["PUZZLES_PATH", "Puzzle", "PuzzleError", "load_puzzles", "prove"]
