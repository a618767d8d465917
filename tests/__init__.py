"""The test suite of flip7-spec (a package, so that ``tests.mutants.NAME`` engines can be imported)."""
