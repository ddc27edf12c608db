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


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("/incidents?since=0001-01-01T00:00", "since"),
        ("/incidents?until=9999-12-31T23:59", "until"),
        ("/incidents?since=9999-99-99", "since"),
        ("/incidents?state=evil", "state"),
        ("/hands?table=T01&at=0001-01-01T00:00", "at"),
        ("/hands?table=T01&at=2026-13-45", "at"),
        ("/money?to=9999-12-31", "to"),
        ("/money?from=0001-01-01", "from"),
    ],
)
def test_a_filter_the_console_cannot_use_is_a_400_naming_it(
    fleet: Fleet, ada: tuple[httpx.Client, str], url: str, named: str
) -> None:
    """A date out of range was a plain 500 (Python's OverflowError), and a date or state that
    is no date or state was dropped without a word, showing the whole list as if filtered:
    both are a 400 page naming the filter (a probe's findings)."""
    client, _csrf = ada
    answer = client.get(url)
    assert answer.status_code == 400, (url, answer.status_code)
    assert f"{named}:" in answer.text, answer.text[:500]


def test_a_nul_byte_sent_by_the_browser_is_a_400_page_saying_so(fleet: Fleet, signed: Any) -> None:
    """In Chromium, signed in: a filter URL holding `%00`, a NUL typed into the incidents'
    filter form (the browser encodes it) and one typed into the add-account form (a POST) each
    land on a 400 page naming the NUL character, and nothing is added."""
    ada = signed("ada").page
    url = fleet.console_url

    def says_nul(response: Any) -> None:
        assert response is not None
        assert response.status == 400, (response.url, response.status)
        text = ada.locator("body").inner_text()
        assert "NUL character" in text, text[:500]
        assert "Traceback" not in text

    says_nul(ada.goto(url + "/incidents?table=a%00b"))
    says_nul(ada.goto(url + "/hands/T01/%00"))

    ada.goto(url + "/incidents")
    ada.fill("form.filters input[name=rule]", "MIS\x00DEAL")
    with ada.expect_navigation() as typed:
        ada.locator("form.filters input[name=rule]").press("Enter")
    assert "rule=MIS%00DEAL" in typed.value.url, typed.value.url
    says_nul(typed.value)

    before = fleet.query("SELECT count(*) FROM console_accounts")[0][0]
    ada.goto(url + "/accounts")
    add = ada.locator("form.filters", has=ada.locator("input[name=what][value=add]"))
    add.locator("input[name=name]").fill("nul\x00name")
    add.locator("input[name=password]").fill("a-long-enough-password")
    with ada.expect_navigation() as posted:
        add.locator("button[type=submit]").click()
    assert posted.value.request.method == "POST"
    says_nul(posted.value)
    assert fleet.query("SELECT count(*) FROM console_accounts")[0][0] == before
