"""For both suites (tests/ and properties/): the Hypothesis profile, ``ci`` by default,
``$FLIP7_HYPOTHESIS_PROFILE`` or ``--hypothesis-profile`` to choose (see docs/properties.md), and every module
of the package imported at collection."""

from flip7_spec.testing import load_profile

load_profile()


def _import_the_package() -> None:
    """Hypothesis draws some values from the constants of the local modules imported so far: import every module
    of the package now, so that a property draws the same examples whatever tests ran before it (a module a test
    loads from a temporary folder, a user's policy say, still adds its own). The old paths kept for users
    (``flip7_spec.moved``) are left out: they warn on import, and their modules are imported under the new ones."""
    import importlib
    import pkgutil

    import flip7_spec
    from flip7_spec.moved import MOVED

    for module in pkgutil.walk_packages(flip7_spec.__path__, "flip7_spec."):
        if not module.name.endswith("__main__") and module.name not in MOVED:
            importlib.import_module(module.name)


_import_the_package()
