"""Words, not codes: every page of the demo tournament, as every role sees it, in Russian
(and in English), shows the glossary's words; no internal code (`red`, `pu_extra`,
`qual`...), no raw JSON, no escaped Unicode, no clause of the other federation, and no
English word on a Russian page (nor Russian on an English one).

The crawl follows every link of every page it reaches (GET only, same site), from the
pages a role starts on; downloads (PDF, spreadsheets) and event streams are left out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from fastapi.testclient import TestClient

from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME, build_demo
from tests.web.conftest import RELAXED, World

#: what is never followed: binary downloads, streams, API documents, state changes
SKIP = re.compile(r"^/api/|^/lang/|^/static/|/logout|(\.pdf|\.xlsx|\.csv|\.json|\.svg|/events|/state|"
                  r"/download)$")
MAX_PAGES = 250

#: internal codes that must never be read by a person
CODES = ["red", "black", "draw", "pu_extra", "near_reliable", "from_version", "game_action",
         "team_loss", "role_player", "reliable", "checked", "qual", "sheriff", "don",
         "civilian", "head_judge", "organizer_", "draft", "submitted", "confirmed",
         "returned", "not_allowed", "none", "None", "True", "False"]
#: on an English page the words among them (red, draw, confirmed) are English
EN_WORDS = {"red", "black", "draw", "reliable", "checked", "sheriff", "don", "civilian", "draft",
            "submitted", "confirmed", "returned", "none"}
CODE = {lang: re.compile(r"(?<![\w-])(" + "|".join(
    re.escape(c) for c in CODES if lang == "ru" or c not in EN_WORDS) + r")(?![\w-])")
    for lang in ("ru", "en")}
RAW = [re.compile(r"\(scoring\.md"), re.compile(r"\\u04[0-9a-f]{2}"),
       re.compile(r"\{\s*\"[a-z_]+\"\s*:"), re.compile(r"\[\s*\{")]
#: a time zone's IANA name ("Europe/Moscow", "Etc/GMT-3"): people read «Москва (UTC+3)»
IANA = re.compile(r"(?<![\w/])(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|"
                  r"Indian|Pacific|Etc)/[A-Za-z_+\-0-9]+")
#: Latin words a Russian page may show: names of things, abbreviations, the accounts
LATIN_OK = {"api", "openapi", "http", "https", "wi-fi", "wi", "fi", "ci", "pdf", "csv",
            "xlsx", "svg", "utc", "json", "mafiatab", "htmx", "ctrl", "obs", "url", "id",
            "sse", "en", "ru", "english", "fsm", "fiim", "iso",
            "organizer", "headjudge", "viewer", "reserve-judge", "reserve", "judge",
            # the rating's page: its formula's name («mafiatab rating 2»), its symbol
            # `base`, and the site whose Elo it shows beside
            "rating", "base", "mafiaratings"}
LATIN = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z-]{2,}(?![\w-])")
CYRILLIC = re.compile(r"[А-Яа-яЁё]{3,}")
#: a program's name with underscores (`opt_comp_per_team`, `checkin_key`): the word checks
#: above stop at an underscore, so such a code slipped through them
SNAKE = re.compile(r"(?<![\w/.-])[A-Za-z]+(?:_[A-Za-z0-9]+)+(?![\w-])")
#: a player's internal id (`p001`): people read his nickname; the id is shown only with
#: its label, for the organizer who edits the players' file («№ в файле: p001»)
BARE_ID = {"ru": re.compile(r"(?<!№ в файле: )(?<![\w-])p\d+(?![\w-])"),
           "en": re.compile(r"(?<!No\. in the file: )(?<![\w-])p\d+(?![\w-])")}


class _Text(HTMLParser):
    """The text a person reads on a page (and the links it offers)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        # a <pre> holds a formula (the rating's): symbols such as S_red, not words
        if tag in ("script", "style", "template", "pre"):
            self._hidden += 1
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        for name in ("title", "placeholder", "aria-label", "alt"):
            if a.get(name):
                self.parts.append(a[name] or "")
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.parts.append(a["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template", "pre") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.parts.append(data.strip())


def _names(world: World) -> set[str]:
    """Data people typed (nicknames, accounts) is theirs, not a code."""
    names = {p.nickname.casefold() for p in world.sample.players}
    names |= {a[0].casefold() for a in world.demo.accounts}
    names |= {"player1", world.demo.code_user}
    names |= {"the", "best", "move", "was", "mine"}  # the appeal's text, as its player typed it
    # what the organizer typed: the tournament's, the stages' and the clubs' names
    typed = [world.sample.name, *(st.name for st in world.sample.stages),
             *(p.club or "" for p in world.sample.players)]
    names |= {w.casefold() for text in typed for w in re.findall(r"[\w-]+", text)}
    return names


def problems_of(text: str, lang: str, names: set[str], url: str = "/t/") -> list[str]:
    # an address shown to copy is not prose
    text = re.sub(r"https?://\S+|/t/\S+|/people/\S+", "", text)
    found = [f"code {m!r}" for m in CODE[lang].findall(text)]
    found += [f"raw {rx.pattern!r}" for rx in RAW if rx.search(text)]
    found += [f"time zone {m.group(0)!r}" for m in IANA.finditer(text)]
    found += [f"a player's id {m.group(0)!r}" for m in BARE_ID[lang].finditer(text)]
    found += [f"code {m.group(0)!r}" for m in SNAKE.finditer(text)]
    # an FSM tournament's pages never cite the other federation (the list of tournaments
    # and the new tournament's choice of rules name both)
    if url.startswith("/t/") and re.search(r"FIIM|ФИИМ", text):
        found.append("the other federation's clause (FIIM)")
    if lang == "ru":
        found += [f"English {w!r}" for w in LATIN.findall(text)
                  if w.casefold() not in LATIN_OK and w.casefold() not in names
                  and not re.fullmatch(r"judge\d+|p\d+|[A-Z0-9-]{4,}", w)]
    else:
        found += [f"Russian {w!r}" for w in CYRILLIC.findall(text)
                  if w.casefold() not in names and not any(w.casefold() in n for n in names)]
    return found


@pytest.fixture(scope="module")
def ru_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    folder: Path = tmp_path_factory.mktemp("crawl")
    sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Демо-турнир")
    demo = build_demo(folder / "crawl.sqlite", sample)
    world = World(demo, sample, folder / "crawl.sqlite")
    from tests.web.appeal_world import add_appeal_case

    world.case = add_appeal_case(world)
    # the tournament's clock is Moscow's: every moment names the zone (in words)
    Services(make_engine(str(world.db))).zones.set_zone(demo.tournament, "Europe/Moscow",
                                                       actor=ORGANIZER_NAME)
    return world


ROLES = ["guest", "viewer", "judge1", "headjudge", "organizer", "player1", "code"]


def _client(world: World, role: str, lang: str) -> Iterator[TestClient]:
    app = create_app(str(world.db), secret="crawl-secret", limits=RELAXED)
    with TestClient(app, base_url="http://testserver") as c:
        c.get(f"/lang/{lang}")
        if role != "guest":
            csrf = c.get("/api/session").json()["csrf"]
            body = ({"code": world.demo.code} if role == "code"
                    else {"user": role, "password": DEMO_PASSWORD})
            r = c.post("/api/login", json=body, headers={"X-CSRF-Token": csrf})
            assert r.status_code == 200, r.text
        yield c


def crawl(c: TestClient, start: list[str]) -> Iterator[tuple[str, str]]:
    """(url, visible text) of every HTML page reached from `start`."""
    seen: set[str] = set()
    queue = list(start)
    while queue and len(seen) < MAX_PAGES:
        url = urldefrag(queue.pop(0))[0]
        if url in seen or not url.startswith("/") or SKIP.search(urlsplit(url).path):
            continue
        seen.add(url)
        r = c.get(url, follow_redirects=True)
        if "text/html" not in r.headers.get("content-type", ""):
            continue
        parser = _Text()
        parser.feed(r.text)
        yield url, " ¦ ".join(parser.parts)
        queue.extend(link for link in parser.links if link not in seen)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("role", ROLES)
def test_every_page_speaks_words_not_codes(ru_world: World, role: str, lang: str) -> None:
    tid = ru_world.demo.tournament
    start = ["/", f"/t/{tid}", f"/t/{tid}/standings", f"/t/{tid}/judge", f"/t/{tid}/manage",
             f"/t/{tid}/setup", f"/t/{tid}/audit", f"/t/{tid}/appeals", f"/t/{tid}/seating",
             f"/t/{tid}/screens", f"/t/{tid}/hall", "/login"]
    names = _names(ru_world)
    bad: dict[str, list[str]] = {}
    pages = zoned = 0
    for c in _client(ru_world, role, lang):
        for url, text in crawl(c, start):
            pages += 1
            zoned += ("Москва" if lang == "ru" else "Moscow") + " (UTC+3)" in text
            found = problems_of(text, lang, names, url)
            if found:
                bad[re.sub(r"/\d+", "/N", re.sub(r"/games/[^/]+", "/games/G", url))] = found
    assert pages >= 5, pages  # the crawl reached the pages, not only an error
    if role in ("headjudge", "organizer"):
        assert zoned, "no page named the tournament's time zone"  # the appeals pages do
    report = {url: sorted(set(found))[:12] for url, found in sorted(bad.items())}
    if report:
        out = Path(__file__).resolve().parents[2] / "test-artifacts"
        out.mkdir(exist_ok=True)
        (out / f"words-{role}-{lang}.txt").write_text(
            "\n".join(f"{u}: {f}" for u, f in report.items()), encoding="utf-8")
    assert report == {}


def test_the_checker_sees_a_bare_player_id() -> None:
    assert problems_of("Альфа (Клуб 1) p001", "ru", set()) != []
    assert problems_of("Alpha (Club 1) p12", "en", set()) != []
    assert problems_of("Альфа (Клуб 1) ¦ № в файле: p001", "ru", set()) == []
    assert problems_of("Alpha ¦ No. in the file: p001", "en", set()) == []
    assert problems_of("Стол 3 ¦ /t/1/setup#player-p001 ¦ p1-игрок", "ru", set()) == []
    assert problems_of("действие «checkin_key»", "ru", set()) != []
    assert problems_of("opt_comp_per_team (FSM 8.6.2)", "en", set()) != []


def test_the_checker_sees_a_zone_by_its_iana_name() -> None:
    for lang in ("ru", "en"):
        assert problems_of("07.03.2026 14:30 (Europe/Moscow)", lang, set()) != []
        assert problems_of("Время — Etc/GMT-3", lang, set()) != []
    assert problems_of("07.03.2026 14:30 (Москва, UTC+3)", "ru", set()) == []
    assert problems_of("Times: Moscow (UTC+3); Buenos Aires (UTC−3)", "en", set()) == []
