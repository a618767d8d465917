"""The example engines and ruleset files, shipped in the wheel as ``flip7_spec.examples`` (see
flip7_spec/bundled.py, ``flip7-spec examples`` and ``flip7-spec conform --example NAME``).

This folder holds data only; the file makes it a package so that it can be found with
:mod:`importlib.resources` in an editable install as in a wheel.
"""
