"""`station bench tournament`: one event of `--tables` tables and `--players` players run to the
final table through the real centre, every balancing decision checked against the rule, and the
time from a player going broke at a table to the console's move instruction. Edge adapter
(processes, network).

Real: mosquitto and PostgreSQL (`station.central.services`), the ingest (`station central
ingest`) and the floor console with its tournament director (`station central console`), each a
process of its own; at each table the station's journal, recorder, rules engine, tournament
desk and fleet forwarder (`station.bench.tourney_station`, tables grouped in worker processes).
Simulated: each table's devices - its dealer's and players' inputs (the puck, the blinds and
bets as zone totals, the cards, the keys, the seat sensors) are recorded directly as the
daemon records its devices' inputs, one hand every `--pace` seconds, a player going broke in a
`--bust` share of them. The event is created, drawn and started from this process with the
console's own functions (`station.central.tournament.store`).

Figures: `tables_used` (the first draw seats the field at as few tables as hold it), `hands`,
`eliminated`, `moves` (and `balance_moves`, `tables_broken`, `redraws`;
`moves_refused`: orders a table refused, the player out already or his big blind posted since;
`moves_cancelled`: balancing moves re-planned away before their player left his seat - a
player out at another table inside the ingest's lag had made one unneeded - and
`cancels_refused`: those whose player had left already, the move kept),
`decisions_checked` and `decisions_wrong` (each balancing move against
`station.bench.tourney_check`, the decision's tables against the stations' journaled big
blinds, and each one carried out against the hands dealt meanwhile (he left before posting
the big blind he was moved for); each break against the breaking order; each redraw against the
profile's redraw points and carried out as one seat draw per table), `move_p50_s`,
`move_p99_s`, `move_max_s` (a `tournament.eliminated` row's time at its station to the
director's first move decided because of it, for every player out that needed a move;
`stored_p50_s`, `stored_p99_s`: the part of it until the ingest stored the row),
`final_table` (1 when the event reached one table seated), `seconds`.
Bars: move p99 <= 1 s, no wrong decision, the final table reached.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from station.bench.report import Bar, emit, percentile, say
from station.bench.tourney_check import check_balance, check_places, check_positions
from station.output import Guard, OutputRefusedError, fresh_folder

BARS = (
    Bar("move_p99_s", "<=", 1.0),
    Bar("decisions_wrong", "==", 0),
    Bar("final_table", "==", 1),
)
PER_WORKER = 10
STALL_S = 120.0  # no player out, no move made for this long: the event is stuck
STRUCTURE = {"levels": [{"sb": 50, "bb": 100, "minutes": 240}]}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=30, help="tables at the start (2-200)")
    parser.add_argument("--players", type=int, default=300, help="entrants drawn to the tables")
    parser.add_argument("--seats", type=int, default=10, help="seats per table")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's hands")
    parser.add_argument("--bust", type=float, default=0.4, help="share of hands with a player out")
    parser.add_argument("--profile", default="RR11", help="the event's rule profile")
    parser.add_argument("--seed", type=int, default=1, help="seed of the seat draw and the hands")
    parser.add_argument("--timeout", type=float, default=1800.0, help="give up after (seconds)")
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder, keep it")


def run(args: argparse.Namespace) -> int:
    if (
        not 2 <= args.tables <= 200
        or not 2 <= args.seats <= 10
        or not args.seats < args.players <= args.tables * args.seats
        or args.pace <= 0
        or not 0 < args.bust <= 1
    ):
        print("station bench tournament: bad arguments", file=sys.stderr)
        return 2
    try:  # a new or empty folder: never a station's own
        root = (
            fresh_folder(args.keep, Guard())
            if args.keep
            else Path(tempfile.mkdtemp(prefix="bench-tournament-"))
        )
    except OutputRefusedError as exc:
        print(f"station bench tournament: --keep: {exc}", file=sys.stderr)
        return 2
    try:
        from station.central.services import MissingError, Services  # noqa: PLC0415
    except ModuleNotFoundError as exc:
        print(f"station bench tournament: needs the central extra ({exc.name})", file=sys.stderr)
        return 2

    def stopped(signum: int, _frame: object) -> None:
        raise SystemExit(f"station bench tournament: stopped by signal {signum}")

    signal.signal(signal.SIGTERM, stopped)
    try:
        services = Services("bench").start()
    except MissingError as exc:
        print(f"station bench tournament: {exc}", file=sys.stderr)
        return 1
    with services:
        try:
            figures = measure(services, root, args)
        except RuntimeError as exc:
            print(f"station bench tournament: {exc} (logs in {root})", file=sys.stderr)
            emit("tournament", {"error": str(exc)}, BARS)
            return 1
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    emit("tournament", figures, BARS)
    return 0


class _Procs:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[IO[bytes]] = []

    def start(self, name: str, argv: list[str], *, ready_line: bool = False) -> None:
        log = (self.root / f"{name}.log").open("ab")
        self.logs.append(log)
        proc = subprocess.Popen(
            [sys.executable, "-m", *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if ready_line else log,
            stderr=log if ready_line else subprocess.STDOUT,
        )
        self.procs[name] = proc
        if ready_line:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != b"ready":
                raise RuntimeError(f"{name} did not start (see {self.root}/{name}.log)")
            proc.stdout.close()

    def stop(self, prefix: str = "") -> None:
        chosen = [p for n, p in self.procs.items() if n.startswith(prefix)]
        for proc in chosen:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in chosen:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()

    def close(self) -> None:
        self.stop()
        for log in self.logs:
            log.close()


def measure(services: Any, root: Path, args: argparse.Namespace) -> dict[str, object]:
    import psycopg  # noqa: PLC0415

    from station.central.certs import issue  # noqa: PLC0415
    from station.central.services import free_port  # noqa: PLC0415
    from station.central.tournament import store  # noqa: PLC0415

    tables = [f"T{n:02d}" for n in range(1, args.tables + 1)]
    say(f"tournament: certificates for {len(tables)} tables")
    for station in tables:
        issue(services.certs, services.site, station)
    toml = services.write_central_toml(root / "central.toml")
    port = free_port()
    toml.write_text(
        toml.read_text(encoding="utf-8")
        + f'\n[console]\nlisten = "127.0.0.1"\nport = {port}\nsecure_cookies = false\n',
        encoding="utf-8",
    )
    folder = root / "tables"
    folder.mkdir(exist_ok=True)
    spec: dict[str, Any] = {
        "site": services.site,
        "port": services.broker.port,
        "certs": str(services.certs),
        "folder": str(folder),
        "pace_s": args.pace,
        "bust": args.bust,
        "seed": args.seed,
        "workers": [tables[i : i + PER_WORKER] for i in range(0, len(tables), PER_WORKER)],
    }
    spec_path = root / "spec.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    procs = _Procs(root)
    level = os.environ.get("BENCH_LOG", "warning")
    conninfo = services.db.dsn()
    try:
        procs.start("ingest", ["station", "central", "ingest", "--config", str(toml),
                               "--log-level", level])  # fmt: skip
        _wait_schema(conninfo)  # the ingest migrates; the console after it
        procs.start("console", ["station", "central", "console", "--config", str(toml),
                                "--log-level", level])  # fmt: skip
        with psycopg.connect(conninfo, autocommit=True) as conn:
            spec_event = store.EventSpec(
                id="BENCH", title="bench", profile=args.profile, game="nlhe",
                structure=STRUCTURE, start_chips=10_000,
                tables=[(t, args.seats) for t in tables],
                entrants=[(f"P{i:04d}", f"Player {i}") for i in range(1, args.players + 1)],
            )  # fmt: skip
            store.create(conn, spec_event, "bench")
            store.draw(conn, "BENCH", "bench", seed=f"bench-{args.seed}")
            store.set_clock(conn, "BENCH", "start", "bench")
            drawn = store.load(conn, "BENCH")
            used = len(drawn.tables) if drawn is not None else 0
        say(f"tournament: {args.players} players drawn at {used} of {len(tables)} tables; dealing")
        started = time.monotonic()
        for k in range(len(spec["workers"])):
            procs.start(f"worker-{k}", ["station.bench.tourney_station", str(spec_path), str(k)],
                        ready_line=True)  # fmt: skip
        finished = _until_final_table(conninfo, started, args.timeout)
        seconds = time.monotonic() - started
        procs.stop("worker-")
        time.sleep(2.0)  # the director's last decisions
    finally:
        procs.close()
    return _figures(conninfo, seconds, finished, args)


def _wait_schema(conninfo: str) -> None:
    import psycopg  # noqa: PLC0415

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(psycopg.Error), psycopg.connect(conninfo) as conn:
            if conn.execute(
                "SELECT 1 FROM schema_migrations WHERE name = '0005_tournaments'"
            ).fetchone():
                return
        time.sleep(0.2)
    raise RuntimeError("the central services did not start")


def check_carried_out(
    conn: Any, decision: dict[str, Any], table: str, seat: int, out_seq: int
) -> list[str]:
    """The move carried out as decided: the player due the big blind left before he posted it
    (001-RR11 §15 r15), not after a hand dealt since the decision in which he posted it."""
    seen = next((t.get("hand", 0) for t in decision["tables"] if t["table"] == table), 0)
    found = conn.execute(
        "SELECT hand FROM rows WHERE station_id = %s AND code = 'table.hand_start'"
        " AND hand > %s AND seq < %s AND payload::jsonb #>> %s = 'BB' ORDER BY seq LIMIT 1",
        (table, seen, out_seq, ["seats", str(seat), "blind"]),
    ).fetchone()
    if found is None:
        return []
    return [f"{table} seat {seat} posted the big blind in hand {found[0]} before he moved"]


def check_redraw(conn: Any, n: int, left: int, in_play: list[str]) -> list[str]:
    """A redraw as 001-RR11 §15 r18 wants it carried out: every table left seated anew by one
    seat draw (its next hand dealt from it, the button drawn for), each player drawn to it
    from another table with the chips his old table confirmed when he left (none lost), a
    player already there keeping his own (null), `final_table` on the last table only; and
    each table set up from its draw (its `input.setup` after its `tournament.seats_drawn`)."""
    wrong: list[str] = []
    sent = {
        str(t): (int(i), dict(b))
        for i, t, b in conn.execute(
            "SELECT id, station_id, body FROM commands WHERE kind = 'tournament.seat_draw'"
            " AND (body->>'draw')::int = %s",
            (n,),
        )
    }
    for table in in_play:
        if table not in sent:
            wrong.append(f"redraw {n}: no seat draw sent to {table}")
            continue
        ident, body = sent[table]
        if body.get("final_table") is not (left == 1):
            wrong.append(f"redraw {n}: {table} final_table {body.get('final_table')} at {left}")
        drawn = {v["player"]: v["chips"] for v in body["seats"].values()}
        for player, frm, chips, state in conn.execute(
            "SELECT player, from_station, chips, state FROM tourney_moves WHERE draw_n = %s"
            " AND to_station = %s",
            (n, table),
        ):
            if state == "cancelled":
                continue
            if drawn.get(player) != chips or chips is None:
                wrong.append(f"redraw {n}: {player} from {frm} brought {chips}, drawn with"
                             f" {drawn.get(player)}")  # fmt: skip
        (setup,) = conn.execute(
            "SELECT count(*) FROM rows s JOIN rows d ON d.station_id = s.station_id"
            " AND d.code = 'tournament.seats_drawn' AND (d.payload::jsonb->>'command')::bigint = %s"
            " WHERE s.station_id = %s AND s.code = 'input.setup' AND s.seq > d.seq",
            (ident, table),
        ).fetchone() or (0,)
        if not setup:
            wrong.append(f"redraw {n}: {table} never set up from its seat draw")
    return wrong


def _until_final_table(conninfo: str, started: float, timeout: float) -> bool:
    import psycopg  # noqa: PLC0415

    last, since = "", time.monotonic()
    while time.monotonic() - started < timeout:
        time.sleep(1.0)
        with psycopg.connect(conninfo) as conn:
            (in_play,) = conn.execute(
                "SELECT count(*) FROM tourney_tables WHERE broken_at IS NULL"
            ).fetchone() or (0,)
            (left,) = conn.execute("SELECT count(*) FROM tourney_seats").fetchone() or (0,)
            (moving,) = conn.execute(
                "SELECT count(*) FROM tourney_moves WHERE state IN ('waiting', 'ordered', 'out')"
            ).fetchone() or (0,)
        now = f"{left} players, {in_play} tables, {moving} moves open"
        if now != last:
            say(f"tournament: {time.monotonic() - started:6.1f} s: {now}")
            last, since = now, time.monotonic()
        elif time.monotonic() - since > STALL_S:
            raise RuntimeError(f"nothing moved for {STALL_S:.0f} s ({now}): see the workers' logs")
        if int(in_play) == 1 and int(moving) == 0:
            return True
    return False


def _figures(
    conninfo: str, seconds: float, finished: bool, args: argparse.Namespace
) -> dict[str, object]:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(conninfo) as conn:
        order = [
            str(t[0])
            for t in conn.execute("SELECT station_id FROM tourney_tables ORDER BY break_order")
        ]
        moves = conn.execute(
            "SELECT id, player, from_station, from_seat, to_station, to_seat, reason, decision,"
            " cause_station, cause_seq, decided_at, state, out_seq FROM tourney_moves ORDER BY id"
        ).fetchall()
        draws = conn.execute(
            "SELECT n, kind, broken, tables_left FROM tourney_draws ORDER BY n"
        ).fetchall()
        (hands,) = conn.execute(
            "SELECT count(*) FROM rows WHERE code = 'decision.hand_end'"
        ).fetchone() or (0,)
        (outs,) = conn.execute("SELECT count(*) FROM tourney_outs").fetchone() or (0,)
        (refused,) = conn.execute(
            "SELECT count(*) FROM tourney_moves m JOIN commands c ON c.id = m.out_command"
            " WHERE c.state = 'refused'"
        ).fetchone() or (0,)
        (cancelled, cancels_refused) = conn.execute(
            "SELECT count(*) FILTER (WHERE cancel_state = 'done'),"
            " count(*) FILTER (WHERE cancel_state = 'refused') FROM tourney_moves"
        ).fetchone() or (0, 0)
        for still in conn.execute(
            "SELECT id, player, from_station, from_seat, to_station, to_seat, reason, state,"
            " after_move FROM tourney_moves WHERE state IN ('waiting', 'ordered', 'out')"
            " ORDER BY id"
        ).fetchall():
            say("tournament: OPEN move {} {} {}:{} -> {}:{} ({}) {} after {}".format(*still))
        wrong: list[str] = []
        checked = 0
        latencies: dict[tuple[str, int], float] = {}
        stored: dict[tuple[str, int], float] = {}
        for (_i, player, frm, frm_seat, to, to_seat, reason, decision, cst, cseq, at, state,
             out_seq) in moves:  # fmt: skip
            if cst is not None and cseq is not None:
                row = conn.execute(
                    "SELECT recorded_utc, stored_at FROM rows WHERE station_id = %s AND seq = %s",
                    (cst, cseq),
                ).fetchone()
                if row is not None:
                    recorded = datetime.fromisoformat(str(row[0])).timestamp()
                    lag = at.timestamp() - recorded
                    key = (str(cst), int(cseq))
                    latencies[key] = min(latencies.get(key, lag), lag)
                    stored[key] = row[1].timestamp() - recorded
            if reason != "balance":
                continue
            checked += 1
            move = {"player": player, "from_station": frm, "from_seat": frm_seat,
                    "to_station": to, "to_seat": to_seat}  # fmt: skip
            problems = check_balance(decision, move)
            journaled = {}
            for t in decision["tables"]:
                found = conn.execute(
                    "SELECT code, payload FROM rows WHERE station_id = %s"
                    " AND code IN ('table.hand_start', 'input.setup') AND seq <= %s"
                    " ORDER BY seq DESC LIMIT 1",
                    (t["table"], t["seq"]),
                ).fetchone()
                bb = None  # (none yet after a setup: a redrawn table before its first hand)
                if found is not None and found[0] == "table.hand_start":
                    seats = json.loads(found[1]).get("seats", {})
                    bb = next((int(s) for s, v in seats.items() if v.get("blind") == "BB"), None)
                journaled[t["table"]] = bb
            problems += check_positions(decision, journaled)
            if state != "cancelled" and out_seq is not None:
                problems += check_carried_out(conn, decision, frm, frm_seat, int(out_seq))
            wrong += [f"move of {player} {frm}->{to}: {p}" for p in problems]
        first = conn.execute(
            "SELECT DISTINCT r.value->>0 FROM tourney_draws d, jsonb_each(d.result) r WHERE d.n = 0"
        ).fetchall()
        seated_at_draw = {str(r[0]) for r in first}
        # the first draw seats the tables the field needs, the last of the breaking order
        in_play = [t for t in order if t in seated_at_draw]
        if in_play != order[len(order) - len(in_play) :]:
            wrong.append(f"the first draw seated {in_play}, not the last of {order}")
        # the rulebooks' redraw points: RR11 §15 r18, RR5 r17, USPA 3.3.2.15 (GN: RR11's): at
        # three, two and one table; RRPG r17: two and one, in events of three or more tables
        redraw_at = {3, 2, 1} if args.profile in ("RR11", "RR5", "USPA", "GN") else set()
        if args.profile == "RRPG" and len(order) >= 3:
            redraw_at = {2, 1}
        for _n, kind, broken, left in draws:
            if kind == "draw":
                continue
            checked += 1
            if broken != in_play[0]:
                wrong.append(f"broke {broken}, the breaking order's next is {in_play[0]}")
            in_play = [t for t in in_play if t != broken]
            if (kind == "redraw") != (left in redraw_at):
                wrong.append(f"{kind} at {left} tables")
            if kind == "redraw":
                wrong += check_redraw(conn, int(_n), int(left), in_play)
        # every table seated by a draw draws for its button before it deals (TOURN-BUTTON)
        for station, hand in conn.execute(
            "SELECT station_id, hand FROM rows WHERE code = 'decision.incident'"
            " AND payload::jsonb->>'rule' = 'TOURN-BUTTON' ORDER BY station_id, seq"
        ).fetchall():
            wrong.append(f"{station} dealt hand {hand} without drawing for the button")
        # the finishing order: every player out placed by the rule, from the stations' rows
        out_rows = [
            {**o, "table": str(station), "hand": body["hand"], "round": body.get("round")}
            for station, payload in conn.execute(
                "SELECT station_id, payload FROM rows WHERE code = 'tournament.eliminated'"
                " ORDER BY recorded_utc, station_id, seq"
            ).fetchall()
            for body in [json.loads(payload)]
            for o in body["players"]
        ]
        places = {
            str(p): (int(a), int(b))
            for p, a, b in conn.execute(
                "SELECT player, place, place_last FROM tourney_outs WHERE place IS NOT NULL"
            ).fetchall()
        }
        checked += len(out_rows)
        wrong += check_places(args.players, out_rows, places)
        (final,) = conn.execute(
            "SELECT count(DISTINCT station_id) FROM tourney_seats"
        ).fetchone() or (0,)
    for line in wrong[:20]:
        say(f"tournament: WRONG {line}")
    lags = list(latencies.values())
    to_store = [stored[k] for k in latencies]
    return {
        "tables": args.tables,
        "players": args.players,
        "seconds": round(seconds, 1),
        "hands": int(hands),
        "eliminated": int(outs),
        "moves": len(moves),
        "balance_moves": sum(1 for m in moves if m[6] == "balance"),
        "moves_refused": int(refused),
        "moves_cancelled": int(cancelled),
        "cancels_refused": int(cancels_refused),
        "tables_used": len(seated_at_draw),
        "tables_broken": sum(1 for d in draws if d[1] != "draw"),
        "redraws": sum(1 for d in draws if d[1] == "redraw"),
        "decisions_checked": checked,
        "decisions_wrong": len(wrong),
        "busts_with_a_move": len(lags),
        "move_p50_s": round(percentile(lags, 50), 3),
        "move_p99_s": round(percentile(lags, 99), 3),
        "move_max_s": round(max(lags, default=float("nan")), 3),
        "stored_p50_s": round(percentile(to_store, 50), 3),
        "stored_p99_s": round(percentile(to_store, 99), 3),
        "final_table": 1 if finished and int(final) == 1 else 0,
    }
