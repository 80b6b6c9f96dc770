"""Games written in mafiaratings' public game format (szotin/mafiaratings, include/game.php),
built here by hand: one field per fact, as that system records a game.

Roles in every game: seat 3 the don, 5 and 9 black, 7 the sheriff, the others red
("civ" is also what a missing role means). Rounds count from 0: round r is night r,
then day r (our day r + 1).
"""

from __future__ import annotations

from typing import Any

ROLES = {3: "don", 5: "maf", 7: "sheriff", 9: "maf"}


def _players(**fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Ten players; `fields` by seat ("p3": {...}) adds to the defaults."""
    players = []
    for seat in range(1, 11):
        player: dict[str, Any] = {"id": 100 + seat, "name": f"Player {seat}"}
        if seat in ROLES:
            player["role"] = ROLES[seat]
        player.update(fields.get(f"p{seat}", {}))
        players.append(player)
    return players


def _at(rnd: int, time: str, **more: Any) -> dict[str, Any]:
    return {"round": rnd, "time": time, **more}


def red_win_with_revote() -> dict[str, Any]:
    """Day 1: 5 and 9 tie, 5 leaves in the repeated vote; night 1: 1 is killed (best move
    3, 9, 4), the don finds the sheriff, the sheriff finds the don; day 2: 9 the only
    nominee; night 2: 2 is killed; day 3: 3 the only nominee. The red team wins."""
    day1 = {1: [5, 5], 2: [5, 5], 3: [5, 5], 4: [5, 5], 6: [5, 5], 7: [9, 5],
            5: [9, 9], 8: [9, 9], 9: [9, 9], 10: [9, 9]}
    players = _players(
        p1={"nominating": [5], "death": {"round": 1, "type": "night"}, "legacy": [3, 9, 4]},
        p2={"nominating": [9], "death": {"round": 2, "type": "night"}},
        p3={"nominating": [None, 9], "shooting": [1, 2], "sheriff": 1,
            "death": {"round": 2, "type": "day"}},
        p4={"nominating": [None, None, 3]},
        p5={"death": {"round": 0, "type": "day"}},
        p7={"don": 1},
        p8={"warnings": [_at(1, "speaking", speaker=2)]},
        p9={"shooting": [1], "death": {"round": 1, "type": "day"}},
    )
    for seat, votes in day1.items():
        players[seat - 1]["voting"] = [votes]
    return {"id": 1001, "features": "gsdutclhvnwr", "winner": "civ", "players": players}


def black_win_with_a_miss() -> dict[str, Any]:
    """No nominations; the black team kills 1 (best move 5, 9, 3), misses in night 2,
    then kills 2, 4 and 6: three black and three red at the table, the black team wins."""
    players = _players(
        p1={"death": {"round": 1, "type": "night"}, "legacy": [5, 9, 3]},
        p2={"death": {"round": 3, "type": "night"}},
        p3={"shooting": [1, 2, 2, 4, 6]},
        p4={"death": {"round": 4, "type": "night"}},
        p5={"shooting": [1, 4, 2, 4, 6], "sheriff": 1},
        p6={"death": {"round": 5, "type": "night"}},
        p7={"don": 2},
        p9={"shooting": [1, 2, 2, 4, 6]},
    )
    return {"id": 1002, "features": "gsdutclhvnwr", "winner": "maf", "players": players}


def removals_and_fouls() -> dict[str, Any]:
    """Seat 4 gets 3 fouls at the agreement (loses day 1's speech, speaks on day 2) and his
    4th during seat 6's speech on day 2 (that vote is cancelled); seat 1, killed in night
    1, gets a foul during his own last words; seat 10 is removed at night 2 (day 3's vote
    is cancelled); seat 5's aim is never recorded (nights 2 and 3 are misses); black seat 9
    loses the game for his team during his speech on day 4. Also a bonus, a comment and a technical foul."""
    four = [_at(0, "arrangement"), _at(0, "arrangement"), _at(0, "arrangement"),
            _at(1, "speaking", speaker=6)]
    players = _players(
        p1={"death": {"round": 1, "type": "night"},
            "warnings": [_at(1, "night kill speaking", speaker=1)]},
        p2={"nominating": [None, 5]},
        p3={"nominating": [None, 7], "shooting": [1, 6, 8]},
        p4={"warnings": four,
            "death": {"round": 1, "type": "warnings", "time": _at(1, "speaking", speaker=6)}},
        p6={"bonus": "bestPlayer", "comment": "good game"},
        p8={"techFouls": 1},
        p9={"shooting": [1, 8, 6],
            "death": {"round": 3, "type": "teamKickOut", "time": _at(3, "speaking", speaker=9)}},
        p10={"death": {"round": 2, "type": "kickOut", "time": _at(2, "night start")}},
    )
    return {"id": 1003, "features": "gsdutclhvnwr", "winner": "civ", "players": players}


def lift_of_two(with_voters: bool = True) -> dict[str, Any]:
    """Day 1: 5 and 9 tie twice; six of ten vote to lift both, and both leave. Night 1:
    1 is killed (best move 3, 4, 6); day 2: 3 the only nominee. Without `with_voters`
    the record does not say who voted on the lift (a record without the "k" feature)."""
    day1 = {1: [5, 5, True], 2: [5, 5, True], 3: [5, 5, False], 4: [5, 5, True],
            6: [5, 5, True], 5: [9, 9, False], 7: [9, 9, True], 8: [9, 9, True],
            9: [9, 9, False], 10: [9, 9, False]}
    players = _players(
        p1={"nominating": [5], "death": {"round": 1, "type": "night"}, "legacy": [3, 4, 6]},
        p2={"nominating": [9, 3]},
        p3={"shooting": [1], "death": {"round": 1, "type": "day"}},
        p5={"death": {"round": 0, "type": "day"}},
        p9={"death": {"round": 0, "type": "day"}},
    )
    for seat, votes in day1.items():
        players[seat - 1]["voting"] = [votes if with_voters else votes[:2]]
    features = "gsdutclhvknwr" if with_voters else "gsdutclhvnwr"
    return {"id": 1004 if with_voters else 1005, "features": features, "winner": "civ",
            "players": players}


def draw_by_quiet_nights() -> dict[str, Any]:
    """Nobody is nominated and every shot misses: three nights and days in a row with
    nobody leaving, from night 1: a draw (FIIM 7.8) when day 4 ends."""
    players = _players(
        p3={"shooting": [1, 2, 4]},
        p5={"shooting": [2, 4, 6]},
        p9={"shooting": [1, 2, 4]},
    )
    return {"id": 1006, "features": "gsdutclhvnwr", "winner": "tie", "players": players}


def split_then_lift_fails() -> dict[str, Any]:
    """Day 1: 1, 5 and 9 nominated; 5 and 9 tie, then tie again; the lift fails (4 of
    10). A foul during the vote on 9, one during 5's speech before the repeated vote,
    one during the vote on lifting. Night 1: 2 killed; day 2: 6 nominates 5, 8
    nominates 9; 9 leaves; night 2: 4 killed; day 3: 5 the only nominee; night 3: 6
    killed; day 4: 3 the only nominee. The red team wins."""
    votes = {1: [5, 5, True], 2: [5, 5, True], 3: [5, 5, False], 4: [5, 5, True],
             6: [5, 5, True], 5: [9, 9, False], 7: [9, 9, False], 8: [9, 9, False],
             9: [9, 9, False], 10: [9, 9, False]}
    players = _players(
        p1={"nominating": [5]},
        p2={"nominating": [9], "death": {"round": 1, "type": "night"}, "legacy": [5, 9]},
        p3={"nominating": [1], "shooting": [2, 4, 6], "death": {"round": 3, "type": "day"},
            "warnings": [_at(0, "voting", votingRound=0, nominee=9)]},
        p4={"death": {"round": 2, "type": "night"}},
        p5={"shooting": [2, 4], "death": {"round": 2, "type": "day"},
            "warnings": [_at(0, "voting", votingRound=0, speaker=5)]},
        p6={"nominating": [None, 5], "death": {"round": 3, "type": "night"}},
        p7={"nominating": [None, None, 5, 3]},
        p8={"nominating": [None, 9], "warnings": [_at(0, "voting kill all")]},
        p9={"shooting": [2], "death": {"round": 1, "type": "day"}},
    )
    for seat, v in votes.items():
        players[seat - 1]["voting"] = [v, None]
    day2 = {1: 9, 3: 5, 4: 9, 5: 5, 6: 9, 7: 9, 8: 9, 9: 5, 10: 9}
    for seat, v in day2.items():
        players[seat - 1]["voting"] = [votes[seat], v]
    return {"id": 1007, "features": "gsdutclhvknwr", "winner": "civ", "players": players}
