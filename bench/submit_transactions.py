"""How many database transactions and rule validations one judge's submit costs.

A demo tournament in a temporary SQLite file; judge1 signs in, opens his table's
protocol form, fills it with the sample's protocol and submits it through the page
(POST /t/{tid}/games/{code}/submit), as a browser would. SQLAlchemy's engine events count
the transactions begun during that one request (on the reading and the writing engine
alike), and the rule checker's constructor counts the validations.

    python bench/submit_transactions.py      # prints: reads, writes, validations
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from mafiatab.domain import validation
from mafiatab.sample import sample_tournament
from mafiatab.web import forms
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, build_demo


def measure() -> dict[str, int]:
    with tempfile.TemporaryDirectory() as folder:
        sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Bench")
        demo = build_demo(Path(folder) / "bench.sqlite", sample)
        app = create_app(str(demo.db_path), secret="bench")
        c = TestClient(app, base_url="http://testserver")
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/login", json={"user": "judge1", "password": DEMO_PASSWORD},
                   headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        csrf = c.get("/api/session").json()["csrf"]
        last = max(g.round for g in sample.games if g.stage == "qual")
        game = next(g for g in sample.games
                    if g.stage == "qual" and g.round == last and g.table == 1)
        code = next(g["game"] for g in c.get(f"/api/t/{demo.tournament}/games").json()
                    if g["judge"] == "judge1" and g["state"] == "draft")
        head = c.get(f"/api/t/{demo.tournament}/games/{code}").json()
        values = forms.form_from_game(game)
        values.update(csrf=csrf, base=str(head["revision"]))
        counts = {"read": 0, "write": 0, "validations": 0}
        writers: set[int] = set()
        svc: Any = app.state.services
        writers.add(id(svc.store.writer))

        def begun(conn: Any) -> None:
            counts["write" if id(conn.engine) in writers else "read"] += 1

        original = validation._GameChecker.__init__

        def counted(self: Any, *a: Any, **kw: Any) -> None:
            counts["validations"] += 1
            original(self, *a, **kw)

        event.listen(Engine, "begin", begun)
        validation._GameChecker.__init__ = counted  # type: ignore[method-assign]
        try:
            r = c.post(f"/t/{demo.tournament}/games/{code}/submit", data=values,
                       follow_redirects=False)
        finally:
            event.remove(Engine, "begin", begun)
            validation._GameChecker.__init__ = original  # type: ignore[method-assign]
        assert r.status_code == 303, (r.status_code, r.text[:2000])
        state = svc.games.head(demo.tournament, code).state
        assert state == "submitted", state
        return counts


if __name__ == "__main__":
    result = measure()
    print(f"reads {result['read']}, writes {result['write']}, "
          f"validations {result['validations']}")
    sys.exit(0)
