"""Every operation of /api/openapi.json, called with what hypothesis makes up:
path ids from huge integers to Cyrillic and superscript digits, bodies shaped like the
operation's schema with wrong types, extra keys, long strings and deep values. Whatever
comes in, the answer is never a server error.

Signed in as the organizer (the account that reaches the most code), with the CSRF
token, on a world of its own (the calls may change it). The number of examples is kept
small so the run stays short in CI; `MAFIATAB_FUZZ_EXAMPLES` raises it for a longer hunt."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.web.conftest import RELAXED, World

EXAMPLES = int(os.environ.get("MAFIATAB_FUZZ_EXAMPLES", "120"))

SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40)
           | st.floats(allow_nan=False, allow_infinity=False)  # JSON has neither
           | st.text(max_size=40) | st.sampled_from(["²", "١٢", "1e999999", "-0", "", "qual",
                                                   "judge", "p001", "=1+1", "x" * 3000]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
PATH_PARAM = st.one_of(st.integers(min_value=-5, max_value=10**30).map(str),
                       st.sampled_from(["1", "0", "A1", "q1-t1", "финал-r1-t1", "²", "%2F..",
                                        "x" * 300]),
                       st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                                      blacklist_characters="/?#"),
                               min_size=1, max_size=12))


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    from tests.web.conftest import make_world

    world: World = make_world(tmp_path_factory.mktemp("fuzz"))
    app = create_app(str(world.db), secret="fuzz", limits=RELAXED)
    c = TestClient(app, raise_server_exceptions=False)
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": ORGANIZER_NAME, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    yield c, c.get("/api/openapi.json").json()


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, op) for path, ops in doc["paths"].items()
            for method, op in ops.items() if method in ("get", "post", "put", "delete")
            # signing out would end the run's session; a valid seating request would start
            # a real search (its bounds are pinned in test_attacks)
            and path not in ("/api/logout", "/api/logout/everywhere", "/api/account/password")
            and not path.endswith("/seating/generate")]


def _schema(doc: dict[str, Any], op: dict[str, Any]) -> dict[str, Any]:
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = body.get("schema", {}).get("$ref", "")
    found: dict[str, Any] = doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
    return found


def _body(draw: st.DrawFn, schema: dict[str, Any]) -> Any:
    """A body shaped like the schema (its keys, any values) or anything at all."""
    keys = list(schema.get("properties", {}))
    if keys and draw(st.booleans()):
        body = {k: draw(JSON) for k in keys if draw(st.booleans())}
        if draw(st.integers(0, 4)) == 0:
            body[draw(st.text(min_size=1, max_size=6))] = draw(JSON)  # an unknown key
        return body
    return draw(JSON)


def test_the_api_never_answers_a_server_error(signed: tuple[TestClient, dict[str, Any]]) -> None:
    client, doc = signed
    ops = _operations(doc)
    assert len(ops) > 30, "the document lists the API"
    seen: dict[int, int] = {}
    csrf = {"X-CSRF-Token": client.get("/api/session").json()["csrf"]}

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def call(data: st.DataObject) -> None:
        method, path, op = data.draw(st.sampled_from(ops))
        url = re.sub(r"\{[^}]+\}", lambda _m: quote(data.draw(PATH_PARAM), safe=""), path)
        kwargs: dict[str, Any] = {"headers": csrf}
        if method in ("POST", "PUT", "DELETE"):
            kwargs["json"] = _body(data.draw, _schema(doc, op))
        r = client.request(method, url, **kwargs)
        seen[r.status_code] = seen.get(r.status_code, 0) + 1
        assert r.status_code < 500, f"{method} {url} -> {r.status_code}: {r.text[:300]}"

    call()
    print("answers by status:", dict(sorted(seen.items())))  # shown with pytest -s
    assert sum(seen.values()) >= EXAMPLES
