"""A game's symbols and rules for the table page's tabs: fragments fetched when a tab first opens
(app/web/routes/game_help.py), so that a game's first view carries neither."""

from __future__ import annotations

from tests.support.play import started_table


def test_the_symbols_and_the_rules_are_fragments_a_browser_may_keep(client):
    symbols = client.get("/games/tally/symbols.html")
    rules = client.get("/games/tally/rules.html")
    assert symbols.status_code == rules.status_code == 200
    # the tiny test game has none of its own: the words every game without them gets
    assert "This game's symbols are drawn with their meaning beside them." in symbols.text
    assert "No rules summary has been written for this game yet." in rules.text
    assert "<html" not in symbols.text and "<html" not in rules.text
    assert symbols.headers["cache-control"] == "public, max-age=3600"


def test_an_unknown_game_or_part_is_not_found(client):
    assert client.get("/games/nogame/symbols.html").status_code == 404
    assert client.get("/games/tally/secrets.html").status_code == 404
    assert client.get("/games/tally/..%2Fbase.html").status_code == 404


def test_a_begun_tables_page_links_its_symbols_and_rules_instead_of_carrying_them(client):
    t = started_table(client)
    html = client.get(f"/seat/{t['tokens'][0]}").text
    table = html.split('id="table"', 1)[1]
    assert 'data-help="/games/tally/symbols.html"' in table and 'data-help="/games/tally/rules.html"' in table
    assert "This game's symbols are drawn with their meaning beside them." not in table
