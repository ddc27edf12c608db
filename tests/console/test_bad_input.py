"""What a browser can send never breaks the console (issue 31 item 5): a NUL byte or a
number out of range in any filter, path or form is a 400 page saying what was wrong, never a
500 or a dropped connection; a rule filter matches its text literally (`%` is not a wildcard);
a cell of the CSV export that a spreadsheet would run as a formula is neutralised; a refusal
says in words what the role may not do."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.console.fleet import Fleet
from tests.console.test_http import sign_in

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
