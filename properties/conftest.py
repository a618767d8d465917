"""The property suite's Hypothesis profile: ``ci`` by default, ``$FLIP7_HYPOTHESIS_PROFILE`` or
``--hypothesis-profile`` to choose (see docs/properties.md)."""

from flip7_spec.testing import load_profile

load_profile()
