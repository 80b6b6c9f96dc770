"""Two head judges saving the same protocol at once: exactly one wins, the other is told of
the conflict, and no update is lost (optimistic locking on both databases). They are head
judges because only staff edit a protocol that is not their own table's."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import msgspec

from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.services.tournaments import ConflictError
from mafiatab.storage.models import HEAD_JUDGE


def _setup(service: Services, judges: list[str]) -> tuple[int, Any]:
    sample = sample_tournament("fsm", 10, 1, seed=5)
    tid = service.tournaments.create_tournament("Race", "fsm", actor="org", stages=sample.stages)
    service.tournaments.register_players(tid, sample.players, actor="org")
    for j in judges:
        service.access.grant_role(tid, j, HEAD_JUDGE, actor="org")
    game = sample.games[0]
    service.games.add_game(tid, game, actor=judges[0])
    return tid, game


def _run_together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Start the jobs at the same moment; each result or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except Exception as e:  # collected and checked by the test
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def test_same_base_exactly_one_wins(service: Services) -> None:
    tid, game = _setup(service, ["a", "b"])
    for attempt in range(5):  # several rounds, so that the race really happens both ways
        base = service.games.head(tid, game.id).number
        mine = {j: msgspec.structs.replace(game, judge=f"{j}-{attempt}") for j in ("a", "b")}
        results = _run_together([
            lambda j=j, g=mine[j], b=base: service.protocols.save_draft(
                tid, game.id, g, actor=j, base_revision=b)
            for j in ("a", "b")
        ])
        wins = [r for r in results if not isinstance(r, Exception)]
        losses = [r for r in results if isinstance(r, ConflictError)]
        assert len(wins) == 1 and len(losses) == 1, results
        win, loss = wins[0], losses[0]
        assert win.number == base + 1
        assert (loss.head, loss.author, loss.base) == (base + 1, win.author, base)
        # nothing lost: the winner's protocol is the head, the loser's is in the audit log
        assert service.games.head(tid, game.id).protocol["judge"] == f"{win.author}-{attempt}"
        loser = "b" if win.author == "a" else "a"
        assert loss.yours is not None and loss.yours["judge"] == f"{loser}-{attempt}"
        kept = [d for _, _, action, d in service.tournaments.audit_log(tid, actor="org")
                if action == "conflict"]
        assert kept[-1]["protocol"]["judge"] == f"{loser}-{attempt}"


def test_retrying_judges_lose_no_update(service: Services) -> None:
    judges = ["a", "b", "c", "d"]
    tid, game = _setup(service, judges)
    per_judge = 3

    def judge(name: str) -> int:
        conflicts = 0
        for k in range(per_judge):
            while True:
                head = service.games.head(tid, game.id)
                try:
                    service.protocols.save_draft(
                        tid, game.id, msgspec.structs.replace(game, judge=f"{name}{k}"),
                        actor=name, base_revision=head.number)
                    break
                except ConflictError:
                    conflicts += 1
        return conflicts

    results = _run_together([lambda n=n: judge(n) for n in judges])
    assert all(isinstance(r, int) for r in results), results
    revisions = service.games.revisions(tid, game.id)
    assert [r.number for r in revisions] == list(range(1, 2 + len(judges) * per_judge))
    saved = {r.protocol.get("judge") for r in revisions[1:]}
    assert saved == {f"{n}{k}" for n in judges for k in range(per_judge)}


def test_concurrent_confirmations(service: Services) -> None:
    """Two head judges confirming the same submitted protocol: one confirms, one conflicts."""
    tid, game = _setup(service, ["a"])
    for hj in ("h1", "h2"):
        service.access.grant_role(tid, hj, "head_judge", actor="org")
    service.protocols.submit(tid, game.id, actor="a", base_revision=None)
    results = _run_together([
        lambda hj=hj: service.protocols.confirm(tid, game.id, actor=hj, base_revision=2)
        for hj in ("h1", "h2")
    ])
    assert sum(isinstance(r, ConflictError) for r in results) == 1
    assert [r.state for r in service.games.revisions(tid, game.id)] == [
        "draft", "submitted", "confirmed"]


def test_new_games_of_one_new_round_at_once(service: Services) -> None:
    """The staff entering the first protocols of a new round's tables at the same time:
    all are saved (the round and tables are made once, not fought over)."""
    sample = sample_tournament("fsm", 40, 1, seed=8)
    tid = service.tournaments.create_tournament("Round", "fsm", actor="org", stages=sample.stages)
    service.tournaments.register_players(tid, sample.players, actor="org")
    judges = [f"j{i}" for i in range(len(sample.games))]
    for j in judges:
        service.access.grant_role(tid, j, HEAD_JUDGE, actor="org")
    results = _run_together([
        lambda j=j, g=g: service.games.add_game(tid, g, actor=j)
        for j, g in zip(judges, sample.games, strict=True)
    ])
    assert all(not isinstance(r, Exception) for r in results), results
    assert {service.games.head(tid, g.id).number for g in sample.games} == {1}
