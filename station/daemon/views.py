"""The display's floor and diagnostics inputs, built from the journal, the links and the GPIO
levels. Edge adapter (reads the journal and /sys); runs on the core thread only.

The display depends on plain records (`station.display.*_view`); this is where journal rows and
link counters become those records. Finished hands do not change, so their recall views are
cached by hand number; incidents are folded as the journal grows, a build reading only the rows
added since the last.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from firmware_bridge import LinkState, LinkStats
from station.daemon.items import Device
from station.display.dealer_view import part_word
from station.display.diag_view import (
    DiagLinkState,
    DiagnosticsData,
    EnrolmentView,
    FleetView,
    GpioLevelsView,
    JournalHealthView,
    LinkStatusView,
    PlatformView,
)
from station.display.floor_view import FloorData, HandRecallView, IncidentRow, RecallStep
from station.engine.decisions import DealSlot, DrawRole, Ruling
from station.incidents.records import FOLD_CODES, IncidentFold
from station.journal import Journal, Recorder
from station.journal.clock import format_utc
from station.journal.codes import ActorRole, Code
from station.recall.hands import RECALL_DEPTH, load_hand, recent_hands
from station.recall.steps import RecallStep as JournalStep

LINK_NAMES = {Device.SHOE: "SHOE", Device.BETZONES: "BET ZONES"}
THERMAL = Path("/sys/class/thermal/thermal_zone0/temp")
MAX_INCIDENTS = 50
FLOOR_HANDS = 500  # the first fold after a start goes back this many hands at most


def link_view(device: Device, stats: LinkStats, now: float) -> LinkStatusView:
    last = stats.last_frames[-1].at if stats.last_frames else None
    return LinkStatusView(
        name=LINK_NAMES[device],
        state=DiagLinkState.CONNECTED
        if stats.state is LinkState.UP
        else DiagLinkState.DISCONNECTED,
        port=stats.port,
        firmware=stats.identity.firmware_version if stats.identity is not None else "",
        frames_rx=stats.frames_rx,
        frames_tx=stats.frames_tx,
        crc_errors=stats.crc_errors,
        retransmits=stats.retransmits,
        duplicates=stats.duplicates,
        resyncs=stats.resyncs,
        last_frame_age_s=None if last is None else max(0.0, now - last),
        last_frames=tuple(
            f"{f.direction.value.upper()} {f.type_name} #{f.seq} {f.detail}".strip()
            for f in stats.last_frames[-5:]
        ),
    )


def absent_link(device: Device) -> LinkStatusView:
    return LinkStatusView(LINK_NAMES[device], DiagLinkState.DISCONNECTED, port="NOT FITTED")


def cpu_temp_c(path: Path = THERMAL) -> float | None:
    try:
        return int(path.read_text(encoding="ascii").strip()) / 1000
    except (OSError, ValueError):
        return None


def diagnostics(
    recorder: Recorder,
    links: tuple[LinkStatusView, ...],
    gpio: Mapping[str, bool],
    enrolment: EnrolmentView | None,
    fleet: FleetView | None = None,
    journal_problem: str = "",
    tournament: str = "",
) -> DiagnosticsData:
    journal = recorder.journal
    head, _ = journal.head()
    report = recorder.last_recovery
    try:
        size_mb = journal.path.stat().st_size / 1e6
    except OSError:
        size_mb = 0.0
    history = recorder.last_history
    if report is None or recorder.history is not None:
        chain_ok = None  # not yet verified since start (the check of the history still runs)
    else:
        chain_ok = report.chain is None and (history is None or history.chain is None)
    clock = journal.clock
    return DiagnosticsData(
        links=links,
        gpio=GpioLevelsView(tuple(sorted(gpio.items()))),
        journal=JournalHealthView(
            ok=not journal_problem
            and (report is None or report.ok)
            and (history is None or history.ok),
            problem=journal_problem,
            events=recorder.last_input_seq,
            last_seq=head,
            chain_ok=chain_ok,
            checking=recorder.history is not None,
            size_mb=size_mb,
            outbox=fleet.outbox_rows if fleet is not None else 0,
        ),
        platform=PlatformView(
            clock_utc=format_utc(clock.utc())[:19].replace("T", " "),
            clock_synced=clock.synced(),
            clock_warning=_clock_words(recorder.clock_warning),
            cpu_temp_c=cpu_temp_c(),
        ),
        enrolment=enrolment,
        fleet=fleet,
        tournament=tournament,
    )


def _clock_words(warning: str) -> str:
    """ "clock 11520 s behind ..." -> "BEHIND THE JOURNAL BY 3.2 H"."""
    if not warning:
        return ""
    seconds = float(warning.split()[1])
    span = f"{seconds / 3600:.1f} H" if seconds >= 3600 else f"{seconds:.0f} S"
    return f"BEHIND THE JOURNAL BY {span}"


def _dealer_before(journal: Journal, seq: int) -> str | None:
    """The dealer signed in just before row `seq` (as the incident fold keeps it)."""
    for row in journal.rows_before(seq, Code.LOGIN):
        data = row.data()
        if data.get("role") != ActorRole.DEALER:
            continue
        person = data.get("person")
        for out in journal.rows(row.seq + 1, seq, codes=[Code.LOGOUT]):
            if out.data().get("person") == person:
                return None
        return str(person)
    return None


def _ruling_code(ruled: str, engine: str) -> str:
    """The ruling in force as a code: the floor's, when it ruled with one, else the engine's."""
    return ruled if ruled in Ruling.__members__.values() else engine


class FloorViews:
    """Incidents and the last hands for the floor screens, from the journal."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._hands: dict[int, HandRecallView] = {}
        # The incidents, folded as the journal grows: each build reads only the rows added
        # since the last (folding the whole journal each time grew with it: `bench soak`).
        self._fold = IncidentFold(keep=4 * MAX_INCIDENTS)
        self._folded: int | None = None

    def build(self) -> FloorData:
        journal = self.recorder.journal
        head = journal.head()[0]
        if self._folded is None:
            self._folded = self._first_fold()
        if head > self._folded:
            for row in journal.rows(self._folded + 1, head + 1, codes=FOLD_CODES):
                self._fold.row(row)
            self._folded = head
        rows = []
        for rec in reversed(self._fold.incidents.values()):  # opened in id order: newest first
            rows.append(
                IncidentRow(
                    hand=rec.hand,
                    event=rec.events[-1] if rec.events else rec.id,
                    rule=rec.rule,
                    citation=rec.citation,
                    ruling=_ruling_code(rec.ruling.text if rec.ruling else "", rec.engine_ruling),
                    text=rec.text,
                    status=rec.state.value,
                    seat=rec.seat,
                    triggers=tuple(f"input #{e}" for e in rec.events),
                    at_utc=rec.detected_utc,
                )
            )
            if len(rows) >= MAX_INCIDENTS:
                break
        hands = []
        for summary in reversed(recent_hands(journal, RECALL_DEPTH)):
            view = self._hands.get(summary.hand)
            if view is None:
                view = self._hand(summary.hand, summary.void)
                if view is None:
                    continue
            hands.append(view)
        # Keep only the views still shown: a cache of every hand ever played grew without
        # bound (found by `station bench soak`).
        self._hands = {view.hand: view for view in hands}
        return FloorData(tuple(rows), tuple(hands))

    def _first_fold(self) -> int:
        """Where the first fold after a start begins (the row before it): at the hand before
        the MAX_INCIDENTS-th newest incident, FLOOR_HANDS hands back at most, never the whole
        journal; the dealer signed in then is read from the last dealer sign-in before it."""
        conn = self.recorder.journal.conn
        found = conn.execute("SELECT hand FROM log ORDER BY seq DESC LIMIT 1").fetchone()
        hand = (int(found[0]) if found else 0) - FLOOR_HANDS
        opened = sorted(
            (
                (int(seq), int(h))
                for code in (Code.DECISION_INCIDENT, Code.FLOOR_CALL_RAISED)
                for seq, h in conn.execute(
                    "SELECT seq, hand FROM log WHERE code = ? ORDER BY seq DESC LIMIT ?",
                    (code.value, MAX_INCIDENTS),
                )
            ),
            reverse=True,
        )[:MAX_INCIDENTS]
        if len(opened) == MAX_INCIDENTS:
            hand = max(hand, opened[-1][1] - 1)
        if hand <= 0:
            return 0
        first = conn.execute("SELECT MIN(seq) FROM log WHERE hand = ?", (hand,)).fetchone()
        start = int(first[0]) if first and first[0] is not None else 1
        self._fold.dealer = _dealer_before(self.recorder.journal, start)
        return start - 1

    def _hand(self, number: int, void: bool) -> HandRecallView | None:
        recall = load_hand(self.recorder.journal, number)
        if recall is None:
            return None
        end = recall.hand_end
        if end is None:
            result = ""
        elif void:
            result = "VOID"
        else:
            result = ", ".join(f"seat {s} wins {a}" for s, a in sorted(end.payouts.items()) if a)
            parts = [
                part_word(part.name)
                + " "
                + " ".join(f"S{s} {a}" for s, a in sorted(part.won.items()))
                for pot in end.pots
                for part in pot.parts
            ]
            if parts:
                result += " (" + " · ".join(parts) + ")"  # a split pot: each half's winner
        return HandRecallView(
            hand=number,
            game=recall.game,
            started_utc=recall.start_utc,
            steps=tuple(_steps(recall.steps)),
            result=result,
        )


def _steps(steps: Sequence[JournalStep]) -> Iterator[RecallStep]:
    """The recall's steps with the board(s) as they stand after each (a double-board game's
    second board apart)."""
    boards: tuple[list[str], list[str]] = ([], [])
    for s in steps:
        d = s.decision
        if isinstance(d, DrawRole) and d.role is DealSlot.BOARD:
            boards[1 if d.board else 0].append(d.card)
        yield RecallStep(s.seq, s.text, tuple(boards[0]), board2=tuple(boards[1]))
