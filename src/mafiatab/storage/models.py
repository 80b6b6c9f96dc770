"""The database schema (SQLAlchemy 2, typed `Mapped[...]`), the same for SQLite and PostgreSQL.

Why it is shaped this way:

* A protocol is stored as the format-1 game JSON (`protocol_revisions.protocol`), exactly
  what `formats.tournament_json.game_to_dict` gives, so there is one mapping of the model
  to JSON in the whole program and a stored protocol reads back into a `Game` with the
  same decoder as a file.
* Revisions are append-only: saving, submitting, confirming and returning a protocol each
  add a row; nothing in `protocol_revisions` is ever updated or deleted. `games` keeps two
  numbers that point into them: `head_revision` (the newest, the base of optimistic
  locking) and `confirmed_revision` (the newest confirmed one, what standings read).
* Players are one identity across tournaments (`players`); `tournament_participants`
  gives each the id that the tournament's file uses for them (`code`).
* Free-form values (rule options, lots, unknown fields kept from a file, the diff of a
  revision) are JSON columns; the engine serialises them so that `Decimal` points stay
  exact (see `storage.engine`).

The core (`domain/`, `rules/`, `formats/`) knows nothing of this module.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: revision states (issue 3): a judge saves drafts and submits; a head judge confirms or
#: returns a submitted protocol
DRAFT: Final = "draft"
SUBMITTED: Final = "submitted"
CONFIRMED: Final = "confirmed"
RETURNED: Final = "returned"
STATES: Final = (DRAFT, SUBMITTED, CONFIRMED, RETURNED)

ORGANIZER: Final = "organizer"
HEAD_JUDGE: Final = "head_judge"
JUDGE: Final = "judge"
VIEWER: Final = "viewer"
ROLES: Final = (ORGANIZER, HEAD_JUDGE, JUDGE, VIEWER)

#: explicit constraint names, so that later migrations can alter them on SQLite (batch mode)
NAMING: Final = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    #: the rule profile: "fsm" or "fiim2018"
    rules: Mapped[str] = mapped_column(String(20))
    format: Mapped[str] = mapped_column(String(40), default="mafiatab.tournament/1")
    #: the number of participants (FIIM 8.7); None: the players listed
    participants: Mapped[int | None] = mapped_column(Integer)
    rule_options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    lots: Mapped[list[Any]] = mapped_column(JSON, default=list)
    lot_draws: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: fields of the file the program does not know, kept so that an export loses nothing
    other: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: the one who confirms a protocol must not be the one who submitted it
    confirmer_must_differ: Mapped[bool] = mapped_column(Boolean, default=False)
    #: hide extra points from viewers until the tournament ends (used by the web app)
    hide_extras_until_end: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class Player(Base):
    """A person, the same in every tournament they play."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname: Mapped[str] = mapped_column(String(200), index=True)
    club: Mapped[str | None] = mapped_column(String(200))


class Participant(Base):
    """A player in one tournament, under the id the tournament's protocols use."""

    __tablename__ = "tournament_participants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "code"),
        UniqueConstraint("tournament_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: the player's id in format 1 (`players[].id`, `seats[].player`)
    code: Mapped[str] = mapped_column(String(100))
    #: the order of the file's player list
    position: Mapped[int] = mapped_column(Integer)


class Stage(Base):
    __tablename__ = "stages"
    __table_args__ = (UniqueConstraint("tournament_id", "code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    compensation: Mapped[bool | None] = mapped_column(Boolean)
    position: Mapped[int] = mapped_column(Integer)


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("stage_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage_id: Mapped[int] = mapped_column(ForeignKey("stages.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)


class GameTable(Base):
    """A table of a round (a game is played at one)."""

    __tablename__ = "tables"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)


class Game(Base):
    """A game's identity and where its revisions stand; its protocol is in the revisions."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("tournament_id", "code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    #: the game's id in format 1
    code: Mapped[str] = mapped_column(String(100))
    #: the order of games in the file (exports keep it)
    position: Mapped[int] = mapped_column(Integer)
    #: the newest revision's number; a save names the number it was based on
    head_revision: Mapped[int] = mapped_column(Integer, default=0)
    #: the newest confirmed revision's number (0: none), what standings read
    confirmed_revision: Mapped[int] = mapped_column(Integer, default=0)


class ProtocolRevision(Base):
    """One version of a protocol; rows are only ever added."""

    __tablename__ = "protocol_revisions"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(20))
    #: the format-1 game JSON (`game_to_dict`), as text
    protocol: Mapped[str] = mapped_column(Text)
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    reason: Mapped[str | None] = mapped_column(Text)
    #: what changed against the previous revision: {"path": [old, new]}
    changes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    display_name: Mapped[str | None] = mapped_column(String(200))
    #: filled by the web app's login (later work); None: cannot log in
    password_hash: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RoleGrant(Base):
    """A user's role in one tournament (organizer, head judge, judge, viewer)."""

    __tablename__ = "user_roles"
    __table_args__ = (UniqueConstraint("user_id", "tournament_id", "role"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))


class AuditEntry(Base):
    """Who did what and when, including refused attempts (a lost conflict keeps its
    protocol here, so nothing typed by a judge is lost)."""

    __tablename__ = "audit_log"
    __table_args__ = (Index(None, "tournament_id", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=_now
    )
    user_name: Mapped[str] = mapped_column(String(200))
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="SET NULL")
    )
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


# --- the web app's own tables (issue 4) ------------------------------------------------


class WebSettings(Base):
    """A tournament's publication switches (one row per tournament, made on demand)."""

    __tablename__ = "web_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    standings_hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)


class Assignment(Base):
    """The judge of one game's table."""

    __tablename__ = "web_assignments"
    __table_args__ = (UniqueConstraint("tournament_id", "game_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_code: Mapped[str] = mapped_column(String(100))
    user_name: Mapped[str] = mapped_column(String(200))


class AccessCode(Base):
    """A per-tournament sign-in code; only its SHA-256 is kept (the code is random and
    long enough that a salted slow hash would add nothing but a full-table scan)."""

    __tablename__ = "web_access_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    user_name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
