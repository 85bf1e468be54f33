"""Log lines name seats through references; prompts have one shape."""

from __future__ import annotations

from engines.kit import Log, counted, prompt, redeal, say
from engines.kit.rng import Rng


def test_say_puts_seat_references_for_positional_seats_and_values_by_name():
    assert say("{0} removes {1}'s Beefeater from building {b}", 2, 0, b=7) == \
        "{seat:2} removes {seat:0}'s Beefeater from building 7"


def test_a_log_line_may_read_differently_for_some_seats():
    log = Log()
    log.say("{0} drew a card", 1, privately={1: "You drew {card}"}, card="Brewery")
    (event,) = log.events
    assert event.for_seat(0) == "{seat:1} drew a card"
    assert event.for_seat(None) == "{seat:1} drew a card"
    assert event.for_seat(1) == "You drew Brewery"


def test_a_prompt_lists_every_move_with_a_label():
    moves = [{"type": "draw"}, {"type": "pass"}]
    p = prompt("start", "Draw or pass", moves, lambda m: m["type"].title(), step="start")
    assert p == {"kind": "start", "text": "Draw or pass", "step": "start",
                 "choices": [{"move": {"type": "draw"}, "label": "Draw"},
                             {"move": {"type": "pass"}, "label": "Pass"}]}


def test_redeal_keeps_each_places_size_and_all_items():
    a, b, c = [1, 2, 3], [4], [5, 6]
    redeal(Rng.from_seed(3), a, b, c)
    assert (len(a), len(b), len(c)) == (3, 1, 2)
    assert sorted(a + b + c) == [1, 2, 3, 4, 5, 6]


def test_a_count_names_its_noun_in_the_right_number_for_one_and_for_many():
    assert counted(1, "point") == "1 point"
    assert counted(0, "point") == "0 points"
    assert counted(2, "footman", "footmen") == "2 footmen"
    assert counted(1, "footman", "footmen") == "1 footman"


def test_redeal_depends_on_what_the_places_hold_not_on_their_order():
    a, b = [9, 1, 5], [2, 7]
    c, d = [5, 9, 1], [7, 2]  # the same cards in the same places, held in another order
    redeal(Rng.from_seed(11), a, b)
    redeal(Rng.from_seed(11), c, d)
    assert (a, b) == (c, d)
