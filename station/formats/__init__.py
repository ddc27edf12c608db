"""The station's formats, the public contract among them (docs/session-format.md): input events
as dictionaries (`events`: the one decoder, strict for a session's lines and lenient for the
journal's payloads, and the encoder), the recorded session (`session`: the file, with
`FILE:LINE: problem` errors, and the writer), the decisions as JSON (`decisions`: what `station
replay --json` prints and the journal stores), and the journal's payloads read back into engine
records (`payload`: what the recorder and a replay of the journal use). Text and dictionaries in
and out; `session` also reads and writes the file it is named. Below the journal and the
commands, above the engine."""
