"""`mafiatab four-eyes T [on|off] --as USER`: the tournament's four-eyes rule from the
command line, the same service call as the set-up page and `PUT /api/t/{tid}/four-eyes`
(registered by `mafiatab.cli` with one line).

Without `on`/`off` it says whether the rule is on. Switching needs `--as`, the
tournament's organizer (the audit log names him). Exit codes as everywhere: 1 refused,
2 a wrong command line.
"""

from __future__ import annotations

import sys
from typing import Annotated, Final

import typer

from mafiatab.cli.db import DbOpt, LangOpt, TournamentArg, database_errors, open_service

TEXT: dict[str, tuple[str, str]] = {
    "on": ("Правило «четыре глаза» включено: протокол подтверждает и дело решает не тот, кто "
           "подал или исправил протокол, подал дело (в том числе за игрока) или выдал код "
           "входа, которым дело подано.",
           "The four-eyes rule is on: a protocol is confirmed and a case decided by someone "
           "other than whoever submitted or corrected the protocol, filed the case (for "
           "himself or a player) or issued the sign-in code it was filed with."),
    "off": ("Правило «четыре глаза» выключено.", "The four-eyes rule is off."),
    "bad_state": ("{value!r}: вкл или выкл (on или off)", "{value!r}: on or off"),
    "need_as": ("чтобы переключить правило, укажите --as (организатор турнира)",
                "to switch the rule, give --as (the tournament's organizer)"),
}


#: what the command takes, in either language
STATES: Final = {"on": True, "off": False, "вкл": True, "выкл": False}


def _t(key: str, lang: str, **params: object) -> str:
    ru, en = TEXT[key]
    return (en if lang == "en" else ru).format(**params)


def four_eyes_command(
    tournament: TournamentArg,
    state: Annotated[str | None, typer.Argument(
        help="on | off / вкл | выкл")] = None,
    actor: Annotated[str | None, typer.Option("--as", help="The acting account (the "
                                              "organizer) / от чьего имени")] = None,
    db: DbOpt = None, lang: LangOpt = "ru",
) -> None:
    """The four-eyes rule: show it, or switch it on or off / правило «четыре глаза»."""
    lang = "en" if lang == "en" else "ru"
    if state is not None and state not in STATES:
        print(_t("bad_state", lang, value=state), file=sys.stderr)
        raise typer.Exit(2)
    if state is not None and not actor:
        print(_t("need_as", lang), file=sys.stderr)
        raise typer.Exit(2)
    with database_errors(lang):
        svc = open_service(db)
        tid = svc.tournaments.find_tournament(tournament)
        if state is not None:
            assert actor is not None
            svc.tournaments.set_options(tid, actor=actor, confirmer_must_differ=STATES[state])
        on = svc.tournaments.four_eyes(tid, operator=True)
    print(_t("on" if on else "off", lang))


__all__ = ["four_eyes_command"]
