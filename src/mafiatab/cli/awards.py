"""`mafiatab awards T [AWARD [PLAYER]] --as USER`: the tournament's awards from the command
line, the same service call as the awards page and `PUT /api/t/{tid}/awards/{award}`
(registered by `mafiatab.cli` with one line).

Without an award it lists them (who got each). `AWARD PLAYER` names the player (his id in
the tournament), `AWARD -` takes the name back; both need `--as`, the tournament's head
judge (the audit log names him). Exit codes as everywhere: 1 refused, 2 a wrong command
line.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from mafiatab.cli.db import DbOpt, LangOpt, TournamentArg, database_errors, open_service
from mafiatab.texts import pick
from mafiatab.texts.register import AWARD

TEXT: dict[str, tuple[str, str]] = {
    "need_as": ("чтобы назначить награду, укажите --as (главный судья турнира)",
                "to name an award, give --as (the tournament's head judge)"),
    "nobody": ("не назначена", "not named"),
}


def _t(key: str, lang: str) -> str:
    ru, en = TEXT[key]
    return en if lang == "en" else ru


def awards_command(
    tournament: TournamentArg,
    award: Annotated[str | None, typer.Argument(
        help="The award's code (mvp, best_red, …) / код награды (см. mafiatab rules)")] = None,
    player: Annotated[str | None, typer.Argument(
        help="The player's id, - for nobody / id игрока, «-» — никто")] = None,
    actor: Annotated[str | None, typer.Option("--as", help="The acting account (the head "
                                              "judge) / от чьего имени")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output / вывод в JSON")] = False,
    db: DbOpt = None, lang: LangOpt = "ru",
) -> None:
    """The awards: list them, or name a player for one / награды турнира."""
    lang = "en" if lang == "en" else "ru"
    if award is not None and (player is None or not actor):
        print(_t("need_as", lang), file=sys.stderr)
        raise typer.Exit(2)
    with database_errors(lang):
        svc = open_service(db)
        tid = svc.tournaments.find_tournament(tournament)
        if award is not None:
            assert actor is not None
            named = svc.awards.name(tid, award, None if player == "-" else player,
                                    actor=actor)
        else:
            named = svc.awards.named(tid)
    if as_json:
        print(json.dumps([{"award": a.award, "player": a.player, "nickname": a.nickname}
                          for a in named], ensure_ascii=False))
        return
    for a in named:
        print(f"{pick(AWARD, a.award, lang)}: {a.nickname or _t('nobody', lang)}")


__all__ = ["awards_command"]
