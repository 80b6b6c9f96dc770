"""A seating's figures in words, for the organizer who never read seating.md: "the most one
pair meets: 5 times (8 pairs)" rather than "P1 5×8"; Russian decimal commas and plurals that
agree. The jargon (Σ m², S1, T1) stays in each figure's tooltip for those who know it.

Each figure also carries a number that orders it (smaller is better, except where `better`
says otherwise), so that a swap's preview can mark what gets better and what gets worse.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from mafiatab import texts
from mafiatab.seating.metrics import Metrics
from mafiatab.seating.model import (
    SeatingRequest,
    breaches_word,
    mean_meetings,
    sum_sq_lower_bound,
)
from mafiatab.texts.seating import FIGURES


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure: its key, its words, its value in words, the jargon (tooltip), and the
    numbers that compare two seatings (`lower_better`: smaller is better; none: the figure
    only describes, as the histogram, and a change is neither better nor worse)."""

    key: str
    label: str
    value: str
    tip: str
    rank: tuple[int, ...]
    lower_better: bool = True


def _w(key: str, lang: str, **params: object) -> str:
    return texts.say(FIGURES, key, lang, **params)


def figures(request: SeatingRequest, m: Metrics, lang: str) -> list[Figure]:
    """Every figure of seating.md's list, in words, for `lang`."""
    c, num = texts.count, texts.number
    mu = Decimal(str(mean_meetings(request.players, request.games))).quantize(
        Decimal("0.01"), ROUND_HALF_UP)
    bound = sum_sq_lower_bound(request.players, request.games, request.tables, request.rounds)
    hist = " · ".join(_w("hist_item", lang, times=c(k, "time", lang), pairs=c(v, "pair", lang))
                      for k, v in m.histogram.items())
    out = [
        Figure("most", _w("most", lang),
               _w("most_value", lang, times=c(m.max_meetings, "time", lang),
                  pairs=c(m.pairs_at_max, "pair", lang)),
               _w("most_tip", lang), (m.max_meetings, m.pairs_at_max)),
        Figure("fewest", _w("fewest", lang), c(m.min_meetings, "time", lang),
               _w("fewest_tip", lang), (m.min_meetings,), lower_better=False),
        Figure("never", _w("never", lang), num(m.pairs_never, lang), _w("never_tip", lang),
               (m.pairs_never,)),
        Figure("mean", _w("mean", lang), num(mu, lang), _w("mean_tip", lang), ()),
        Figure("spread", _w("spread", lang),
               _w("spread_value", lang, value=num(m.sum_sq, lang), bound=num(bound, lang)),
               _w("spread_tip", lang), (m.sum_sq,)),
        Figure("hist", _w("hist", lang), hist, _w("hist_tip", lang), ()),
        Figure("same_seat", _w("same_seat", lang), c(m.most_same_seat, "game", lang),
               _w("same_seat_tip", lang, cells=m.seat_cells_off), (m.most_same_seat,)),
        Figure("seats_off", _w("seats_off", lang), num(m.players_seats_off, lang),
               _w("seats_off_tip", lang, cells=m.seat_cells_off), (m.players_seats_off,)),
        Figure("groups_off", _w("groups_off", lang), num(m.players_groups_off, lang),
               _w("groups_off_tip", lang, cells=m.seat_group_cells_off),
               (m.players_groups_off,)),
        Figure("same_table", _w("same_table", lang), c(m.most_same_table, "game", lang),
               _w("tables_off_tip", lang, cells=m.table_cells_off), (m.most_same_table,)),
        Figure("tables_off", _w("tables_off", lang), num(m.players_tables_off, lang),
               _w("tables_off_tip", lang, cells=m.table_cells_off), (m.players_tables_off,)),
        Figure("hard", _w("hard", lang),
               breaches_word(m.hard_by_rule).text(lang) if m.hard_violations
               else _w("hard_kept", lang),
               _w("hard_tip", lang, n=m.hard_violations), (m.hard_violations,)),
    ]
    soft = [w for _k, w in request.pair_rules().values() if w]
    if any(w > 0 for w in soft):
        out.append(Figure("avoid", _w("avoid", lang), num(m.soft_avoided_met, lang),
                          _w("avoid_tip", lang), (m.soft_avoided_met,)))
    if any(w < 0 for w in soft):
        out.append(Figure("welcome", _w("welcome", lang), num(m.soft_welcome_met, lang),
                          _w("welcome_tip", lang), (m.soft_welcome_met,), lower_better=False))
    return out


@dataclass(frozen=True, slots=True)
class Change:
    """A figure before and after a change: `trend` is "better", "worse", "changed" (a
    figure that only describes) or "same"."""

    key: str
    label: str
    tip: str
    before: str
    after: str
    trend: str


def compare(before: list[Figure], after: list[Figure]) -> list[Change]:
    """Every figure's two values side by side, with whether it got better or worse."""
    out = []
    for a, b in zip(before, after, strict=True):
        if not a.rank:
            trend = "same" if a.value == b.value else "changed"
        elif a.rank == b.rank:
            trend = "same"
        else:
            better = b.rank < a.rank if a.lower_better else b.rank > a.rank
            trend = "better" if better else "worse"
        out.append(Change(a.key, a.label, a.tip, a.value, b.value, trend))
    return out


__all__ = ["Change", "Figure", "compare", "figures"]
