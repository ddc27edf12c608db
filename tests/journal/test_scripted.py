"""The scripted table used by the crash test: deterministic, in the public session format, and a
clean multi-hand game for the rules engine (every hand ends, no irregularity)."""

from __future__ import annotations

from station.bench.scripted import nlhe_session
from station.engine.decisions import HandEnd, Incident
from station.formats.decisions import decision_to_dict
from station.formats.replay import replay_lines
from station.formats.session import SessionLine, format_session, parse_session


def test_the_same_seed_gives_the_same_session() -> None:
    assert nlhe_session(4, seed=3) == nlhe_session(4, seed=3)
    assert nlhe_session(4, seed=3) != nlhe_session(4, seed=4)


def test_it_is_a_valid_session_file_and_a_clean_game() -> None:
    session = nlhe_session(12, seed=8)
    lines = [SessionLine(i + 1, e.t, e.event) for i, e in enumerate(session.events)]
    parsed = parse_session(format_session(lines))
    assert [line.event for line in parsed.lines] == [e.event for e in session.events]
    decisions = list(replay_lines(parsed.lines))
    incidents = [decision_to_dict(d) for d in decisions if isinstance(d, Incident)]
    assert incidents == []
    ends = [d for d in decisions if isinstance(d, HandEnd)]
    assert [e.hand for e in ends] == list(range(1, 13))
    assert all(sum(e.payouts.values()) > 0 for e in ends)
    assert all(len(set(hand)) == 8 for hand in session.hole_cards)
