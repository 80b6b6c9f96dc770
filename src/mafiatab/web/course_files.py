"""The files the judge's phone needs to run the game's course itself (web/static/course.js).

The phone runs the server's own game-log engine under Pyodide: this module serves the
pure core's source (`mafiatab.domain` and `mafiatab.rules`, which import nothing else but
msgspec and the standard library) as one zip, taken from the running server's own package,
so the phone can never hold another version of the rules than the server that serves it.
The Pyodide runtime and msgspec's WebAssembly wheel are static files that scripts/pyodide
puts under /static/pyodide/; `files` lists everything, for the service worker to cache.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import mafiatab

PACKAGE: Final = Path(mafiatab.__file__).parent
#: the packages of the pure core, which the course imports (domain imports only rules)
CORE: Final = ("domain", "rules")
PYODIDE: Final = PACKAGE / "web" / "static" / "pyodide"
#: the runtime's files the browser loads (scripts/pyodide fetches them)
RUNTIME: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                  "pyodide-lock.json")

router = APIRouter(include_in_schema=False)


@lru_cache(maxsize=1)
def bundle() -> tuple[bytes, str]:
    """The pure core's source as a zip (paths from `mafiatab/`), and its content hash."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        files = [PACKAGE / "__init__.py"]
        for name in CORE:
            files += sorted((PACKAGE / name).glob("*.py"))
        for path in files:
            info = zipfile.ZipInfo(str(Path("mafiatab") / path.relative_to(PACKAGE)),
                                   date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def wheel() -> str | None:
    """The file name of msgspec's WebAssembly wheel, if scripts/pyodide has put it here."""
    found = sorted(PYODIDE.glob("msgspec-*.whl"))
    return found[-1].name if found else None


def available() -> bool:
    """Whether the runtime is here (else the screen asks the server for every step)."""
    return wheel() is not None and all((PYODIDE / f).is_file() for f in RUNTIME)


def setup() -> dict[str, object] | None:
    """What course.js needs to start the engine, or None without the runtime."""
    name = wheel()
    if name is None or not available():
        return None
    _data, digest = bundle()
    return {"runtime": "/static/pyodide/", "wheel": f"/static/pyodide/{name}",
            "bundle": f"/course/mafiatab-{digest}.zip", "worker": "/course/worker.js"}


def files() -> list[str]:
    """Every URL the phone fetches to run the course offline (for the service worker)."""
    boot = setup()
    if boot is None:
        return []
    return ["/static/course.js", "/course/worker.js", *(f"/static/pyodide/{f}" for f in RUNTIME),
            str(boot["wheel"]), str(boot["bundle"])]


@router.get("/course/mafiatab-{digest}.zip")
def core_zip(digest: str, request: Request) -> Response:
    """The pure core's source; its address names its hash, so it may be cached for good."""
    data, current = bundle()
    if digest != current:
        return Response(status_code=404)
    return Response(data, media_type="application/zip",
                    headers={"Cache-Control": "public, max-age=31536000, immutable",
                             "ETag": f'"{current}"'})


#: the pages that run the engine (the live screen, its worker) may compile WebAssembly
WASM_CSP: Final = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                   "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                   "frame-ancestors 'none'")


@router.get("/course/worker.js")
def worker() -> Response:
    """The engine's worker (static/course-worker.js) with the policy that lets it compile
    Pyodide's WebAssembly (a worker keeps the policy of its own script's response)."""
    text = (PACKAGE / "web" / "static" / "course-worker.js").read_bytes()
    return Response(text, media_type="text/javascript",
                    headers={"Content-Security-Policy": WASM_CSP, "Cache-Control": "no-cache"})


@router.get("/course/files.json")
def course_files() -> JSONResponse:
    """The files to cache for the offline course (course.js and the runtime)."""
    return JSONResponse({"files": files()})


__all__ = ["WASM_CSP", "available", "bundle", "files", "router", "setup"]
