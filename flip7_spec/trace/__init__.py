"""The trace format v1: one whole game recorded exactly (see docs/trace-format.md).

- :mod:`.canonical`: canonical bytes (export) and lax parsing (import)
- :mod:`.schema`: the JSON Schema and its validation
- :mod:`.record`: a played game to a trace
- :mod:`.compare`: the first difference between two JSON values, and the clause behind it
- :mod:`.replay`: strict replay of a trace against the reference
- :mod:`.reader`: reading trace files and corpora, with located errors
- :mod:`.show`: a trace rendered for people
"""

FORMAT_NAME = "flip7-trace"
FORMAT_VERSION = 1
