"""The engine kit: what every game is written with.

* ``Rng`` — the seeded generator held in the state (all 128 bits of the seed; same numbers on
  every Python version).
* ``snapshot`` — generic ``encode``/``decode`` of dataclass states.
* ``Commitments`` — hidden simultaneous choices (picks, orders, bids), revealed together.
* ``DecisionStack`` / ``Decision`` — nested sub-decisions; ``to_act`` and prompts read the top.
* ``MoveSchema`` / ``MoveSpec`` — move shapes checked before the rules, canonical forms; a move
  type's second shape (``MoveSpec.when``); ``one_of`` fields (a few words, or a word or a number).
* ``Turn`` / ``Phase`` / ``Step`` — a game's turn declared: each step's moves, awaited seats
  (``current``, ``committing``, ``deciding``), rule and prompt words. Prompts, the frame of every
  refusal and ``awaited`` come from it, so every game builds them one way (see below).
* ``Log`` / ``say`` / ``prompt`` / ``counted`` — log lines with seat references; one prompt shape;
  a count with its noun in the right number.
* ``KitEngine`` — the protocol written once over a game's ``setup/awaited/legal_moves/refusal/
  apply/view/result/determinize``.
* ``redeal`` — helpers for ``determinize``.

The turn shape. boardgame.io describes a game's flow as ``phases`` and ``turn.stages``, each
naming the moves allowed in it; a player makes only the moves of the stage it is in. The kit's
``Turn`` keeps that idea and drops the rest (no events, no move limits): the table is at one
step at a time (``where``), the step says whom it waits for, which move types it takes, the rule a
move out of it breaks, what the seat is doing and what its prompt says. So ``awaited`` is the
step's seats, a refusal is always checked in the same order (the game is over; not your turn;
not a move of this step; then the game's ``check`` of the move itself), and a prompt is always
``{kind: the step, text, choices: [{move, label}], ...the step's extras}``. A game keeps its own
words (refusal texts may be the game's) and its own legality (``legal_moves``, ``check``).

docs/ADDING_A_GAME.md walks through writing a game with it.
"""

from engines.kit import snapshot
from engines.kit.decisions import Decision, DecisionStack
from engines.kit.determinize import redeal
from engines.kit.engine import KitEngine
from engines.kit.hidden import Commitments
from engines.kit.moves import (
    BOOL,
    INT,
    INT_LIST,
    PAIR,
    STR,
    STR_LIST,
    FieldType,
    MoveSchema,
    MoveSpec,
    OneOf,
    one_of,
)
from engines.kit.rng import Rng
from engines.kit.texts import Log, choice, counted, prompt, ref, say
from engines.kit.turns import Phase, Step, Turn, committing, current, deciding

__all__ = [
    "BOOL", "INT", "INT_LIST", "PAIR", "STR", "STR_LIST", "Commitments", "Decision", "DecisionStack",
    "FieldType", "KitEngine", "Log", "MoveSchema", "MoveSpec", "OneOf", "Phase", "Rng", "Step", "Turn",
    "choice", "committing", "counted", "current", "deciding", "one_of", "prompt", "redeal", "ref", "say",
    "snapshot",
]
