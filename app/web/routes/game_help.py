"""A game's symbols and its rules summary, each as a fragment of HTML for the table page's tabs.

The table page fetches one when its tab is first opened, so that a game's first view carries
neither (1.8 to 3.1 KB compressed, every time: a seat's page is never cached), and the browser
keeps them. The waiting room still includes them in its page, where they are read at once.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.parlour import ParlourDep
from app.web.routes.pages import templates

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)

PARTS = ("symbols", "rules")


@router.get("/games/{game}/{part}.html")
async def game_help(parlour: ParlourDep, game: str, part: str) -> Response:
    if game not in parlour.engines or part not in PARTS:
        return HTMLResponse('<p class="note">Nothing here.</p>', status_code=404)
    fragment = templates().env.select_template([f"games/{game}/{part}.html", f"games/no_{part}.html"])
    return HTMLResponse(fragment.render(), headers={"Cache-Control": "public, max-age=3600"})
