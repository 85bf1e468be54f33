"""The pages, in the London page's own words."""

from __future__ import annotations

from tests.support.play import found, join, started_table


def test_front_page_offers_found_and_answer(client):
    html = client.get("/").text
    for words in ("Found a new game", "You will receive an invitation link to share with your players.",
                  "Answer an invitation", "Two to four players · seats are drawn by lot when the game begins",
                  "Count to the target — and keep your cards close.", "❦"):
        assert words in html, words


def test_every_page_sends_no_referrer(client):
    for path in ("/", "/api/games", "/join/ZZZZZZ", "/static/css/parlour.css"):
        r = client.get(path)
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-content-type-options"] == "nosniff"


def test_founding_by_form_leads_to_the_waiting_room(client):
    r = client.post("/found", data={"game": "tally", "name": "Ada", "option_target": "21"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/seat/")
    html = client.get(r.headers["location"]).text
    for words in ("The waiting room", "Invite your players — share this link:",
                  "…or have them enter the code at the front page",
                  "Keep this page's address — it is your ticket back to this seat.", "Begin the game"):
        assert words in html, words


def test_founding_with_a_bad_name_shows_the_reason_on_the_front_page(client):
    r = client.post("/found", data={"game": "tally", "name": "   "})
    assert r.status_code == 422 and "Give your name: 1 to 24 characters." in r.text


def test_invitation_page_speaks_the_invitation(client):
    body = found(client, "Ada")
    html = client.get(f"/join/{body['code']}").text
    for words in ("You are cordially invited to a game of", "Tally", "The table is assembling under the code",
                  body["code"], "…or found a new game of your own",
                  "Two to four players · seats are drawn by lot when the game begins"):
        assert words in html, words


def test_answering_by_code_on_the_front_page_leads_to_the_invitation(client):
    body = found(client)
    r = client.get("/join", params={"code": body["code"].lower()}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/join/{body['code']}"
    r = client.get("/join", params={"code": "ZZZZZZ"})
    assert r.status_code == 404 and "No table is assembling under that code." in r.text


def test_joining_by_form_and_duplicate_names_are_explained(client):
    body = found(client, "Ada")
    r = client.post(f"/join/{body['code']}", data={"name": "Bob"}, follow_redirects=False)
    assert r.status_code == 303
    r = client.post(f"/join/{body['code']}", data={"name": "bob"})
    assert r.status_code == 409 and "already called bob" in r.text


def test_names_are_escaped_wherever_shown(client):
    body = found(client, "Ada")
    join(client, body["code"], "<script>x</script>")
    html = client.get(f"/join/{body['code']}").text
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    html = client.get(f"/seat/{body['seat_token']}").text
    assert "<script>x</script>" not in html


def test_late_visitors_to_a_started_table_get_a_clear_page_and_a_spectator_link(client):
    t = started_table(client)
    html = client.get(f"/join/{t['code']}").text
    assert "has already begun" in html and f"/watch/{t['code']}" in html
    r = client.post(f"/join/{t['code']}", data={"name": "Late"})
    assert r.status_code == 409 and "already begun" in r.text
    assert client.get(f"/watch/{t['code']}").status_code == 200


def test_unknown_addresses_get_a_clear_404_page(client):
    r = client.get("/seat/nobody-sits-here-at-all")
    assert r.status_code == 404 and "No seat has this address." in r.text
    r = client.get("/join/ZZZZZZ")
    assert r.status_code == 404 and "No table is assembling under that code." in r.text


def test_table_page_shows_seat_order_prompt_log_symbols_and_rules(client):
    t = started_table(client)
    html = client.get(f"/seat/{t['tokens'][0]}").text
    for marker in ('id="seats"', 'id="prompt"', 'id="log"', 'id="chat"', 'id="tab-symbols"', 'id="tab-rules"',
                   'id="board"', 't-chat'):
        assert marker in html, marker


def test_scripts_and_styles_are_sent_compressed(client):
    r = client.get("/static/js/table.js", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert int(r.headers["content-length"]) < 0.5 * len(r.content)


def test_the_waiting_room_shows_the_symbols_and_the_rules_before_the_start(client):
    body = found(client, "Ada")
    html = client.get(f"/seat/{body['seat_token']}").text
    waiting = html.split('id="waiting"', 1)[1].split('id="table"', 1)[0]
    assert 'class="before-play"' in waiting
    assert "This game's symbols are drawn with their meaning beside them." in waiting
    assert "No rules summary has been written for this game yet." in waiting


def test_a_full_table_says_so_instead_of_asking_for_a_name(client):
    body = found(client, "Ada")
    for name in ("Bob", "Cy", "Dot"):
        join(client, body["code"], name)
    html = client.get(f"/join/{body['code']}").text
    assert "This table is full: all 4 seats are taken." in html
    assert 'id="join-form"' not in html
    assert "Watch as a spectator" in html
