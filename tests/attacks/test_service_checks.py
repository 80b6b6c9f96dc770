"""The reads that a route used to guard by itself are refused by the service too.

The exports and charts, a game's protocol, a player's explained games, the games list,
the standings' and the teams' view, the screen settings, the setup steps, the judge's
list, the blank protocols and the live screen's read each take the actor and decide in
their own transaction (services/reads.py for the published-or-staff question), so the
page, the JSON API and the CLI cannot differ. Called here directly, without the web
layer, as outsiders (signed out, a viewer, a player's code, another tournament's
organizer, a judge of another table) and as the staff who may."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from mafiatab.services import live_log
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from mafiatab.services.teams import TeamService
from mafiatab.web.demo import HEAD_JUDGE_NAME, ORGANIZER_NAME, VIEWER_NAME
from tests.attacks.conftest import ORG2, World


@pytest.fixture()
def hidden(services: Services, world: World) -> Iterator[None]:
    """The standings of A closed to the public for the test."""
    services.access.set_visibility(world.a, actor=ORGANIZER_NAME, standings_hidden=True,
                                   extras_hidden=False, finished=False)
    yield
    services.access.set_visibility(world.a, actor=ORGANIZER_NAME, standings_hidden=False,
                                   extras_hidden=False, finished=False)


def _refused(read: Callable[[Any], Any], who: str | None) -> bool:
    try:
        read(who)
    except PermissionDenied:
        return True
    return False


def test_published_reads_are_refused_by_the_service_while_hidden(
        services: Services, world: World, hidden: None) -> None:
    a = world.a
    confirmed = next(g.code for g in services.games.overview(a) if g.confirmed_revision)
    player = world.players_a[0]
    player_account = world.code_a[1]
    teams = TeamService(services.store, services.standings.cached)
    reads: dict[str, Callable[[str | None], Any]] = {
        "roles chart": lambda x: services.exports.chart(a, "roles", "ru", actor=x),
        "places chart": lambda x: services.exports.chart(a, "places", "ru", player, actor=x),
        "standings.xlsx": lambda x: services.exports.standings_file(a, "xlsx", "ru", actor=x),
        "standings.csv": lambda x: services.exports.standings_file(a, "csv", "ru", actor=x),
        "paper.csv": lambda x: services.exports.paper_csv(a, "ru", actor=x),
        "protocol.pdf": lambda x: services.exports.protocol_pdf(a, confirmed, "ru", actor=x),
        "game": lambda x: services.games.readable(a, confirmed, actor=x),
        "player's games": lambda x: services.standings.player_games(a, player, actor=x),
        "games list": lambda x: services.games.listed(a, actor=x),
    }
    for who in (None, VIEWER_NAME, player_account, ORG2):
        for name, read in reads.items():
            assert _refused(read, who), (name, who)
        assert services.standings.view(a, actor=who)[0] is None, who
        assert teams.view(a, actor=who) is None, who
    for who in (ORGANIZER_NAME, HEAD_JUDGE_NAME):
        for name, read in reads.items():
            assert not _refused(read, who), (name, who)
        assert services.standings.view(a, actor=who)[0], who
    # a judge sees his own tables in the list, never the others' unconfirmed ones
    judged = services.games.listed(a, actor="judge1")
    assert all(g.confirmed_revision or g.judge == "judge1" for g in judged)


def test_staff_reads_are_refused_by_the_service(services: Services, world: World) -> None:
    a = world.a
    live = world.demo.open_games[0]
    judge = services.games.judge_of(a, live)
    assert judge is not None
    other_judge = next(j for j in ("judge1", "judge2") if j != judge)
    staff_only: dict[str, Callable[[str], Any]] = {
        "screen settings": lambda x: services.screens.settings(a, actor=x),
        "setup steps": lambda x: services.setup.steps(a, actor=x),
    }
    judges_too: dict[str, Callable[[str], Any]] = {
        "judge's list": lambda x: services.games.tables_of(a, actor=x),
        "blank protocols": lambda x: services.exports.blank_pdf(a, None, None, 1, "ru",
                                                                actor=x),
    }
    the_table: Callable[[str], Any] = lambda x: live_log.load_for(  # noqa: E731
        services.games, services.protocols, a, live, actor=x)
    outsiders = [VIEWER_NAME, world.code_a[1], ORG2]
    for who in outsiders + [judge]:
        for name, read in staff_only.items():
            assert _refused(read, who), (name, who)
    for who in outsiders:
        for name, read in judges_too.items():
            assert _refused(read, who), (name, who)
    for who in outsiders + [other_judge]:
        assert _refused(the_table, who), who
    for who in (ORGANIZER_NAME, HEAD_JUDGE_NAME):
        for name, read in {**staff_only, **judges_too}.items():
            assert not _refused(read, who), (name, who)
        assert not _refused(the_table, who), who
    assert not _refused(the_table, judge)
    assert {g.code for g in services.games.tables_of(a, actor=judge)} == {
        g.code for g in services.games.overview(a) if g.judge == judge}


def test_the_appeals_schedule_and_the_filing_form_are_refused_by_the_service(
        services: Services, world: World) -> None:
    """The schedule the deadlines count from and the list of cases are for those a
    deadline concerns (staff, a judge, a player); the filing form for a player (his own)
    or staff."""
    a = world.a
    game = next(g.code for g in services.games.overview(a) if g.confirmed_revision)
    player = world.code_a[1]
    reads: dict[str, tuple[Callable[[str | None], Any], set[str | None]]] = {
        "schedule": (lambda x: services.appeals.schedule(a, actor=x),
                     {None, VIEWER_NAME, ORG2, world.code_b[1]}),
        "schedule warnings": (lambda x: services.appeals.schedule_warnings(a, actor=x),
                              {None, VIEWER_NAME, ORG2, world.code_b[1]}),
        "cases": (lambda x: services.appeals.cases(a, actor=x),
                  {None, VIEWER_NAME, ORG2, world.code_b[1]}),
        "filing form": (lambda x: services.appeals.filer(a, game, actor=x),
                        {None, VIEWER_NAME, ORG2, world.code_b[1], "judge1"}),
    }
    for name, (read, outsiders) in reads.items():
        for who in outsiders:
            assert _refused(read, who), (name, who)
        for who in (ORGANIZER_NAME, HEAD_JUDGE_NAME, player):
            assert not _refused(read, who), (name, who)
    assert _refused(lambda x: services.appeals.schedule(world.b, actor=x), ORGANIZER_NAME)
    assert services.appeals.filer(a, game, actor=player) == {world.code_a[0]}
    assert services.appeals.filer(a, game, actor=HEAD_JUDGE_NAME) == set()


def _jpeg() -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(out, format="JPEG")
    return out.getvalue()


def test_the_screens_decide_who_watches_and_who_sees_a_photo(
        services: Services, world: World, hidden: None) -> None:
    """While the standings are closed, the overlay's grant, a player's photo, the
    standings stream's variant and the audit log are decided by the services: an
    outsider is refused (or gets the public stream), the staff, the player's own account
    (his photo) and the live key may."""
    a = world.a
    pid, own = world.code_a[0], world.code_a[1]
    services.photos.set_photo(a, pid, _jpeg(), actor=ORGANIZER_NAME)
    screens = services.screens
    outsiders: list[str | None] = [None, VIEWER_NAME, ORG2, world.code_b[1], "judge1"]
    watch: Callable[[str | None], Any] = lambda x: screens.require_watch(  # noqa: E731
        a, key=None, user=x)
    photo: Callable[[str | None], Any] = lambda x: screens.photo(  # noqa: E731
        a, pid, key=None, user=x)
    audit: Callable[[str | None], Any] = lambda x: services.tournaments.audit_log(  # noqa: E731
        a, actor=x or "")
    for who in outsiders:
        assert _refused(watch, who), who
        assert _refused(photo, who), who
        assert services.standings.stream_variant(a, actor=who) == "public", who
    for who in outsiders[1:] + [own]:
        assert _refused(audit, who), who
    assert _refused(watch, own)
    assert not _refused(photo, own)
    for who in (ORGANIZER_NAME, HEAD_JUDGE_NAME):
        assert screens.require_watch(a, key=None, user=who) == "staff"
        assert screens.photo(a, pid, key=None, user=who).image
        assert services.standings.stream_variant(a, actor=who) == "staff"
        assert not _refused(audit, who)
    assert services.standings.stream_variant(world.b, actor=ORGANIZER_NAME) == "public"
    key = screens.make_overlay_key(a, actor=ORGANIZER_NAME)
    try:
        assert screens.require_watch(a, key=key, user=None) == "key"
        assert screens.photo(a, pid, key=key, user=None).image
        assert _refused(lambda x: screens.photo(a, pid, key=key + "x", user=x), None)
    finally:
        screens.revoke_overlay_key(a, actor=ORGANIZER_NAME)
        services.photos.remove_photo(a, pid, actor=ORGANIZER_NAME)


def _swap(act: Callable[[str, str], Any], game: str, who: str) -> Any:
    return act(who, game)


def test_confirming_and_returning_ask_the_role_before_the_game(
        services: Services, world: World) -> None:
    """The API's confirm and return leave the role to the service, which asks it first:
    an outsider is refused whether the game exists or not (he learns nothing of it);
    staff get past the check (to the missing game's 404)."""
    from mafiatab.services.errors import NotFound

    a = world.a
    real = next(g.code for g in services.games.overview(a))
    acts: dict[str, Callable[[str, str], Any]] = {
        "confirm": lambda x, g: services.protocols.confirm(a, g, actor=x, base_revision=1),
        "return": lambda x, g: services.protocols.send_back(a, g, actor=x, reason="r",
                                                             base_revision=1),
    }
    for name, act in acts.items():
        for who in (VIEWER_NAME, world.code_a[1], ORG2, "judge1"):
            for game in (real, "no-such-game"):
                assert _refused(partial(_swap, act, game), who), (name, who)
        for who in (ORGANIZER_NAME, HEAD_JUDGE_NAME):
            with pytest.raises(NotFound):
                act(who, "no-such-game")
