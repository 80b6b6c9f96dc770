"""A tap of the judge's live screen on the server: time, replays of the log, statements and
transactions per batch, before and after the batch became one composed service call.

    .venv/bin/python bench/live.py [--events 40] [--rounds 15]

On a fresh demo database (SQLite) a game is recorded to `--events` events; then, in
`--rounds` rounds, a foul and its undo (two batches of one operation each: a tap, and a
judge taking it back) go through each path in turn, so both meet the same game:

* `before`: the composition the live service had (kept here as the baseline): read the
  game and replay its log, check the new log by replaying it, fill the facts (a finished
  replay, the paper's replay, `protocol_from_log`'s), `save_draft` (its `reconcile`
  replays again), and read the game again to answer (one more replay);
* `after`: `services.live_log.apply_ops` as it is: one `Protocols.save_live` transaction,
  the log replayed once.

It prints, per batch, the median server time of each, `after/before` as a ratio measured
in the same run, and the replays (`GameReplay` made), SQL statements and transactions.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import event

from mafiatab.domain import gamelog_engine
from mafiatab.domain.gamelog import protocol_from_log, replay
from mafiatab.domain.paper import paper_from_log
from mafiatab.domain.protocol import Game
from mafiatab.rules.profile import RuleProfile
from mafiatab.sample import sample_tournament
from mafiatab.sample_live import next_tap
from mafiatab.services import live_log, protocols
from mafiatab.services.clock import utcnow
from mafiatab.services.facade import Services
from mafiatab.services.games import Games
from mafiatab.services.live_log import (
    FROM_LOG,
    LiveGame,
    LiveRefused,
    Op,
    OutOfOrder,
    apply_ops,
    load,
    roles_of,
    tap_time,
)
from mafiatab.services.tournaments import PermissionDenied
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import populate


def _with_facts_before(game: Game, profile: RuleProfile) -> Game:
    """The facts as the service filled them: a finished replay, then the paper's."""
    roles = roles_of(game)
    if roles is None or not game.log:
        return game
    scores = {seat: msgspec.structs.replace(sc, penalties=[
        p for p in sc.penalties if not (p.note or "").startswith(FROM_LOG)])
        for seat, sc in game.scores.items()}
    done = replay(game.log, roles, profile, game.id, finish=True)
    if not done.ok:
        return game
    state = done.state
    fouls, days = paper_from_log(game.log, roles, profile, game.id)
    probe = msgspec.structs.replace(
        game, result=state.result or "", first_killed=state.first_killed,
        best_move=list(state.best_move), day1_vote_left=state.day1_vote_left,
        scores=scores, fouls=fouls, days=days)
    if not done.ended:
        return probe
    derived, problems = protocol_from_log(probe, profile)
    return game if problems else derived


def apply_ops_before(games: Games, steps: protocols.Protocols, tournament: int, code: str,
                     ops: Sequence[Op], *, actor: str, base_revision: int,
                     clock: Callable[[], dt.datetime] = utcnow) -> tuple[LiveGame, int, int]:
    """The baseline: the live service as composed before (read, replay, check, facts,
    save, read again), each step its own transaction."""
    if not steps.may_edit(tournament, code, actor):
        raise PermissionDenied("not_allowed", user=actor, action="save",
                               tournament=str(tournament), roles=["judge"])
    live = load(games, tournament, code)
    new = [op for op in ops if op.id not in live.done]
    if not new:
        return live, 0, len(ops)
    for k, op in enumerate(new):
        if op.seq != live.seq + 1 + k:
            raise OutOfOrder(code, live.seq + 1 + k, op.seq)
    game, log, ids = live.game, live.log, list(live.ids)
    roles = roles_of(game)
    now = clock()
    for op in new:
        if op.undo is not None:
            log.pop()
            ids.pop()
            continue
        previous = live_log.parse_instant(log[-1].get("at")) if log else None
        log.append({**(op.event or {}), "at": tap_time(op, now, previous)})
        ids.append(op.id)
    if roles is not None and log:
        done = replay(log, roles, live.profile, code, finish=False)
        if not done.ok:
            raise LiveRefused(new[-1], [p for p in done.problems if not p.warning])
    kept = set(ids)
    undone = [i for i in live.ids if i not in kept and not i.startswith("log-")]
    meta = live_log._stored_meta(ids, [*live.gone, *undone, *(op.id for op in new)],  # noqa: SLF001
                                 live.seq + len(new))
    game = msgspec.structs.replace(game, log=log, other={**game.other, live_log.LIVE_KEY: meta})
    game = _with_facts_before(game, live.profile)
    steps.save_draft(tournament, game.id, game, actor=actor, base_revision=base_revision)
    return load(games, tournament, code), len(new), 0


class Counts:
    """Replays (a `GameReplay` made), SQL statements and transactions while counting."""

    def __init__(self, svc: Services) -> None:
        self.replays = self.statements = self.transactions = 0
        original = gamelog_engine.GameReplay.__init__

        def counted(this: Any, *args: Any, **kwargs: Any) -> None:
            self.replays += 1
            original(this, *args, **kwargs)

        gamelog_engine.GameReplay.__init__ = counted  # type: ignore[method-assign]
        event.listen(svc.engine, "before_cursor_execute", self._statement)
        event.listen(svc.engine, "begin", self._begin)

    def _statement(self, *args: Any) -> None:
        self.statements += 1

    def _begin(self, *args: Any) -> None:
        self.transactions += 1

    @contextmanager
    def taking(self) -> Iterator[dict[str, int]]:
        before = (self.replays, self.statements, self.transactions)
        out: dict[str, int] = {}
        yield out
        out.update(replays=self.replays - before[0], statements=self.statements - before[1],
                   transactions=self.transactions - before[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=40, help="the game's length when measured")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "live.sqlite"
        engine = make_engine(str(path))
        demo = populate(engine, sample_tournament("fsm", 10, 2, seed=2026, final_round=True,
                                                  name="Bench"), path)
        engine.dispose()
        svc = Services(make_engine(str(path)))
        tid, code, judge = demo.tournament, demo.open_games[0], "judge1"
        fouls: dict[int, int] = {}
        for n in range(args.events):
            live = load(svc.games, tid, code)
            tap = next_tap(live, fouls)
            if tap is None:
                break
            apply_ops(svc.games, svc.protocols, tid, code,
                      [Op(id=f"tap-{n}", seq=live.seq + 1, event=tap)],
                      actor=judge, base_revision=live.revision.number)
        counts = Counts(svc)
        paths = {"before": apply_ops_before, "after": apply_ops}
        times: dict[str, list[float]] = {k: [] for k in paths}
        seen: dict[str, dict[str, int]] = {}
        for r in range(args.rounds):
            for label, run in paths.items():
                live = load(svc.games, tid, code)
                seat = (live.replayed.next_step().at_table if live.replayed else (1,))[0]
                foul = Op(id=f"{label}-foul-{r}", seq=live.seq + 1,
                          event={"type": "foul", "seat": seat})
                with counts.taking() as one:
                    start = time.perf_counter()
                    after, _n, _d = run(svc.games, svc.protocols, tid, code, [foul],
                                        actor=judge, base_revision=live.revision.number)
                    times[label].append(time.perf_counter() - start)
                seen[label] = one
                undo = Op(id=f"{label}-undo-{r}", seq=after.seq + 1, undo=after.ids[-1])
                start = time.perf_counter()
                run(svc.games, svc.protocols, tid, code, [undo], actor=judge,
                    base_revision=after.revision.number)
                times[label].append(time.perf_counter() - start)
        svc.engine.dispose()
    n = args.events
    for label in paths:
        c = seen[label]
        print(f"{label:>6}: {statistics.median(times[label]) * 1000:7.1f} ms a batch "
              f"(median of {len(times[label])}), {c['replays']} replays, "
              f"{c['statements']} SQL statements, {c['transactions']} transactions "
              f"(a foul on a log of {n} events)")
    ratio = statistics.median(times["after"]) / statistics.median(times["before"])
    print(f"after/before: {ratio:.2f}")


if __name__ == "__main__":
    main()
