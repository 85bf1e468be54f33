"""Tally with private chats turned on (the engine attribute a game such as A Game of Thrones
sets), for the tests of diplomacy: ``PARLOUR_ENGINES=tests.support.diplomatic:ENGINE``."""

from __future__ import annotations

from tests.support.tinygame import Tally


class DiplomaticTally(Tally):
    diplomacy = True


ENGINE = DiplomaticTally()
DIPLOMATIC_TALLY = "tests.support.diplomatic:ENGINE"
