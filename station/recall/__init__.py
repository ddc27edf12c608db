"""Looking back at finished hands: a hand's rows (`hand_rows`), its step-by-step recall
(`steps`), loading hands from the journal (`hands`), recall as text (`text`), what a PHH hand
history needs of a hand (`phh_deal`) and the house's take (`rake_report`). Read-only views over
the journal.
"""
