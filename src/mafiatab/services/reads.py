"""Who may read what a tournament publishes: one check, made inside the service call that
reads (in its own transaction), so that the page, the JSON API and the CLI ask the same
question and a route only parses, calls and renders.

A tournament's staff (organizer, head judge) read everything; anyone else, signed in or
not (`actor` None), reads the standings, the confirmed protocols, the charts and the
downloads only while the standings are published, and what shows the extra points only
while the extras are published too (both open at the tournament's end).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from mafiatab.services.access import STAFF
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.store import roles_in
from mafiatab.storage import models as db


def staff_in(s: Session, t: db.Tournament, actor: str | None) -> bool:
    """Whether the actor is the tournament's staff."""
    return actor is not None and bool(roles_in(s, t.id, actor) & STAFF)


def require_published(s: Session, t: db.Tournament, actor: str | None, *, extras: bool,
                      action: str) -> bool:
    """Whether the reader is staff (who read everything); else `PermissionDenied`
    unless the standings (and, with `extras`, the extras) are published."""
    if staff_in(s, t, actor):
        return True
    row = s.get(db.WebSettings, t.id)
    finished = bool(row and row.finished)
    hidden = bool(row and row.standings_hidden) and not finished
    extras_hidden = bool(t.hide_extras_until_end) and not finished
    if hidden or (extras and extras_hidden):
        raise PermissionDenied("not_allowed", user=actor or "-", action=action,
                               tournament=t.name, roles=sorted(STAFF))
    return False


__all__ = ["require_published", "staff_in"]
