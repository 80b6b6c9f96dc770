"""Nothing the judge typed is dropped, on SQLite and PostgreSQL: a draft
keeps each field the form could not read, exactly as typed, with its problem; the next save
that says nothing of it keeps it; a submit is refused while any is left; a save that
clears it lets the submit through; the protocol (format 1, what exports read) never
carries it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game
from mafiatab.rules import PROFILES
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused
from mafiatab.storage.engine import current_revision, head_revision, make_engine, upgrade
from mafiatab.storage.models import DRAFT, SUBMITTED
from mafiatab.web import forms
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures
from tests.storage.test_storage_revisions import J1, _enter, _setup


def _typing(g: Game, **typed: str) -> forms.Parsed:
    """The form of `g` with `typed` typed over it, read as the page reads it."""
    values = forms.form_from_game(g)
    values.update(typed)
    return forms.game_from_form(values, code=g.id, stage=g.stage, rnd=g.round, table=g.table,
                                profile=PROFILES["fsm"])


def test_a_draft_keeps_what_it_could_not_read(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    _enter(service, tid, g)
    parsed = _typing(g, day_1_nominated="11", extra_3="о,3")
    assert set(parsed.typed) == {"day_1_nominated", "extra_3"}
    r2 = service.protocols.save_draft(tid, g.id, parsed.game, actor=J1, base_revision=1,
                                      typed=parsed.typed)
    head = service.games.head(tid, g.id)
    assert head.number == r2.number and head.state == DRAFT
    assert {n: rf.text for n, rf in head.typed.items()} == {"day_1_nominated": "11",
                                                           "extra_3": "о,3"}
    extra = head.typed["extra_3"].problems[0]
    assert (extra.code, extra.seat, extra.field) == ("points_format", 3, "extra")
    msg = extra.message("ru")
    assert "«о,3»" in msg and "о.3" not in msg
    assert "доп. балл" in msg and "ФСМ" in msg
    nom = head.typed["day_1_nominated"].problems[0]
    assert "день 1, выставления" in nom.message("ru") and "«11»" in nom.message("ru")
    # the protocol itself holds what was read, and nothing of the typing
    assert "о,3" not in json.dumps(head.protocol, ensure_ascii=False, default=str)

    # a save that says nothing of the typing (the live screen, the API without it) keeps it
    service.protocols.save_draft(tid, g.id, parsed.game, actor=J1, base_revision=r2.number)
    assert set(service.games.head(tid, g.id).typed) == {"day_1_nominated", "extra_3"}

    # a submit of the newest draft is refused with both, quoting what was typed
    with pytest.raises(SubmitRefused) as refused:
        service.protocols.submit(tid, g.id, actor=J1, base_revision=None)
    said = refused.value.message("ru")
    assert "«о,3»" in said and "«11»" in said
    assert service.games.head(tid, g.id).state == DRAFT

    # the form's submit with the same typing: refused, the typing kept with the new draft
    with pytest.raises(SubmitRefused) as refused:
        service.protocols.submit(tid, g.id, actor=J1, base_revision=None, game=parsed.game,
                                 typed=parsed.typed)
    saved = refused.value.saved
    assert saved is not None and set(saved.typed) == {"day_1_nominated", "extra_3"}

    # fixed in the form: the typing is gone and the protocol goes through
    fixed = _typing(g)
    assert fixed.typed == {}
    info = service.protocols.submit(tid, g.id, actor=J1, base_revision=None, game=fixed.game,
                                    typed=fixed.typed)
    assert info.state == SUBMITTED and info.typed == {}


def test_typed_values_are_bounded(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    _enter(service, tid, g)
    parsed = _typing(g, extra_3="о" * 600)
    with pytest.raises(Exception) as refused:
        service.protocols.save_draft(tid, g.id, parsed.game, actor=J1, base_revision=1,
                                     typed=parsed.typed)
    assert getattr(refused.value, "code", "") == "typed_too_long"
    assert service.games.head(tid, g.id).number == 1
    assert not isinstance(refused.value, ProtocolRefused)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("protocol_revisions")}


def test_migration_0016_typed_both_ways(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        assert "typed" in _columns(engine)
        with writer(engine).begin() as conn:
            command.downgrade(_alembic_config(conn), "0014")
        assert "typed" not in _columns(engine)
        upgrade(engine)
        assert "typed" in _columns(engine)
    finally:
        engine.dispose()
