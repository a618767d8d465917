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
)
"""The module name of every mutant, in the order the tests run them."""
