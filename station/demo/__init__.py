"""`station demo`: an emulated table (shoe and bet-zone board on ptys, key panel on mock pins)
dealing real PHH hands through the daemon's own core, with injected irregularities. Package.

Modules: `plan` (hands and injections; pure), `steps` (the dealer's steps; pure), `rig` (the
emulated table and its config), `dealer` (performs the steps), `livelog`, `export` (the session
recovered from the journal), `run` (one run), `cli`.
"""
