"""Pins, sensors, the shoe firmware and the emulators: not poker. Imports nothing from `station`."""
