"""Tally with private chats turned on (the engine attribute a game such as A Game of Thrones
sets), for the tests of diplomacy: ``PARLOUR_ENGINES=tests.support.diplomatic:ENGINE``; and the
same whose seats are houses (the engine's optional ``seat_labels``, as A Game of Thrones gives):
``tests.support.diplomatic:HOUSES_ENGINE``."""

from __future__ import annotations

from tests.support.tinygame import Tally, TallyState

HOUSES = ("Stark", "Lannister", "Baratheon", "Greyjoy")


class DiplomaticTally(Tally):
    diplomacy = True


class HousesTally(DiplomaticTally):
    def seat_labels(self, state: TallyState) -> list[str]:
        return list(HOUSES[:state.seats])


ENGINE = DiplomaticTally()
DIPLOMATIC_TALLY = "tests.support.diplomatic:ENGINE"
HOUSES_ENGINE = HousesTally()
HOUSES_TALLY = "tests.support.diplomatic:HOUSES_ENGINE"
