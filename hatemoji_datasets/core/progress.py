"""Progress on long work, only where a person watches.

Fetching, building and validating report their steps here (:func:`step`): one
line per file or split, with its size, on standard error. A step shows only
when it has run for more than :data:`DELAY` seconds (``$HATEMOJI_DATASETS_PROGRESS_DELAY``
changes it), and only when standard error is a terminal and ``$CI`` is unset:
piped runs, CI logs and ``--format json`` stay quiet. On a terminal the line is
redrawn in place as bytes arrive, then left as the step's record. ``-v`` shows
every step, as plain lines, wherever standard error goes.

The Python API follows the same rule; ``datasets``' own progress bars are
turned off while the package builds (:func:`datasets_bars_off`), so there is
one display, not two.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from hatemoji_datasets.core.numbers import size

#: A step shows once it has run this many seconds.
DELAY = 1.0
#: At most this many redraws a second.
REDRAWS = 10

_settings: dict[str, bool] = {"quiet": False, "verbose": False}
_lock = threading.Lock()


def configure(*, quiet: bool = False, verbose: bool = False) -> None:
    """``quiet``: show nothing (machine-readable output); ``verbose``: show every step,
    at once and as plain lines, even where standard error is not a terminal."""
    _settings.update(quiet=quiet, verbose=verbose)


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("HATEMOJI_DATASETS_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY


def watched(stream: TextIO | None = None) -> bool:
    """Whether a person watches ``stream`` (standard error): a terminal, outside CI."""
    stream = stream or sys.stderr
    if _settings["quiet"] or os.environ.get("CI"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False


class Step:
    """One step's line: what it does, and how far it has got (``update``)."""

    def __init__(self, what: str, total: int | None, stream: TextIO, live: bool) -> None:
        self.what, self.total, self.stream, self.live = what, total, stream, live
        self.done = 0
        self.shown = False
        self.outcome = ""
        self.start = time.monotonic()
        self._drawn = 0.0

    def update(self, done: int) -> None:
        """``done`` bytes (or items) of ``total`` so far."""
        self.done = done
        if self.shown and self.live and time.monotonic() - self._drawn >= 1 / REDRAWS:
            self._draw()

    def show(self) -> None:
        with _lock:
            if not self.shown:
                self.shown = True
                self._draw()

    def _draw(self, end: str = "") -> None:
        self._drawn = time.monotonic()
        line = self.what
        if self.total:
            line += f": {size(self.done)} of {size(self.total)}"
        line += self.outcome
        try:
            if self.live:
                self.stream.write(f"\r\x1b[K{line}{end}")
            elif end:
                self.stream.write(f"{line}{end}")
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the work goes on
            pass

    def finish(self, failed: bool) -> None:
        with _lock:
            if not self.shown:
                return
            seconds = time.monotonic() - self.start
            if self.total and not failed:
                self.done = self.total
            self.outcome = " (failed)" if failed else f" ({seconds:.1f} s)"
            self._draw(end="\n")


@contextmanager
def step(what: str, total: int | None = None, stream: TextIO | None = None) -> Iterator[Step]:
    """Report ``what`` (``total`` bytes, if known) while the block runs, where watched."""
    stream = stream or sys.stderr
    verbose = _settings["verbose"] and not _settings["quiet"]
    live = watched(stream)
    if not (live or verbose):
        yield Step(what, total, stream, live=False)  # counts, shows nothing
        return
    current = Step(what, total, stream, live)
    delay = 0.0 if verbose else _delay()
    timer = threading.Timer(delay, current.show)
    timer.daemon = True
    if delay == 0.0:
        current.show()
    else:
        timer.start()
    failed = True
    try:
        yield current
        failed = False
    finally:
        timer.cancel()
        current.finish(failed)


@contextmanager
def datasets_bars_off() -> Iterator[None]:
    """``datasets``' progress bars off for the block (restored after): this module reports."""
    import datasets

    disabled = _bars_disabled(datasets)
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if not disabled:
            datasets.enable_progress_bars()


def _bars_disabled(datasets: Any) -> bool:
    probe = getattr(datasets, "are_progress_bars_disabled", None)
    if probe is not None:
        return bool(probe())
    enabled = getattr(datasets, "is_progress_bar_enabled", None)  # datasets 2.x
    return not enabled() if enabled is not None else False
