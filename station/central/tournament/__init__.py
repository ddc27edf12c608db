"""Tournaments across tables: the event in the central store, its one clock, the seat draw,
balancing and breaking tables, redraws, hand-for-hand across tables, the finishing order and
the payouts.

The rules are pure modules (`rules`, `seating`, `balance`, `places`, `rounds`, `tables`,
`clock`): given what the stations journaled, they say what the floor must do next. The edge
adapters (`store`, `director`) read and write PostgreSQL and queue the commands the stations
carry out (`tournament.*`, see `docs/tournaments.md`).
"""
