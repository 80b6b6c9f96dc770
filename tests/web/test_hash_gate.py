"""The event loop's gate in front of the hashing: fair between
addresses, so that a sign-in flood from one address cannot hold every hashing slot while
the judges, each at an address of his own, wait (bench/web.py --flood)."""

from __future__ import annotations

import asyncio

from mafiatab.services.accounts import HASH_SLOTS
from mafiatab.web.security import HashGate


def test_one_address_holds_at_most_its_share_of_the_slots() -> None:
    async def main() -> None:
        gate = HashGate(HASH_SLOTS)
        flood, judge = "127.0.0.1", "127.0.0.2"
        assert await gate.enter(0.1, flood)
        assert not await gate.enter(0.1, flood)  # its share is taken: it waits its turn
        assert await gate.enter(0.1, judge)  # the other slot stayed free for the others
        assert not await gate.enter(0.1, "127.0.0.3")  # every slot busy
        gate.leave(flood)
        assert await gate.enter(0.1, flood)
        gate.leave(flood)
        gate.leave(judge)
        assert await gate.enter(0.1, "127.0.0.3") and await gate.enter(0.1, judge)

    asyncio.run(main())


def test_a_free_slot_goes_to_the_address_waiting_longest_for_its_turn() -> None:
    """A flood's many waiting connections do not queue ahead of a judge: the freed slot
    goes to the address let in least recently (the judge, never let in), not to whichever
    of the flood's twenty waiters polls first."""

    async def main() -> None:
        gate = HashGate(HASH_SLOTS)
        flood, other, judge = "127.0.0.2", "127.0.0.3", "127.0.0.1"
        assert await gate.enter(0.1, flood) and await gate.enter(0.1, other)
        order: list[str] = []

        async def wait_in(who: str) -> None:
            if await gate.enter(5, who):
                order.append(who)

        waiters = [asyncio.create_task(wait_in(flood)) for _ in range(20)]
        await asyncio.sleep(0.05)
        waiters.append(asyncio.create_task(wait_in(judge)))
        await asyncio.sleep(0.05)
        gate.leave(flood)
        await asyncio.sleep(0.2)
        assert order == [judge]
        gate.leave(judge)  # now the flood's oldest waiter
        await asyncio.sleep(0.2)
        assert order == [judge, flood]
        for w in waiters:
            w.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)

    asyncio.run(main())


def test_a_waiter_that_gives_up_leaves_the_queue() -> None:
    async def main() -> None:
        gate = HashGate(2, per_address=2)
        assert await gate.enter(0.1, "a") and await gate.enter(0.1, "a")
        assert not await gate.enter(0.05, "b")  # timed out: it must not keep its turn
        cancelled = asyncio.create_task(gate.enter(5, "c"))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        gate.leave("a")
        assert await gate.enter(0.1, "d")

    asyncio.run(main())


def test_an_address_of_wrong_sign_ins_waits_behind_the_others() -> None:
    """After `SUSPECT_FAILURES` wrong sign-ins an address's waiters go last: a judge who
    came after them gets the free slot, however recently he was let in; one wrong
    password (a judge's typo) does not send an address back."""

    async def main() -> None:
        gate = HashGate(HASH_SLOTS)
        flood, typo, judge = "127.0.0.2", "127.0.0.3", "127.0.0.1"
        assert await gate.enter(0.1, judge)  # the judge was let in last...
        gate.leave(judge)
        for _ in range(HashGate.SUSPECT_FAILURES):
            gate.failed(flood)
        gate.failed(typo)
        assert await gate.enter(0.1, "127.0.0.9") and await gate.enter(0.1, "127.0.0.8")
        order: list[str] = []

        async def wait_in(who: str) -> None:
            if await gate.enter(5, who):
                order.append(who)

        waiters = [asyncio.create_task(wait_in(flood)) for _ in range(5)]
        await asyncio.sleep(0.05)
        waiters += [asyncio.create_task(wait_in(judge)), asyncio.create_task(wait_in(typo))]
        await asyncio.sleep(0.05)
        gate.leave("127.0.0.9")
        gate.leave("127.0.0.8")
        await asyncio.sleep(0.2)
        assert sorted(order) == [judge, typo]  # ...and still goes before the flood
        gate.leave(judge)
        await asyncio.sleep(0.2)
        assert order[2:] == [flood]  # the flood gets what the others leave
        for w in waiters:
            w.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)

    asyncio.run(main())
