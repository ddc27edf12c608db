"""Colour maths (WCAG 2.x) and the theme's colour pairs: requirement 25 and 26 of standards-ux."""

from __future__ import annotations

import pytest

from station.display.colour import OKABE_ITO, Colour, contrast_ratio, relative_luminance, rgb
from station.display.theme import (
    BOUNDARY_CONTRAST_BAR,
    DEFAULT_THEME,
    TEXT_CONTRAST_BAR,
    Style,
)


def test_wcag_reference_values() -> None:
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#FFFFFF", "#FFFFFF") == pytest.approx(1.0)
    # WebAIM's checker: #777777 on white is 4.48:1, #767676 is the first grey to pass 4.5:1
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)
    assert relative_luminance("#FF0000") == pytest.approx(0.2126)
    assert contrast_ratio("#E69F00", "#000000") == contrast_ratio("#000000", "#E69F00")


def test_bad_colour_is_refused() -> None:
    with pytest.raises(ValueError, match="RRGGBB"):
        rgb("#12345")


def test_every_text_pair_reaches_7_to_1() -> None:
    for style, pair in DEFAULT_THEME.styles.items():
        ratio = contrast_ratio(pair.fg, pair.bg)
        assert ratio >= TEXT_CONTRAST_BAR, f"{style}: {pair.fg} on {pair.bg} is {ratio:.2f}:1"


def test_every_outline_reaches_3_to_1_against_the_background() -> None:
    for edge, colour in DEFAULT_THEME.edges.items():
        ratio = contrast_ratio(colour, DEFAULT_THEME.background)
        assert ratio >= BOUNDARY_CONTRAST_BAR, f"{edge}: {colour} is {ratio:.2f}:1"


def test_only_okabe_ito_colours_and_white() -> None:
    used = {DEFAULT_THEME.background, *DEFAULT_THEME.edges.values()}
    for pair in DEFAULT_THEME.styles.values():
        used |= {pair.fg, pair.bg}
    assert used <= OKABE_ITO | {Colour.WHITE}
    assert {c.value for c in OKABE_ITO} >= {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2",
                                           "#D55E00", "#CC79A7", "#000000"}  # fmt: skip


def test_states_use_different_colours_as_well_as_words() -> None:
    """Words carry the state; colours still differ, so the two cues agree."""
    backgrounds = [DEFAULT_THEME.pair(s).bg for s in (Style.NOW, Style.ALERT, Style.INFO)]
    assert len(set(backgrounds)) == 3
