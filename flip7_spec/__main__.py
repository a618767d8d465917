"""``python -m flip7_spec`` runs the ``flip7-spec`` command."""

from flip7_spec.cli import main

main()
