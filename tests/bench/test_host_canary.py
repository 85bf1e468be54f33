"""The host canary (bench/host_canary.py): what makes a slow spell, and which round trips are
away from every spell."""

from __future__ import annotations

import time

from bench.host_canary import RUN, Canary, Spell, find_spells, outside

MEDIAN = 0.0001  # s: a piece's usual time


def pieces(ratios: list[float], start: float = 100.0, every: float = 0.004) -> list[tuple[float, float, float]]:
    out = []
    for i, r in enumerate(ratios):
        began = start + i * every
        out.append((began, began + r * MEDIAN, r * MEDIAN))
    return out


def test_a_run_of_slow_pieces_is_a_spell_from_its_first_piece_to_the_end_of_its_last():
    samples = pieces([1, 1, 10, 12, 11, 1, 1])
    (spell,) = find_spells(samples, MEDIAN)
    assert spell.pieces == 3
    assert spell.start == samples[2][0] and spell.end == samples[4][1]
    assert spell.worst == 12


def test_a_lone_slow_piece_is_the_canary_preempted_not_a_spell():
    # two slow pieces are not a run of RUN; slow pieces more than GAP apart are not one run
    assert RUN == 3
    assert find_spells(pieces([1, 9] + [1] * 6 + [9, 9] + [1] * 6), MEDIAN) == []


def test_a_spell_goes_on_across_a_few_usual_pieces_within_the_gap():
    (spell,) = find_spells(pieces([10, 1, 10, 1, 1, 10]), MEDIAN)
    assert spell.pieces == 3


def test_a_window_of_a_few_pieces_has_a_usual_time_but_no_spells():
    canary = Canary()
    canary.samples = pieces([1, 20, 20, 20, 1])
    assert canary.spells() == [] and canary.median == 20 * MEDIAN
    assert Canary().summary()["host_spells"] == 0


def test_slow_pieces_far_apart_are_two_spells_and_pieces_just_over_three_times_are_slow():
    samples = pieces([4, 4, 4] + [1] * 10 + [3.5, 20, 20, 20])
    spells = find_spells(samples, MEDIAN)
    assert [s.pieces for s in spells] == [3, 4]


def test_round_trips_overlapping_a_spell_or_the_backlog_after_it_are_left_out():
    spell = Spell(start=10.0, end=10.1, pieces=5, worst=12)
    times = [
        (9.0, 5.0),  # long before
        (9.99, 20.0),  # sent before, answered inside
        (10.05, 1.0),  # inside
        (10.105, 1.0),  # in the backlog's 10 ms after it
        (10.2, 3.0),  # after
    ]
    assert outside(times, [spell]) == [5.0, 3.0]
    assert outside(times, []) == [5.0, 20.0, 1.0, 1.0, 3.0]


def test_the_canary_measures_pieces_on_its_thread_and_sums_up_the_window():
    canary = Canary(every=0.001).start()
    deadline = time.monotonic() + 10
    while len(canary.samples) < 300 and time.monotonic() < deadline:
        time.sleep(0.05)
    canary.stop()
    summary = canary.summary()
    assert len(canary.samples) >= 300
    assert summary["canary_piece_ms"] > 0
    assert 0 <= summary["host_slowed_pct"] <= 100
    assert summary["host_spells"] == len(canary.spells())
