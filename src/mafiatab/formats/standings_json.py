"""The standings output `mafiatab.standings/1` (shared/spec/tournament-format.md)."""

from __future__ import annotations

import json
from typing import Any

from mafiatab.domain.points import to_json_number
from mafiatab.domain.standings import Row, Standings

FORMAT = "mafiatab.standings/1"


def standings_to_dict(s: Standings) -> dict[str, Any]:
    """The standings; `exhibition` only when there are exhibition players: their lines,
    which have no place."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "tournament": s.tournament,
        "rules": s.rules,
        "stages": list(s.stages),
        "standings": [
            {
                "place": r.place,
                "player": r.player,
                "nickname": r.nickname,
                "games": r.games,
                "wins": r.wins,
                "wins_don_sheriff": r.wins_don_sheriff,
                "first_killed": r.first_killed,
                "main": to_json_number(r.main),
                "extra": to_json_number(r.extra),
                "total": to_json_number(r.total),
                "best_move": to_json_number(r.best_move),
                "compensation": to_json_number(r.compensation),
                "penalties": to_json_number(r.penalties),
                "lot_needed": r.lot_needed,
            }
            for r in s.rows
        ],
    }
    if s.exhibition:
        out["exhibition"] = [_line(r) for r in s.exhibition]
    return out


def _line(r: Row) -> dict[str, Any]:
    return {"player": r.player, "nickname": r.nickname, "games": r.games, "wins": r.wins,
            "main": to_json_number(r.main), "extra": to_json_number(r.extra),
            "total": to_json_number(r.total)}


def dumps_standings(s: Standings) -> str:
    return json.dumps(standings_to_dict(s), ensure_ascii=False, indent=1) + "\n"
