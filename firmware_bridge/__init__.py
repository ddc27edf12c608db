"""The shoe and bet-zone link: bytes and messages, not poker. Imports nothing from `station`."""
