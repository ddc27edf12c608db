"""What is wrong, and what to do about it: a recovery's numbered steps and the open incidents.
Pure.

Every alert here is open in the engine (`TableSnapshot.alerts`: it leaves when the state that owns
it resolves). The panel is laid out as blocks, each with a full form and shorter ones, and when
the room the layout gives is short the least urgent block gives way first:

1. the other incidents' texts (their rule and ruling line stays), then those lines ("+2 MORE");
2. the steps still to come after the next one, then the next one too ("+3 MORE STEPS");
3. the steps done, folded into one line ("STEPS 1-2 DONE");
4. the text of the recovery's own incident (the steps say what to do).

What never gives way: the recovery's head, the step to do now (highlighted, NOW) and the newest
incident with its whole text, wrapped to the width. Texts are never cut: a block is shown whole,
folded into its own summary line, or not at all (and then counted on a "MORE" line).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import IntEnum

from station.display.canvas import Canvas
from station.display.dealer_view import (
    STEP_STATE_TEXT,
    DealerView,
    IncidentLine,
    StepLine,
    StepState,
)
from station.display.model import Rect
from station.display.theme import Edge, Style, TextRole

T = TextRole.TEXT
NEXT_LABEL = "NEXT"
EN_DASH = "\u2013"


class Form(IntEnum):
    HIDDEN = 0
    SHORT = 1
    FULL = 2


@dataclass
class Block:
    """One piece of the panel: its height in each form it may take, and how to draw it."""

    heights: dict[Form, int]
    draw: Callable[[Canvas, Rect, Form], None]
    form: Form = Form.FULL
    give: int = 99  # the order in which blocks give way (lowest first); 99: never
    detail: IncidentLine | None = None  # the incident whose text it carries
    now: bool = False  # the recovery step to do now

    @property
    def height(self) -> int:
        return self.heights.get(self.form, 0)


def _wrapped(c: Canvas, text: str, width: int) -> int:
    return len(c.wrap(text, T, width)) * c.row(T)


def _step_text(step: StepLine) -> str:
    return f"{step.number}. {step.text}"


def _step_block(c: Canvas, step: StepLine, width: int, give: int) -> Block:
    """A numbered step, its state (DONE, NOW) in words before it; the text wraps under the
    tag (a hanging tag would cost a small panel a line)."""
    tag = STEP_STATE_TEXT[step.state]
    tag_w = c.measure(tag, T) + c.pad if tag else 0
    text_w = width - 2 * c.pad
    h = text_h = len(c.wrap(_step_text(step), T, text_w, text_w - tag_w)) * c.row(T)
    if step.state is StepState.NOW:  # on its own colour: room for what hangs below the line
        h += c.descent(T)

    def draw(cv: Canvas, r: Rect, form: Form) -> None:
        style = {StepState.DONE: Style.DIM, StepState.NOW: Style.NOW}.get(step.state, Style.BASE)
        if step.state is StepState.NOW:
            cv.box(r, Style.NOW, Edge.TO_ACT, cv.mm_y(0.8))
        inner = Rect(r.x + cv.pad, r.y, r.w - 2 * cv.pad, text_h)
        if tag:
            cv.text(Rect(inner.x, r.y, tag_w, cv.row(T)), tag, T, style)
        cv.paragraph(inner, _step_text(step), T, style, indent=tag_w)

    return Block({Form.FULL: h}, draw, give=give)


def incident_head(c: Canvas, inc: IncidentLine, width: int) -> str:
    """The incident's cause and ruling in words when they fit one line; else the ruling alone
    (the rule id is on the floor's incident page, never on the dealer's)."""
    if c.fits(inc.head, T, width) or not c.fits(inc.ruling, T, width):
        return inc.head
    return inc.ruling


def _incident_block(c: Canvas, inc: IncidentLine, width: int, give: int) -> Block:
    head = incident_head(c, inc, width - 2 * c.pad)
    head_h = _wrapped(c, head, width - 2 * c.pad) + c.descent(T)
    text_h = _wrapped(c, inc.text, width - 2 * c.pad) + c.descent(T)

    def draw(cv: Canvas, r: Rect, form: Form) -> None:
        cv.box(r, Style.BASE, Edge.STOP, 3)
        cv.box(Rect(r.x, r.y, r.w, head_h), Style.ALERT)
        inner = r.inset(cv.pad, 0)
        cv.paragraph(Rect(inner.x, r.y, inner.w, head_h), head, T, Style.ALERT)
        if form is Form.FULL:
            cv.paragraph(Rect(inner.x, r.y + head_h, inner.w, text_h), inc.text, T)

    return Block({Form.FULL: head_h + text_h, Form.SHORT: head_h}, draw, give=give, detail=inc)


def _next_block(c: Canvas, text: str, width: int) -> Block:
    label_w = c.measure(NEXT_LABEL, T) + 2 * c.pad
    h = _wrapped(c, text, width - label_w - c.pad)

    def draw(cv: Canvas, r: Rect, form: Form) -> None:
        cv.text(Rect(r.x + cv.pad, r.y, label_w - cv.pad, cv.row(T)), NEXT_LABEL, T, Style.DIM)
        cv.paragraph(Rect(r.x + label_w, r.y, r.w - label_w - cv.pad, r.h), text, T)

    return Block({Form.FULL: h}, draw)


def _text_block(c: Canvas, inc: IncidentLine, width: int, give: int) -> Block:
    h = _wrapped(c, inc.text, width - 2 * c.pad) + c.descent(T)

    def draw(cv: Canvas, r: Rect, form: Form) -> None:
        cv.box(r, Style.BASE, Edge.STOP, 3)
        cv.paragraph(r.inset(cv.pad, 0), inc.text, T)

    return Block({Form.FULL: h}, draw, give=give, detail=inc)


def _line_block(c: Canvas, text: str, style: Style, width: int, give: int = 99) -> Block:
    h = _wrapped(c, text, width - 2 * c.pad) + (c.descent(T) if style is not Style.DIM else 0)

    def draw(cv: Canvas, r: Rect, form: Form) -> None:
        if style is not Style.DIM:
            cv.box(r, style)
        cv.paragraph(r.inset(cv.pad, 0), text, T, style)

    return Block({Form.FULL: h}, draw, give=give)


@dataclass
class Panel:
    blocks: list[Block]
    more_steps: list[Block]  # the steps to come (folded into "+n MORE STEPS" when hidden)
    done: list[Block]  # the steps done (folded into "STEPS 1-k DONE")
    others: list[Block]  # the older incidents (folded into "+n MORE")
    width: int
    gap: int
    compact: bool = False  # a small panel: what does not fit is on its second page

    def height(self, c: Canvas, summaries: bool = True) -> int:
        shown = [b for b in self.blocks if b.height]
        extra = self._summaries(c) if summaries else []
        n = len(shown) + len(extra)
        return sum(b.height for b in shown) + sum(h for _, h in extra) + self.gap * max(0, n - 1)

    def _summaries(self, c: Canvas) -> list[tuple[str, int]]:
        out = []
        hidden_steps = [b for b in self.more_steps if b.form is Form.HIDDEN]
        if hidden_steps:
            text = f"+{len(hidden_steps)} MORE STEP{'S' if len(hidden_steps) > 1 else ''}"
            out.append((text, _wrapped(c, text, self.width - 2 * c.pad)))
        hidden = [b for b in self.others if b.form is Form.HIDDEN]
        where = "ALERTS PAGE" if self.compact else "FLOOR PAGE"
        if hidden:
            text = f"+{len(hidden)} MORE INCIDENT{'S' if len(hidden) > 1 else ''}: {where}"
            out.append((text, _wrapped(c, text, self.width - 2 * c.pad)))
        elif self.compact and any(
            (b.detail is not None or b.now) and b.form is not Form.FULL for b in self.blocks
        ):
            text = f"IN FULL: {where}"
            out.append((text, _wrapped(c, text, self.width - 2 * c.pad)))
        return out


def next_behind_stop(view: DealerView) -> str:
    """The prompt in force when a STOP holds the bottom band and says something else ("" when
    there is none, or when the STOP is that prompt's short form)."""
    nxt = view.next
    if view.stop_text is None or nxt.code is None:
        return ""
    if view.stop_text in (nxt.text, nxt.short):
        return ""
    return nxt.text


def recovery_head(c: Canvas, view: DealerView, width: int) -> str:
    """RECOVERY, the cause and the ruling in words; shorter forms when that does not fit."""
    rec = view.recovery
    assert rec is not None
    ruling = f": {rec.ruling}" if rec.ruling and rec.ruling not in rec.cause else ""
    forms = (f"RECOVERY · {rec.cause}{ruling}", f"{rec.cause}{ruling}", f"RECOVERY · {rec.cause}")
    return next((f for f in forms if c.fits(f, T, width)), forms[0])


def build(
    c: Canvas, view: DealerView, width: int, compact: bool = False, second: bool = False
) -> Panel:
    """Every block in full: a panel that `fit` then folds to the room there is. On a small
    panel (`compact`) the recovery's own incident text may give way too (after the steps
    done): the second page shows it (`details`). There (`second`) nothing goes further."""
    first = compact and not second  # what may move to the second page
    p = c.pad
    blocks: list[Block] = []
    more: list[Block] = []
    done: list[Block] = []
    others: list[Block] = []
    hidden = next_behind_stop(view)
    if hidden:  # the STOP band has the bottom: the prompt in force goes first here
        blocks.append(_next_block(c, hidden, width))
    rec = view.recovery
    if rec is not None:
        blocks.append(_line_block(c, recovery_head(c, view, width - 2 * p), Style.INFO, width))
        if rec.incidents:  # under the recovery's head: its rule and ruling are said there
            give = 35 if first else 99
            blocks.append(_text_block(c, rec.incidents[0], width, give=give))
        done_steps = [s for s in rec.steps if s.state is StepState.DONE]
        done = [_step_block(c, s, width, give=30) for s in done_steps]
        if done_steps:
            folded = f"STEPS 1{EN_DASH}{len(done_steps)} DONE" if len(done_steps) > 1 else ""
            folded = folded or "STEP 1 DONE"
            for b in done:
                b.heights[Form.SHORT] = 0
                b.heights[Form.HIDDEN] = 0
            done[0].heights[Form.SHORT] = _wrapped(c, folded, width - 2 * p)
            first_draw = done[0].draw

            def draw_done(cv: Canvas, r: Rect, form: Form, text: str = folded) -> None:
                if form is Form.SHORT:
                    cv.paragraph(r.inset(cv.pad, 0), text, T, Style.DIM)
                else:
                    first_draw(cv, r, form)

            done[0].draw = draw_done
        blocks += done
        for s in rec.steps:
            if s.state is StepState.NOW:  # a small panel's second page has them all, if need be
                now = _step_block(c, s, width, give=39 if first else 99)
                now.now = True
                blocks.append(now)
        todo = [s for s in rec.steps if s.state is StepState.TODO]
        more = [_step_block(c, s, width, give=20 - i) for i, s in enumerate(todo)]
        blocks += more
    for i, inc in enumerate(view.incidents):
        # The newest stays whole; on a small panel its text may go to the second page too
        # (its head, rule and ruling, stays here).
        give = (36 if first else 99) if i == 0 else 10 - min(i, 9)
        b = _incident_block(c, inc, width, give=give)
        if i:
            others.append(b)
        blocks.append(b)
    return Panel(blocks, more, done, others, width, p // 2, compact)


def fit(c: Canvas, panel: Panel, room: int) -> bool:
    """Fold blocks, least urgent first, until the panel fits `room`; False when even the
    blocks that never give way do not fit."""
    # The "+2 MORE" lines are drawn only where there is room: they never fold a block.
    while panel.height(c, summaries=False) > room:
        candidates = [b for b in panel.blocks if b.give < 99 and b.form is not Form.HIDDEN]
        if not candidates:
            return False
        b = min(candidates, key=lambda b: b.give)
        if b in panel.done:
            if b.form is Form.FULL:  # folded into one line ("STEPS 1-2 DONE")...
                for d in panel.done:
                    d.form = Form.SHORT
                    d.give = 38 if panel.compact else 99
            else:  # ... and on a small panel that line may go too (the NOW step is numbered)
                for d in panel.done:
                    d.form = Form.HIDDEN
                    d.give = 99
            continue
        b.form = (
            Form(b.form - 1) if Form.SHORT in b.heights and b.form is Form.FULL else Form.HIDDEN
        )
        if b.form is Form.HIDDEN and b in panel.others:
            b.give = 99
        elif b.form is Form.SHORT:
            b.give = min(b.give, 5)  # its head line goes after the others' texts
    return True


@dataclass(frozen=True, slots=True)
class Details:
    """What a small panel's first page could not show whole: its second page shows it."""

    incidents: tuple[IncidentLine, ...] = ()  # newest first
    steps: bool = False  # the recovery's steps (the one to do now did not fit)

    def __bool__(self) -> bool:
        return bool(self.incidents) or self.steps


def details(c: Canvas, view: DealerView, width: int, room: int) -> Details:
    """What the first page, with `room` for its alerts, folds away."""
    panel = build(c, view, width, compact=True)
    fit(c, panel, room)
    folded = [b for b in panel.blocks if b.form is not Form.FULL]
    return Details(
        tuple(b.detail for b in folded if b.detail is not None), any(b.now for b in folded)
    )


def draw_details(c: Canvas, view: DealerView, shown: Details, area: Rect) -> int:
    """The recovery's steps (when they were folded) and the folded incidents, in full, as a
    large panel shows them; returns the height used."""
    rec = view.recovery if shown.steps else None
    if rec is not None:
        rec = replace(rec, incidents=tuple(i for i in rec.incidents if i in shown.incidents))
    own = rec.incidents if rec is not None else ()
    rest = tuple(i for i in shown.incidents if i not in own)
    shown_view = replace(view, recovery=rec, incidents=rest, stop_text=None)
    return draw(c, shown_view, area, compact=True, second=True)


def comfortable(c: Canvas, view: DealerView, width: int) -> int:
    """The height with the steps done folded into a line and the older incidents' texts
    left to their heads: all that the dealer needs now, and no more."""
    panel = build(c, view, width)
    for b in panel.done:
        b.form = Form.SHORT
    for b in panel.others:
        b.form = Form.SHORT
    return panel.height(c)


def minimum(c: Canvas, view: DealerView, width: int, compact: bool = False) -> int:
    """The height of the panel with every block that may give way folded or gone."""
    panel = build(c, view, width, compact)
    fit(c, panel, 0)
    return panel.height(c, summaries=False)


def full(c: Canvas, view: DealerView, width: int) -> int:
    return build(c, view, width).height(c)


def draw(
    c: Canvas, view: DealerView, area: Rect, compact: bool = False, second: bool = False
) -> int:
    """The panel folded to fit `area`; returns the height used. Whatever cannot fit even so is
    recorded in the canvas's `dropped`."""
    panel = build(c, view, area.w, compact, second)
    if not fit(c, panel, area.h):
        c.drop("alert: " + (", ".join(i.head for i in view.incidents) or "recovery"))
    y = area.y
    summaries = panel._summaries(c)
    for b in panel.blocks:
        if not b.height:
            continue
        if y + b.height > area.bottom:  # no room even so: recorded above, never drawn over
            continue
        b.draw(c, Rect(area.x, y, area.w, b.height), b.form)
        y += b.height + panel.gap
    for text, h in summaries:
        if y + h > area.bottom:
            continue
        c.paragraph(Rect(area.x + c.pad, y, area.w - 2 * c.pad, h), text, T, Style.DIM)
        y += h + panel.gap
    return max(0, y - area.y - panel.gap)
