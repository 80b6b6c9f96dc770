"""The player-id crosswalk: which player of the tournament an id of another system is.

An importer meets players under the ids of the system it reads (a Polemica user id, a
mafiaratings user id, a row of a published table) and must give each one format 1's
`players[].id`. The crosswalk records that mapping *with the tournament*, as the optional
top-level field `crosswalk` of format 1 (tournament-format.md lets the program add
optional fields; the reader keeps them and the database keeps them in the tournament's
`other`), so that the next import from the same system, a season later, finds the same
people under the same ids, and a federation can see where each id came from::

    "crosswalk": {"polemica": {"72809": "genrih"}, "mafiaratings": {"311": "genrih"}}

system -> the other system's id (as text) -> the player's id in this tournament.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from mafiatab.domain.problems import Problem, Refused
from mafiatab.domain.protocol import Player, Tournament
from mafiatab.texts.files import FILES

FIELD: Final = "crosswalk"


class CrosswalkError(Refused):
    """A crosswalk that is not an object of systems, each an object of text -> text."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=FILES)])
        self.ru, self.en = self.message("ru"), self.message("en")


@dataclass(slots=True)
class Crosswalk:
    systems: dict[str, dict[str, str]] = field(default_factory=dict)

    def lookup(self, system: str, external: str) -> str | None:
        return self.systems.get(system, {}).get(external)

    def add(self, system: str, external: str, player: str) -> None:
        self.systems.setdefault(system, {})[external] = player

    def merged(self, other: Crosswalk) -> Crosswalk:
        out = Crosswalk({k: dict(v) for k, v in self.systems.items()})
        for system, ids in other.systems.items():
            for ext, pid in ids.items():
                out.add(system, ext, pid)
        return out

    def only(self, players: Iterable[str]) -> Crosswalk:
        """The entries naming these players: what a tournament keeps of a crosswalk."""
        keep = set(players)
        return Crosswalk({system: {ext: pid for ext, pid in ids.items() if pid in keep}
                          for system, ids in self.systems.items()})

    def as_json(self) -> dict[str, dict[str, str]]:
        return {system: dict(sorted(ids.items(), key=lambda kv: _natural(kv[0])))
                for system, ids in sorted(self.systems.items()) if ids}


def _natural(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


def parse_crosswalk(raw: object) -> Crosswalk:
    """A crosswalk from its JSON value; `CrosswalkError` says what is wrong."""
    if not isinstance(raw, Mapping):
        raise CrosswalkError("crosswalk_not_object")
    out = Crosswalk()
    for system, ids in raw.items():
        if not isinstance(system, str) or not isinstance(ids, Mapping):
            raise CrosswalkError("crosswalk_system", system=system)
        for ext, pid in ids.items():
            if not isinstance(pid, str) or not pid:
                raise CrosswalkError("crosswalk_player", system=system, ext=ext)
            out.add(system, str(ext), pid)
    return out


def crosswalk_of(t: Tournament) -> Crosswalk:
    """The tournament's crosswalk (empty when it has none)."""
    raw = t.other.get(FIELD)
    return Crosswalk() if raw is None else parse_crosswalk(raw)


def with_crosswalk(t: Tournament, cw: Crosswalk) -> Tournament:
    other = dict(t.other)
    if cw.as_json():
        other[FIELD] = cw.as_json()
    else:
        other.pop(FIELD, None)
    return msgspec.structs.replace(t, other=other)


def read_crosswalk_document(data: Any) -> tuple[Crosswalk, list[Player]]:
    """A crosswalk given on the command line: a format-1 tournament (its `crosswalk` and
    its players, so that a season's next import reuses the same ids and nicknames), or a
    bare crosswalk object."""
    if isinstance(data, Mapping) and data.get("format") == "mafiatab.tournament/1":
        players: list[Player] = []
        for p in data.get("players", []):
            if isinstance(p, Mapping) and isinstance(p.get("id"), str):
                nick = p.get("nickname")
                club = p.get("club")
                players.append(Player(id=p["id"], nickname=nick if isinstance(nick, str)
                                      else p["id"],
                                      club=club if isinstance(club, str) else None))
        raw = data.get(FIELD)
        return (Crosswalk() if raw is None else parse_crosswalk(raw)), players
    return parse_crosswalk(data), []


_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)


def slug(nickname: str) -> str:
    """A readable id from a nickname: letters and digits (any script), lower case,
    other runs as "-"."""
    text = unicodedata.normalize("NFKC", nickname).casefold().replace("_", "-")
    text = _NOT_WORD.sub("-", text).strip("-")
    return text or "player"


class PlayerIds:
    """Gives each player met by an importer one id of the tournament.

    In this order: the crosswalk's entry for the other system's id; a known player (of the
    crosswalk's tournament) with the same nickname; a new id made from the nickname. Every
    player met is recorded in the crosswalk when the source has an id for him.
    """

    def __init__(self, crosswalk: Crosswalk, known: Iterable[Player] = ()) -> None:
        self.crosswalk = crosswalk
        self.known: dict[str, Player] = {p.id: p for p in known}
        self.by_nick: dict[str, str] = {p.nickname.casefold(): p.id for p in self.known.values()}
        self.players: dict[str, Player] = {}
        self.how: dict[str, str] = {}  # player id -> "crosswalk", "nickname", "new"

    def resolve(self, system: str, external: str | None, nickname: str,
                club: str | None = None) -> str:
        pid: str | None = None
        how = "new"
        if external is not None:
            pid = self.crosswalk.lookup(system, external)
            how = "crosswalk"
        if pid is None:
            pid = self.by_nick.get(nickname.casefold())
            how = "nickname"
        if pid is None:
            base = slug(nickname)
            pid, n = base, 1
            taken = set(self.players) | set(self.known) | set(
                v for ids in self.crosswalk.systems.values() for v in ids.values())
            while pid in taken:
                n += 1
                pid = f"{base}-{n}"
            how = "new"
        if external is not None:
            self.crosswalk.add(system, external, pid)
        if pid not in self.players:
            known = self.known.get(pid)
            self.players[pid] = Player(id=pid, nickname=known.nickname if known else nickname,
                                       club=club if club is not None else
                                       (known.club if known else None))
            self.how[pid] = how
        self.by_nick.setdefault(nickname.casefold(), pid)
        return pid

    def listed(self) -> list[Player]:
        return list(self.players.values())
