"""One test per sentence of the London page's symbols legend and 13-rule summary,
each built from a constructed position."""

from __future__ import annotations

from engines.london import ENGINE
from engines.london.components import CARDS
from engines.london.rules import develop_cost
from engines.london.scoring import poverty_penalty, score

# -- symbols legend ---------------------------------------------------------------------


def test_symbol_money_a_development_pays_its_printed_pound_cost(table, do):
    t = table()
    hosp, _ = t.hand(0, "hospital", "royal_society")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": hosp})
    assert s.players[0].money == 5 - CARDS[hosp].cost == 3


def test_symbol_immediate_prestige_scores_the_instant_you_activate(table, do):
    t = table()
    (theatre,) = t.stack(0, "theatre_royal")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": theatre})
    assert s.players[0].prestige == 2


def test_symbol_end_game_prestige_scores_at_the_end_however_the_card_sits(table):
    t = table()
    t.stack(0, "st_pauls_cathedral", "shops", facedown=("shops",))  # buried under a face-down card
    t.stack(0, "national_gallery")
    s = t.ready()
    row = score(s)[0]
    assert row["steps"][1]["vp"] == 4 + 0 + 5


def test_symbol_poverty_gained_and_alleviated_never_below_zero(table, do):
    t = table()
    gas, alms = t.stack(0, "gas_works")[0], t.stack(0, "almshouses")[0]
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": gas})
    assert s.players[0].poverty == 1
    do(s, 0, {"type": "activate", "card": alms})
    assert s.players[0].poverty == 0
    t2 = table()
    (alms2,) = t2.stack(0, "almshouses")
    s2 = t2.ready(step="run", action="run_city")
    do(s2, 0, {"type": "activate", "card": alms2})
    assert s2.players[0].poverty == 0


def test_symbol_discard_a_card_to_activate_this_card(table, do):
    t = table()
    (docks,) = t.stack(0, "west_india_docks")
    (pauper,) = t.hand(0, "pauper_a")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": docks})
    assert s.turn.step == "run_pay"
    assert ENGINE.legal_moves(s, 0)[0] == {"type": "pay", "card": pauper}
    do(s, 0, {"type": "pay", "card": pauper})
    assert s.players[0].money == 12 and pauper not in s.players[0].hand


def test_symbol_flips_face_down_once_activated_and_then_cannot_activate(table, do, refuse):
    t = table()
    (shops,) = t.stack(0, "shops")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": shops})
    assert shops in s.players[0].facedown
    s.turn.activated = []
    err = refuse(s, 0, {"type": "activate", "card": shops})
    assert "face-down" in err.message


# -- rule 1: turn order -----------------------------------------------------------------


def test_rule_1_turn_is_start_then_one_action_then_hand_limit_then_end(table, do):
    t = table()
    t.hand(0, *["pauper_b"] * 4, *["pauper_c"] * 5)
    t.board("shops")
    s = t.ready()
    steps = [s.turn.step]
    do(s, 0, {"type": "draw", "from": "deck"})
    steps.append(s.turn.step)
    do(s, 0, {"type": "choose_action", "action": "draw_three"})
    for _ in range(3):
        do(s, 0, {"type": "draw", "from": "deck"})
    steps.append(s.turn.step)
    while s.turn.step == "discard":
        do(s, 0, {"type": "discard", "card": s.players[0].hand[0]})
    steps.append(s.turn.step)
    do(s, 0, {"type": "end_turn"})
    assert steps == ["start", "action", "discard", "end"]
    assert s.current == 1 and s.turn.step == "start"


def test_rule_1_a_move_of_another_step_is_refused_naming_the_step(table, refuse):
    s = table().ready(step="end")
    err = refuse(s, 0, {"type": "activate", "card": 0})
    assert err.message == ("You cannot activate now: you are at ending your turn; your one action "
                           "this turn is done")
    assert err.rule == "London rule 3: One action"


def test_rule_1_only_the_current_seat_may_move(table, refuse):
    s = table().ready()
    err = refuse(s, 1, {"type": "draw", "from": "deck"})
    assert err.code == "not_your_turn"
    assert ENGINE.legal_moves(s, 1) == [] and ENGINE.to_act(s) == frozenset({0})


# -- rule 2: start of turn --------------------------------------------------------------


def test_rule_2_loans_repaid_only_at_start_of_turn_before_drawing(table, do, refuse):
    t = table()
    s = t.ready()
    s.players[0].loans, s.players[0].money, s.loan_supply = 2, 40, 10
    do(s, 0, {"type": "repay_loan"})
    assert (s.players[0].loans, s.players[0].money) == (1, 25)
    do(s, 0, {"type": "draw", "from": "deck"})
    err = refuse(s, 0, {"type": "repay_loan"})
    assert "before drawing" in err.message


def test_rule_2_must_draw_one_card_from_the_deck_before_acting(table, do, refuse):
    t = table()
    (top,) = t.deck_top("brewery")
    s = t.ready()
    err = refuse(s, 0, {"type": "stop_drawing"})
    assert err.rule == "London rule 2: Start of turn"
    do(s, 0, {"type": "draw", "from": "deck"})
    assert s.players[0].hand == [top] and s.turn.step == "action"


def test_rule_2_an_action_before_drawing_is_refused_under_rule_2(table, refuse):
    t = table()
    t.hand(0, "vintners", "vintners")
    s = t.ready()
    for move in ({"type": "choose_action", "action": "develop"}, {"type": "develop", "card": s.players[0].hand[0]},
                 {"type": "end_turn"}, {"type": "discard", "card": s.players[0].hand[0]}):
        err = refuse(s, 0, move)
        assert err.rule == "London rule 2: Start of turn", move
        assert err.message.endswith("you are at the start of your turn (repay loans, then draw); the start "
                                    "of the turn (repay loans, then draw) comes before anything else")


def test_rule_2_only_one_card_is_drawn_at_the_start_of_the_turn(table, do, refuse):
    s = table().ready()
    do(s, 0, {"type": "draw", "from": "deck"})
    err = refuse(s, 0, {"type": "draw", "from": "deck"})
    assert err.rule == "London rule 2: Start of turn"
    assert "draws once, and only Draw Three draws more" in err.message
    err = refuse(s, 0, {"type": "stop_drawing"})
    assert err.rule == "London rule 2: Start of turn" and "which is over" in err.message


def test_rule_2_the_draw_may_be_any_card_of_the_development_board(table, do):
    t = table()
    ids = t.board("shops", "school", "hospital", "vintners")
    s = t.ready()
    board_moves = [m for m in ENGINE.legal_moves(s, 0) if m.get("from") == "board"]
    assert sorted(m["card"] for m in board_moves) == sorted(ids)
    do(s, 0, {"type": "draw", "from": "board", "card": ids[3]})
    assert ids[3] in s.players[0].hand and ids[3] not in s.board_cards()


def test_rule_2_westminster_replaces_the_draw_with_zero_to_two_cards(table, do):
    t = table()
    t.boroughs(0, "westminster")
    s = t.ready()
    assert {"type": "stop_drawing"} in ENGINE.legal_moves(s, 0)  # zero is allowed
    do(s, 0, {"type": "draw", "from": "deck"})
    assert s.turn.step == "start"
    do(s, 0, {"type": "draw", "from": "deck"})
    assert s.turn.step == "action" and len(s.players[0].hand) == 2


def test_rule_2_st_pancras_looks_at_top_three_keeps_one_others_to_bottom_in_chosen_order(table, do):
    t = table()
    t.boroughs(0, "st_pancras")
    a, b, c = t.deck_top("shops", "school", "hospital")
    s = t.ready()
    view_other = ENGINE.view(s, 1)
    do(s, 0, {"type": "scry"})
    assert [r["id"] for r in ENGINE.view(s, 0)["scry"]] == [a, b, c]
    assert ENGINE.view(s, 1)["scry"] == [] and view_other["scry"] == []
    do(s, 0, {"type": "keep", "card": b})
    do(s, 0, {"type": "bottom", "card": a})
    assert s.players[0].hand == [b]
    assert s.deck[:2] == [a, c]  # a at the very bottom, c just above it
    assert s.turn.step == "action"


def test_rule_2_with_nothing_left_to_draw_the_player_stops_drawing(table, do):
    t = table()
    t.empty_deck = True
    s = t.ready()
    assert ENGINE.legal_moves(s, 0) == [{"type": "stop_drawing"}, {"type": "take_loan"}]
    do(s, 0, {"type": "stop_drawing"})
    assert s.turn.step == "action"


# -- rule 3: one action -----------------------------------------------------------------


def test_rule_3_exactly_one_action_develop_buy_land_run_the_city_or_draw_three(table, do, refuse):
    t = table()
    t.hand(0, "shops", "vintners")
    s = t.ready(step="action")
    actions = {m["action"] for m in ENGINE.legal_moves(s, 0) if m["type"] == "choose_action"}
    assert actions == {"develop", "buy_land", "run_city", "draw_three"}
    do(s, 0, {"type": "choose_action", "action": "run_city"}, {"type": "end_action"})
    err = refuse(s, 0, {"type": "choose_action", "action": "develop"})
    assert err.rule == "London rule 3: One action"
    assert err.message == ("You cannot choose action now: you are at ending your turn; you have "
                           "already chosen Run the City, and each turn has exactly one action")


def test_rule_3_a_second_action_or_another_actions_move_is_refused_under_rule_3(table, do, refuse):
    t = table()
    t.hand(0, "vintners", "vintners")
    (docks,) = t.stack(0, "royal_observatory")
    s = t.ready(step="action")
    err = refuse(s, 0, {"type": "activate", "card": docks})
    assert err.rule == "London rule 3: One action" and err.message.endswith("choose your one action first")
    do(s, 0, {"type": "choose_action", "action": "develop"})
    err = refuse(s, 0, {"type": "choose_action", "action": "run_city"})
    assert err.rule == "London rule 3: One action" and "already chosen Develop" in err.message
    err = refuse(s, 0, {"type": "activate", "card": docks})
    assert err.rule == "London rule 3: One action"
    assert err.message.endswith("you chose Develop, and each turn has exactly one action")
    err = refuse(s, 0, {"type": "draw", "from": "deck"})
    assert err.rule == "London rule 3: One action"


def test_rule_3_an_action_that_cannot_be_carried_out_is_not_offered(table, refuse):
    t = table()
    t.hand(0, "shops", "school")  # no colour pairs
    s = t.ready(step="action")
    s.loan_supply = 0
    s.players[0].money = 0
    actions = {m["action"] for m in ENGINE.legal_moves(s, 0) if m["type"] == "choose_action"}
    assert actions == {"run_city", "draw_three"}
    err = refuse(s, 0, {"type": "choose_action", "action": "develop"})
    assert "no card in your hand can be developed" in err.message


# -- rule 4: develop --------------------------------------------------------------------


def test_rule_4_develop_discards_a_same_colour_card_to_the_board_and_pays_the_cost(table, do):
    t = table()
    coffee, vint = t.hand(0, "coffee_house", "vintners")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": coffee})
    assert ENGINE.legal_moves(s, 0)[0] == {"type": "discard_for_colour", "card": vint}
    do(s, 0, {"type": "discard_for_colour", "card": vint}, {"type": "place", "stack": "new"})
    p = s.players[0]
    assert p.stacks == [[coffee]] and vint in s.board_cards() and p.money == 4
    assert coffee not in p.facedown


def test_rule_4_hospital_needs_a_blue_discard_and_the_message_says_so(table, refuse):
    t = table()
    (hosp,) = t.hand(0, "hospital", "shops")[:1]
    s = t.ready(step="develop", action="develop")
    err = refuse(s, 0, {"type": "develop", "card": hosp})
    assert err.message.startswith("You cannot develop Hospital: it needs a blue card discarded and "
                                  "your hand has none")
    assert err.rule == "London rule 4: Develop"


def test_rule_4_a_develop_move_out_of_its_order_is_refused_under_rule_4(table, do, refuse):
    t = table()
    a, _b, c = t.hand(0, "vintners", "vintners", "brewery")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": a})
    for move in ({"type": "develop", "card": c}, {"type": "place", "stack": "new"}, {"type": "end_action"},
                 {"type": "end_turn"}):
        err = refuse(s, 0, move)
        assert err.rule == "London rule 4: Develop", move
        assert "discarding a same-colour card to pay for a development" in err.message


def test_rule_4_the_cost_in_words_is_the_discounted_one(table, refuse):
    t = table()
    (gallery,) = t.hand(0, "national_gallery")
    t.boroughs(0, "islington")
    s = t.ready(step="develop", action="develop")
    s.players[0].money, s.loan_supply = 0, 0
    err = refuse(s, 0, {"type": "develop", "card": gallery})
    cost = develop_cost(s.players[0], gallery)
    assert cost < CARDS[gallery].cost
    assert f"it costs £{cost} (£{CARDS[gallery].cost} less £{CARDS[gallery].cost - cost} off)" in err.message


def test_rule_4_placed_on_a_new_stack_or_own_stack_not_built_this_turn(table, do, refuse):
    t = table()
    old = t.stack(0, "shops")[0]
    v1, v2, v3, v4 = t.hand(0, "vintners", "vintners", "brewery", "billingsgate_market")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": v1}, {"type": "discard_for_colour", "card": v2})
    assert ENGINE.legal_moves(s, 0)[:2] == [{"type": "place", "stack": "new"}, {"type": "place", "stack": 0}]
    do(s, 0, {"type": "place", "stack": 0})
    assert s.players[0].stacks[0] == [old, v1]
    do(s, 0, {"type": "develop", "card": v3}, {"type": "discard_for_colour", "card": v4})
    err = refuse(s, 0, {"type": "place", "stack": 0})
    assert "built this turn" in err.message
    err = refuse(s, 0, {"type": "place", "stack": 5})
    assert "no stack 5" in err.message


def test_rule_4_cards_are_developed_one_at_a_time(table, do):
    t = table()
    a, b, c, d = t.hand(0, "vintners", "vintners", "almshouses", "almshouses")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": a}, {"type": "discard_for_colour", "card": b},
       {"type": "place", "stack": "new"})
    assert s.turn.step == "develop"
    do(s, 0, {"type": "develop", "card": c}, {"type": "discard_for_colour", "card": d},
       {"type": "place", "stack": "new"}, {"type": "end_action"})
    assert [st[-1] for st in s.players[0].stacks] == [a, c]


def test_rule_4_paupers_may_never_be_placed(table, refuse):
    t = table()
    pauper, _ = t.hand(0, "pauper_a", "pauper_a")
    s = t.ready(step="develop", action="develop")
    err = refuse(s, 0, {"type": "develop", "card": pauper})
    assert "paupers can never be placed" in err.message


def test_rule_4_paupers_may_never_pay_the_colour_discard(table, do, refuse):
    t = table()
    shops, pauper, vint = t.hand(0, "shops", "pauper_a", "vintners")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": shops})
    err = refuse(s, 0, {"type": "discard_for_colour", "card": pauper})
    assert "Pauper can never pay" in err.message
    assert ENGINE.legal_moves(s, 0)[0] == {"type": "discard_for_colour", "card": vint}


def test_rule_4_action_cards_need_no_colour_discard_and_resolve_at_once(table, do):
    t = table()
    (hug,) = t.hand(0, "huguenots")
    t.deck_top("school", "hospital")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": hug})
    p = s.players[0]
    assert len(p.hand) == 2 and hug in s.box and p.stacks == [] and s.turn.step == "develop"


def test_rule_4_wren_lets_the_next_development_skip_the_colour_discard(table, do):
    t = table()
    wren, hosp = t.hand(0, "wren", "hospital")
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": wren}, {"type": "develop", "card": hosp})
    assert s.turn.step == "develop_place"
    do(s, 0, {"type": "place", "stack": "new"})
    assert s.players[0].stacks == [[hosp]] and s.players[0].prestige == 1


# -- rule 5: buy land -------------------------------------------------------------------


def test_rule_5_buy_land_pays_draws_gains_prestige_relieves_poverty_and_tops_the_pile(table, do):
    t = table()
    t.boroughs(0, "camberwell")
    s = t.ready(step="buy", action="buy_land")
    s.players[0].money, s.players[0].poverty = 10, 3
    market_before = list(s.market)
    do(s, 0, {"type": "buy", "borough": "southwark_bermondsey"})
    p = s.players[0]
    assert p.money == 7 and len(p.hand) == 2 and p.prestige == 1 and p.poverty == 2
    assert p.boroughs == ["camberwell", "southwark_bermondsey"]
    assert len(s.market) == 3 and "southwark_bermondsey" not in s.market
    assert set(market_before) - {"southwark_bermondsey"} <= set(s.market)


def test_rule_5_only_the_top_borough_is_live(table, do, refuse):
    t = table()
    t.boroughs(0, "westminster", "camberwell")  # Westminster buried: normal draw
    s = t.ready()
    err = refuse(s, 0, {"type": "stop_drawing"})
    assert err.rule == "London rule 2: Start of turn"
    t2 = table()
    t2.boroughs(0, "city", "lambeth")
    s2 = t2.ready(step="action")
    do(s2, 0, {"type": "take_loan"})
    assert s2.players[0].money == 15  # City buried: £10 loans


def test_rule_5_every_owned_borough_counts_for_boroughs_owned(table, do):
    t = table()
    t.boroughs(0, "wandsworth", "lambeth", "hackney")  # two river boroughs, one buried
    (steam,) = t.stack(0, "steamboats")
    (omni,) = t.stack(0, "omnibus")
    s = t.ready(step="run", action="run_city", borough_done=True)
    do(s, 0, {"type": "activate", "card": steam}, {"type": "activate", "card": omni})
    assert s.players[0].money == 5 + 4 + 3


def test_rule_5_buying_needs_the_cost_within_reach(table, refuse):
    t = table()
    s = t.ready(step="buy", action="buy_land")
    s.players[0].money, s.loan_supply = 1, 0
    err = refuse(s, 0, {"type": "buy", "borough": "westminster"})
    assert err.rule == "London rule 5: Buy Land" and "costs £5" in err.message


# -- rule 6: run the city ---------------------------------------------------------------


def test_rule_6_activate_any_number_of_face_up_cards_once_each(table, do, refuse):
    t = table()
    (vint,) = t.stack(0, "vintners")
    (obs,) = t.stack(0, "royal_observatory")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": vint}, {"type": "activate", "card": obs})
    err = refuse(s, 0, {"type": "activate", "card": vint})
    assert "once per run" in err.message
    assert s.players[0].money == 7 and vint not in s.players[0].facedown


def test_rule_6_activation_costs_money_or_a_discarded_card(table, do, refuse):
    t = table()
    (zoo,) = t.stack(0, "london_zoo")
    (kew,) = t.stack(0, "kew_gardens")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": zoo})
    assert s.players[0].money == 3
    err = refuse(s, 0, {"type": "activate", "card": kew})
    assert "hand is empty" in err.message


def test_rule_6_only_the_top_card_of_a_stack_activates(table, refuse):
    t = table()
    low, _ = t.stack(0, "vintners", "shops")
    s = t.ready(step="run", action="run_city")
    err = refuse(s, 0, {"type": "activate", "card": low})
    assert "only the top card" in err.message


def test_rule_6_top_borough_active_ability_must_resolve_exactly_once(table, do, refuse):
    t = table()
    t.boroughs(0, "wandsworth")
    s = t.ready(step="run", action="run_city")
    err = refuse(s, 0, {"type": "end_action"})
    assert "must resolve once" in err.message and err.rule == "London rule 6: Run the City"
    do(s, 0, {"type": "borough_ability"})
    assert s.players[0].poverty == 2
    err = refuse(s, 0, {"type": "borough_ability"})
    assert "already resolved" in err.message
    do(s, 0, {"type": "end_action"})


def test_rule_6_hospital_may_flip_instead_of_another_card(table, do):
    t = table()
    (hosp,) = t.stack(0, "hospital")
    (shops,) = t.stack(0, "shops")
    s = t.ready(step="run", action="run_city")
    do(s, 0, {"type": "activate", "card": shops})
    assert s.turn.step == "hospital"
    assert [m for m in ENGINE.legal_moves(s, 0) if m["type"] == "flip"] == [
        {"type": "flip", "card": shops}, {"type": "flip", "card": hosp}]
    do(s, 0, {"type": "flip", "card": hosp})
    assert s.players[0].facedown == {hosp} and s.turn.step == "run"


# -- rule 7: poverty after every run ------------------------------------------------------


def test_rule_7_every_run_costs_poverty_per_stack_per_loan_and_per_card_in_hand(table, do):
    t = table()
    t.stack(0, "st_pauls_cathedral")
    t.stack(0, "national_gallery")
    t.hand(0, "pauper_a", "shops", "school")
    s = t.ready(step="run", action="run_city")
    s.players[0].loans, s.loan_supply = 1, 11
    do(s, 0, {"type": "end_action"})
    assert s.players[0].poverty == 2 + 1 + 3


# -- rule 8: draw three -------------------------------------------------------------------


def test_rule_8_draw_three_one_at_a_time_from_deck_or_board(table, do):
    t = table()
    (b,) = t.board("shops")
    s = t.ready(step="action")
    do(s, 0, {"type": "choose_action", "action": "draw_three"}, {"type": "draw", "from": "deck"})
    assert s.turn.step == "draw_three" and s.turn.draws_left == 2
    do(s, 0, {"type": "draw", "from": "board", "card": b}, {"type": "draw", "from": "deck"})
    assert len(s.players[0].hand) == 3 and s.turn.step == "end"


def test_rule_8_fewer_than_three_when_fewer_remain(table, do):
    t = table()
    t.empty_deck = True
    t.board("shops")
    s = t.ready(step="action")
    do(s, 0, {"type": "choose_action", "action": "draw_three"})
    do(s, 0, {"type": "draw", "from": "board", "card": s.board_cards()[0]})
    assert len(s.players[0].hand) == 1 and s.turn.step == "end"


# -- rule 9: loans ----------------------------------------------------------------------------


def test_rule_9_a_ten_pound_loan_may_be_taken_any_time_on_your_turn(table, do):
    t = table()
    t.hand(0, "vintners", "vintners")
    s = t.ready()
    for step_moves in ([], [{"type": "draw", "from": "deck"}],
                       [{"type": "choose_action", "action": "develop"}]):
        do(s, 0, *step_moves)
        assert {"type": "take_loan"} in ENGINE.legal_moves(s, 0)
    do(s, 0, {"type": "take_loan"})
    assert s.players[0].loans == 1 and s.players[0].money == 15 and s.loan_supply == 11
    assert {"type": "take_loan"} not in ENGINE.legal_moves(s, 1)


def test_rule_9_loans_give_twelve_pounds_while_city_tops_your_pile(table, do):
    t = table()
    t.boroughs(0, "city")
    s = t.ready()
    do(s, 0, {"type": "take_loan"})
    assert s.players[0].money == 17


def test_rule_9_repaying_a_loan_costs_fifteen_pounds(table, do, refuse):
    s = table().ready()
    s.players[0].loans, s.players[0].money, s.loan_supply = 1, 14, 11
    err = refuse(s, 0, {"type": "repay_loan"})
    assert "costs £15" in err.message
    s.players[0].money = 15
    do(s, 0, {"type": "repay_loan"})
    assert (s.players[0].money, s.players[0].loans, s.loan_supply) == (0, 0, 12)


def test_rule_9_a_loan_is_forced_when_you_must_pay_what_you_cannot(table, do):
    t = table()
    nat, _ = t.hand(0, "national_gallery", "dulwich_picture_gallery")
    s = t.ready(step="develop", action="develop")
    s.players[0].money = 1
    do(s, 0, {"type": "develop", "card": nat})
    assert s.players[0].loans == 1 and s.players[0].money == 7


def test_rule_9_no_loan_once_all_twelve_tokens_are_out(table, refuse):
    s = table().ready()
    s.loan_supply = 0
    s.players[1].loans = 12
    err = refuse(s, 0, {"type": "take_loan"})
    assert "all 12 loan tokens are out" in err.message


# -- rule 10: hand limit ------------------------------------------------------------------


def test_rule_10_finish_an_action_over_nine_cards_and_discard_down_to_nine(table, do, refuse):
    t = table()
    t.hand(0, *["pauper_b"] * 4, *["pauper_c"] * 5, "shops")
    s = t.ready(step="action")
    do(s, 0, {"type": "choose_action", "action": "run_city"}, {"type": "end_action"})
    assert s.turn.step == "discard"
    err = refuse(s, 0, {"type": "end_turn"})
    assert "discarding down to your hand limit" in err.message
    do(s, 0, {"type": "discard", "card": s.players[0].hand[-1]})
    assert len(s.players[0].hand) == 9 and s.turn.step == "end"


def test_rule_10_ending_the_turn_over_the_hand_limit_is_refused_under_rule_10(table, do, refuse):
    t = table()
    t.hand(0, *["pauper_b"] * 4, *["pauper_c"] * 5, "shops")
    s = t.ready(step="action")
    do(s, 0, {"type": "choose_action", "action": "run_city"}, {"type": "end_action"})
    err = refuse(s, 0, {"type": "end_turn"})
    assert err.rule == "London rule 10: Hand limit"
    assert err.message == ("You cannot end turn now: you are at discarding down to your hand limit; your "
                           "hand holds 10 cards, over the limit of 9: discard down to it before ending the turn")


def test_rule_10_a_hand_limit_discard_out_of_place_is_refused_under_rule_10(table, do, refuse):
    t = table()
    (shops,) = t.hand(0, "shops")
    s = t.ready(step="end")
    err = refuse(s, 0, {"type": "discard", "card": shops})
    assert err.rule == "London rule 10: Hand limit" and "only while your hand is over the limit" in err.message


# -- rule 11: endgame -------------------------------------------------------------------------


def test_rule_11_when_the_deck_empties_every_other_player_gets_one_last_turn(table, do):
    t = table(3)
    t.deck_top("shops")
    s = t.ready()
    s.box += s.deck[:-1]
    s.deck = s.deck[-1:]
    do(s, 0, {"type": "draw", "from": "deck"}, {"type": "choose_action", "action": "run_city"},
       {"type": "end_action"}, {"type": "end_turn"})
    assert s.endgame and not s.over and s.current == 1
    for seat in (1, 2):
        do(s, seat, {"type": "stop_drawing"}, {"type": "choose_action", "action": "draw_three"})
        assert not s.over
        do(s, seat, {"type": "end_turn"})
    assert s.over and ENGINE.result(s) is not None and ENGINE.to_act(s) == frozenset()


# -- rule 12: scoring -------------------------------------------------------------------------


def test_rule_12_scoring_follows_the_seven_steps_in_order(table):
    t = table()
    t.hand(0, "pauper_a", "shops")  # (1) two cards -> 2 poverty
    t.stack(0, "st_pauls_cathedral", "shops", facedown=("shops",))  # (2) 4 + 0
    s = t.ready()
    a, b = s.players
    a.money, a.loans, a.poverty, a.prestige = 38, 3, 5, 6  # (3) repay 2 -> £8 (4) 2 VP (5) -7
    b.money, b.poverty = 0, 3
    rows = score(s)
    steps = rows[0]["steps"]
    assert [x["step"] for x in steps] == [1, 2, 3, 4, 5, 6, 7]
    assert steps[0]["poverty"] == 2
    assert steps[1]["vp"] == 4
    assert steps[2]["loans"] == 2 and steps[2]["money_spent"] == 30
    assert steps[3]["money"] == 8 and steps[3]["vp"] == 2
    assert steps[4]["vp"] == -7
    assert steps[5]["poverty_before"] == 7 and steps[5]["subtracted"] == 3 and steps[5]["poverty_after"] == 4
    assert steps[6]["vp"] == -5
    assert rows[0]["total"] == 6 + 4 + 2 - 7 - 5
    assert rows[1]["steps"][5]["poverty_after"] == 0 and rows[1]["total"] == 0


def test_rule_12_remaining_poverty_costs_vp_on_a_rising_scale():
    assert [poverty_penalty(n) for n in range(13)] == [0, 1, 1, 2, 5, 7, 9, 11, 13, 15, 17, 19, 21]


# -- rule 13: winner and ties ------------------------------------------------------------------


def _finished(table, prestige, poverty=(0, 0), boroughs=((), ()), cards=((), ())):
    t = table()
    for seat in (0, 1):
        for key in cards[seat]:
            t.stack(seat, key)
        t.boroughs(seat, *boroughs[seat])
    s = t.ready()
    for seat, p in enumerate(s.players):
        p.money, p.prestige, p.poverty = 0, prestige[seat], poverty[seat]
    s.over = True
    return s


def test_rule_13_most_vp_wins(table):
    s = _finished(table, (5, 3))
    r = ENGINE.result(s)
    assert r.winners == (0,) and r.scores == (5.0, 3.0)


def test_rule_13_tie_goes_to_fewest_poverty(table):
    s = _finished(table, (5, 6), poverty=(0, 1))  # seat 1: 6 prestige - 1 for 1 poverty = 5
    r = ENGINE.result(s)
    assert r.scores == (5.0, 5.0) and r.winners == (0,)
    assert r.details["tiebreak"]["decided_by"] == "fewest poverty"


def test_rule_13_then_most_boroughs(table):
    s = _finished(table, (5, 5), boroughs=(("camberwell",), ()))
    r = ENGINE.result(s)
    assert r.winners == (0,) and r.details["tiebreak"]["decided_by"] == "most boroughs"


def test_rule_13_then_the_single_highest_prestige_card(table):
    s = _finished(table, (0, 0), cards=(("national_gallery",), ("st_pauls_cathedral", "royal_society")))
    r = ENGINE.result(s)  # 5 against 4 + 1: equal VP, but a 5-prestige card beats a 4
    assert r.scores == (5.0, 5.0) and r.winners == (0,)
    assert r.details["tiebreak"]["decided_by"] == "highest-prestige card"


def test_rule_13_otherwise_a_shared_victory(table):
    s = _finished(table, (4, 4))
    r = ENGINE.result(s)
    assert r.winners == (0, 1) and r.details["tiebreak"]["decided_by"] == "shared"
