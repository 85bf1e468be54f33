"""One load per key at a time (app/server/single_flight.py), the way live tables are loaded and
replays built: who asks meanwhile shares the running load's answer or its error."""

from __future__ import annotations

import asyncio

import pytest

from app.server.single_flight import SingleFlight


async def test_askers_at_once_share_one_run_and_a_later_ask_runs_again() -> None:
    flights: SingleFlight[int, str] = SingleFlight()
    runs = 0
    gate = asyncio.Event()

    async def load() -> str:
        nonlocal runs
        runs += 1
        await gate.wait()
        return f"run {runs}"

    asks = [asyncio.create_task(flights.run(7, load)) for _ in range(5)]
    await asyncio.sleep(0)
    assert 7 in flights and 8 not in flights
    gate.set()
    assert await asyncio.gather(*asks) == ["run 1"] * 5
    assert 7 not in flights
    assert await flights.run(7, load) == "run 2"


async def test_every_asker_meets_the_load_s_error() -> None:
    flights: SingleFlight[str, int] = SingleFlight()
    gate = asyncio.Event()

    async def load() -> int:
        await gate.wait()
        raise LookupError("gone")

    asks = [asyncio.create_task(flights.run("t", load)) for _ in range(3)]
    await asyncio.sleep(0)
    gate.set()
    for ask in asks:
        with pytest.raises(LookupError, match="gone"):
            await ask
    assert "t" not in flights


async def test_a_cancelled_waiter_leaves_the_load_running_for_the_others() -> None:
    flights: SingleFlight[int, str] = SingleFlight()
    gate = asyncio.Event()

    async def load() -> str:
        await gate.wait()
        return "loaded"

    first = asyncio.create_task(flights.run(1, load))
    await asyncio.sleep(0)
    impatient = asyncio.create_task(flights.run(1, load))
    await asyncio.sleep(0)
    impatient.cancel()
    await asyncio.sleep(0)
    gate.set()
    assert await first == "loaded"
    assert impatient.cancelled()
