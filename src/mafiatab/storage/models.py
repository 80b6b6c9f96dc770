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
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: revision states: a judge saves drafts and submits; a head judge confirms or
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
#: a player who signs in to file and follow his protests and appeals, and the
#: appeals commission that decides them with (or instead of) the head judge
PLAYER: Final = "player"
APPEALS_COMMISSION: Final = "appeals_commission"
ROLES: Final = (ORGANIZER, HEAD_JUDGE, JUDGE, VIEWER, PLAYER, APPEALS_COMMISSION)

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
        #: a person's tournaments (the people's pages, merges, ratings) by `player_id`
        #: alone: the unique pair above leads with the tournament and does not serve it
        Index("ix_tournament_participants_player_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: the player's id in format 1 (`players[].id`, `seats[].player`)
    code: Mapped[str] = mapped_column(String(100))
    #: the order of the file's player list
    position: Mapped[int] = mapped_column(Integer)
    #: withdrawn from the tournament: his played games stay, no seating seats him again
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: plays and is seated but is not ranked (an exhibition player, `domain.standings`)
    exhibition: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


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
    #: a draft's log is kept in `game_log_events` (services.revision_log): its length and
    #: its newest event's row; NULL: `protocol` holds the whole protocol, log included
    log_length: Mapped[int | None] = mapped_column(Integer)
    log_head: Mapped[int | None] = mapped_column(Integer)
    #: the live screen's ids of operations no longer in the log, kept the same way
    #: (`live.done`); NULL: in `protocol`
    done_length: Mapped[int | None] = mapped_column(Integer)
    done_head: Mapped[int | None] = mapped_column(Integer)
    #: a draft's fields that could not be read, as typed, with their problems
    #: (`domain.typed`); NULL: none. Never part of the protocol or of an export
    typed: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class GameLogEvent(Base):
    """One event of a game's log as a draft revision saved it; rows are only ever added.
    Each names the event before it, so a revision's log is the path from its `log_head`
    back to the first event (services.revision_log)."""

    __tablename__ = "game_log_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    parent_id: Mapped[int | None] = mapped_column(Integer)
    #: the live screen's id of the operation that added it (None: a log typed elsewhere)
    op_id: Mapped[str | None] = mapped_column(String(200))
    #: the event as format-1 JSON text
    event: Mapped[str] = mapped_column(Text)


class QueuedSave(Base):
    """A save of the protocol form that a phone queued and sent: its id (the phone's id
    within its author's, hashed: unique per game), the device, and the revision it made. A batch sent again
    (its answer lost on the way) is recognised by its id and applied once; an autosave
    goes on top of the same judge's newer drafts only when they came from the same
    device (a second phone's edit is a conflict the judge decides)."""

    __tablename__ = "queued_saves"
    __table_args__ = (UniqueConstraint("game_id", "client_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    client_id: Mapped[str] = mapped_column(String(100))
    device: Mapped[str | None] = mapped_column(String(100))
    revision: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    display_name: Mapped[str | None] = mapped_column(String(200))
    #: argon2id of the account's password; None: cannot sign in with a password
    password_hash: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    #: the global right to create tournaments (and to give that right)
    organizer: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the global administrator right: any password account's reset, merges
    #: across tournaments, the server's rating settings, giving and taking the two rights
    admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: an account made by a sign-in code belongs to that one tournament: it has
    #: no password, holds roles only there, and no code of another tournament opens it.
    #: Not a foreign key: adding one to `users` on SQLite would rebuild the table that
    #: every grant cascades from.
    code_tournament_id: Mapped[int | None] = mapped_column(Integer)


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


# --- the web app's own tables ------------------------------------------------


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


class SignInCode(Base):
    """A sign-in code: one tournament, one role, one account that the code
    made (never an existing staff account), mortal and revocable.

    The code is `lookup` + secret: `lookup` finds the row with an indexed read (no write
    lock for a guess), the secret is kept as HMAC-SHA256 under the row's own random salt,
    compared in constant time. The code itself is shown once and stored nowhere."""

    __tablename__ = "sign_in_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    lookup: Mapped[str] = mapped_column(String(16), unique=True)
    salt: Mapped[str] = mapped_column(String(64))
    digest: Mapped[str] = mapped_column(String(64))
    user_name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    #: None: valid until the tournament ends
    expires_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class WebSession(Base):
    """A signed-in browser: the cookie carries a random token, this row its
    SHA-256. Signing out, a password change, a revoked code or "sign out everywhere"
    delete rows, and the next request of that cookie is anonymous."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    code_id: Mapped[int | None] = mapped_column(
        ForeignKey("sign_in_codes.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    seen_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


# --- protests and appeals ------------------------------------------------------
#
# A case keeps its filing as the core's record (`domain.appeals.Filing`, JSON as it is);
# its thread and its decision are rows of their own, so that the head judge's list of
# open cases and the audit read them without decoding every case. The schedule the
# deadlines count rounds and days by (FSM 8.9.1-8.9.2) is entered per round; a game's end
# (FIIM 8.9.1) is entered by its judge; a protocol's publication is its first confirmed
# revision, which `protocol_revisions` already records.


class PlayerUser(Base):
    """The account a tournament's player signs in with (to file and follow his cases)."""

    __tablename__ = "player_users"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_code"),
        UniqueConstraint("tournament_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    #: the player's id in the tournament (`tournament_participants.code`)
    player_code: Mapped[str] = mapped_column(String(100))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))


class RoundTime(Base):
    """When a round starts and on which day of the tournament (the schedule)."""

    __tablename__ = "round_times"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AppealSettings(Base):
    """A tournament's appeal settings: when the tables were closed (FSM 8.9.2)."""

    __tablename__ = "appeal_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    tables_closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class GameTime(Base):
    """When a game ended (FIIM 8.9.1 counts the protest's 10 minutes from it)."""

    __tablename__ = "game_times"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ended_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class AppealCase(Base):
    """A protest or an appeal: the filing as the core's record, and where it stands."""

    __tablename__ = "appeal_cases"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    #: the case's number in the tournament (its id on the pages: "A3")
    number: Mapped[int] = mapped_column(Integer)
    game_code: Mapped[str] = mapped_column(String(100))
    player_code: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(30))
    status: Mapped[str] = mapped_column(String(20))
    #: `domain.appeals.Filing` as JSON
    filing: Mapped[dict[str, Any]] = mapped_column(JSON)
    clause: Mapped[str] = mapped_column(String(100))
    filed_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: the account that filed (the player, or staff on his behalf)
    filed_by: Mapped[str] = mapped_column(String(200))


class AppealMessage(Base):
    """One message of a case's thread (FSM 8.9.3); rows are only added."""

    __tablename__ = "appeal_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("appeal_cases.id", ondelete="CASCADE"), index=True)
    #: the player's code for the player, the account name for the others
    author: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(30))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    text: Mapped[str] = mapped_column(Text)


class AppealDecision(Base):
    """The decision on a case and what it did to the protocol (the revision it made)."""

    __tablename__ = "appeal_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(
        ForeignKey("appeal_cases.id", ondelete="CASCADE"), unique=True
    )
    #: `domain.appeals.Decision` as JSON
    decision: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[str] = mapped_column(String(20))
    decided_by: Mapped[str] = mapped_column(String(200))
    decided_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: the protocol revision the decision made (None: nothing changed)
    revision: Mapped[int | None] = mapped_column(Integer)
    #: `Effect.changes`: a line per thing that changed
    changes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: warnings shown with the decision (`Refusal.as_dict`)
    warnings: Mapped[list[Any]] = mapped_column(JSON, default=list)


class ScreenSettings(Base):
    """A tournament's screens of the day: the stream overlay's link and roles
    delay, the hall screen's announcements (one row per tournament, made on demand)."""

    __tablename__ = "screen_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    #: sha256 of the overlay link's key (the key itself is shown once, never stored)
    overlay_digest: Mapped[str | None] = mapped_column(String(64))
    overlay_made_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    #: seconds after the deal before the stream sees the roles; None: at the game's end
    roles_delay: Mapped[int | None] = mapped_column(Integer)
    #: the hall screen's announcements, one a line, as the organizer typed them
    announcements: Mapped[str] = mapped_column(Text, default="")



# --- people across tournaments and the federation's rating --------------------


class PlayerMerge(Base):
    """Two identities found to be one person: the merged one's row is gone, its
    participations belong to the kept one, and this record holds what a split needs to
    put everything back exactly (the merged row's id, nickname and club, and which
    participations moved). A split stamps `split_at`; the record itself stays."""

    __tablename__ = "player_merges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: not foreign keys: the kept identity may be merged again later, the merged one is gone
    kept_id: Mapped[int] = mapped_column(Integer, index=True)
    merged_id: Mapped[int] = mapped_column(Integer, index=True)
    merged_nickname: Mapped[str] = mapped_column(String(200))
    merged_club: Mapped[str | None] = mapped_column(String(200))
    #: the ids of the `tournament_participants` rows that moved to the kept identity
    participants: Mapped[list[Any]] = mapped_column(JSON, default=list)
    reason: Mapped[str] = mapped_column(Text, default="")
    merged_by: Mapped[str] = mapped_column(String(200))
    merged_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    split_by: Mapped[str | None] = mapped_column(String(200))
    split_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class FederationSettings(Base):
    """The federation's rating setting, one row for the whole server: which stage kinds
    count, which tournaments are not rated, which are elite (the baseline's K)."""

    __tablename__ = "federation_settings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage_kinds: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: tournament ids
    unrated: Mapped[list[Any]] = mapped_column(JSON, default=list)
    elite: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: rated games a person needs before he is ranked (fewer: listed as provisional)
    min_games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_by: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


# --- work shared by the server's processes ------------------------------
#
# With several server processes on one PostgreSQL database nothing one process needs may
# live in another's memory: a seating search and its proposal are rows of `jobs` (any
# process runs a waiting job, any process shows and publishes its result), and the sign-in
# limits count in `rate_hits` / `rate_counters` (one count for all processes).

#: a job's states: waiting in the queue, running in some process, and the four ends
JOB_STATES: Final = ("waiting", "running", "done", "refused", "failed", "cancelled")


class Job(Base):
    """A background job of a tournament (a seating search): its inputs, progress and
    result. At most one waiting or running job per tournament and kind (a partial unique
    index: two processes starting one at once cannot both succeed)."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_busy", "tournament_id", "kind", unique=True,
              sqlite_where=text("state IN ('waiting', 'running')"),
              postgresql_where=text("state IN ('waiting', 'running')")),
        Index("ix_jobs_state", "state", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    state: Mapped[str] = mapped_column(String(12))
    #: the account that started it
    owner: Mapped[str] = mapped_column(String(200))
    #: what was asked (the kind's own parameters) and what it works on (a snapshot)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: seconds the job may run (past them it stops with the best found, or fails)
    time_limit: Mapped[float] = mapped_column(Float)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    info: Mapped[str] = mapped_column(String(200), default="")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    reason_ru: Mapped[str] = mapped_column(Text, default="")
    reason_en: Mapped[str] = mapped_column(Text, default="")
    #: what was done with the result (a seating: round -> the games' codes)
    published: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the process that runs it (host:pid:random) and when it last said it is alive
    worker: Mapped[str | None] = mapped_column(String(100))
    heartbeat_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class RateHit(Base):
    """One counted sign-in attempt of a moving-window limit (the `limits` key and the
    time, seconds since the epoch); rows older than the longest window are deleted."""

    __tablename__ = "rate_hits"
    __table_args__ = (Index("ix_rate_hits_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[float] = mapped_column(Float)


class RateCounter(Base):
    """A fixed-window counter of the `limits` storage interface (key, count, expiry)."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[float] = mapped_column(Float)


class TournamentClock(Base):
    """A tournament's time zone (an IANA name, e.g. "Europe/Moscow"): every deadline and
    every game event is shown on that clock. No row: the server's zone."""

    __tablename__ = "tournament_clock"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    time_zone: Mapped[str] = mapped_column(String(64))


# --- the tournament day: check-in and teams -----------


class CheckIn(Base):
    """A player marked present for the tournament's day: by the desk (organizer's tick)
    or by the player himself (the desk's QR code opened after his own sign-in)."""

    __tablename__ = "day_checkins"
    __table_args__ = (UniqueConstraint("tournament_id", "player_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_code: Mapped[str] = mapped_column(String(100))
    #: "desk" (ticked by staff) or "qr" (the player's own scan)
    method: Mapped[str] = mapped_column(String(10))
    by_user: Mapped[str] = mapped_column(String(200))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class CheckInKey(Base):
    """A tournament's check-in QR code: the key its link carries. Not a password: it is
    shown on the desk's screen to everyone in the hall; it only proves that the phone
    that opened it was at the desk (a new key retires the old QR)."""

    __tablename__ = "day_checkin_keys"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(64))
    made_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class Team(Base):
    """A team of a team tournament (format 1 `teams`), its members in `TeamMember`."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("tournament_id", "code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(200))
    position: Mapped[int] = mapped_column(Integer)


class TeamMember(Base):
    """A player (by his tournament code) in a team; a player is in at most one team."""

    __tablename__ = "team_members"
    __table_args__ = (UniqueConstraint("tournament_id", "player_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    player_code: Mapped[str] = mapped_column(String(100))
    position: Mapped[int] = mapped_column(Integer)


# --- players' photos on the overlay (migration 0012) ------------------------------


class PlayerPhoto(Base):
    """A player's photo in one tournament (the overlay's seat cards): never the file that
    was sent, always our own re-encoding (a small square JPEG, no metadata)."""

    __tablename__ = "player_photos"
    __table_args__ = (UniqueConstraint("tournament_id", "player_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_code: Mapped[str] = mapped_column(String(100))
    image: Mapped[bytes] = mapped_column(LargeBinary)
    #: the image's SHA-256 (hex): the HTTP validator and the overlay's cache key
    digest: Mapped[str] = mapped_column(String(64))
    by_user: Mapped[str] = mapped_column(String(200))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


# --- registration and awards (migration 0017) -------------------------------------------------

#: a registration's states: awaiting the organizer, accepted (a player of the tournament),
#: on the waiting list (accepted when a place frees), declined, withdrawn
REG_STATES: Final = ("applied", "accepted", "waiting", "declined", "withdrawn")


class RegistrationSettings(Base):
    """A tournament's registration: open or not, its cap, its start date (the calendar)."""

    __tablename__ = "registration_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    #: at most this many accepted; None: no cap
    cap: Mapped[int | None] = mapped_column(Integer)
    starts_on: Mapped[dt.date | None] = mapped_column(Date)
    updated_by: Mapped[str | None] = mapped_column(String(200))


class Registration(Base):
    """One sign-up: a known person or a new nickname and club, its state, and its place in
    the waiting list (`queued`: the order it was put there, the smallest served first)."""

    __tablename__ = "registrations"
    __table_args__ = (Index("ix_registrations_tournament_state", "tournament_id", "state"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    nickname: Mapped[str] = mapped_column(String(200))
    club: Mapped[str | None] = mapped_column(String(200))
    state: Mapped[str] = mapped_column(String(20))
    queued: Mapped[int | None] = mapped_column(Integer)
    #: the SHA-256 (hex) of the key the registrant withdraws with
    key_hash: Mapped[str] = mapped_column(String(64))
    #: the player's id in the tournament once accepted
    code: Mapped[str | None] = mapped_column(String(100))
    made_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    decided_by: Mapped[str | None] = mapped_column(String(200))


class Award(Base):
    """An award the head judge named (MVP, best of a role): one player per award."""

    __tablename__ = "awards"
    __table_args__ = (UniqueConstraint("tournament_id", "award"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    award: Mapped[str] = mapped_column(String(40))
    player_code: Mapped[str] = mapped_column(String(100))
    named_by: Mapped[str] = mapped_column(String(200))
    named_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


# --- seating rules (migration 0019) -----------------------------------------------------------

#: how a group (club, team) is kept apart: not at all, when it costs little, always
SEATING_MODES: Final = ("off", "soft", "hard")
#: a pair's policy: never at one table, rather not, rather together
PAIR_POLICIES: Final = ("apart", "avoid", "welcome")


class SeatingRules(Base):
    """A tournament's seating rules for groups: clubs (off by default: in a small city one
    club is half the field) and teams, each off, soft with a weight, or hard."""

    __tablename__ = "seating_rules"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    clubs: Mapped[str] = mapped_column(String(10), default="off")
    clubs_weight: Mapped[int] = mapped_column(Integer, default=5)
    teams: Mapped[str] = mapped_column(String(10), default="soft")
    teams_weight: Mapped[int] = mapped_column(Integer, default=5)
    updated_by: Mapped[str | None] = mapped_column(String(200))


class SeatingPair(Base):
    """Two people and a policy for their meetings: in one tournament, or (no tournament) in
    every tournament of the server. People, not tournament codes: a server-wide rule follows
    them from tournament to tournament."""

    __tablename__ = "seating_pairs"
    __table_args__ = (Index("ix_seating_pairs_tournament_id", "tournament_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    first_person: Mapped[int] = mapped_column(ForeignKey("players.id"))
    second_person: Mapped[int] = mapped_column(ForeignKey("players.id"))
    policy: Mapped[str] = mapped_column(String(10))
    #: a soft policy's weight (1–10); an `apart` pair is hard and ignores it
    weight: Mapped[int] = mapped_column(Integer, default=5)
    made_by: Mapped[str] = mapped_column(String(200))


class SeatingConflict(Base):
    """A judge who must not judge a player (a relative, a clubmate, a quarrel): the seating
    keeps the player off the judge's tables, publishing refuses to give him the table."""

    __tablename__ = "seating_conflicts"
    __table_args__ = (UniqueConstraint("tournament_id", "judge", "player_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    judge: Mapped[str] = mapped_column(String(200))
    player_code: Mapped[str] = mapped_column(String(100))
    made_by: Mapped[str] = mapped_column(String(200))
