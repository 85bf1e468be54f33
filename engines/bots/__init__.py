"""Bots for every game: "easy" (random among sensible moves) and "good" (Information Set Monte
Carlo Tree Search over determinizations, with a game's own evaluation where it has one).

    from engines.bots import Budget, choose
    move = choose(engine, state, seat, "good", Rng.from_seed(bot_seed), Budget(seconds=0.9))

A bot sees only its seat: it works on ``engine.determinize(state, seat, rng)``, never on the
true state. Per-game hooks live beside this file (``engines/bots/<game id>.py``), never inside
an engine. See engines/bots/README.md for the levels, the budget and the measured strength.
"""

from engines.bots.core import DEFAULT, LEVELS, Budget, Choice, Weighed, Weighing, choose, decide, weigh
from engines.bots.hooks import Hooks, hooks_for

__all__ = ["DEFAULT", "LEVELS", "Budget", "Choice", "Hooks", "Weighed", "Weighing", "choose", "decide", "hooks_for",
           "weigh"]
