"""The arenas an operator schedules in the settings: ``arena_schedule``, read and stepped.

The setting is a list of entries separated by ``;``, each
``DAY HH:MM VARIANT MINUTES [NAME...]`` in UTC, for instance::

    arena_schedule = "sunday 18:00 freecell 45; daily 12:30 osmosis 20 Lunch arena"

``DAY`` is a day of the week (``monday`` ... ``sunday``, or its first three
letters) or ``daily``. Each entry makes one arena per occurrence, created
``arena_ahead_h`` hours before it starts so that players see it coming. The
code of an occurrence's arena is made from the entry and its start, so that
every node that creates it makes the same row (the first one stored is kept).

Pure: no clock, no I/O; the arena service asks :func:`due` with the time.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from shared.protocol import CODE_ALPHABET, CODE_LENGTH

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAILY = "daily"
DAY_MS = 86_400_000
WEEK_MS = 7 * DAY_MS
MIN_MINUTES, MAX_MINUTES = 5, 360


class ScheduleError(ValueError):
    """An entry of ``arena_schedule`` that cannot be read; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the schedule: every ``day`` (0 Monday ... 6 Sunday; None every day) at
    ``minute`` of the day (UTC), an arena of ``variant`` lasting ``minutes``."""

    day: int | None
    minute: int
    variant: str
    minutes: int
    name: str
    text: str

    def starts_after(self, now_ms: int) -> int:
        """The start of the first occurrence at or after ``now_ms``."""
        today = now_ms - now_ms % DAY_MS
        start = today + self.minute * 60_000
        if self.day is None:
            return start if start >= now_ms else start + DAY_MS
        weekday = datetime.datetime.fromtimestamp(today / 1000, tz=datetime.UTC).weekday()
        start += ((self.day - weekday) % 7) * DAY_MS
        return start if start >= now_ms else start + WEEK_MS

    def code(self, starts_ms: int) -> str:
        """The code of the occurrence starting at ``starts_ms``: the same on every node."""
        digest = hashlib.sha256(f"{self.text}@{starts_ms}".encode()).digest()
        return "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:CODE_LENGTH])


def parse(text: str, variants: tuple[str, ...] | None = None) -> tuple[Entry, ...]:
    """The entries of ``arena_schedule`` (empty: none); ``variants``: the ids allowed."""
    entries = []
    for raw in text.split(";"):
        line = " ".join(raw.split())
        if not line:
            continue
        words = line.split(" ")
        if len(words) < 4:
            raise ScheduleError(f"arena_schedule entry {line!r}: want DAY HH:MM VARIANT MINUTES")
        day_word, time_word, variant, minutes_word, *name_words = words
        day = _day(line, day_word.lower())
        minute = _minute(line, time_word)
        if variants is not None and variant not in variants:
            raise ScheduleError(f"arena_schedule entry {line!r}: no variant {variant!r}")
        if not minutes_word.isdigit() or not MIN_MINUTES <= int(minutes_word) <= MAX_MINUTES:
            raise ScheduleError(
                f"arena_schedule entry {line!r}: minutes must be {MIN_MINUTES} to {MAX_MINUTES}"
            )
        when = DAY_NAMES[day] if day is not None else "Daily"
        name = " ".join(name_words)[:64] or f"{when} {variant} arena"
        entries.append(Entry(day, minute, variant, int(minutes_word), name, line[:64]))
    return tuple(entries)


DAY_NAMES = tuple(d.capitalize() for d in DAYS)


def _day(line: str, word: str) -> int | None:
    if word == DAILY:
        return None
    for number, day in enumerate(DAYS):
        if word in (day, day[:3]):
            return number
    raise ScheduleError(f"arena_schedule entry {line!r}: {word!r} is not a day or 'daily'")


def _minute(line: str, word: str) -> int:
    hours, _, minutes = word.partition(":")
    if not (hours.isdigit() and minutes.isdigit() and len(minutes) == 2):
        raise ScheduleError(f"arena_schedule entry {line!r}: {word!r} is not HH:MM")
    h, m = int(hours), int(minutes)
    if not (0 <= h < 24 and 0 <= m < 60):
        raise ScheduleError(f"arena_schedule entry {line!r}: {word!r} is not a time of day")
    return h * 60 + m


def due(entries: tuple[Entry, ...], now_ms: int, ahead_ms: int) -> list[tuple[Entry, int]]:
    """The occurrences to create now: each entry's next start within ``ahead_ms`` (and the
    one running now, if it has not ended), as (entry, start)."""
    found = []
    for entry in entries:
        period = DAY_MS if entry.day is None else WEEK_MS
        start = entry.starts_after(now_ms)
        previous = start - period
        if previous + entry.minutes * 60_000 > now_ms:
            found.append((entry, previous))
        if start - now_ms <= ahead_ms:
            found.append((entry, start))
    return found
