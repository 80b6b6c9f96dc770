"""What a replayed game log knows: departures, fouls, penalties, applied rules, next step.

Plain records, kept apart from the engine that fills them so that the web screen, the
protocol and the tests can read them without knowing how the rules move the game on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from mafiatab.domain.words import STEP


class Step(StrEnum):
    """Where the game stands: what the judge records next."""

    #: night 0, the agreement ("Договорка"): nobody leaves, no shot, no checks
    AGREEMENT = "agreement"
    #: a night from 1 on: the black team's shot
    SHOT = "shot"
    #: after the shot: the don's and the sheriff's checks, the best move
    CHECKS = "checks"
    #: the day's speeches (and, once they are over, what the day's vote will be)
    SPEECHES = "speeches"
    #: a round of voting on the candidates
    VOTE = "vote"
    #: the tied candidates' 30-second speeches before a repeated vote
    DEFENCE = "defence"
    #: the vote on whether all the tied candidates leave
    LIFT = "lift"
    #: the last words of those the vote removed; then night falls
    LAST_WORDS = "last_words"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Phase:
    """A night or a day and its number (night 0 is the agreement night)."""

    kind: str  # "night" or "day"
    number: int

    def label(self, lang: str = "en") -> str:
        if lang == "ru":
            return f"{'ночь' if self.kind == 'night' else 'день'} {self.number}"
        return f"{self.kind} {self.number}"


@dataclass(frozen=True, slots=True)
class Departure:
    """A player who left the table: when, how, by which event."""

    seat: int
    #: "killed", "voted" (also the single nominee who leaves without a vote), "lifted",
    #: "fouls" (a 4th foul), "disqualified" (FIIM 6.7), "team_loss" (FIIM 6.8)
    how: str
    phase: Phase
    index: int


@dataclass(frozen=True, slots=True)
class FoulRecord:
    seat: int
    #: the player's foul count after this one
    count: int
    phase: Phase
    index: int
    time: str | int | None = None


@dataclass(frozen=True, slots=True)
class DerivedPenalty:
    """A penalty that a removal implies (FIIM 8.2.4, 7.10; FSM 8.2.4-8.2.5)."""

    seat: int
    kind: str  # "disqualification" or "team_loss"
    critical: bool | None
    rule: str | None
    index: int


@dataclass(frozen=True, slots=True)
class Applied:
    """A special situation the program applied, with its clause (shown to the judge)."""

    code: str
    clause: str
    phase: Phase
    index: int
    seat: int | None = None
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class NextStep:
    """What the judge records next, as the live screen shows it."""

    phase: Phase
    step: Step
    #: the event types that move the game on from here (fouls and removals may always
    #: come while the game goes on)
    kinds: tuple[str, ...]
    #: the player expected (speaker, last words, defence), if one is
    seat: int | None = None
    #: the candidates of the vote, in order
    candidates: tuple[int, ...] = ()
    #: special situations in force now (e.g. the day's vote cancelled by FIIM 7.1)
    notes: tuple[Applied, ...] = ()
    #: who may give last words now (FIIM 7.10)
    last_words: tuple[int, ...] = ()
    #: the players at the table when this step comes
    at_table: tuple[int, ...] = ()

    def text(self, lang: str = "en") -> str:
        """A line for the judge with the notes in force: "день 2: говорит место 4",
        "день 1: переголосование: 3, 5"; the live screen's words (`line`)."""
        notes = "; ".join(_note(n, lang) for n in self.notes)
        return self.line(lang) + (f" — {notes}" if notes else "")

    def line(self, lang: str = "en", first_killed: int | None = None,
             best_move_open: bool = False) -> str:
        """The next step in one line, for every step of the game: a repeated vote is
        called one (never "night falls"), a night whose checks are done says only what
        comes in the morning (never "night 1: ;"). The notes are not in it."""
        def t(key: str, **values: object) -> str:
            ru, en = STEP[key]
            return (ru if lang == "ru" else en).format(**values)

        seats = ", ".join(str(c) for c in self.candidates)
        parts: list[str] = []
        kind = self.step
        if kind is Step.ENDED:
            parts.append(t("ended"))
            parts += [t("last_words", seat=s) for s in self.last_words]
            if best_move_open and first_killed is not None:
                parts.append(t("best_move", seat=first_killed))
        elif kind is Step.SHOT:
            parts.append(t("shot"))
        elif kind in (Step.AGREEMENT, Step.CHECKS):
            if kind is Step.AGREEMENT:
                parts.append(t("agreement"))
            parts += [t(k) for k in ("don_check", "sheriff_check") if k in self.kinds]
            if "best_move" in self.kinds and first_killed is not None:
                parts.append(t("best_move", seat=first_killed))
            parts += [t("last_words", seat=s) for s in self.last_words]
            if self.seat is not None:
                parts.append(t("morning_speaks", seat=self.seat))
        elif kind is Step.SPEECHES:
            parts += [t("last_words", seat=s) for s in self.last_words]
            if self.seat is not None:
                parts.append(t("speaks", seat=self.seat))
            elif self.candidates:
                parts.append(t("vote", seats=seats))
        elif kind is Step.VOTE:
            parts.append(t("vote", seats=seats) if seats else t("vote_plain"))
        elif kind is Step.DEFENCE:
            parts.append(t("defence", seat=self.seat) if self.seat is not None
                         else t("revote", seats=seats) if seats else t("revote_plain"))
        elif kind is Step.LIFT:
            parts.append(t("lift", seats=seats) if seats else t("lift_plain"))
        else:  # LAST_WORDS: those the vote removed speak, then night falls
            parts += [t("last_words", seat=s) for s in self.last_words]
            parts.append(t("night"))
        if not parts:  # nothing to name: the step's own word
            parts.append(t("morning" if kind is Step.CHECKS else "speeches"))
        return f"{self.phase.label(lang)}: " + "; ".join(p for p in parts if p)


_NOTES: dict[str, tuple[str, str]] = {
    "vote_cancelled": ("голосование не проводится", "vote cancelled"),
    "next_vote_cancelled": ("голосование следующего дня не проводится",
                            "the next day's vote is cancelled"),
    "lost_speech": ("место {seat} лишается речи (3 фола)", "seat {seat} loses his speech (3 fouls)"),
    "short_speech": ("место {seat}: 30 секунд", "seat {seat}: 30 seconds"),
    "revote_speech": ("место {seat} с 3 фолами говорит на переголосовании",
                      "seat {seat} with 3 fouls speaks before the repeated vote"),
    "four_players_tie": ("голосование не продолжается, наступает ночь",
                         "no further vote, night falls"),
    "four_players_red_win": ("три промаха подряд: победа красных",
                             "three misses in a row: the red team wins"),
    "draw": ("ничья: никто не покинул игру", "draw: nobody left the game"),
    "no_whole_table_lift": ("голосование за подъём всего стола не проводится",
                            "no vote on lifting the whole table"),
    "last_word_after_end": ("последнее слово после окончания игры",
                            "last words after the game's end"),
    "result_by_last_vote": ("результат определён последним голосованием или выстрелом",
                            "the result stands by the last vote or shot"),
    "day1_single_nominee": ("одна кандидатура в первый день: голосования нет",
                            "one nominee on day 1: no vote"),
    "single_nominee_leaves": ("единственная кандидатура покидает игру без голосования",
                              "the only nominee leaves without a vote"),
    "removed": ("место {seat} удалено", "seat {seat} is removed"),
    "team_loss": ("присуждение поражения команде", "the team's loss is awarded"),
}


def _note(note: Applied, lang: str) -> str:
    ru, en = _NOTES.get(note.code, (note.code, note.code))
    text = (ru if lang == "ru" else en).format(seat=note.seat)
    return f"{text}: {note.clause}"


def note_text(note: Applied, lang: str = "en") -> str:
    """An applied situation as the judge reads it, with its clause."""
    return _note(note, lang)


@dataclass(slots=True)
class Facts:
    """What a log says for the protocol (see `gamelog.derive_facts`)."""

    result: str | None
    first_killed: int | None
    best_move: list[int]
    day1_vote_left: int
    departures: list[Departure]
    penalties: list[DerivedPenalty]
    applied: list[Applied]
    fouls: dict[int, int]
    removed_from_tournament: list[int] = field(default_factory=list)
    #: whether the first killed may make a best move (FSM 8.3.6)
    best_move_allowed: bool = True
    #: every foul with its place and time in the game (FIIM 9.5)
    foul_log: list[FoulRecord] = field(default_factory=list)
    #: day -> the clause that cancelled its vote (FIIM 7.1, 7.2)
    cancelled_votes: dict[int, str] = field(default_factory=dict)
    #: why the game ended (a win, FIIM 7.6, 7.8, a team loss), with its clause
    end: Applied | None = None
