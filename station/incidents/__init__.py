"""Incidents: the records folded from the journal (`records`), the floor's workflow over them
(`workflow`: rule, review, close, each one journal row) and their export for the floor and the
regulator (`export`). Built on the journal and `station.people` (each step needs a credential).
"""
