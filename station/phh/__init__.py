"""PHH hand histories (the PokerKit project's open format) and their conversion into recorded
table sessions: `station import-phh`. The reader is an edge adapter (files); the action grammar,
the card plan and the converter are pure functions of a parsed hand and a seed."""
