"""Pages rendered: the Jinja2 templates with the words and helpers every page uses, and
`render`, which gives a page in the asker's language with his CSRF token. Route modules
render through this module, never through `web.app` (which imports them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from mafiatab import i18n
from mafiatab.domain.points import format_points
from mafiatab.domain.problems import translate_clause
from mafiatab.services.facade import Services
from mafiatab.texts import count, number
from mafiatab.texts.audit import audit_sentence
from mafiatab.web import forms, texts
from mafiatab.web.security import Principal, principal

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
TEMPLATES.env.globals.update(
    word=texts.word, role_mark=texts.ROLE_MARK, pick=i18n.pick, ROLE=i18n.ROLE,
    RESULT=i18n.RESULT, PENALTY=i18n.PENALTY, TAG=i18n.TAG, VERSION=i18n.VERSION,
    points=format_points, clause=translate_clause,
    describe_part=i18n.describe_part, short=forms.short_message, count=count, number=number,
)
TEMPLATES.env.globals["audit_sentence"] = audit_sentence  # the audit log read out


def charts_missing(lang: str) -> str:
    """The words (with the install command) in place of the charts when matplotlib, the
    `charts` extra, is not installed; empty when the charts can be drawn."""
    from mafiatab.formats import charts

    return "" if charts.available() else " ".join(charts.missing_words(lang))


TEMPLATES.env.globals["charts_missing"] = charts_missing


def render(request: Request, name: str, status_code: int = 200,
           headers: dict[str, str] | None = None, who: Principal | None = None,
           **context: Any) -> HTMLResponse:
    """A page in the asker's language, with the CSRF token for its forms (`who`: render
    it as that asker, e.g. an anonymous one whose token is a placeholder)."""
    p = who or principal(request)
    context.setdefault("status_code", status_code)
    context.update(request=request, me=p, lang=p.lang, csrf=p.csrf,
                   w=lambda key, **kw: texts.word(key, p.lang, **kw))
    if isinstance(context.get("tid"), int) and "stage_name" not in context:
        context["stage_name"] = _stage_names(request, context["tid"])
    return TEMPLATES.TemplateResponse(request, name, context, status_code=status_code,
                                      headers=headers)


def _stage_names(request: Request, tid: int) -> Callable[[str], str]:
    """`stage_name(code)` for a page: the stage as the tournament names it (its id is a
    code), read once per page and only when the page asks."""
    names: dict[str, str] = {}

    def name(code: str) -> str:
        if not names:
            svc: Services = request.app.state.services
            names.update({st.id: st.name for st in svc.tournaments.context(tid)[2]})
        return names.get(code, code)

    return name


__all__ = ["HERE", "TEMPLATES", "charts_missing", "render"]
