"""Rule 12 (scoring in seven steps) and rule 13 (the winner and the tie-breaks).

Scoring reads the final state and never changes it, so a finished game can be viewed, encoded and
scored again with the same answer.
"""

from __future__ import annotations

from typing import Any

from engines.base import Result
from engines.london.components import CARDS
from engines.london.state import REPAY_COST, State

UNPAID_LOAN_PENALTY = 7
MONEY_PER_VP = 3
POVERTY_SCALE = (0, 1, 1, 2, 5, 7, 9, 11, 13, 15, 17)
"""Prestige lost for 0..10 poverty left after step 6; beyond 10, 2 more per point."""


def poverty_penalty(poverty: int) -> int:
    """Step 7, the rising scale.

    >>> [poverty_penalty(n) for n in (0, 1, 2, 3, 4, 10, 11, 13)]
    [0, 1, 1, 2, 5, 17, 19, 23]
    """
    if poverty <= 10:
        return POVERTY_SCALE[max(0, poverty)]
    return POVERTY_SCALE[10] + 2 * (poverty - 10)


def score(s: State) -> list[dict[str, Any]]:
    """The seven steps for every player, in order, each recorded for the end screen."""
    rows: list[dict[str, Any]] = []
    for seat, p in enumerate(s.players):
        hand = len(p.hand)
        poverty = p.poverty + hand  # (1)
        display = [c for st in p.stacks for c in st]
        card_vp = sum(CARDS[c].prestige for c in display)  # (2)
        repaid = min(p.loans, p.money // REPAY_COST)  # (3)
        money = p.money - repaid * REPAY_COST
        money_vp = money // MONEY_PER_VP  # (4)
        unpaid = p.loans - repaid
        rows.append({"seat": seat, "prestige": p.prestige, "hand": hand, "poverty": poverty,
                     "card_vp": card_vp, "repaid": repaid, "money": money, "money_vp": money_vp,
                     "unpaid": unpaid, "boroughs": len(p.boroughs),
                     "best_card": max((CARDS[c].prestige for c in display), default=0)})
    lowest = min(r["poverty"] for r in rows)  # (6)
    out: list[dict[str, Any]] = []
    for r in rows:
        left = r["poverty"] - lowest
        penalty = poverty_penalty(left)  # (7)
        total = (r["prestige"] + r["card_vp"] + r["money_vp"] - UNPAID_LOAN_PENALTY * r["unpaid"]
                 - penalty)
        out.append({
            "seat": r["seat"],
            "prestige_in_play": r["prestige"],
            "steps": [
                {"step": 1, "label": "Cards left in hand become poverty and leave the game",
                 "cards": r["hand"], "poverty": r["hand"], "vp": 0},
                {"step": 2, "label": "End-game prestige of every display card", "vp": r["card_vp"]},
                {"step": 3, "label": "Loans repaid at £15 each", "loans": r["repaid"],
                 "money_spent": r["repaid"] * REPAY_COST, "vp": 0},
                {"step": 4, "label": "+1 VP per full £3 left", "money": r["money"], "vp": r["money_vp"]},
                {"step": 5, "label": "−7 VP per unpaid loan", "loans": r["unpaid"],
                 "vp": -UNPAID_LOAN_PENALTY * r["unpaid"]},
                {"step": 6, "label": "Lowest poverty clears; everyone subtracts the same",
                 "poverty_before": r["poverty"], "subtracted": lowest, "poverty_after": left, "vp": 0},
                {"step": 7, "label": "Remaining poverty costs VP on the rising scale",
                 "poverty": left, "vp": -penalty},
            ],
            "poverty": left,
            "boroughs": r["boroughs"],
            "best_card": r["best_card"],
            "total": total,
        })
    return out


def tiebreak_key(row: dict[str, Any]) -> tuple[int, int, int, int]:
    """Rule 13: most VP, then fewest poverty, then most boroughs, then the single
    highest-prestige card; still equal: a shared victory."""
    return (row["total"], -row["poverty"], row["boroughs"], row["best_card"])


def result(s: State) -> Result | None:
    if not s.over:
        return None
    rows = score(s)
    best = max(tiebreak_key(r) for r in rows)
    winners = tuple(r["seat"] for r in rows if tiebreak_key(r) == best)
    top_total = best[0]
    tied = [r["seat"] for r in rows if r["total"] == top_total]
    decided_by = "vp"
    if len(tied) > 1:
        decided_by = "shared"
        for i, name in ((1, "fewest poverty"), (2, "most boroughs"), (3, "highest-prestige card")):
            keys = {tiebreak_key(r)[: i + 1] for r in rows if r["seat"] in tied}
            best_prefix = max(keys)
            still = [r["seat"] for r in rows if r["seat"] in tied and tiebreak_key(r)[: i + 1] == best_prefix]
            if len(still) == 1:
                decided_by = name
                break
    return Result(winners=winners, scores=tuple(float(r["total"]) for r in rows),
                  details={"scoring": rows,
                           "tiebreak": {"tied_on_vp": tied, "decided_by": decided_by,
                                        "order": ["vp", "fewest poverty", "most boroughs",
                                                  "highest-prestige card", "shared"]}})
