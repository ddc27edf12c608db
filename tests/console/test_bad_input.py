"""What a browser can send never breaks the console (issue 31 item 5): a NUL byte or a
number out of range in any filter, path or form is a 400 page saying what was wrong, never a
500 or a dropped connection; a rule filter matches its text literally (`%` is not a wildcard);
a cell of the CSV export that a spreadsheet would run as a formula is neutralised; a refusal
says in words what the role may not do."""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.console.fleet import Fleet
from tests.console.test_http import sign_in
from tests.fleet.conftest import wait_until

pytestmark = pytest.mark.slow

NASTY = ["%00", "a%00b", "99999999999999999999999", "-1", "%ff%fe", "%25", "'", "\\"]
GET_PATHS = [
    "/incidents?table={v}",
    "/incidents?rule={v}",
    "/incidents?ruling={v}",
    "/incidents?state={v}",
    "/incidents?person={v}",
    "/incidents?since={v}",
    "/incidents?until={v}",
    "/incidents?sort={v}",
    "/incidents?offset={v}",
    "/incidents/export.csv?table={v}",
    "/incidents/export.json?table={v}",
    "/incidents/export.json?person={v}",
    "/hands?table={v}",
    "/hands?table=T01&hand={v}",
    "/hands?table=T01&at={v}",
    "/incidents/T01/{v}",
    "/incidents/{v}/1",
    "/hands/T01/{v}",
    "/hands/{v}/1",
    "/tables/{v}/alarms",
    "/audit?account={v}",
    "/audit?action={v}",
    "/audit?before={v}",
    "/map?x={v}",
]


@pytest.fixture
def ada(fleet: Fleet) -> Iterator[tuple[httpx.Client, str]]:
    client, csrf = sign_in(fleet, "ada")
    yield client, csrf
    client.close()


def test_no_filter_path_or_form_value_gives_a_500(
    fleet: Fleet, ada: tuple[httpx.Client, str]
) -> None:
    client, _csrf = ada
    bad = []
    for template in GET_PATHS:
        for value in NASTY:
            url = template.format(v=value)
            try:
                answer = client.get(url)
            except httpx.HTTPError as exc:
                bad.append(f"{url}: {exc!r}")
                continue
            if answer.status_code >= 500:
                bad.append(f"{url}: {answer.status_code}")
            if "%00" in value and answer.status_code != 400:
                bad.append(f"{url}: {answer.status_code}, not 400")
    assert bad == [], "\n".join(bad)


def test_a_nul_byte_in_a_form_is_refused_with_400(
    fleet: Fleet, ada: tuple[httpx.Client, str]
) -> None:
    client, csrf = ada
    origin = {"origin": fleet.console_url}
    before = fleet.query("SELECT count(*) FROM console_accounts")[0][0]
    answer = client.post(
        "/accounts",
        data={"csrf": csrf, "what": "add", "name": "nul\x00name", "role": "floor",
              "password": "a-long-enough-password"},
        headers=origin,
    )  # fmt: skip
    assert answer.status_code == 400
    assert "NUL" in answer.text
    with httpx.Client(base_url=fleet.console_url, timeout=15) as anonymous:
        page = anonymous.get("/login")
        token = page.text.split('name="login_token" value="')[1].split('"')[0]
        login = anonymous.post(
            "/login", data={"login_token": token, "name": "flo\x00", "password": "x"},
            headers=origin,
        )  # fmt: skip
        assert login.status_code == 400
    assert fleet.query("SELECT count(*) FROM console_accounts")[0][0] == before


def test_a_rule_filter_is_taken_literally(fleet: Fleet, ada: tuple[httpx.Client, str]) -> None:
    """`%` and `_` typed into the rule filter are characters, not wildcards: `%` matches no
    rule id (they are letters, digits and dashes), where it used to match every incident."""
    client, _ = ada

    def total(query: str) -> int:
        page = client.get(f"/incidents?state=&{query}")
        assert page.status_code == 200
        return int(page.text.split('<p class="summary">')[1].split("<strong>")[1].split("<")[0])

    everything = total("rule=")
    assert everything > 0
    assert total("rule=MISDEAL") > 0
    for literal in ("%25", "_", "%25MISDEAL", "M_SDEAL", "%5C"):
        assert total(f"rule={literal}") == 0, literal
    assert total("rule=misdeal") == total("rule=MISDEAL")  # the prefix, in any case


def test_a_refusal_says_what_the_role_may_not_do(fleet: Fleet) -> None:
    client, _ = sign_in(fleet, "flo")
    with contextlib.closing(client):
        page = client.get("/accounts")
        assert page.status_code == 403
        assert "floor accounts may not manage accounts (admin accounts may)" in page.text
        assert "may not accounts" not in page.text
        audit = client.get("/audit")
        assert "floor accounts may not read the audit log" in audit.text


def test_a_formula_typed_into_a_ruling_is_neutralised_in_the_csv_export(
    fleet: Fleet, signed: Any
) -> None:
    """A camera field `=HYPERLINK(...)` (and a detail `@SUM(...)`) ruled at the console, then
    journaled at the station, comes back in the CSV export as text: `'=HYPERLINK(...)`."""
    from tests.console.fleet import fill_journal

    station = "T05"
    if station not in fleet.stations:
        (fleet.root / station).mkdir(parents=True, exist_ok=True)
        fill_journal(
            fleet.journal_path(station), station,
            ["BURN-ERROR-FLOP/rr11_flop_without_burn_exposed_reshuffled.jsonl"],
        )  # fmt: skip
        fleet.start_station(station)
    wait_until(
        lambda: bool(fleet.query(
            "SELECT 1 FROM console_incidents WHERE station_id = %s AND state = 'open'", (station,)
        )),
        60, "T05's incidents indexed",
    )  # fmt: skip
    incident = int(
        fleet.query(
            "SELECT id FROM console_incidents WHERE station_id = %s AND state = 'open'"
            " ORDER BY id LIMIT 1",
            (station,),
        )[0][0]
    )
    formula = '=HYPERLINK("http://evil.example/x","CAM 4")'
    flo = signed("flo").page
    flo.goto(f"{fleet.console_url}/incidents/{station}/{incident}")
    flo.fill("#rule-form input[name=detail]", "@SUM(1+1)")
    flo.fill("#rule-form input[name=camera]", formula)
    flo.click("#rule-form button[type=submit]")
    flo.wait_for_selector("li.cmd-done", timeout=20_000)
    wait_until(
        lambda: bool(fleet.query(
            "SELECT 1 FROM console_incidents WHERE station_id = %s AND id = %s"
            " AND state = 'ruled'", (station, incident),
        )),
        20, "the ruling indexed",
    )  # fmt: skip
    flo.goto(f"{fleet.console_url}/incidents?table={station}&state=")
    with flo.expect_download() as download:
        flo.click("#export-csv")
    text = download.value.path().read_text(encoding="utf-8")
    rows = {r["incident"]: r for r in csv.DictReader(io.StringIO(text))}
    row = rows[str(incident)]
    assert row["camera"] == "'" + formula
    assert row["ruling"].startswith("'") or not row["ruling"].startswith(("=", "+", "-", "@"))
    for r in rows.values():
        for cell in r.values():
            assert not cell.startswith(("=", "+", "@")), cell
            assert not (cell.startswith("-") and not cell.lstrip("-").isdigit()), cell
