"""Mutant engines: the reference with one plausible rule bug each, for testing ``flip7-spec conform``.

Every module here is a complete engine: ``flip7-spec conform --python tests.mutants.NAME:Engine`` runs it
in-process, and ``python -m tests.mutants.NAME`` (from the repository root) serves it over the protocol.
Each module names the bug in its docstring and declares ``CLAUSES``, the clause ids a conformance failure
caused by that bug may honestly be blamed on (the clause it breaks first).
"""

MUTANTS = (
    "x2_doubles_add",
    "x2_doubles_bonus",
    "no_flip7_bonus",
    "zero_not_flip7",
    "flip3_actions_at_once",
    "setaside_passed_on",
    "chance_replacement",
    "chance_two_held",
    "reshuffle_every_round",
    "flip7_ends_own_round",
    "deal_from_dealer",
    "dealer_fixed",
    "bust_scores_cards",
    "frozen_scores_zero",
    "tie_ends_game",
    "freeze_not_self",
    "empty_hand_stay",
    "reshuffle_table_cards",
    "v_halve_rounds_up",
    "v_malus_before_halve",
    "v_halve_bonus",
    "v_no_floor",
    "v_zero_keeps_score",
    "v_unlucky7_keeps_modifiers",
    "v_lucky13_busts",
    "v_stayed_untargetable",
    "v_take_never_busts",
    "v_flip4_actions_at_once",
    "v_onemore_no_stay",
    "v_discard_busted",
    "v_deal_actions_discarded",
)
"""The module name of every mutant, in the order the tests run them."""
