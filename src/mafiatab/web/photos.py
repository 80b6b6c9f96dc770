"""Players' photos: the upload, the removal and the image itself.

* `POST /t/{tid}/players/{pid}/photo` (a form with one file `photo`, and `next`): staff of
  the tournament for any of its players (the players' set-up page), a player for himself
  (his page `/t/{tid}/me`). `POST .../photo/remove` removes it.
* `GET /t/{tid}/players/{pid}/photo.jpg`: the stored JPEG (our own re-encoding, never the
  file sent), with its digest as the ETag (`If-None-Match` answers 304). Whoever may watch
  the tournament's overlay may see it (its key, staff, or anyone while the standings are
  public), and the player himself.
* `PUT /api/t/{tid}/players/{pid}/photo` (the image as the body) and `DELETE` the same:
  the JSON API of the same service calls (`Services.photos`).

The rules (who may change whose photo, which files are taken) are the service's
(`services/photos.py`); the page only passes the bytes through.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import UploadFile

from mafiatab.services.facade import Services
from mafiatab.services.photos import MAX_BYTES, PhotoNotFound
from mafiatab.web.deps import safe_next, see_other
from mafiatab.web.refusals import BadInput, Missing
from mafiatab.web.security import Principal, check_csrf, principal, read_form, require_user, service

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["photos"])
Who = Annotated[Principal, Depends(principal)]
Svc = Annotated[Services, Depends(service)]


def photo_url(tid: int, pid: str, digest: str, key: str | None = None) -> str:
    """The image's address; the digest in it makes a new photo a new address."""
    from urllib.parse import quote, urlencode

    q = {"v": digest[:16], **({"key": key} if key else {})}
    return f"/t/{tid}/players/{quote(pid, safe='')}/photo.jpg?{urlencode(q)}"


async def _upload(request: Request) -> tuple[bytes, str]:
    form = await read_form(request)
    upload = form.get("photo")
    nxt = form.get("next")
    if not isinstance(upload, UploadFile):
        raise BadInput("photo_file")
    data = await upload.read(MAX_BYTES + 1)  # one byte more tells "too big" apart
    return data, safe_next(nxt if isinstance(nxt, str) else None)


@router.post("/t/{tid}/players/{pid}/photo")
async def photo_post(request: Request, tid: int, pid: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    await run_in_threadpool(lambda: svc.photos.require_may_change(tid, pid, actor=user))
    data, nxt = await _upload(request)
    await run_in_threadpool(lambda: svc.photos.set_photo(tid, pid, data, actor=user))
    return see_other(nxt)


@router.post("/t/{tid}/players/{pid}/photo/remove")
async def photo_remove(request: Request, tid: int, pid: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    form = await read_form(request)
    nxt = form.get("next")
    await run_in_threadpool(lambda: svc.photos.remove_photo(tid, pid, actor=user))
    return see_other(safe_next(nxt if isinstance(nxt, str) else None))


@router.get("/t/{tid}/players/{pid}/photo.jpg")
def photo_get(request: Request, tid: int, pid: str, me: Who, svc: Svc,
              key: str | None = None) -> Response:
    try:
        photo = svc.screens.photo(tid, pid, key=key, user=me.user)
    except PhotoNotFound:
        raise Missing("no_photo_here") from None
    etag = f'"{photo.digest}"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache",
               "X-Content-Type-Options": "nosniff",
               "Content-Disposition": "inline; filename=photo.jpg"}
    asked = request.headers.get("if-none-match", "")
    if etag in {v.strip() for v in asked.split(",")} or asked.strip() == "*":
        return Response(status_code=304, headers=headers)
    return Response(photo.image, media_type="image/jpeg", headers=headers)


@api.put("/t/{tid}/players/{pid}/photo")
async def photo_put_api(request: Request, tid: int, pid: str, me: Who, svc: Svc) -> Response:
    """The image as the request's body (JPEG, PNG, WebP or GIF, up to 3 MB)."""
    user = require_user(me)
    await run_in_threadpool(lambda: svc.photos.require_may_change(tid, pid, actor=user))
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BYTES:
            break
    digest = await run_in_threadpool(lambda: svc.photos.set_photo(tid, pid, bytes(data),
                                                                  actor=user))
    return JSONResponse({"player": pid, "digest": digest, "url": photo_url(tid, pid, digest)})


@api.delete("/t/{tid}/players/{pid}/photo")
def photo_delete_api(tid: int, pid: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    return JSONResponse({"player": pid, "removed": svc.photos.remove_photo(tid, pid, actor=user)})


__all__ = ["api", "photo_url", "router"]
