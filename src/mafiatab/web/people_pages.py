"""The pages of people across tournaments: a person's page, a club's page, the
federation's rating with its formula and its "what if", and the organizer's merge and
split of identities. Each route reads who asks, calls `services.people.People`, renders.

Numbers are written for the reader: Russian decimal commas and a real minus, counts that
agree with their number (Babel's plural rules), the glossary's words for roles and results.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Final
from urllib.parse import quote
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date, format_time
from babel.numbers import format_decimal
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from mafiatab.domain.clock import aware
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.people_stats import PersonStats, Tally
from mafiatab.domain.points import Hundredths, format_points, to_json_number
from mafiatab.domain.progress import Rate
from mafiatab.domain.protocol import ROLES, SEATS, STAGE_KINDS
from mafiatab.domain.ratings import SLOPE_GAMES
from mafiatab.i18n import federation, zone_words
from mafiatab.rules import PROFILES
from mafiatab.services.clock import server_zone_name
from mafiatab.services.people import People, PersonPage, parse_ids
from mafiatab.texts import pick, say
from mafiatab.texts.register import AWARD, REGISTER_PAGE
from mafiatab.web import texts
from mafiatab.web.deps import services
from mafiatab.web.refusals import Unprocessable
from mafiatab.web.rendering import render
from mafiatab.web.security import Principal, check_csrf, principal, read_form, require_user

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
Who = Annotated[Principal, Depends(principal)]

#: rows of the rating table on one page
PAGE: Final = 100

WORDS: Final[dict[str, tuple[str, str]]] = {
    "people": ("Игроки", "Players"),
    "clubs": ("Клубы", "Clubs"),
    "rating": ("Рейтинг", "Rating"),
    "club": ("Клуб", "Club"),
    "find": ("Найти", "Find"),
    "nickname": ("Ник", "Nickname"),
    "tournament": ("Турнир", "Tournament"),
    "date": ("Дата", "Date"),
    "place": ("Место", "Place"),
    "points": ("Баллы", "Points"),
    "total": ("Итого", "Total"),
    "games": ("Игры", "Games"),
    "wins": ("Победы", "Wins"),
    "win_rate": ("Доля побед", "Win rate"),
    "by_role": ("Баллы по ролям", "Points by role"),
    "by_seat": ("Баллы по местам за столом", "Points by seat"),
    "seat": ("Место", "Seat"),
    "role": ("Роль", "Role"),
    "result": ("Итог", "Result"),
    "first_killed": ("Первый убиенный (ПУ)", "First killed"),
    "first_killed_times": ("ПУ: {n}, компенсация Ci всего {ci}",
                           "First killed: {n}; compensation Ci in all {ci}"),
    "best_move": ("Лучший ход (ЛХ)", "Best move"),
    "best_move_line": ("ЛХ сделан {made}; угадано чёрных: {guessed} из {named} названных ({share})",
                       "Best move made {made}; blacks guessed: {guessed} of {named} named ({share})"),
    "best_move_none": ("ЛХ не делал", "No best move made"),
    "partners": ("Партнёры (в одной команде)", "Partners (same team)"),
    "opponents": ("Соперники (в другой команде)", "Opponents (other team)"),
    "together": ("Вместе: игры, победы", "Together: games, wins"),
    "against": ("Против: игры, его победы", "Against: games, his wins"),
    "tournaments": ("Турниры", "Tournaments"),
    "game_list": ("Игры турнира", "Games of the tournament"),
    "unpublished": ("Ещё {n} — таблица скрыта до конца турнира, здесь не учтены.",
                    "{n} more: standings hidden until the tournament ends, not counted here."),
    "no_games": ("Игр пока нет.", "No games yet."),
    "members": ("Члены клуба", "Members"),
    "club_totals": ("Всего у клуба: {players}, {tournaments}, {games}; побед: {wins} ({share}); "
                    "баллы: {points}",
                    "Club totals: {players}, {tournaments}, {games}; wins: {wins} ({share}); "
                    "points: {points}"),
    "rating_title": ("Рейтинг федерации", "The federation's rating"),
    "rating_imported": ("Среди них игры, импортированные из других систем:",
                        "Among them, games imported from other systems:"),
    "rating_summary": ("{games} из {tournaments}; считаются стадии: {kinds}.",
                       "{games} of {tournaments}; stages that count: {kinds}."),
    "rating_red": ("За красных", "As red"),
    "rating_black": ("За чёрных", "As black"),
    "deviation": ("±", "±"),
    "elo": ("Эло (mafiaratings)", "Elo (mafiaratings)"),
    "measures": (
        "Качество прогнозов на этих же играх (меньше — лучше): логарифмическая ошибка — наш "
        "рейтинг {ours}, Эло mafiaratings {elo}, одна доля побед красных {base}; Брайер — "
        "{b_ours}, {b_elo} и {b_base}.",
        "How well it predicted these very games (lower is better): log-loss — our rating "
        "{ours}, mafiaratings' Elo {elo}, red's share of wins alone {base}; Brier — {b_ours}, "
        "{b_elo} and {b_base}.",
    ),
    "experience": ("Опыт: 100 рейтинговых игр прибавляют игроку {gain} очков силы (выучено "
                   "по играм).",
                   "Experience: 100 rated games add {gain} points to a player's strength "
                   "(learned from the games)."),
    "first_killed_teaches": (
        "Первый убитый (ПУ): игра говорит о нём {share} того, что о других игроках "
        "(выучено по играм, где он записан; таких игр: {n}).",
        "First killed: a game tells {share} as much about him as about the other players "
        "(learned from the games that record him: {n})."),
    "calibration": ("Надёжность прогнозов", "How reliable the predictions are"),
    "calibration_hint": (
        "Игры разложены по прогнозу шанса красных (по десяткам процентов); у надёжного "
        "рейтинга доля побед красных в каждой строке равна прогнозу.",
        "Games grouped by the predicted red chance (by tenths); a reliable rating's red-win "
        "rate in each row equals its prediction."),
    "slope": ("Наклон калибровки: наш {ours}, Эло {elo} (1 — надёжно, меньше 1 — "
              "самоуверенно).",
              "Calibration slope: ours {ours}, Elo {elo} (1: reliable, below 1: "
              "over-confident)."),
    "no_slope": ("Наклон калибровки не считается: меньше {n} игр.",
                 "No calibration slope: fewer than {n} games."),
    "cal_range": ("Прогноз", "Predicted"),
    "min_games": ("Рейтинговых игр, чтобы войти в рейтинг", "Rated games to be ranked"),
    "provisional": ("предварительный", "provisional"),
    "provisional_hint": ("Меньше {n} — рейтинг предварительный: игрок в списке после "
                         "остальных, без места.",
                         "Fewer than {n}: the rating is provisional, listed after the others, "
                         "unplaced."),
    "history": ("Рейтинг по дням", "Rating day by day"),
    "best": ("Наивысший рейтинг {rating} — {date}", "Highest rating {rating} — {date}"),
    "undated": ("без даты", "undated"),
    "cal_games": ("Игры", "Games"),
    "cal_predicted": ("прогноз", "predicted"),
    "cal_observed": ("вышло", "observed"),
    "ours_short": ("Наш рейтинг", "Our rating"),
    "elo_short": ("Эло", "Elo"),
    "no_rated": ("Рейтинговых игр нет.", "No rated games."),
    "next_page": ("Дальше", "Next"),
    "prev_page": ("Назад", "Previous"),
    "formula": ("Как считается рейтинг", "How the rating is computed"),
    "settings": ("Какие игры рейтинговые (настройка федерации)",
                 "Which games count (the federation's setting)"),
    "stage_qualification": ("отбор", "qualification"),
    "stage_semifinal": ("полуфинал", "semifinal"),
    "stage_final": ("финал", "final"),
    "unrated": ("Нерейтинговые турниры", "Tournaments that do not count"),
    "elite": ("Элитные турниры (K базовой линии Эло 64/48)",
              "Elite tournaments (the Elo baseline's K 64/48)"),
    "save": ("Сохранить", "Save"),
    "updated": ("Изменено: {who}, {at}", "Changed by {who}, {at}"),
    "what_if": ("Что, если", "What if"),
    "what_if_game": ("Игра из базы", "A game of the database"),
    "what_if_table": ("Свой стол: 10 игроков и роли", "A table of your own: 10 players and roles"),
    "what_if_hint": ("Номер игрока — из адреса его страницы (/people/НОМЕР).",
                     "A player's number is the one in his page's address (/people/NUMBER)."),
    "game": ("Игра", "Game"),
    "rules": ("Правила", "Rules"),
    "show": ("Показать", "Show"),
    "recent_games": ("Последние рейтинговые игры", "The latest rated games"),
    "chance": ("Шанс красных до игры: {p} (считан без исхода этой игры)",
               "Red's chance before the game: {p} (computed without its result)"),
    "actual": ("Записанный итог: {result}", "Recorded result: {result}"),
    "before": ("До игры", "Before"),
    "if_red": ("Если победа красных", "If red wins"),
    "if_black": ("Если победа чёрных", "If black wins"),
    "if_draw": ("Если ничья", "If a draw"),
    "hypothetical": ("Стол, который ещё не играл (после всех игр базы)",
                     "A table that has not played (after every game of the database)"),
    "identities": ("Объединения учётных записей игрока", "Merges of this player's identities"),
    "merge_title": ("Объединить с другой записью (это один человек)",
                    "Merge another record into this one (one person)"),
    "merge_other": ("Номер другой записи", "The other record's number"),
    "merge_reason": ("Причина", "Reason"),
    "merge": ("Объединить", "Merge"),
    "split": ("Разделить", "Split"),
    "merge_line": ("№{id}: запись №{merged} «{nick}»{club} ({n}) присоединена к №{kept} — "
                   "{who}, {at}",
                   "No. {id}: record no. {merged} '{nick}'{club} ({n}) merged into no. {kept} "
                   "by {who}, {at}"),
    "split_line": ("разделено: {who}, {at}", "split by {who}, {at}"),
    "moved_here": ("Запись №{old} присоединена к этой.", "Record no. {old} was merged into this one."),
    "rating_of": ("Рейтинг {rating} (±{dev}), за красных {red}, за чёрных {black}",
                  "Rating {rating} (±{dev}), as red {red}, as black {black}"),
    "all_clubs": ("Все клубы", "All clubs"),
    "fk_short": ("ПУ", "FK"),
    "stale": ("Рейтинг пересчитывается после недавних изменений; пока показан посчитанный "
              "{at}.", "The rating is being recomputed after recent changes; shown meanwhile: "
              "the one computed {at}."),
    "wins_lower": ("победы", "wins"),
    "points_lower": ("баллы", "points"),
    "game_lower": ("игра", "game"),
}

NOUNS: Final[dict[str, tuple[tuple[str, str, str], tuple[str, str]]]] = {
    "game": (("игра", "игры", "игр"), ("game", "games")),
    "player": (("игрок", "игрока", "игроков"), ("player", "players")),
    "tournament": (("турнир", "турнира", "турниров"), ("tournament", "tournaments")),
    #: after "из" (of): the genitive, "из 1 турнира", "из 2 турниров"
    "tournament_of": (("турнира", "турниров", "турниров"), ("tournament", "tournaments")),
    "time": (("раз", "раза", "раз"), ("time", "times")),
    "participation": (("участие", "участия", "участий"), ("participation", "participations")),
    "member": (("член", "члена", "членов"), ("member", "members")),
}


def word(key: str, lang: str, **params: object) -> str:
    pair = WORDS.get(key)
    if pair is None:
        return texts.word(key, lang, **params)
    text = pair[0] if lang == "ru" else pair[1]
    return text.format(**params) if params else text


def count(n: int, key: str, lang: str) -> str:
    """`5 турниров`, `1 tournament`: the form Babel's plural rules ask for."""
    ru, en = NOUNS[key]
    form = Locale.parse("ru" if lang == "ru" else "en").plural_form(abs(n))
    if lang == "ru":
        noun = ru[0] if form == "one" else ru[1] if form == "few" else ru[2]
    else:
        noun = en[0] if form == "one" else en[1]
    return f"{n} {noun}"


def number(value: float | Fraction | Decimal, lang: str, places: int = 1,
           sign: bool = False) -> str:
    """A number in the reader's locale (1 612,4 / 1,612.4), with a real minus."""
    pattern = "#,##0" + ("." + "0" * places if places else "")
    text = format_decimal(Decimal(str(float(value))), format=pattern,
                          locale="ru" if lang == "ru" else "en")
    text = text.replace("-", "−").replace("\u2212", "−")
    if sign and not text.startswith("−") and float(value) != 0:
        text = "+" + text
    return text


def share(wins: int, games: int, lang: str) -> str:
    if not games:
        return "—"
    return number(100 * wins / games, lang, 0) + " %" if lang == "ru" else \
        number(100 * wins / games, lang, 0) + "%"


def pts(value: Hundredths, lang: str, sign: bool = False) -> str:
    return format_points(value, lang, sign=sign)


class MergeBody(BaseModel):
    other: int = Field(gt=0, lt=2**31)
    reason: str = Field(default="", max_length=2000)


def _people(request: Request) -> People:
    people: People = request.app.state.people
    return people


Svc = Annotated[People, Depends(_people)]


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def day_text(value: str | dt.date | None, lang: str) -> str:
    """A date as the reader writes it, by Babel (CLDR): «28 нояб. 2026 г.», "Nov 28, 2026";
    text that is no ISO date is shown as it is."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        try:
            day = dt.date.fromisoformat(value[:10])
        except ValueError:
            return value
    else:
        day = value
    return format_date(day, format="medium", locale=Locale.parse(lang))


def moment_text(value: dt.datetime | None, lang: str) -> str:
    """A moment on the server's clock (these pages span tournaments, each with its own
    zone), by Babel, with the zone named: «28 нояб. 2026 г., 14:30 (UTC)»."""
    if value is None:
        return ""
    zone = ZoneInfo(server_zone_name())
    here, loc = aware(value).astimezone(zone), Locale.parse(lang)
    # the date's medium form and the time to the minute (CLDR's short time)
    text = f"{format_date(here.date(), 'medium', loc)}, {format_time(here, 'short', locale=loc)}"
    return f"{text} ({zone_words(zone, lang, value)})"


def _page(request: Request, name: str, **context: Any) -> HTMLResponse:
    lang = principal(request).lang
    return render(request, name, pw=lambda key, **kw: word(key, lang, **kw),
                  count=lambda n, key: count(n, key, lang),
                  num=lambda v, places=1, sign=False: number(v, lang, places, sign),
                  share=lambda w, g: share(w, g, lang),
                  pts=lambda v, sign=False: pts(v, lang, sign),
                  day=lambda v: day_text(v, lang), moment=lambda v: moment_text(v, lang),
                  ROLES=ROLES, SEATS=SEATS, **context)


async def _form(request: Request) -> dict[str, list[str]]:
    data = await read_form(request)
    out: dict[str, list[str]] = {}
    for k, v in data.multi_items():
        if isinstance(v, str):
            out.setdefault(k, []).append(v)
    return out


# --- people and clubs ---------------------------------------------------------------------


@router.get("/people", response_class=HTMLResponse)
def people_index(request: Request, me: Who, svc: Svc, q: str = "") -> Response:
    found = svc.find(q) if q else []
    return _page(request, "people.html", q=q[:100], found=found, clubs=svc.clubs())


@dataclass(frozen=True, slots=True)
class HistoryChart:
    """A person's rating day by day as an SVG polyline (its points in a 300 x 80 box),
    with the highest rating and its day."""

    points: str
    best: float
    best_day: str
    low: float
    high: float


def history_chart(history: list[tuple[str, float]]) -> HistoryChart | None:
    if not history:
        return None
    values = [v for _, v in history]
    low, high = min(values), max(values)
    span = high - low or 1.0
    step = 300.0 / max(len(values) - 1, 1)
    points = " ".join(f"{i * step:.1f},{4 + 72 * (high - v) / span:.1f}"
                      for i, v in enumerate(values))
    best = max(range(len(values)), key=lambda i: (values[i], -i))  # the first day of the best
    return HistoryChart(points, values[best], history[best][0], low, high)


@router.get("/people/{pid}", response_class=HTMLResponse)
def person_page(request: Request, pid: int, me: Who, svc: Svc) -> Response:
    moved = svc.merged_into(pid)
    if moved is not None:
        return _see(f"/people/{moved}?from={pid}")
    page = svc.page(pid)
    moved_from = request.query_params.get("from", "")
    # the charts' address changes with what they show (and the language), so that a
    # browser never keeps a chart of before a merge or a confirmation
    by_role, by_seat = _rates(page.stats)
    shown = repr(([(r.games, r.wins) for r in by_role.values()],
                  [(r.games, r.wins) for r in by_seat.values()], me.lang))
    stamp = hashlib.sha256(shown.encode()).hexdigest()[:16]
    lang = me.lang
    return _page(request, "person.html", p=page, stats=page.stats, chart_stamp=stamp,
                 person_awards=services(request).awards.of_person(page.person.id),
                 rw=lambda key, **kw: say(REGISTER_PAGE, key, lang, **kw),
                 award_word=lambda code: pick(AWARD, code, lang),
                 history=history_chart(page.history),
                 may_manage=svc.may_manage(me.user),
                 moved_from=moved_from if moved_from.isdigit() else "")


def _rates(stats: PersonStats) -> tuple[dict[str, Rate], dict[int, Rate]]:
    return ({r: stats.by_role[r].rate for r in ROLES},
            {s: stats.by_seat[s].rate for s in SEATS})


def _svg(data: bytes) -> Response:
    return Response(data, media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=300"})


@router.get("/people/{pid}/roles.svg")
def person_roles_svg(pid: int, me: Who, svc: Svc) -> Response:
    return _svg(svc.chart(pid, "roles", me.lang))


@router.get("/people/{pid}/seats.svg")
def person_seats_svg(pid: int, me: Who, svc: Svc) -> Response:
    return _svg(svc.chart(pid, "seats", me.lang))


@router.post("/people/{pid}/merge")
async def merge(request: Request, pid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await _form(request)
    other = parse_ids(f.get("other", []))
    if not other:
        raise Unprocessable("merge_whom")
    svc.merge(pid, other[0], actor=user, reason=(f.get("reason") or [""])[0])
    return _see(f"/people/{pid}")


@router.post("/people/merges/{mid}/split")
async def split(request: Request, mid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    svc.split(mid, actor=user)
    f = await _form(request)
    back = parse_ids(f.get("back", []))
    return _see(f"/people/{back[0]}" if back else "/people")


@router.get("/clubs", response_class=HTMLResponse)
def clubs_page(request: Request, me: Who, svc: Svc) -> Response:
    return _page(request, "people.html", q="", found=[], clubs=svc.clubs())


@router.get("/clubs/{name:path}", response_class=HTMLResponse)  # a name may hold "/"
def club_page(request: Request, name: str, me: Who, svc: Svc) -> Response:
    return _page(request, "club.html", c=svc.club(name), quote=quote)


# --- the rating ----------------------------------------------------------------------------


def _profiles(lang: str) -> list[tuple[str, str]]:
    """The rule sets as the reader names them (ФСМ, ФИИМ 2018), the code as the value."""
    return [(code, federation(PROFILES[code].title, lang)) for code in sorted(PROFILES)]


def _kinds(kinds: Sequence[str], lang: str) -> str:
    return ", ".join(word(f"stage_{k}", lang) for k in STAGE_KINDS if k in kinds)


@router.get("/rating", response_class=HTMLResponse)
def rating_page(request: Request, me: Who, svc: Svc, page: int = 0, t: int = 0,
                g: str = "") -> Response:
    table = svc.rating()
    page = max(0, min(page, 10**6))
    rows = table.rows[page * PAGE:(page + 1) * PAGE]
    what = svc.what_if_game(t, g[:100]) if t and g else None
    recent = list(reversed(table.rated[-8:]))
    return _page(request, "rating.html", table=table, rows=rows, page=page, first=page * PAGE,
                 more=len(table.rows) > (page + 1) * PAGE, what=what, recent=recent,
                 slope_games=SLOPE_GAMES,
                 kinds=_kinds(sorted(table.setup.stage_kinds), me.lang),
                 may_manage=svc.may_manage(me.user), tournaments=svc.tournament_list(),
                 may_administer=svc.may_administer(me.user),
                 STAGE_KINDS=STAGE_KINDS, profiles=_profiles(me.lang), chosen_t=t,
                 chosen_g=g[:100], seats_in=[], rules_in="")


@router.post("/rating/what-if", response_class=HTMLResponse)
async def what_if_table(request: Request, me: Who, svc: Svc) -> Response:
    """A hypothetical table: ten people (their numbers) and their roles."""
    f = await _form(request)
    people = f.get("person", [])[:10]
    roles = f.get("role", [])[:10]
    rules = (f.get("rules") or [""])[0]
    ids = [ascii_int(p.strip(), 11) or 0 for p in people]
    what = svc.what_if_table(list(zip(ids, roles, strict=False)), rules)
    table = svc.rating()
    return _page(request, "rating.html", table=table, rows=table.rows[:PAGE], page=0, first=0,
                 more=len(table.rows) > PAGE, what=what, slope_games=SLOPE_GAMES,
                 recent=list(reversed(table.rated[-8:])),
                 kinds=_kinds(sorted(table.setup.stage_kinds), me.lang),
                 may_manage=svc.may_manage(me.user), tournaments=svc.tournament_list(),
                 may_administer=svc.may_administer(me.user),
                 STAGE_KINDS=STAGE_KINDS, profiles=_profiles(me.lang), chosen_t=0, chosen_g="",
                 seats_in=list(zip(people, roles, strict=False)), rules_in=rules)


@router.post("/rating/settings")
async def rating_settings(request: Request, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await _form(request)
    raw = (f.get("min_games") or [""])[0].strip()
    least = ascii_int(raw, 4) if raw else None
    svc.set_setup(actor=user, stage_kinds=f.get("kind", []),
                  unrated=parse_ids(f.get("unrated", [])), elite=parse_ids(f.get("elite", [])),
                  min_games=-1 if raw and least is None else least)  # -1: refused, in words
    return _see("/rating#settings")


# --- the JSON API (the same service calls) ---------------------------------------------------

api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["people"])


def _tally(t: Tally) -> dict[str, Any]:
    return {"games": t.games, "wins": t.wins, "points": to_json_number(t.points)}


def person_json(page: PersonPage) -> dict[str, Any]:
    """`mafiatab.person/1`: a person's figures (points as numbers of two places)."""
    st = page.stats
    return {
        "format": "mafiatab.person/1", "id": page.person.id,
        "nickname": page.person.nickname, "club": page.person.club,
        "all": _tally(st.all),
        "by_role": {r: _tally(st.by_role[r]) for r in ROLES},
        "by_seat": {str(x): _tally(st.by_seat[x]) for x in SEATS},
        "first_killed": st.first_killed, "ci": to_json_number(st.ci),
        "best_move": {"made": st.best_move_made, "named": st.named, "guessed": st.guessed},
        "partners": [{"person": m.person, **_tally(m.together)} for m in st.partners],
        "opponents": [{"person": m.person, **_tally(m.against)} for m in st.opponents],
        "imported": _tally(st.imported),
        "tournaments": [{"tournament": t.tournament, "name": t.name, "place": t.place,
                         "players": t.players, "points": to_json_number(t.total),
                         "imported": t.imported, "source": t.source,
                         "games_played": t.game_count,
                         "games": [{"game": g.game, "seat": g.seat, "role": g.role,
                                    "result": g.result, "won": g.won,
                                    "points": to_json_number(g.points)} for g in t.games]}
                        for t in st.tournaments],
        "unpublished": page.unpublished,
        "merges": [{"id": m.id, "kept": m.kept, "merged": m.merged,
                    "merged_nickname": m.merged_nickname, "split": m.split_at is not None}
                   for m in page.merges],
    }


@api.get("/people/{pid}")
def person_api(pid: int, svc: Svc) -> dict[str, Any]:
    return person_json(svc.page(pid))


@api.get("/rating")
def rating_api(svc: Svc, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
    """`mafiatab.ratings/1` over the database (the CLI's format), a page of it."""
    table = svc.rating()
    offset, limit = max(0, offset), max(0, min(limit, 1000))
    return {"format": "mafiatab.ratings/1", "games": table.games, "stale": table.stale,
            "total": len(table.rows),
            # the rated tournaments whose games another system recorded, and from where
            "imported": [{"tournament": tid, "source": source}
                         for tid, source in sorted(table.imported.items())],
            "players": [{"player": str(r.person), "nickname": r.nickname,
                         "rating": round(r.rating.rating, 1), "games": r.rating.games,
                         "wins": r.rating.wins, "red": round(r.rating.red, 1),
                         "black": round(r.rating.black, 1),
                         "deviation": round(r.rating.deviation, 1), "elo": round(r.elo, 2)}
                        for r in table.rows[offset:offset + limit]]}


@api.post("/people/{pid}/merge")
def merge_api(pid: int, body: MergeBody, me: Who, svc: Svc) -> dict[str, Any]:
    return {"merge": svc.merge(pid, body.other, actor=require_user(me), reason=body.reason)}


@api.post("/people/merges/{mid}/split")
def split_api(mid: int, me: Who, svc: Svc) -> dict[str, Any]:
    svc.split(mid, actor=require_user(me))
    return {"split": mid}


def install(app: FastAPI) -> None:
    """The service on the app's store and the routes (one line in app.py)."""
    app.state.people = app.state.services.people
    app.include_router(router)
    app.include_router(api)


__all__ = ["api", "count", "install", "number", "person_json", "router", "word"]
