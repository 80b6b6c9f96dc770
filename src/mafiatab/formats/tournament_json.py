"""The tournament file, format 1 (docs/tournament-file.md): JSON in and out.

Reading checks the *shape* (types, required fields, known words) and collects every
problem with its place; the rules themselves are checked by `domain.validation`, so that a
protocol entered in the web app meets the same checks as one read from a file.

The reader is on the hot path of standings (the 10,000-game benchmark), so the per-game
code is written out inline rather than through a generic schema library: the common case
(a sound game) costs a few dictionary look-ups per field, and every anomaly is reported
with game, seat and field. Unknown fields are kept (nothing is lost on a round trip) and
reported as warnings, so that a misspelt `extar` does not silently drop a judge's points.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, TypeGuard

import msgspec

from mafiatab.domain.clock import MAX_OFFSET, MAX_URL, check_offset, check_video_url
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.problems import Problem, Word
from mafiatab.domain.protocol import (
    Change,
    Correction,
    Day,
    Game,
    LotDraw,
    Nomination,
    Penalty,
    Player,
    Protest,
    ProtocolEntry,
    PuProtocol,
    Seat,
    SeatScores,
    Stage,
    TeamEntry,
    Tournament,
    Version,
    Video,
    VoteRound,
)

FORMAT = "mafiatab.tournament/1"

_TOURNAMENT_FIELDS = frozenset(
    {"format", "name", "rules", "participants", "players", "stages", "games", "lots",
     "lot_draws", "rule_options", "teams"}
)
#: optional fields that importers add (docs/importers.md): kept in `other` like unknown
#: fields, so nothing is lost on a round trip, but known, so not reported as misspelt
_EXTENSION_FIELDS = frozenset({"crosswalk", "published_results", "imported_from"})
_GAME_FIELDS = frozenset(
    {"id", "stage", "round", "table", "date", "judge", "seats", "result", "first_killed",
     "best_move", "day1_vote_left", "broken_table", "night_killed", "limits_approved", "scores",
     "log", "fouls", "days", "explanations", "protest", "video", "corrections"}
)
#: the program's own bookkeeping of a game, kept as written (never scored, no warning):
#: the live screen's ids and sequence of the log's events (services/live_log.py)
_KEPT_FIELDS = frozenset({"live"})
#: the key under which the web form kept the paper columns before they were format-1
#: fields; a protocol stored or exported that way is read into the fields
LEGACY_SHEET = "sheet"
_SEAT_FIELDS = frozenset({"seat", "player", "role"})
_SCORE_FIELDS = frozenset(
    {"extra", "pu_extra", "will", "protocol", "same_as_will", "pu_protocol", "penalties",
     "approved"}
)
_POINT_FIELDS = ("extra", "pu_extra", "will", "protocol")
_ROLES = frozenset({"red", "sheriff", "black", "don"})


#: what a field of format 1 takes or holds, in words (the `type` problem's `expected` and
#: `got`; the API keeps the English as the code)
TYPE_WORDS: dict[str, tuple[str, str]] = {
    "object": ("объект", "object"), "list": ("список", "list"), "text": ("текст", "text"),
    "number": ("число", "number"), "whole number": ("целое число", "whole number"),
    "true/false": ("да или нет", "true/false"), "null": ("пусто", "null"),
    "seat number": ("номер места", "seat number"),
    "seat number or null": ("номер места или пусто", "seat number or null"),
    "list of seat numbers": ("список номеров мест", "list of seat numbers"),
    "list of events": ("список событий", "list of events"),
    "list of text": ("список строк", "list of text"),
    "object of by and seat": ("выставление: кто и кого", "object of by and seat"),
    "object of text": ("объект из строк", "object of text"),
    "object of url and offset": ("видео: ссылка и начало игры", "object of url and offset"),
    "object of by, at, reason and changes": (
        "исправление главного судьи: кто, когда, почему и что",
        "object of by, at, reason and changes"),
    "object of path, old and new": ("изменение: поле, было и стало",
                                    "object of path, old and new"),
    "object with a day number": ("день с его номером", "object with a day number"),
    "object with id, name, members": ("команда: id, название, игроки",
                                      "object with id, name, members"),
    "object with seed, group, order": ("жребий: зерно, группа, порядок",
                                       "object with seed, group, order"),
    "player id": ("id игрока", "player id"), "role": ("роль", "role"),
}


def type_word(text: str) -> str:
    """A type's name with its words (the code itself where it has none)."""
    pair = TYPE_WORDS.get(text)
    return Word(text, *pair) if pair is not None else text


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _decimal(value: object) -> Decimal | None:
    """A JSON number read exactly (the careful reader parses floats as Decimal)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal):
        return value
    return None


def plain_json(value: Any) -> Any:
    """Free-form data (the log, unknown fields) as the fast reader gives it: JSON numbers
    with a fraction as float, so that both read paths hold equal values. Points are never
    free-form: they have typed fields and stay Decimal."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, list):
        return [plain_json(v) for v in value]
    if isinstance(value, dict):
        return {k: plain_json(v) for k, v in value.items()}
    return value


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Collects problems while turning parsed JSON into the model."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: str, game: str | None = None, seat: int | None = None,
            field: str | None = None, clause: str | None = None, warning: bool = False,
            **params: Any) -> None:
        self.problems.append(Problem(code, game, seat, field, clause, params, warning))

    def type_error(self, value: object, expected: str, game: str | None = None,
                   seat: int | None = None, field: str | None = None) -> None:
        self.add("type", game, seat, field, expected=type_word(expected),
                 got=type_word(_type_name(value)))

    # --- tournament ----------------------------------------------------------------
    def tournament(self, data: object) -> Tournament | None:
        if not isinstance(data, dict):
            self.add("not_object")
            return None
        fmt = data.get("format")
        if not isinstance(fmt, str):
            self.add("format", field="format", value=fmt)
            fmt = ""
        name = data.get("name")
        if not isinstance(name, str):
            self.type_error(name, "text", field="name")
            name = ""
        rules = data.get("rules")
        if not isinstance(rules, str):
            self.type_error(rules, "text", field="rules")
            rules = ""
        participants = data.get("participants")
        if participants is not None and not _is_int(participants):
            self.type_error(participants, "whole number", field="participants")
            participants = None
        players = self.players(data.get("players"))
        stages = self.stages(data.get("stages"))
        games_raw = data.get("games", [])
        games: list[Game] = []
        if not isinstance(games_raw, list):
            self.type_error(games_raw, "list", field="games")
        else:
            for index, raw in enumerate(games_raw):
                game = self.game(raw, index)
                if game is not None:
                    games.append(game)
        lots = self.str_list(data.get("lots", []), "lots")
        lot_draws = self.lot_draws(data.get("lot_draws", []))
        teams = self.teams(data.get("teams", []))
        options_raw = data.get("rule_options", {})
        rule_options: dict[str, str] = {}
        if not isinstance(options_raw, dict) or not all(
            isinstance(v, str) for v in options_raw.values()
        ):
            self.type_error(options_raw, "object of text", field="rule_options")
        else:
            rule_options = dict(options_raw)
        other = {k: plain_json(v) for k, v in data.items() if k not in _TOURNAMENT_FIELDS}
        for key in other:
            if key not in _EXTENSION_FIELDS:
                self.add("unknown_field", field=key, warning=True)
        return Tournament(
            format=fmt, name=name, rules=rules, players=players, stages=stages, games=games,
            participants=participants, lots=lots, lot_draws=lot_draws,
            rule_options=rule_options, teams=teams, other=other,
        )

    def teams(self, raw: object) -> list[TeamEntry]:
        """The optional `teams`: objects with an id, a name and members (player ids)."""
        out: list[TeamEntry] = []
        if not isinstance(raw, list):
            self.type_error(raw, "list", field="teams")
            return out
        for i, d in enumerate(raw):
            where = f"teams[{i}]"
            if not isinstance(d, dict) or not isinstance(d.get("id"), str) or not d["id"]:
                self.type_error(d, "object with id, name, members", field=where)
                continue
            name = d.get("name", d["id"])
            if not isinstance(name, str):
                self.type_error(name, "text", field=where + ".name")
                name = d["id"]
            members = self.str_list(d.get("members", []), where + ".members")
            for key in d:
                if key not in ("id", "name", "members"):
                    self.add("unknown_field", field=f"{where}.{key}", warning=True)
            out.append(TeamEntry(id=d["id"], name=name, members=members))
        return out

    def str_list(self, raw: object, field: str) -> list[str]:
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            self.type_error(raw, "list of text", field=field)
            return []
        return list(raw)

    def players(self, raw: object) -> list[Player]:
        out: list[Player] = []
        if not isinstance(raw, list):
            self.type_error(raw, "list", field="players")
            return out
        # duplicate ids are the rule checks' to report (domain.validation), for both readers
        for i, p in enumerate(raw):
            where = f"players[{i}]"
            if not isinstance(p, dict):
                self.type_error(p, "object", field=where)
                continue
            pid, nick, club = p.get("id"), p.get("nickname"), p.get("club")
            if not isinstance(pid, str) or not pid:
                self.type_error(pid, "text", field=where + ".id")
                continue
            if nick is None:
                nick = pid
            elif not isinstance(nick, str):
                self.type_error(nick, "text", field=where + ".nickname")
                nick = pid
            if club is not None and not isinstance(club, str):
                self.type_error(club, "text", field=where + ".club")
                club = None
            exhibition = p.get("exhibition", False)
            if not isinstance(exhibition, bool):
                self.type_error(exhibition, "true/false", field=where + ".exhibition")
                exhibition = False
            for key in p:
                if key not in ("id", "nickname", "club", "exhibition"):
                    self.add("unknown_field", field=f"{where}.{key}", warning=True)
            out.append(Player(id=pid, nickname=nick, club=club, exhibition=exhibition))
        return out

    def stages(self, raw: object) -> list[Stage]:
        out: list[Stage] = []
        if not isinstance(raw, list):
            self.type_error(raw, "list", field="stages")
            return out
        for i, s in enumerate(raw):
            where = f"stages[{i}]"
            if not isinstance(s, dict):
                self.type_error(s, "object", field=where)
                continue
            sid, name, kind = s.get("id"), s.get("name", s.get("id")), s.get("kind")
            comp = s.get("compensation")
            if not isinstance(sid, str) or not sid:
                self.type_error(sid, "text", field=where + ".id")
                continue
            if not isinstance(name, str):
                self.type_error(name, "text", field=where + ".name")
                name = sid
            if not isinstance(kind, str):
                self.type_error(kind, "text", field=where + ".kind")
                kind = "qualification"
            if comp is not None and not isinstance(comp, bool):
                self.type_error(comp, "true/false", field=where + ".compensation")
                comp = None
            for key in s:
                if key not in ("id", "name", "kind", "compensation"):
                    self.add("unknown_field", field=f"{where}.{key}", warning=True)
            out.append(Stage(id=sid, name=name, kind=kind, compensation=comp))
        return out

    def lot_draws(self, raw: object) -> list[LotDraw]:
        out: list[LotDraw] = []
        if not isinstance(raw, list):
            self.type_error(raw, "list", field="lot_draws")
            return out
        for i, d in enumerate(raw):
            where = f"lot_draws[{i}]"
            if not isinstance(d, dict) or not isinstance(d.get("seed"), str):
                self.type_error(d, "object with seed, group, order", field=where)
                continue
            group = self.str_list(d.get("group"), where + ".group")
            order = self.str_list(d.get("order"), where + ".order")
            out.append(LotDraw(seed=d["seed"], group=group, order=order))
        return out

    # --- game ----------------------------------------------------------------------
    def game(self, g: object, index: int) -> Game | None:
        if not isinstance(g, dict):
            self.type_error(g, "object", field=f"games[{index}]")
            return None
        gid = g.get("id")
        if not isinstance(gid, str) or not gid:
            self.type_error(gid, "text", game=f"#{index + 1}", field="id")
            gid = f"#{index + 1}"
        ok = True
        stage = g.get("stage")
        if not isinstance(stage, str):
            self.type_error(stage, "text", gid, field="stage")
            ok = False
        rnd, table = g.get("round"), g.get("table")
        if not _is_int(rnd):
            self.type_error(rnd, "whole number", gid, field="round")
            rnd = 1
        if not _is_int(table):
            self.type_error(table, "whole number", gid, field="table")
            table = 1
        result = g.get("result")
        if not isinstance(result, str):
            self.add("bad_result", gid, field="result", clause="scoring.md 1", value=result)
            ok = False

        seats_raw = g.get("seats")
        seats: list[Seat] = []
        if not isinstance(seats_raw, list):
            self.type_error(seats_raw, "list", gid, field="seats")
            ok = False
        else:
            for s in seats_raw:
                if type(s) is dict:
                    num, player, role = s.get("seat"), s.get("player"), s.get("role")
                    if (
                        type(num) is int and type(player) is str and type(role) is str
                        and len(s) == 3
                    ):
                        seats.append(Seat(seat=num, player=player, role=role))
                        continue
                ok = self.seat_slow(s, gid, seats) and ok

        fk = g.get("first_killed")
        if fk is not None and not _is_int(fk):
            self.type_error(fk, "seat number or null", gid, field="first_killed")
            fk = None
        bm_raw = g.get("best_move")
        best_move: list[int] = []
        if bm_raw is not None:
            if isinstance(bm_raw, list) and all(_is_int(x) for x in bm_raw):
                best_move = bm_raw
            else:
                self.type_error(bm_raw, "list of seat numbers", gid, field="best_move")
        d1 = g.get("day1_vote_left", 0)
        if not _is_int(d1):
            self.type_error(d1, "whole number", gid, field="day1_vote_left")
            d1 = 0
        broken = g.get("broken_table", False)
        if not isinstance(broken, bool):
            self.type_error(broken, "true/false", gid, field="broken_table")
            broken = False
        night_killed = g.get("night_killed")
        if night_killed is not None and not _is_int(night_killed):
            self.type_error(night_killed, "seat number or null", gid, field="night_killed")
            night_killed = None
        approved = g.get("limits_approved", False)
        if not isinstance(approved, bool):
            self.type_error(approved, "true/false", gid, field="limits_approved")
            approved = False
        date, judge = g.get("date"), g.get("judge")
        if date is not None and not isinstance(date, str):
            self.type_error(date, "text", gid, field="date")
            date = None
        if judge is not None and not isinstance(judge, str):
            self.type_error(judge, "text", gid, field="judge")
            judge = None
        scores: dict[int, SeatScores] = {}
        scores_raw = g.get("scores")
        if scores_raw is not None:
            if isinstance(scores_raw, dict):
                for key, value in scores_raw.items():
                    seat_scores = self.seat_scores(gid, key, value)
                    if seat_scores is not None:
                        scores[seat_scores[0]] = seat_scores[1]
            else:
                self.type_error(scores_raw, "object", gid, field="scores")
        log = g.get("log")
        if log is not None and not (
            isinstance(log, list) and all(isinstance(e, dict) for e in log)
        ):
            self.type_error(log, "list of events", gid, field="log")
            log = None
        log = plain_json(log)
        paper = dict(g)
        legacy = paper.pop(LEGACY_SHEET, None)
        if isinstance(legacy, dict):
            paper.update(_from_legacy_sheet(legacy, paper))
        else:
            legacy = None
        fouls = self.seat_map(paper.get("fouls"), gid, "fouls", _is_int, "whole number")
        explanations = self.seat_map(paper.get("explanations"), gid, "explanations",
                                     lambda v: isinstance(v, str), "text")
        days = self.days(paper.get("days"), gid)
        protest = self.protest(paper.get("protest"), gid)
        video = self.video(g.get("video"), gid)
        corrections = self.corrections(g.get("corrections"), gid)
        other: dict[str, Any] = {}
        if len(g) > 6:
            for key in g:
                if key not in _GAME_FIELDS and not (key == LEGACY_SHEET and legacy is not None):
                    other[key] = plain_json(g[key])
                    if key not in _KEPT_FIELDS:
                        self.add("unknown_field", gid, field=key, warning=True)
        if not ok:
            return None
        assert isinstance(stage, str) and isinstance(result, str)
        return Game(id=gid, stage=stage, round=rnd, table=table, seats=seats, result=result,
                    first_killed=fk, best_move=best_move, day1_vote_left=d1,
                    broken_table=broken, night_killed=night_killed, limits_approved=approved,
                    scores=scores, date=date, judge=judge, log=log, fouls=fouls, days=days,
                    explanations=explanations, protest=protest, video=video,
                    corrections=corrections, other=other)

    def corrections(self, raw: object, gid: str) -> list[Correction]:
        """`[{"by", "at", "reason", "changes": [{"path", "old", "new"}]}]`: the head
        judge's corrections (docs/format.md); one that is not so is a problem and left
        out (the rest of the game still reads)."""
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.type_error(raw, "list", gid, field="corrections")
            return []
        out: list[Correction] = []
        for i, c in enumerate(raw):
            where = f"corrections.{i}"
            if not isinstance(c, dict) or not all(
                    isinstance(c.get(k), str) for k in ("by", "at", "reason")):
                self.type_error(c, "object of by, at, reason and changes", gid, field=where)
                continue
            changes: list[Change] = []
            raw_changes = c.get("changes", [])
            if not isinstance(raw_changes, list):
                self.type_error(raw_changes, "list", gid, field=f"{where}.changes")
                raw_changes = []
            for ch in raw_changes:
                if (isinstance(ch, dict) and isinstance(ch.get("path"), str)
                        and all(ch.get(k) is None or isinstance(ch.get(k), str)
                                for k in ("old", "new"))):
                    changes.append(Change(path=ch["path"], old=ch.get("old"),
                                          new=ch.get("new")))
                else:
                    self.type_error(ch, "object of path, old and new", gid,
                                    field=f"{where}.changes")
            for key in c:
                if key not in ("by", "at", "reason", "changes"):
                    self.add("unknown_field", gid, field=f"{where}.{key}", warning=True)
            out.append(Correction(by=c["by"], at=c["at"], reason=c["reason"], changes=changes))
        return out

    def video(self, raw: object, gid: str) -> Video | None:
        """`{"url": "https://…", "offset": 5025}`: an http(s) link (bounded) and whole
        seconds (domain/clock.py); anything else is a problem and no video."""
        if raw is None:
            return None
        if not isinstance(raw, dict):
            self.type_error(raw, "object of url and offset", gid, field="video")
            return None
        url, offset = raw.get("url"), raw.get("offset", 0)
        if check_video_url(url) is not None:
            self.type_error(url, Word(f"http(s) link of at most {MAX_URL} characters",
                                      f"ссылка http(s) не длиннее {MAX_URL} знаков",
                                      f"http(s) link of at most {MAX_URL} characters"), gid,
                            field="video.url")
            return None
        if check_offset(offset) is not None:
            self.type_error(offset, Word(f"whole seconds, 0 to {MAX_OFFSET}",
                                         f"целое число секунд от 0 до {MAX_OFFSET}",
                                         f"whole seconds, 0 to {MAX_OFFSET}"), gid,
                            field="video.offset")
            return None
        for key in raw:
            if key not in ("url", "offset"):
                self.add("unknown_field", gid, field=f"video.{key}", warning=True)
        assert isinstance(url, str) and isinstance(offset, int)
        return Video(url=url, offset=offset)

    # --- the paper protocol's columns (docs/format.md) --------------------------------
    def seat_map(self, raw: object, gid: str, field: str, ok: Any, expected: str) -> dict[int, Any]:
        """`{"3": value}` keyed by seat; a key that is not a seat number is kept out with a
        problem (the rule checks then report seats outside 1-10)."""
        out: dict[int, Any] = {}
        if raw is None:
            return out
        if not isinstance(raw, dict):
            self.type_error(raw, "object", gid, field=field)
            return out
        for key, value in raw.items():
            seat = _seat_key(key)
            if seat is None:
                self.add("seat_number", gid, field=field, clause="scoring.md 1", value=key)
            elif not ok(value):
                self.type_error(value, expected, gid, seat, field)
            else:
                out[seat] = value
        return out

    def days(self, raw: object, gid: str) -> list[Day]:
        out: list[Day] = []
        if raw is None:
            return out
        if not isinstance(raw, list):
            self.type_error(raw, "list", gid, field="days")
            return out
        for i, d in enumerate(raw):
            where = f"days[{i}]"
            if not isinstance(d, dict) or not _is_int(d.get("day")):
                self.type_error(d, "object with a day number", gid, field=where)
                continue
            day = Day(day=d["day"])
            for n in d.get("nominations") or []:
                by = n.get("by") if isinstance(n, dict) else None
                if isinstance(n, dict) and _is_int(n.get("seat")) and (by is None or _is_int(by)):
                    day.nominations.append(Nomination(seat=n["seat"], by=by))
                else:
                    self.type_error(n, "object of by and seat", gid, field=where + ".nominations")
            for k, v in enumerate(d.get("votes") or []):
                vote = self.vote_round(v, gid, f"{where}.votes[{k}]")
                if vote is not None:
                    day.votes.append(vote)
            left = d.get("left", [])
            if isinstance(left, list) and all(_is_int(x) for x in left):
                day.left = list(left)
            else:
                self.type_error(left, "list of seat numbers", gid, field=where + ".left")
            for key in d:
                if key not in ("day", "nominations", "votes", "left"):
                    self.add("unknown_field", gid, field=f"{where}.{key}", warning=True)
            out.append(day)
        return out

    def vote_round(self, raw: object, gid: str, where: str) -> VoteRound | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("kind", "vote"), str):
            self.type_error(raw, "object", gid, field=where)
            return None
        counts = self.seat_map(raw.get("counts"), gid, where + ".counts", _is_int,
                               "whole number")
        count = raw.get("count")
        if count is not None and not _is_int(count):
            self.type_error(count, "whole number", gid, field=where + ".count")
            count = None
        for key in raw:
            if key not in ("kind", "counts", "count"):
                self.add("unknown_field", gid, field=f"{where}.{key}", warning=True)
        return VoteRound(kind=raw.get("kind", "vote"), counts=counts, count=count)

    def protest(self, raw: object, gid: str) -> Protest | None:
        if raw is None:
            return None
        if isinstance(raw, str):  # a bare text: the protest without who and when
            return Protest(text=raw) if raw.strip() else None
        if not isinstance(raw, dict):
            self.type_error(raw, "object", gid, field="protest")
            return None
        by, at, text, decision = (raw.get("by"), raw.get("at"), raw.get("text", ""),
                                  raw.get("decision"))
        if by is not None and not _is_int(by):
            self.type_error(by, "seat number", gid, field="protest.by")
            by = None
        for name, value in (("at", at), ("decision", decision)):
            if value is not None and not isinstance(value, str):
                self.type_error(value, "text", gid, field=f"protest.{name}")
        if not isinstance(text, str):
            self.type_error(text, "text", gid, field="protest.text")
            text = ""
        for key in raw:
            if key not in ("by", "at", "text", "decision"):
                self.add("unknown_field", gid, field=f"protest.{key}", warning=True)
        return Protest(by=by, at=at if isinstance(at, str) else None, text=text,
                       decision=decision if isinstance(decision, str) else None)

    def seat_slow(self, s: object, gid: str, seats: list[Seat]) -> bool:
        """The careful path for a seat entry that is not plainly sound."""
        if not isinstance(s, dict):
            self.type_error(s, "object", gid, field="seats")
            return False
        num, player, role = s.get("seat"), s.get("player"), s.get("role")
        seat_no = num if _is_int(num) else None
        good = True
        if seat_no is None:
            self.type_error(num, "seat number", gid, field="seats.seat")
            good = False
        if not isinstance(player, str):
            self.type_error(player, "player id", gid, seat_no, "player")
            good = False
        if not isinstance(role, str):
            self.type_error(role, "role", gid, seat_no, "role")
            good = False
        for key in s:
            if key not in _SEAT_FIELDS:
                self.add("unknown_field", gid, seat_no, f"seats.{key}", warning=True)
        if good:
            assert isinstance(num, int) and isinstance(player, str) and isinstance(role, str)
            seats.append(Seat(seat=num, player=player, role=role))
        return good

    def seat_scores(self, gid: str, key: object, value: object) -> tuple[int, SeatScores] | None:
        seat: int | None = None
        if isinstance(key, str):
            try:
                seat = int(key)
            except ValueError:
                seat = None
        if seat is None:
            self.add("seat_number", gid, field="scores", clause="scoring.md 1", value=key)
            return None
        if not isinstance(value, dict):
            self.type_error(value, "object", gid, seat, "scores")
            return None
        sc = SeatScores()
        for name in _POINT_FIELDS:
            if name in value:
                raw = value[name]
                number = _decimal(raw)
                if number is None:
                    self.type_error(raw, "number", gid, seat, name)
                else:
                    setattr(sc, name, number)
        for name in ("same_as_will", "approved"):
            if name in value:
                flag = value[name]
                if isinstance(flag, bool):
                    setattr(sc, name, flag)
                else:
                    self.type_error(flag, "true/false", gid, seat, name)
        if "pu_protocol" in value:
            sc.pu_protocol = self.pu_protocol(gid, seat, value["pu_protocol"])
        if "penalties" in value:
            sc.penalties = self.penalties(gid, seat, value["penalties"])
        for name in value:
            if name not in _SCORE_FIELDS:
                self.add("unknown_field", gid, seat, name, warning=True)
        return seat, sc

    def pu_protocol(self, gid: str, seat: int, raw: object) -> PuProtocol | None:
        field = "pu_protocol"
        if not isinstance(raw, dict):
            self.type_error(raw, "object", gid, seat, field)
            return None
        out = PuProtocol()
        entries = raw.get("entries", [])
        if not isinstance(entries, list):
            self.type_error(entries, "list", gid, seat, field + ".entries")
        else:
            for e in entries:
                if not isinstance(e, dict):
                    self.type_error(e, "object", gid, seat, field + ".entries")
                    continue
                es, colour, tag = e.get("seat"), e.get("colour"), e.get("tag")
                if not _is_int(es):
                    self.type_error(es, "seat number", gid, seat, field + ".entries.seat")
                    continue
                if not isinstance(colour, str):
                    self.type_error(colour, "text", gid, seat, field + ".entries.colour")
                    continue
                if tag is not None and not isinstance(tag, str):
                    self.type_error(tag, "text", gid, seat, field + ".entries.tag")
                    continue
                for key in e:
                    if key not in ("seat", "colour", "tag"):
                        self.add("unknown_field", gid, seat, f"{field}.entries.{key}",
                                 warning=True)
                out.entries.append(ProtocolEntry(seat=es, colour=colour, tag=tag))
        version = raw.get("version")
        if version is not None:
            if not isinstance(version, dict):
                self.type_error(version, "object", gid, seat, field + ".version")
            else:
                situation, right = version.get("situation"), version.get("right")
                if not isinstance(situation, str):
                    self.type_error(situation, "text", gid, seat, field + ".version.situation")
                elif not isinstance(right, bool):
                    self.type_error(right, "true/false", gid, seat, field + ".version.right")
                else:
                    out.version = Version(situation=situation, right=right)
        aside = raw.get("aside", False)
        if not isinstance(aside, bool):
            self.type_error(aside, "true/false", gid, seat, field + ".aside")
        else:
            out.aside = aside
        for key in raw:
            if key not in ("entries", "version", "aside"):
                self.add("unknown_field", gid, seat, f"{field}.{key}", warning=True)
        return out

    def penalties(self, gid: str, seat: int, raw: object) -> list[Penalty]:
        out: list[Penalty] = []
        if not isinstance(raw, list):
            self.type_error(raw, "list", gid, seat, "penalties")
            return out
        for p in raw:
            if not isinstance(p, dict):
                self.type_error(p, "object", gid, seat, "penalties")
                continue
            kind = p.get("kind")
            if not isinstance(kind, str):
                self.type_error(kind, "text", gid, seat, "penalties.kind")
                continue
            pen = Penalty(kind=kind)
            if "critical" in p:
                if isinstance(p["critical"], bool):
                    pen.critical = p["critical"]
                else:
                    self.type_error(p["critical"], "true/false", gid, seat,
                                    "penalties.critical")
            if "points" in p:
                number = _decimal(p["points"])
                if number is None:
                    self.type_error(p["points"], "number", gid, seat, "penalties.points")
                else:
                    pen.points = number
            for name in ("rule", "note"):
                if name in p:
                    if isinstance(p[name], str):
                        setattr(pen, name, p[name])
                    else:
                        self.type_error(p[name], "text", gid, seat, f"penalties.{name}")
            for key in p:
                if key not in ("kind", "critical", "points", "rule", "note"):
                    self.add("unknown_field", gid, seat, f"penalties.{key}", warning=True)
            out.append(pen)
        return out


def _seat_key(key: object) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    return ascii_int(key.strip()) if isinstance(key, str) else None


def _from_legacy_sheet(sheet: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """The web form's older `sheet` (fouls, days with nominees and votes per seat,
    explanations, a protest note) as the format-1 fields it became; a field the game
    also writes itself wins."""
    out: dict[str, Any] = {}
    if "fouls" in sheet and "fouls" not in game:
        out["fouls"] = sheet["fouls"]
    if "explanations" in sheet and "explanations" not in game:
        out["explanations"] = sheet["explanations"]
    if "protest" in sheet and "protest" not in game:
        out["protest"] = sheet["protest"]
    if "days" in sheet and "days" not in game and isinstance(sheet["days"], list):
        days = []
        for d in sheet["days"]:
            if not isinstance(d, dict):
                continue
            votes = d.get("votes") or {}
            days.append({
                "day": d.get("day"),
                # the older form kept whom, not by whom
                "nominations": [{"seat": n} for n in d.get("nominated") or []],
                "votes": [{"kind": "vote", "counts": votes}] if votes else [],
                "left": d.get("left") or []})
        out["days"] = days
    return out


_DECODER = msgspec.json.Decoder(Tournament)


def read_tournament(data: bytes | str) -> tuple[Tournament | None, list[Problem]]:
    """Parse a format-1 file; the tournament (None if unusable) and the shape problems.

    A sound file is decoded straight into the model by msgspec. Anything it cannot take
    (a wrong type, an unknown field, broken JSON) sends the file to the careful reader,
    which lists every problem with its place and keeps unknown fields.
    """
    try:
        return _DECODER.decode(data), []
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass
    reader = _Reader()
    try:
        parsed = json.loads(data, parse_float=Decimal)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        reader.add("not_json", detail=str(err))
        return None, reader.problems
    except RecursionError:
        reader.add("not_json", detail="nested too deeply")
        return None, reader.problems
    return reader.tournament(parsed), reader.problems


def tournament_from_dict(data: object) -> tuple[Tournament | None, list[Problem]]:
    """The careful reader, for data already parsed (numbers as int or Decimal)."""
    reader = _Reader()
    return reader.tournament(data), reader.problems


# --- writing -----------------------------------------------------------------------


def _penalty_dict(p: Penalty) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": p.kind}
    if p.critical is not None:
        d["critical"] = p.critical
    if p.points is not None:
        d["points"] = p.points
    if p.rule is not None:
        d["rule"] = p.rule
    if p.note is not None:
        d["note"] = p.note
    return d


def _scores_dict(sc: SeatScores) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for name in _POINT_FIELDS:
        value = getattr(sc, name)
        if value is not None:
            d[name] = value
    if sc.same_as_will:
        d["same_as_will"] = True
    if sc.pu_protocol is not None:
        pp = sc.pu_protocol
        pd: dict[str, Any] = {"entries": [
            {"seat": e.seat, "colour": e.colour, **({"tag": e.tag} if e.tag else {})}
            for e in pp.entries
        ]}
        if pp.version is not None:
            pd["version"] = {"situation": pp.version.situation, "right": pp.version.right}
        if pp.aside:
            pd["aside"] = True
        d["pu_protocol"] = pd
    if sc.penalties:
        d["penalties"] = [_penalty_dict(p) for p in sc.penalties]
    if sc.approved:
        d["approved"] = True
    return d


def game_to_dict(g: Game) -> dict[str, Any]:
    d: dict[str, Any] = {"id": g.id, "stage": g.stage, "round": g.round, "table": g.table}
    if g.date is not None:
        d["date"] = g.date
    if g.judge is not None:
        d["judge"] = g.judge
    d["seats"] = [{"seat": s.seat, "player": s.player, "role": s.role} for s in g.seats]
    d["result"] = g.result
    d["first_killed"] = g.first_killed
    if g.best_move:
        d["best_move"] = list(g.best_move)
    if g.day1_vote_left:
        d["day1_vote_left"] = g.day1_vote_left
    if g.broken_table:
        d["broken_table"] = True
    if g.night_killed is not None:
        d["night_killed"] = g.night_killed
    if g.limits_approved:
        d["limits_approved"] = True
    if g.scores:
        d["scores"] = {str(seat): _scores_dict(sc) for seat, sc in g.scores.items()}
    if g.fouls:
        d["fouls"] = {str(seat): n for seat, n in sorted(g.fouls.items())}
    if g.days:
        d["days"] = [_day_dict(day) for day in g.days]
    if g.explanations:
        d["explanations"] = {str(seat): text for seat, text in sorted(g.explanations.items())}
    if g.protest is not None:
        pr: dict[str, Any] = {}
        if g.protest.by is not None:
            pr["by"] = g.protest.by
        if g.protest.at is not None:
            pr["at"] = g.protest.at
        pr["text"] = g.protest.text
        if g.protest.decision is not None:
            pr["decision"] = g.protest.decision
        d["protest"] = pr
    if g.log is not None:
        d["log"] = g.log
    if g.video is not None:
        d["video"] = {"url": g.video.url, "offset": g.video.offset}
    if g.corrections:
        d["corrections"] = [
            {"by": c.by, "at": c.at, "reason": c.reason,
             "changes": [{"path": ch.path, "old": ch.old, "new": ch.new} for ch in c.changes]}
            for c in g.corrections]
    d.update(g.other)
    return d


def _day_dict(day: Day) -> dict[str, Any]:
    d: dict[str, Any] = {"day": day.day}
    if day.nominations:
        d["nominations"] = [{"seat": n.seat, **({"by": n.by} if n.by is not None else {})}
                            for n in day.nominations]
    if day.votes:
        d["votes"] = [
            {"kind": v.kind,
             **({"counts": {str(k): n for k, n in v.counts.items()}} if v.counts else {}),
             **({"count": v.count} if v.count is not None else {})}
            for v in day.votes]
    if day.left:
        d["left"] = list(day.left)
    return d


def tournament_to_dict(t: Tournament) -> dict[str, Any]:
    d: dict[str, Any] = {"format": t.format, "name": t.name, "rules": t.rules}
    if t.participants is not None:
        d["participants"] = t.participants
    if t.rule_options:
        d["rule_options"] = dict(t.rule_options)
    d["players"] = [
        {"id": p.id, "nickname": p.nickname, **({"club": p.club} if p.club is not None else {}),
         **({"exhibition": True} if p.exhibition else {})}
        for p in t.players
    ]
    d["stages"] = [
        {"id": s.id, "name": s.name, "kind": s.kind,
         **({"compensation": s.compensation} if s.compensation is not None else {})}
        for s in t.stages
    ]
    d["games"] = [game_to_dict(g) for g in t.games]
    if t.lots:
        d["lots"] = list(t.lots)
    if t.lot_draws:
        d["lot_draws"] = [
            {"seed": x.seed, "group": list(x.group), "order": list(x.order)}
            for x in t.lot_draws
        ]
    if t.teams:
        d["teams"] = [{"id": x.id, "name": x.name, "members": list(x.members)} for x in t.teams]
    d.update(t.other)
    return d


_ENCODER = msgspec.json.Encoder(decimal_format="number")


def dumps_tournament(t: Tournament) -> str:
    """Format-1 JSON text (UTF-8, Cyrillic kept readable, numbers exactly as held)."""
    raw = _ENCODER.encode(tournament_to_dict(t))
    return msgspec.json.format(raw, indent=1).decode("utf-8") + "\n"
