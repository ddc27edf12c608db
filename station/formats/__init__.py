"""The station's formats, the public contract among them (PRODUCT.md section 4): the recorded
session (`session`: the strict reader with `FILE:LINE: problem` errors, and the writer), the
decisions as JSON (`decisions`: what `station replay --json` prints and the journal stores),
and the journal's payloads read back into engine records (`payload`: the lenient decoder the
recorder and a replay of the journal use). Text and dictionaries in and out; `session` also
reads and writes the file it is named. Below the journal and the commands, above the engine."""
