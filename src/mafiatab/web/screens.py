"""The screens of the tournament day: the stream overlay, the hall's screen and
the push hub that feeds them and the public standings; one line in `create_app`."""

from __future__ import annotations

from fastapi import FastAPI

from mafiatab.web import hall, overlay, push


def install(app: FastAPI) -> None:
    """The screens' routes, and the push hub woken by every write through the app's
    services (`app.state.services`, built before)."""
    app.include_router(overlay.router)
    app.include_router(overlay.api)
    app.include_router(hall.router)
    push.install(app)


__all__ = ["install"]
