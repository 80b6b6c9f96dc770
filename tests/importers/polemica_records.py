"""Polemica game records built by hand for the importer's tests.

The shapes are those of Polemica's public models (`Vyasma-Mafia/polemica-library`,
`model/game/*.kt`): roles 0 don, 1 mafia, 2 civilian, 3 sheriff; votes with `num` 0 for a
nomination, 1, 2, ... for the rounds, null for lifting; each black player's shot; checks
by the checker's role. The games are written from a course we decide here, so the tests
know what the importer must find.
"""

from __future__ import annotations

from typing import Any

USERS = {
    101: "Альфа", 102: "Бета", 103: "Гамма", 104: "Дельта", 105: "Эпсилон", 106: "Зета",
    107: "Эта", 108: "Тета", 109: "Йота", 110: "Каппа", 111: "Лямбда", 112: "Мю",
}
DON, MAFIA, CIV, SHERIFF = 0, 1, 2, 3


def _stage(kind: str, day: int, player: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, "day": day}
    if player is not None:
        out["player"] = player
    return out


def record(gid: int, users: list[int], roles: dict[int, int], *, num: int, table: int = 1,
           result: int | None, started: str = "2026-03-01T12:00:00") -> dict[str, Any]:
    """A record with its table; events are added by the helpers below."""
    players = []
    for seat, uid in enumerate(users, start=1):
        players.append({
            "position": seat, "username": USERS[uid], "avatar": None,
            "role": roles.get(seat, CIV), "techs": [], "fouls": [],
            "player": {"id": uid, "username": USERS[uid], "avatar": None},
        })
    return {"id": gid, "num": num, "table": table, "phase": 0, "factor": 1,
            "started": started, "master": 1, "referee": {"id": 1, "username": "Судья"},
            "zeroVoting": None, "isLive": False, "scoringVersion": "3.0", "version": 4,
            "players": players, "checks": [], "shots": [], "votes": [], "bonuses": [],
            "stage": {"type": "gameOver", "day": 3}, "result": result, "scoringType": 1}


def nominate(g: dict[str, Any], day: int, voter: int, candidate: int) -> None:
    g["votes"].append({"day": day, "num": 0, "voter": voter, "candidate": candidate})


def vote(g: dict[str, Any], day: int, rnd: int, ballots: dict[int, list[int]]) -> None:
    for candidate, voters in ballots.items():
        for voter in voters:
            g["votes"].append({"day": day, "num": rnd, "voter": voter,
                               "candidate": candidate})


def shoot(g: dict[str, Any], night: int, aims: dict[int, int]) -> None:
    for shooter, victim in aims.items():
        g["shots"].append({"night": night, "shooter": shooter, "victim": victim})


def check(g: dict[str, Any], night: int, role: int, seat: int) -> None:
    g["checks"].append({"night": night, "role": role, "player": seat})


def foul(g: dict[str, Any], seat: int, kind: str, day: int, player: int | None = None,
         at: str = "2026-03-01T12:10:00") -> None:
    g["players"][seat - 1]["fouls"].append({"time": at, "stage": _stage(kind, day, player)})


def guess(g: dict[str, Any], seat: int, mafs: list[int]) -> None:
    g["players"][seat - 1]["guess"] = {"mafs": mafs}


def red_win() -> dict[str, Any]:
    """Blacks 3 (don), 5, 9; sheriff 7. Day 1: 5 and 9 tie, 5 leaves on the repeat;
    night 1: 1 is killed and names 3, 9, 4; day 2: 9, the only nominee, leaves; night 2:
    2 is killed (a foul for 8 on the way); day 3: 3 leaves. Red wins."""
    g = record(328001, list(range(101, 111)), {3: DON, 5: MAFIA, 9: MAFIA, 7: SHERIFF},
               num=1, result=0)
    nominate(g, 1, 1, 5)
    nominate(g, 1, 2, 9)
    vote(g, 1, 1, {5: [1, 2, 3, 4, 6], 9: [5, 7, 8, 9, 10]})
    vote(g, 1, 2, {5: [1, 2, 3, 4, 6, 7], 9: [5, 8, 9, 10]})
    shoot(g, 1, {3: 1, 9: 1})
    check(g, 1, DON, 7)
    check(g, 1, SHERIFF, 3)
    guess(g, 1, [3, 9, 4])
    foul(g, 8, "speech", 2, 7, at="2026-03-01T12:31:05")
    nominate(g, 2, 3, 9)
    shoot(g, 2, {3: 2})
    nominate(g, 3, 4, 3)
    g["bonuses"] = [{"position": 7, "text": "лучший игрок", "scores": 0.3, "basic": False}]
    return g


def black_win() -> dict[str, Any]:
    """Blacks 1 (don), 2, 3; sheriff 10, shot on night 1 (names 1 and 2). Day 2: 5
    leaves; night 2: 4 is killed; day 3: 6 leaves and the black team wins 3 to 3."""
    g = record(328002, list(range(102, 112)), {1: DON, 2: MAFIA, 3: MAFIA, 10: SHERIFF},
               num=2, result=1, started="2026-03-01T13:00:00")
    shoot(g, 1, {1: 10, 2: 10, 3: 10})
    check(g, 1, DON, 10)
    check(g, 1, SHERIFF, 1)
    guess(g, 10, [1, 2])
    nominate(g, 2, 4, 5)
    nominate(g, 2, 6, 7)
    vote(g, 2, 1, {5: [1, 2, 3, 4, 8, 9], 7: [5, 6, 7]})
    shoot(g, 2, {1: 4, 2: 4, 3: 4})
    nominate(g, 3, 6, 1)
    nominate(g, 3, 2, 6)
    vote(g, 3, 1, {1: [6, 8], 6: [1, 2, 3, 7, 9]})
    return g


def removals() -> dict[str, Any]:
    """Blacks 8 (don), 6, 2; sheriff 5. Seat 4 collects four fouls and leaves on day 3;
    seat 7 is disqualified during day 2 (which cancels that day's vote, FIIM 7.1); the
    black team wins when 4 leaves."""
    g = record(328003, [101, 103, 105, 107, 109, 111, 102, 104, 106, 108],
               {8: DON, 6: MAFIA, 2: MAFIA, 5: SHERIFF}, num=3, table=2, result=1,
               started="2026-03-01T14:00:00")
    foul(g, 4, "speech", 1, 4)
    foul(g, 4, "speech", 1, 4)
    shoot(g, 1, {8: 1, 6: 1, 2: 1})
    check(g, 1, SHERIFF, 8)
    guess(g, 1, [6, 8])
    foul(g, 4, "speech", 2, 3)
    nominate(g, 2, 5, 8)
    g["players"][6]["disqual"] = _stage("speech", 2, 9)
    shoot(g, 2, {8: 3, 6: 3, 2: 3})
    foul(g, 4, "speech", 3, 5)
    return g


def facts_only() -> dict[str, Any]:
    """Only the table, the result and settings we cannot follow: no course of the game."""
    g = record(328004, list(range(101, 111)), {2: DON, 4: MAFIA, 6: MAFIA, 8: SHERIFF},
               num=4, result=0, started="2026-03-01T15:00:00")
    g["zeroVoting"] = "respeech"
    g["players"][2]["techs"] = [{"time": "2026-03-01T15:05:00", "stage": _stage("speech", 1, 3)}]
    g["players"][4]["award"] = 0.25
    g["bonuses"] = [{"position": 1, "text": "", "scores": 0.4, "basic": False},
                    {"position": 3, "text": "штраф", "scores": -0.2, "basic": False}]
    return g


def not_replayable() -> dict[str, Any]:
    """A course the rules refuse (a killed player votes on day 2): the importer keeps the
    protocol facts, the first killed (seat 6) and his best move (1, 2, 3)."""
    g = record(328005, list(range(103, 113)), {1: DON, 2: MAFIA, 3: MAFIA, 4: SHERIFF},
               num=5, result=1, started="2026-03-01T16:00:00")
    shoot(g, 1, {1: 6, 2: 6, 3: 6})
    guess(g, 6, [1, 2, 3])
    nominate(g, 2, 7, 8)
    nominate(g, 2, 8, 9)
    vote(g, 2, 1, {8: [6, 7, 1], 9: [2, 3, 4, 5, 8, 9, 10]})
    return g


def unfinished() -> dict[str, Any]:
    """A live game: no result yet."""
    return record(328006, list(range(101, 111)), {1: DON, 2: MAFIA, 3: MAFIA, 4: SHERIFF},
                  num=6, result=None, started="2026-03-01T17:00:00")


def all_records() -> list[dict[str, Any]]:
    return [red_win(), black_win(), removals(), facts_only(), not_replayable(), unfinished()]
