"""A judge's taps for a sample live game: the next legal event of the game as it stands,
a foul now and then to make it long. The live-storage bench and its test record games with
it (one generator, so that both measure the same games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from mafiatab.domain.gamelog_state import Step

if TYPE_CHECKING:
    from mafiatab.services.live_log import LiveGame

#: the deal of every sample game (seat 3 the don, 7 the sheriff, 5 and 9 the mafia)
ROLES: Final = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]


def next_tap(live: LiveGame, fouls: dict[int, int]) -> dict[str, Any] | None:
    """A legal next event, as a judge would tap it (a foul now and then to make the game
    as long as asked); None when the game is over."""
    if not live.dealt:
        return {"type": "deal", "roles": ROLES}
    assert live.replayed is not None
    step = live.replayed.next_step()
    kinds = set(step.kinds)
    at_table = sorted(step.at_table)
    if step.step is Step.ENDED:
        return None
    if step.step is Step.SPEECHES and step.seat is not None:
        seat = step.seat
        if fouls.get(seat, 0) < 2 and len(live.log) % 2 == 0:
            fouls[seat] = fouls.get(seat, 0) + 1
            return {"type": "foul", "seat": seat}
        event: dict[str, Any] = {"type": "speech", "seat": seat}
        today: list[dict[str, Any]] = []
        for e in reversed(live.log):
            if e.get("type") not in ("speech", "foul"):
                break
            today.append(e)
        reds = [s for s in at_table if ROLES[s - 1] == "red" and s != seat]
        if reds and not any("nominates" in e for e in today):
            event["nominates"] = reds[0]
        return event
    if "vote" in kinds and step.candidates:
        return {"type": "vote", "counts": {str(step.candidates[0]): len(at_table)}}
    if "defence" in kinds and step.seat is not None:
        return {"type": "defence", "seat": step.seat}
    if "lift" in kinds:
        return {"type": "lift", "passed": True}
    if "last_words" in kinds and step.last_words:
        return {"type": "last_words", "seat": step.last_words[0]}
    if "shot" in kinds:
        reds = [s for s in at_table if ROLES[s - 1] == "red"]
        shots = sum(1 for e in live.log if e.get("type") == "shot")
        return {"type": "shot", "target": reds[-1] if reds and shots % 2 else None}
    done = {e.get("type") for e in live.log[-3:]}
    if "don_check" in kinds and "don_check" not in done:
        return {"type": "don_check", "target": next(x for x in at_table if x != 3)}
    if "sheriff_check" in kinds and "sheriff_check" not in done:
        return {"type": "sheriff_check", "target": next(x for x in at_table if x != 7)}
    if "speech" in kinds and step.seat is not None:
        return {"type": "speech", "seat": step.seat}
    return None
