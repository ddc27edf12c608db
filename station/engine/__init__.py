"""The rules engine: pure. It reads no clock, port, file or RNG and imports nothing from the rest
of `station`; events come in with their own time, decisions go out as frozen records."""
