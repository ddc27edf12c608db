"""The shoe unplugged mid-hand, at daemon level: the daemon keeps running, reports the link down
within 2 s (journal, operational state, display status), and after the replug delivers the
draws made meanwhile into the engine exactly once and in order."""

from __future__ import annotations

import io
import time
from pathlib import Path

from station.daemon.daemon import Overrides
from station.daemon.news import LinkNews, Recorded
from station.daemon.sink import NullSink
from station.demo.dealer import Dealer, Watcher
from station.demo.livelog import LiveLog
from station.demo.plan import Injection, plan_hands
from station.demo.rig import Rig
from station.demo.steps import Deal, Replug, Reseat, Unplug
from station.engine.decisions import DealSlot, DrawRole
from station.engine.events import Draw
from station.journal import Code, Journal, Recorder, SystemClock
from tests.daemon.conftest import Running, start_daemon

LINK_DOWN_BAR_S = 2.0


def test_a_shoe_pulled_mid_hand_is_reported_and_loses_no_draw(
    tmp_path: Path, daemons: list[Running]
) -> None:
    hand = plan_hands(6, seed=1)[5]
    assert hand.injection is Injection.SHOE_UNPLUGGED
    setup = next(s for s in hand.steps if isinstance(s, Reseat)).setup
    rig = Rig(tmp_path / "table", setup)
    rig.start()
    try:
        rig.enrol_people()
        watcher, sink = Watcher(), NullSink()
        running = start_daemon(
            rig.config_path,
            Overrides(factories=rig.factories, display=sink, observers=[watcher], environ={}),
        )
        daemons.append(running)
        dealer = Dealer(rig, running.daemon.inbox, watcher, LiveLog(io.StringIO()))
        dealer.wait_links()
        cut = hand.steps.index(next(s for s in hand.steps if isinstance(s, Unplug)))
        replug = hand.steps.index(next(s for s in hand.steps if isinstance(s, Replug)))
        for step in hand.steps[:cut]:
            dealer.step(step)
        assert (sink.status.shoe_ok, sink.status.zones_ok) == (True, True)

        pulled = time.monotonic()
        rig.shoe.unplug()
        down = watcher.wait(
            len(watcher.news),
            lambda news: next(
                (i for i, n in enumerate(news) if isinstance(n, LinkNews) and not n.up), None
            ),
            LINK_DOWN_BAR_S,
        )
        down_s = time.monotonic() - pulled
        print(f"\nlink down reported {down_s * 1000:.0f} ms after the unplug")
        assert down_s < LINK_DOWN_BAR_S
        assert sink.status.shoe_ok is False, "the dealer screen shows the shoe down"
        assert sink.status.zones_ok is True  # the board's link is another cable
        down_links = [link for link in sink.diagnostics.links if link.name == "SHOE"]
        assert down_links and down_links[0].state.value == "disconnected"

        blind = [s for s in hand.steps[cut:replug] if isinstance(s, Deal)]
        assert len(blind) == 4  # burn and flop, drawn while the cable is out
        for step in blind:
            dealer.step(step)
        assert rig.shoe.wait_until(lambda s: s.pending_input == 0, 5.0)  # all read, none sent
        rig.shoe.replug()
        dealer.step(Replug())  # waits for link up, then the four draws in order
        for step in hand.steps[replug + 1 :]:
            dealer.step(step)
        assert running.stop() == "test over"
    finally:
        rig.stop()

    up = next(
        i for i, n in enumerate(watcher.news) if i >= down and isinstance(n, LinkNews) and n.up
    )
    while_down = [n for n in watcher.news[down:up] if isinstance(n, Recorded)]
    assert not any(isinstance(n.event, Draw) for n in while_down), "nothing arrives unplugged"
    recorded = [n for n in watcher.news[up:] if isinstance(n, Recorded)]
    tags = [n.event.tag for n in recorded if isinstance(n.event, Draw)]
    assert tags[:4] == [d.tag for d in blind], "delivered in the order drawn"
    assert all(tags.count(d.tag) == 1 for d in blind), "exactly once"
    roles = [d.role for n in recorded[:4] for d in n.decisions if isinstance(d, DrawRole)]
    assert roles == [DealSlot.BURN, DealSlot.BOARD, DealSlot.BOARD, DealSlot.BOARD]

    journal = Journal.open(rig.loaded.config.journal, clock=SystemClock())
    try:
        rows = list(journal.rows())
        downs = [r for r in rows if r.code == Code.LINK_DOWN]
        ups = [r for r in rows if r.code == Code.LINK_UP and r.actor == "shoe"]
        assert len(downs) == 1 and downs[0].data()["device"] == "shoe"
        assert (
            downs[0].seq
            < ups[-1].seq
            < min(
                r.seq for r in rows if r.code == Code.INPUT_DRAW and r.data()["tag"] == blind[0].tag
            )
        )
        # While it was down the operational state held a link tilt; the replug cleared it.
        before = Recorder(journal, registry=rig.loaded.registry)
        for row in rows:
            before.ops.apply(row)
            if row.seq == downs[0].seq:
                assert "link_lost:shoe" in before.ops.tilts
        assert "link_lost:shoe" not in before.ops.tilts
    finally:
        journal.close()
