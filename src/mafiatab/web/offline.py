"""The judge's phone without a network: the installable app (a web app manifest and a
service worker served from the site's root), and the protocol form's queue.

The service worker (`static/sw.js`) keeps the judge's own pages (his tables, the protocol
form, the live screen) and the static files, so that a reload, a closed tab or a phone
restarted in a hall without Wi-Fi comes back where he was. What he does meanwhile waits
on the phone in IndexedDB (`static/queue.js`) with its time and a client-made id, and is
sent in order when the connection returns:

* the live screen's taps go to the live log's API (`web/live.py`, applied once by id);
* the protocol form's saves and its submit go to `POST /t/{tid}/games/{code}/queued`
  here: one service call each (`Protocols.save_draft` / `submit` with `Queued`), applied
  once by the save's id; a save based on a revision somebody else (the head judge, the
  judge's other phone) replaced answers 409 with that version's fields, and the form
  shows both side by side for the judge to choose (`static/form-queue.js`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from mafiatab.domain.clock import clock_time
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.services.errors import ServiceError
from mafiatab.services.protocols import Queued, SubmitRefused
from mafiatab.services.tournaments import ConflictError
from mafiatab.web import forms
from mafiatab.web.deps import Svc, Who, form_fields
from mafiatab.web.refusals import Unprocessable, problem_body
from mafiatab.web.security import check_csrf, require_user

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

STATIC: Final = Path(__file__).resolve().parent / "static"
#: the longest id a phone may give a queued save or itself
MAX_ID: Final = 100

#: the words of the queue and of the conflict screen (the form's and the live screen's)
WORDS: dict[str, tuple[str, str]] = {
    "queued_n": ("На телефоне, не отправлено: {n}", "On the phone, not sent: {n}"),
    "offline": ("Нет связи: изменения сохранены на телефоне и уйдут, когда связь вернётся",
                "Offline: the changes are kept on the phone and sent when the connection "
                "returns"),
    "sending": ("Отправка…", "Sending…"),
    "sent": ("Черновик сохранён (ревизия {n})", "Draft saved (revision {n})"),
    "submit_queued": ("Подача протокола в очереди: уйдёт, когда связь вернётся",
                      "The submit is queued: it is sent when the connection returns"),
    "refused": ("Сервер не принял", "The server refused"),
    "conflict_title": ("Протокол изменён в другом месте", "The protocol was changed elsewhere"),
    "conflict_text": ("{author} сохранил(а) ревизию {head} в {at}, пока ваши изменения ждали на "
                      "телефоне. Ничего не перезаписано: выберите, какую версию оставить.",
                      "{author} saved revision {head} at {at} while your changes waited on "
                      "the phone. Nothing is overwritten: choose the version to keep."),
    "field": ("Поле", "Field"),
    "mine": ("Моя версия (на телефоне)", "Mine (on the phone)"),
    "theirs": ("Версия на сервере", "On the server"),
    "keep_mine": ("Оставить мою", "Keep mine"),
    "take_theirs": ("Взять версию с сервера", "Take the server's"),
    "empty": ("—", "—"),
    "live_mine": ("Мои события (ещё не отправлены)", "My events (not sent yet)"),
    "live_theirs": ("Журнал на сервере", "The log on the server"),
    "live_keep_mine": ("Добавить мои события к журналу сервера",
                       "Add my events to the server's log"),
    "live_take_theirs": ("Отказаться от моих событий", "Drop my events"),
    "live_conflict_text": ("Журнал игры изменили с другого устройства, пока ваши события ждали "
                           "на телефоне. Ничего не перезаписано: выберите.",
                           "The game's log was changed from another device while your events "
                           "waited on the phone. Nothing is overwritten: choose."),
    "new_there": ("новое", "new"),
    "app_name": ("mafiatab — судья", "mafiatab — judge"),
}


def words(lang: str) -> dict[str, str]:
    """The words above in the reader's language (the scripts get them in the page)."""
    return {k: v[0] if lang == "ru" else v[1] for k, v in WORDS.items()}


def words_json(lang: str) -> str:
    """The words as a script's JSON island (no `</script>` inside)."""
    return json.dumps(words(lang), ensure_ascii=False).replace("<", "\\u003c")


def boot_json(tid: int, code: str, lang: str) -> str:
    """The protocol form queue's data in the page: where to send, its words."""
    return json.dumps({"tid": tid, "code": code, "url": f"/t/{tid}/games/{code}/queued",
                       "words": words(lang)}, ensure_ascii=False).replace("<", "\\u003c")


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that its scope is the whole site; never kept
    by the HTTP cache (a new version takes over at the next load)."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
def manifest(me: Who) -> Response:
    """The web app manifest: the judge installs the site on his phone's home screen."""
    body = {"name": WORDS["app_name"][0 if me.lang == "ru" else 1], "short_name": "mafiatab",
            "lang": me.lang, "start_url": "/", "scope": "/", "display": "standalone",
            "background_color": "#ffffff", "theme_color": "#1b1b1b",
            "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml",
                       "purpose": "any"},
                      {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                      {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"}]}
    return JSONResponse(body, media_type="application/manifest+json")


def _id(value: str) -> str | None:
    value = value.strip()
    return value[:MAX_ID] if value else None


def _problems(problems: list[Problem], lang: str) -> list[dict[str, Any]]:
    """Each problem in words with the form's place for it (`slot`: a seat, a field)."""
    return [dict(p.as_dict(lang), text=forms.short_message(p, lang), slot=forms.slot_of(p))
            for p in problems]


@router.post("/t/{tid}/games/{code}/queued")
async def queued_save(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """A save (or the submit) of the protocol form that waited on the phone: the form's
    fields, `queue_id` (the phone's id of this save), `device`, `base` (the revision the
    judge edited), `action` (`draft` or `submit`).

    200: saved (or already saved by this id): `revision`, `state`, `problems`; 409
    `conflict`: somebody else saved meanwhile, with `values` (the newest version's fields)
    for the judge to compare; 422 `refused`: the server's problems, each with its clause and
    its place on the form (a refused submit's protocol is kept as a draft: `revision`)."""
    user = require_user(me)
    f = await form_fields(request)
    qid = _id(f.get("queue_id", ""))
    if qid is None:
        return JSONResponse(problem_body(Unprocessable("bad_queue_id"), me.lang),
                            status_code=422)
    queued = Queued(qid, _id(f.get("device", "")))
    base = ascii_int(f.get("base", ""), 9) or 0
    parsed = forms.game_from_form(f, code=code, stage="", rnd=1, table=1,
                                  profile=svc.protocols.profile(tid))
    try:
        if f.get("action") == "submit":
            info = svc.protocols.submit(tid, code, actor=user, base_revision=base,
                                        game=parsed.game, own_autosave=True,
                                        typed=parsed.typed, queued=queued)
        else:
            info = svc.protocols.save_draft(tid, code, parsed.game, actor=user,
                                            base_revision=base, own_autosave=True,
                                            typed=parsed.typed, queued=queued)
    except ConflictError as e:
        head = svc.games.head(tid, code)
        return JSONResponse(problem_body(
            e, me.lang, head=e.head, author=e.author, at=clock_time(e.at, svc.zones.zone(tid)),
            values=forms.form_with_typed(head.game_struct(), head.typed)), status_code=409)
    except ServiceError as e:  # not his table, not in a state to save: in words
        return JSONResponse(problem_body(e, me.lang), status_code=e.status)
    except ProtocolRefused as e:
        saved = e.saved if isinstance(e, SubmitRefused) else None
        return JSONResponse(problem_body(
            e, me.lang, _problems(parsed.problems + e.problems, me.lang),
            revision=saved.number if saved is not None else None), status_code=422)
    # a draft's problems as the form's check finds them (a submitted protocol has none left)
    problems = [] if info.state == "submitted" else parsed.problems + svc.protocols.check(
        tid, code, parsed.game, actor=user).problems
    after = (f"/t/{tid}/judge" if not me.is_staff(tid) else f"/t/{tid}/manage")
    return JSONResponse({"revision": info.number, "state": info.state,
                         "problems": _problems(problems, me.lang),
                         "next": after if info.state == "submitted" else None})


__all__ = ["WORDS", "boot_json", "router", "words", "words_json"]
