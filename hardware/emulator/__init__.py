"""Emulated shoe and bet-zone board: the real firmware logic on the host, behind real
pseudo-terminals, with fault injection. Edge adapters (threads, ptys, randomness)."""
