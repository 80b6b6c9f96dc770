"""Charts as PNG or SVG drawn by matplotlib (Agg backend): each player's place round by
round, and win rates by role and by seat. Imported only through `formats.charts`, which says
in words what is missing when matplotlib (the `charts` extra) is not installed.

The Agg backend draws with no display, so the same code serves the CLI, the web pages and
a server. Figures are made with the object API (`Figure`, not `pyplot`), which keeps no
global state between charts and frees each figure when it is dropped. Text uses DejaVu
Sans, which matplotlib ships, so Cyrillic names render on a machine with no fonts.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from mafiatab import i18n  # noqa: E402
from mafiatab.domain.progress import Progress, Rate, places_by_round, win_rates  # noqa: E402
from mafiatab.domain.protocol import ROLES, SEATS, Tournament  # noqa: E402
from mafiatab.formats.labels import w  # noqa: E402
from mafiatab.rules.profile import RuleProfile  # noqa: E402

FORMATS = ("png", "svg")
_RC: dict[Any, Any] = {"font.family": "DejaVu Sans", "svg.fonttype": "path", "svg.hashsalt": "mafiatab"}
_ROLE_COLOURS = {"red": "#d62728", "sheriff": "#ff9f1c", "black": "#333333", "don": "#6a3d9a"}


def _save(fig: Figure, fmt: str) -> bytes:
    if fmt not in FORMATS:
        raise ValueError(f"chart format {fmt!r}: png or svg")
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    # no date in the SVG's metadata: the same tournament gives the same file
    metadata = {"Date": None} if fmt == "svg" else None
    fig.savefig(buf, format=fmt, dpi=110, metadata=metadata)
    return buf.getvalue()


def _round_label(key: tuple[str, int], several_stages: bool) -> str:
    return f"{key[0]} {key[1]}" if several_stages else str(key[1])


def places_chart(progress: Progress, title: str, lang: str, fmt: str = "png") -> bytes:
    """A line per player: his place after each round (1 on top), his name at the end."""
    with matplotlib.rc_context(_RC):
        n_rounds = max(len(progress.rounds), 1)
        n_players = max(len(progress.places), 1)
        fig = Figure(figsize=(max(7.0, 1.0 + 0.55 * n_rounds), max(4.5, 0.26 * n_players + 1.5)))
        ax = fig.add_subplot()
        several = len({k[0] for k in progress.rounds}) > 1
        xs = list(range(1, len(progress.rounds) + 1))
        final = {pid: next((p for p in reversed(places) if p is not None), n_players + 1)
                 for pid, places in progress.places.items()}
        for pid in sorted(progress.places, key=lambda x: final[x]):
            places = progress.places[pid]
            pts = [(x, p) for x, p in zip(xs, places, strict=True) if p is not None]
            if not pts:
                continue
            line = ax.plot([x for x, _ in pts], [p for _, p in pts], marker="o", markersize=3,
                           linewidth=1.2)[0]
            x_end, p_end = pts[-1]
            ax.annotate(progress.names.get(pid, pid), (x_end, p_end), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=7,
                        color=line.get_color())
        worst = max((p for ps in progress.places.values() for p in ps if p is not None), default=1)
        ax.set_ylim(worst + 0.7, 0.3)  # place 1 on top
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xticks(xs, [_round_label(k, several) for k in progress.rounds])
        ax.set_xlim(0.5, len(xs) + 1.8)
        ax.set_xlabel(w("round", lang))
        ax.set_ylabel(w("place", lang))
        ax.set_title(f"{title} — {w('places_title', lang)}")
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        return _save(fig, fmt)


def _bars(labels: list[str], rates: list[Rate], colours: list[str] | None, title: str,
          lang: str, fmt: str) -> bytes:
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(7.5, 4.2))
        ax = fig.add_subplot()
        shares = [r.share * 100 for r in rates]
        bars = ax.bar(labels, shares, color=colours or "#1f77b4")
        for bar, rate in zip(bars, rates, strict=True):
            ax.annotate(f"{rate.share * 100:.0f}%\n{rate.wins}/{rate.games}",
                        (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                        fontsize=7)
        ax.set_ylim(0, 115)
        ax.set_ylabel(w("share", lang) + ", %")
        ax.set_title(title)
        fig.tight_layout()
        return _save(fig, fmt)


def roles_chart(by_role: dict[str, Rate], title: str, lang: str, fmt: str = "png") -> bytes:
    labels = [i18n.pick(i18n.ROLE, r, lang) for r in ROLES]
    return _bars(labels, [by_role[r] for r in ROLES], [_ROLE_COLOURS[r] for r in ROLES],
                 f"{title} — {w('roles_title', lang)}", lang, fmt)


def seats_chart(by_seat: dict[int, Rate], title: str, lang: str, fmt: str = "png") -> bytes:
    return _bars([str(s) for s in SEATS], [by_seat[s] for s in SEATS], None,
                 f"{title} — {w('seats_title', lang)}", lang, fmt)


def all_charts(t: Tournament, p: RuleProfile, lang: str, fmt: str = "png",
               stages: Iterable[str] | None = None) -> dict[str, bytes]:
    """File name -> content: places.FMT, roles.FMT, seats.FMT."""
    scope = list(stages) if stages is not None else None
    by_role, by_seat = win_rates(t, scope)
    return {
        f"places.{fmt}": places_chart(places_by_round(t, p, scope), t.name, lang, fmt),
        f"roles.{fmt}": roles_chart(by_role, t.name, lang, fmt),
        f"seats.{fmt}": seats_chart(by_seat, t.name, lang, fmt),
    }
