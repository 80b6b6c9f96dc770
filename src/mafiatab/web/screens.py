"""The screens of the tournament day (issue 15): the stream overlay, the hall's screen and
the push hub that feeds them and the public standings; one line in `create_app`."""

from __future__ import annotations

from fastapi import FastAPI

from mafiatab.services.screens import ScreenService
from mafiatab.web import hall, overlay, push


def install(app: FastAPI) -> None:
    """The screens' service and routes, and the push hub woken by every service's writes
    (so it comes after the other services are on `app.state`)."""
    app.state.screens = ScreenService(app.state.service.engine)
    app.include_router(overlay.router)
    app.include_router(overlay.api)
    app.include_router(hall.router)
    push.install(app)


__all__ = ["install"]
