"""The engine kit: what every game is written with.

* ``Rng`` — the seeded generator held in the state (all 128 bits of the seed; same numbers on
  every Python version).
* ``snapshot`` — generic ``encode``/``decode`` of dataclass states.
* ``Commitments`` — hidden simultaneous choices (picks, orders, bids), revealed together.
* ``DecisionStack`` / ``Decision`` — nested sub-decisions; ``to_act`` and prompts read the top.
* ``MoveSchema`` / ``MoveSpec`` — move shapes checked before the rules, canonical forms.
* ``Log`` / ``say`` / ``prompt`` / ``counted`` — log lines with seat references; one prompt shape;
  a count with its noun in the right number.
* ``KitEngine`` — the protocol written once over a game's ``setup/awaited/legal_moves/refusal/
  apply/view/result/determinize``.
* ``redeal`` — helpers for ``determinize``.

docs/ADDING_A_GAME.md walks through writing a game with it.
"""

from engines.kit import snapshot
from engines.kit.decisions import Decision, DecisionStack
from engines.kit.determinize import redeal
from engines.kit.engine import KitEngine
from engines.kit.hidden import Commitments
from engines.kit.moves import BOOL, INT, INT_LIST, PAIR, STR, STR_LIST, FieldType, MoveSchema, MoveSpec
from engines.kit.rng import Rng
from engines.kit.texts import Log, choice, counted, prompt, ref, say

__all__ = [
    "BOOL", "INT", "INT_LIST", "PAIR", "STR", "STR_LIST", "Commitments", "Decision", "DecisionStack",
    "FieldType", "KitEngine", "Log", "MoveSchema", "MoveSpec", "Rng", "choice", "counted", "prompt", "redeal",
    "ref", "say", "snapshot",
]
