"""The events of a game log (docs/gamelog.md), typed, read from the dicts of a file.

A log is written by the judge as the game goes (FIIM 9.5), so it is the one source that can
say what happened and in which order. The file keeps the events as plain dicts (the
format-1 reader does not know them); this module turns each into a typed record, and a
malformed one into a `Problem`, never an exception: a judge's typo must not crash the
program, and every typo is shown at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

import msgspec

from mafiatab.domain.clock import parse_instant
from mafiatab.domain.problems import Problem

LOG_FORMAT = "docs/gamelog.md"


class Event(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True,
            omit_defaults=True):
    """Fields every event may carry: the judge's clock, the wall-clock time, a note."""

    #: the time in the game as the judge wrote it ("12:40", or seconds since the start)
    time: str | int | None = None
    #: when it happened, UTC ("2026-03-07T11:30:05Z"): the live screen writes it; the
    #: pages show it on the tournament's clock and link it to the game's video
    at: str | None = None
    note: str | None = None


class Deal(Event, tag="deal"):
    """Roles dealt; when `roles` is given (seat 1 first) it must match the game's seats."""

    roles: list[str] | None = None


class Shot(Event, tag="shot"):
    """The black team's shot of one night: `target` a seat, or null for a miss.

    `shots` (seat of a black player -> the seat he pointed at, or null) may be written
    instead of or beside `target`; the shot hits only when every black player at the
    table points at the same seat.

    `unrecorded` lists black players whose aim the record does not have (a game recorded
    elsewhere that kept the kill but not every aim): then `target` is the outcome as the
    judge announced it (null: a miss), and the recorded aims must agree with a hit.
    """

    target: int | None = None
    shots: dict[str, int | None] | None = None
    unrecorded: list[int] | None = None


class DonCheck(Event, tag="don_check"):
    target: int
    #: the judge's answer as written (is the checked player the sheriff?)
    sheriff: bool | None = None


class SheriffCheck(Event, tag="sheriff_check"):
    target: int
    #: the judge's answer as written (is the checked player black?)
    black: bool | None = None


class Speech(Event, tag="speech"):
    """A player's speech of the day, with the one player he nominated, if any."""

    seat: int
    nominates: int | None = None


class Defence(Event, tag="defence"):
    """The 30-second speech of a tied candidate before a repeated vote."""

    seat: int


class Vote(Event, tag="vote"):
    """One round of voting: `votes` (candidate -> voters' seats) or `counts`.

    Who is not listed is counted for the last candidate.

    `leaves` alone (the seats that left, or `[]`) records the whole of the day's voting,
    repeated votes and the vote on lifting included, when nobody wrote its votes.
    """

    votes: dict[str, list[int]] | None = None
    counts: dict[str, int] | None = None
    leaves: list[int] | None = None


class Lift(Event, tag="lift"):
    """The vote on whether all the tied candidates leave ("подъём").

    One of: `voters` (who raised a hand), `count` (how many), or `passed` alone (the
    outcome, when the record does not say who voted).
    """

    voters: list[int] | None = None
    count: int | None = None
    passed: bool | None = None


class LastWords(Event, tag="last_words"):
    seat: int


class Foul(Event, tag="foul"):
    seat: int
    reason: str | None = None


class Disqualify(Event, tag="disqualify"):
    """A disqualifying foul (FIIM 6.7): the player leaves the table at once."""

    seat: int
    #: the clause broken, e.g. "FIIM 6.7.4"
    rule: str | None = None
    #: FSM 8.2.4: removal "at a critical moment"; derived when left out
    critical: bool | None = None
    #: FIIM 7.3: also removed from the tournament
    tournament: bool = False


class TeamLoss(Event, tag="team_loss"):
    """A violation that awards the loss to the violator's team (FIIM 6.8, FSM 8.2.5)."""

    seat: int
    rule: str | None = None


class BestMove(Event, tag="best_move"):
    """The first killed names up to three seats he thinks black."""

    seat: int
    seats: list[int]


AnyEvent = (
    Deal | Shot | DonCheck | SheriffCheck | Speech | Defence | Vote | Lift | LastWords | Foul
    | Disqualify | TeamLoss | BestMove
)

EVENT_KINDS: tuple[str, ...] = (
    "deal", "shot", "don_check", "sheriff_check", "speech", "defence", "vote", "lift",
    "last_words", "foul", "disqualify", "team_loss", "best_move",
)


def kind_of(event: Event) -> str:
    """The event's `type` word."""
    tag = type(event).__struct_config__.tag
    return str(tag)


def field_of(index: int) -> str:
    """The place of an event in the game, as problems show it."""
    return f"log[{index}]"


#: each event's struct by its `type` word: msgspec keeps a struct's decoding plan, while a
#: union given to `convert` is planned again at every call (thirty times slower a tap, on
#: the server and on the phone alike); the errors are the same
_BY_TAG: dict[str, type[Event]] = {str(t.__struct_config__.tag): t for t in get_args(AnyEvent)}


def parse_event(raw: object, index: int, game: str | None) -> AnyEvent | Problem:
    """One event, or the problem that keeps it from being one."""
    tag = raw.get("type") if isinstance(raw, dict) else None
    shape: Any = _BY_TAG.get(tag, AnyEvent) if isinstance(tag, str) else AnyEvent
    try:
        event: AnyEvent = msgspec.convert(raw, shape)
    except msgspec.ValidationError as exc:
        return Problem("log_malformed", game, None, field_of(index), LOG_FORMAT,
                       {"detail": str(exc)})
    if event.at is not None and parse_instant(event.at) is None:
        return Problem("log_malformed", game, None, field_of(index), LOG_FORMAT,
                       {"detail": f"at {event.at[:40]!r}: a UTC time, e.g. 2026-03-07T11:30:05Z"})
    return event


def parse_events(raw: Sequence[Any], game: str | None = None
                 ) -> tuple[list[AnyEvent], list[Problem]]:
    """The events of a log up to the first malformed one; the problems of all malformed.

    The events after a malformed one are not replayed (their meaning depends on it), but
    they are still read, so that the judge sees every typo at once.
    """
    events: list[AnyEvent] = []
    problems: list[Problem] = []
    for i, item in enumerate(raw):
        parsed = parse_event(item, i, game)
        if isinstance(parsed, Problem):
            problems.append(parsed)
        elif not problems:
            events.append(parsed)
    return events, problems


def to_dict(event: Event) -> dict[str, Any]:
    """An event as the file writes it (fields left at their default are left out)."""
    out: dict[str, Any] = msgspec.to_builtins(event)
    return out
