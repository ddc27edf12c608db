"""Which screen is on show: navigation state + latest data -> one screen model. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from station.display.clock_view import clock_line
from station.display.dealer_layout import DealerPage, dealer_screen
from station.display.dealer_signin import signin_screen
from station.display.dealer_view import StationStatus, dealer_view
from station.display.diag_view import DiagnosticsData, diagnostics_screen
from station.display.floor_view import FloorData, floor_screen
from station.display.model import ScreenModel
from station.display.nav import NavState, Screen
from station.display.panel import PanelConfig
from station.display.pinpad import pinpad_screen
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import DEFAULT_THEME, Theme
from station.engine.snapshot import TableSnapshot


@dataclass(frozen=True, slots=True)
class DisplayInputs:
    """Everything the screens are drawn from: frozen records handed over by the core."""

    snapshot: TableSnapshot = field(default_factory=TableSnapshot.empty)
    floor: FloorData = field(default_factory=FloorData)
    diag: DiagnosticsData = field(default_factory=DiagnosticsData)
    status: StationStatus = field(default_factory=StationStatus)
    table: TableShape = DEFAULT_TABLE  # the table's shape and seats (config, not data)


def inputs_used(nav: NavState) -> tuple[str, ...]:
    """Which of the DisplayInputs the screen on show draws (`screen_model` below): the display
    redraws when one of these changes, not when, say, the link figures behind the diagnostics
    screen refresh while the dealer screen is up."""
    match nav.screen:
        case Screen.PIN if nav.pin is not None:
            return ()
        case Screen.FLOOR:
            return ("floor", "snapshot", "status")  # status: a tournament clock's time
        case Screen.DIAG:
            return ("diag",)
        case Screen.SIGNIN:
            return ("snapshot", "status")
    return ("snapshot", "status")


def screen_model(
    nav: NavState, inputs: DisplayInputs, panel: PanelConfig, theme: Theme = DEFAULT_THEME
) -> ScreenModel:
    match nav.screen:
        case Screen.PIN if nav.pin is not None:
            return pinpad_screen(nav.pin, panel, theme)
        case Screen.FLOOR:
            clock = clock_line(
                inputs.snapshot.tournament, inputs.status.session_t, inputs.status.clock_source
            )
            return floor_screen(inputs.floor, nav.floor, panel, inputs.snapshot, theme, clock)
        case Screen.DIAG:
            return diagnostics_screen(inputs.diag, nav.diag, panel, theme)
        case Screen.SIGNIN:
            phase = inputs.snapshot.phase
            return signin_screen(inputs.status, phase, nav.signin_top, panel, theme)
    pages = {Screen.SEATS: DealerPage.SEATS, Screen.DETAILS: DealerPage.DETAILS}
    page = pages.get(nav.screen, DealerPage.TABLE)
    view = dealer_view(inputs.snapshot, inputs.status)
    return dealer_screen(view, panel, theme, page, inputs.table)
