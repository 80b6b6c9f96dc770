"""A tournament's players as the organizer keeps them: pasted one a line as
"ник;клуб" (with an optional header row) or uploaded as CSV/XLSX with a header row; each
line that cannot be a player is refused beside it with the reason, the others are
registered. Later a player's nickname or club is corrected, or he withdraws.

Why it is built this way:

* **The common paste is nickname;club.** Organizers copy a column or two out of a
  spreadsheet or a chat; ids mean nothing to them. A header row (ник/nickname, клуб/club,
  id) says which column is which, in any order; without one, one field is the nickname,
  two are nickname and club, and more are refused (the line says to add a header).
  Ids are made (p1, p2, …) where none is given.
* **A bad line does not lose the good ones.** The good lines are registered in one
  transaction; the refused ones come back with their line numbers and reasons, to be
  fixed and sent again (a second send never duplicates a good line: a nickname that is
  taken is refused).
* **A correction re-points the participant, never renames the person.** A player's
  identity (nickname and club) is shared across tournaments; a typo fixed here must not
  rewrite an old tournament's history, so the participant moves to the identity of the
  new nickname and club (made when missing). His games keep his participant id.
* **Withdrawn, not deleted.** A withdrawn player keeps his played games (they count as
  played); the seating generator no longer seats him.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Word
from mafiatab.services.errors import ServiceError
from mafiatab.services.store import (
    Store,
    player_identities,
    record_audit,
    require_role,
    tournament_row,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE, ORGANIZER
from mafiatab.texts import say
from mafiatab.texts.refusals import ROSTER, ROSTER_REASON

MANAGE: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: who registers players (the head judge corrects and withdraws them on the day)
REGISTER: Final = frozenset({ORGANIZER})
MAX_NICK: Final = 100
MAX_CLUB: Final = 100
MAX_ID: Final = 40
#: a paste or a file holds at most this many lines (a tournament seats up to 500); the
#: lines past them are not read at all
MAX_LINES: Final = 1000
#: the longest line read (characters): a longer one is refused beside its number, shown
#: cut, and never split into cells
MAX_LINE: Final = 1000
MAX_FILE: Final = 2 * 1024 * 1024
#: what an XLSX may unpack to, all its parts together (a thousand players' workbook is a
#: few hundred KiB unpacked; a 2 MiB "zip bomb" would unpack to gigabytes in memory)
MAX_UNPACKED: Final = 32 * 1024 * 1024

#: header words, case-folded: which column is which
HEADERS: Final[dict[str, str]] = {
    "ник": "nickname", "никнейм": "nickname", "игрок": "nickname", "nickname": "nickname",
    "nick": "nickname", "player": "nickname", "name": "nickname", "имя": "nickname",
    "клуб": "club", "club": "club", "команда": "club", "team": "club",
    "id": "id", "код": "id", "№": "id",
}

class RosterError(ServiceError):
    """A refusal of the roster's (400); its words are the catalogue's `roster` section."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = ROSTER


def reason_text(code: str, lang: str, **params: object) -> str:
    return say(ROSTER_REASON, code, lang, **params)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A line that is no player, with the reason (a code and its parameters)."""

    line: int
    text: str
    code: str
    params: dict[str, object] = field(default_factory=dict)

    def reason(self, lang: str) -> str:
        return reason_text(self.code, lang, **self.params)

    def word(self) -> Word:
        """The reason as a refusal's parameter: its code, its words in both languages."""
        return Word(self.code, self.reason("ru"), self.reason("en"))


@dataclass(frozen=True, slots=True)
class Entry:
    """A line that reads as a player (its id may be empty: one is made)."""

    line: int
    text: str
    nickname: str
    club: str | None
    id: str = ""


@dataclass(slots=True)
class Parsed:
    entries: list[Entry] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)


@dataclass(slots=True)
class Added:
    """What an add did: the players registered, the lines refused (in line order)."""

    players: list[model.Player] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RosterLine:
    """A registered player as the set-up page lists him."""

    id: str
    nickname: str
    club: str | None
    withdrawn: bool
    exhibition: bool = False


_ID: Final = re.compile(r"[\w-]+")


def _clean(cell: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", cell).split())


def _header(cells: Sequence[str]) -> list[str] | None:
    """The columns a header row names, or None when the row is no header."""
    names = [HEADERS.get(_clean(c).casefold().strip(" :*")) for c in cells]
    filled = [n for n in names if n]
    if "nickname" not in filled or len(filled) != len(set(filled)):
        return None
    if any(n is None and _clean(c) for n, c in zip(names, cells, strict=True)):
        return None
    return [n or "" for n in names]


def _entry(line: int, text: str, cells: Sequence[str], columns: Sequence[str] | None
           ) -> Entry | Refusal:
    raw = list(cells)
    while raw and not raw[-1].strip():
        raw.pop()
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t" for c in raw for ch in c):
        return Refusal(line, text, "control")
    values = [_clean(c) for c in raw]
    if columns is None:
        if len(values) > 2:
            return Refusal(line, text, "too_many_fields")
        columns = ["nickname", "club"]
    elif len(values) > len(columns) and any(values[len(columns):]):
        return Refusal(line, text, "extra_fields", {"n": len(columns)})
    got = {col: v for col, v in zip(columns, values, strict=False) if col}
    nickname, club, pid = got.get("nickname", ""), got.get("club", ""), got.get("id", "")
    if not nickname:
        return Refusal(line, text, "empty_nickname")
    if len(nickname) > MAX_NICK:
        return Refusal(line, text, "long_nickname", {"n": MAX_NICK})
    if len(club) > MAX_CLUB:
        return Refusal(line, text, "long_club", {"n": MAX_CLUB})
    if pid and (len(pid) > MAX_ID or not _ID.fullmatch(pid)):
        return Refusal(line, text, "bad_id", {"n": MAX_ID})
    return Entry(line, text, nickname, club or None, pid)


#: one line read: its number, its text, its cells (None: too long to be read)
Row = tuple[int, str, list[str] | None]
#: how many lines are read at most: a header, `MAX_LINES`, and one to say there were more
_READ: Final = MAX_LINES + 2


def _long(line: int, text: str) -> Row:
    return (line, text[:MAX_LINE] + "…", None)


def _rows(rows: Sequence[Row], header_needed: bool) -> Parsed:
    out = Parsed()
    if not rows:
        return out
    first = rows[0][2]
    columns = None if first is None else _header(first)
    if columns is not None:
        rows = rows[1:]
    elif header_needed:
        raise RosterError("no_header", line=rows[0][1][:80])
    if len(rows) > MAX_LINES:
        out.refused.append(Refusal(rows[MAX_LINES][0], rows[MAX_LINES][1], "too_many_lines",
                                   {"n": MAX_LINES}))
        rows = rows[:MAX_LINES]
    for line, text, cells in rows:
        if cells is None:
            out.refused.append(Refusal(line, text, "long_line", {"n": MAX_LINE}))
            continue
        got = _entry(line, text, cells, columns)
        (out.entries if isinstance(got, Entry) else out.refused).append(got)  # type: ignore[arg-type]
    return out


def parse_text(text: str) -> Parsed:
    """A pasted list: one player a line, fields split by ";" (or a tab, as a spreadsheet's
    copy gives them); an optional header row first."""
    rows: list[Row] = []
    for i, line in enumerate(text.splitlines(), start=1):
        if len(rows) >= _READ:
            break
        if len(line) > MAX_LINE:
            rows.append(_long(i, line))
        elif line.strip():
            rows.append((i, line.strip(), re.split(r"[;\t]", line)))
    return _rows(rows, header_needed=False)


def parse_file(data: bytes, filename: str) -> Parsed:
    """An uploaded CSV (UTF-8, with or without BOM, or Windows-1251; ";", "," or tab) or
    XLSX (its first sheet), with a header row it recognizes."""
    if len(data) > MAX_FILE:
        raise RosterError("bad_file", detail=f"> {MAX_FILE // 1024 // 1024} MiB")
    if data.startswith(b"PK") or filename.lower().endswith(".xlsx"):
        return _rows(_xlsx_rows(data), header_needed=True)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1251")
        except UnicodeDecodeError as e:
            raise RosterError("bad_file", detail=str(e)[:80]) from None
    return _rows(_csv_rows(text), header_needed=True)


def _csv_rows(text: str) -> list[Row]:
    """The CSV's lines within the bounds: a physical line over `MAX_LINE` is never given
    to the CSV reader (it is refused as it is), nor is a line past the first `_READ`."""
    first = next((ln for ln in io.StringIO(text) if ln.strip()), "")[:MAX_LINE]
    delimiter = max(";,\t", key=first.count)
    rows: list[Row] = []
    numbers: list[int] = []  # the physical line each line given to the reader came from

    def lines() -> Iterator[str]:
        for n, line in enumerate(io.StringIO(text, newline=""), start=1):
            if len(line.rstrip("\r\n")) > MAX_LINE:
                rows.append(_long(n, line.rstrip("\r\n")))
                continue
            numbers.append(n)
            yield line

    reader = csv.reader(lines(), delimiter=delimiter)
    while len(rows) < _READ:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error:  # a quoted field across many lines, past the reader's bound
            line = numbers[-1] if numbers else 0
            rows.append(_long(line, ""))
            continue
        if any(c.strip() for c in cells):
            line = numbers[-1] if numbers else len(rows) + 1
            rows.append((line, delimiter.join(cells)[:MAX_LINE], cells))
    rows.sort(key=lambda r: r[0])
    return rows[:_READ]


def _xlsx_rows(data: bytes) -> list[Row]:
    import zipfile

    from openpyxl import load_workbook

    try:  # the parts' unpacked sizes first (zipfile never unpacks past what they say)
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            unpacked = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as e:
        raise RosterError("bad_file", detail=type(e).__name__) from None
    if unpacked > MAX_UNPACKED:
        raise RosterError("bad_file", detail=f"> {MAX_UNPACKED // 1024 // 1024} MiB unpacked")
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a file that is no workbook
        raise RosterError("bad_file", detail=type(e).__name__) from None
    try:
        sheet = book.worksheets[0]
        rows: list[Row] = []
        for i, values in enumerate(sheet.iter_rows(values_only=True, max_row=MAX_LINES + 2),
                                   start=1):
            cells = ["" if v is None else str(v) for v in values]
            line = ";".join(cells).rstrip(";")
            if len(line) > MAX_LINE:
                rows.append(_long(i, line))
            elif any(c.strip() for c in cells):
                rows.append((i, line, cells))
        return rows
    finally:
        book.close()


def insert_participants(s: Session, t: db.Tournament, players: list[model.Player]) -> None:
    """Add players to a tournament's list, after the others, each under his identity
    across tournaments (a new one when that person is in already under another
    nickname). A step inside a use case's transaction: the caller checked and audits."""
    start = s.scalar(select(func.coalesce(func.max(db.Participant.position) + 1, 0))
                     .where(db.Participant.tournament_id == t.id)) or 0
    used = set(s.scalars(select(db.Participant.player_id)
                         .where(db.Participant.tournament_id == t.id)))
    rows = []
    for i, (p, ident) in enumerate(zip(players, player_identities(s, players), strict=True)):
        if ident in used:  # this person is already in under another nickname: new identity
            new = s.scalar(insert(db.Player).returning(db.Player.id),
                           {"nickname": p.nickname, "club": p.club})
            assert new is not None
            ident = new
        used.add(ident)
        rows.append({"tournament_id": t.id, "player_id": ident, "code": p.id,
                     "position": start + i, "exhibition": p.exhibition})
    s.execute(insert(db.Participant), rows)


class Roster:
    """The players of a tournament: add (paste or file), correct, withdraw."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def lines(self, tournament: int) -> list[RosterLine]:
        """The registered players in order, with their clubs and whether each is withdrawn
        or plays as an exhibition player. Public, no actor: the same as the tournament's
        context's players and `withdrawn`, which the standings show anyone."""
        with self.store.read() as s:
            rows = s.execute(
                select(db.Participant.code, db.Player.nickname, db.Player.club,
                       db.Participant.withdrawn, db.Participant.exhibition)
                .join(db.Player, db.Player.id == db.Participant.player_id)
                .where(db.Participant.tournament_id == tournament)
                .order_by(db.Participant.position))
            return [RosterLine(c, n, club, bool(w), bool(x)) for c, n, club, w, x in rows]

    def withdrawn(self, tournament: int) -> set[str]:
        """The ids of the tournament's withdrawn players."""
        with self.store.read() as s:
            return set(s.scalars(select(db.Participant.code).where(
                db.Participant.tournament_id == tournament, db.Participant.withdrawn.is_(True))))

    def add_text(self, tournament: int, text: str, *, actor: str) -> Added:
        self._may_register(tournament, actor)
        return self.add(tournament, parse_text(text), actor=actor)

    def add_file(self, tournament: int, data: bytes, filename: str, *, actor: str) -> Added:
        self._may_register(tournament, actor)  # before the file is read
        return self.add(tournament, parse_file(data, filename), actor=actor)

    def _may_register(self, tournament: int, actor: str) -> None:
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, REGISTER, "manage")

    def add(self, tournament: int, parsed: Parsed, *, actor: str) -> Added:
        """Register the parsed lines that can be players (the organizer's); the others
        come back refused."""
        out = Added(refused=list(parsed.refused))
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, REGISTER, "manage")
            known = s.execute(
                select(db.Participant.code, db.Player.nickname)
                .join(db.Player, db.Player.id == db.Participant.player_id)
                .where(db.Participant.tournament_id == t.id)).all()
            ids = {c for c, _n in known}
            nicks = {n.casefold() for _c, n in known}
            seen: dict[str, int] = {}
            accepted: list[Entry] = []
            for e in parsed.entries:
                key = e.nickname.casefold()
                if key in nicks:
                    out.refused.append(Refusal(e.line, e.text, "taken_nickname",
                                               {"value": e.nickname}))
                elif key in seen:
                    out.refused.append(Refusal(e.line, e.text, "twice_nickname",
                                               {"value": e.nickname, "line": seen[key]}))
                elif e.id and e.id in ids:
                    out.refused.append(Refusal(e.line, e.text, "taken_id", {"value": e.id}))
                else:
                    seen[key] = e.line
                    if e.id:
                        ids.add(e.id)
                    accepted.append(e)
            number = 1
            for e in accepted:
                pid = e.id
                if not pid:
                    while f"p{number}" in ids:
                        number += 1
                    pid = f"p{number}"
                    ids.add(pid)
                out.players.append(model.Player(id=pid, nickname=e.nickname, club=e.club))
            if out.players:
                insert_participants(s, t, out.players)
                record_audit(s, actor, t.id, "register_players",
                             {"players": [p.id for p in out.players]})
        out.refused.sort(key=lambda r: r.line)
        return out

    def edit(self, tournament: int, player: str, nickname: str, club: str | None, *,
             actor: str) -> model.Player:
        """Correct a player's nickname and club: the participant moves to that identity."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            got = _entry(0, "", [nickname, club or ""], ["nickname", "club"])
            if isinstance(got, Refusal):
                raise RosterError("bad_player", player=player, reason=got.word())
            row = s.scalar(select(db.Participant).where(db.Participant.tournament_id == t.id,
                                                        db.Participant.code == player))
            if row is None:
                raise RosterError("no_participant", player=player)
            old = s.get(db.Player, row.player_id)
            assert old is not None
            others = s.scalars(
                select(db.Player.nickname)
                .join(db.Participant, db.Participant.player_id == db.Player.id)
                .where(db.Participant.tournament_id == t.id, db.Participant.id != row.id))
            if any(n.casefold() == got.nickname.casefold() for n in others):
                taken = Refusal(0, "", "taken_nickname", {"value": got.nickname})
                raise RosterError("bad_player", player=player, reason=taken.word())
            new = model.Player(id=player, nickname=got.nickname, club=got.club)
            if (old.nickname, old.club) != (new.nickname, new.club):
                ident = player_identities(s, [new])[0]
                taken = s.scalar(select(db.Participant.id).where(
                    db.Participant.tournament_id == t.id, db.Participant.player_id == ident,
                    db.Participant.id != row.id))
                if taken is not None:
                    made = s.scalar(insert(db.Player).returning(db.Player.id),
                                    {"nickname": new.nickname, "club": new.club})
                    assert made is not None
                    ident = made
                row.player_id = ident
                record_audit(s, actor, t.id, "edit_player", {
                    "player": player, "nickname": [old.nickname, new.nickname],
                    "club": [old.club, new.club]})
            return new

    def withdraw(self, tournament: int, player: str, *, actor: str,
                 withdrawn: bool = True) -> None:
        """Withdraw a player (or bring him back): his played games stay, the seating no
        longer seats him."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            _mark(s, t.id, player, {"withdrawn": withdrawn})
            record_audit(s, actor, t.id, "withdraw_player" if withdrawn else "reinstate_player",
                         {"player": player})

    def update(self, tournament: int, player: str, *, actor: str, nickname: str | None = None,
               club: str | None = None, withdrawn: bool | None = None) -> RosterLine:
        """The API's change of one player (staff, asked first): withdrawn or brought back,
        his nickname and club corrected; his line as it is now."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            if withdrawn is not None:
                self.withdraw(tournament, player, actor=actor, withdrawn=withdrawn)
            if nickname is not None:
                self.edit(tournament, player, nickname, club, actor=actor)
            line = next((x for x in self.lines(tournament) if x.id == player), None)
            if line is None:
                raise RosterError("no_participant", player=player)
            return line

    def set_exhibition(self, tournament: int, player: str, exhibition: bool, *,
                       actor: str) -> None:
        """Mark a player as playing out of the standings (an exhibition player) or back
        in them: he is seated as anyone, his games count for the others, he is not ranked
        (`domain.standings`)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            _mark(s, t.id, player, {"exhibition": exhibition})
            record_audit(s, actor, t.id, "exhibition_player",
                         {"player": player, "exhibition": exhibition})


def _mark(s: Session, tournament_id: int, player: str, values: dict[str, bool]) -> None:
    """Set a participant's flags (withdrawn, exhibition); refused when there is no such
    participant."""
    result = s.execute(update(db.Participant)
                       .where(db.Participant.tournament_id == tournament_id,
                              db.Participant.code == player)
                       .values(**values)
                       .execution_options(synchronize_session=False))
    if not result.rowcount:  # type: ignore[attr-defined]
        raise RosterError("no_participant", player=player)


__all__ = ["Added", "Entry", "HEADERS", "Parsed", "Refusal", "Roster", "RosterError",
           "insert_participants",
           "RosterLine", "parse_file", "parse_text"]
