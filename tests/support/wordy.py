"""Wordy: Tally whose every played card also reads out a long line to the log (9 KB), so a
move's stored events are larger than what one PostgreSQL notification may carry (8,000 bytes),
as A Game of Thrones' largest moves or a long log can be."""

from __future__ import annotations

from engines.base import Event, Move
from tests.support.tinygame import Tally, TallyState

LINE_BYTES = 9000


class Wordy(Tally):
    id = "wordy"
    title = "Wordy"
    tagline = "Tally, read out at length."

    def apply(self, state: TallyState, seat: int, move: Move) -> list[Event]:
        events = super().apply(state, seat, move)
        if move["type"] == "play":
            tally = f"the tally is {state.tally}; "
            events.append(Event((tally * (LINE_BYTES // len(tally) + 1))[:LINE_BYTES]))
        return events


ENGINE = Wordy()
