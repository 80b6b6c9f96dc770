"""The event loop's gate in front of the hashing (issue 10 leftover): fair between
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
