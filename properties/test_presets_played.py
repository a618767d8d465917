"""The properties draw their rulesets from the presets under which the reference starts and finishes games
(``flip7_spec.strategies.playable_presets``), and skip their Vengeance checks when no Vengeance preset is
among them. Every preset the package ships must be: otherwise a reference that raises in some game would make
the properties leave that game out, or skip, instead of failing."""

from flip7_spec.rulesets import preset_names
from flip7_spec.strategies import playable_presets


def test_the_properties_draw_from_every_shipped_preset() -> None:
    assert set(playable_presets()) == set(preset_names())
