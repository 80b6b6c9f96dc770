"""Hand freed memory back to the system after a large, short-lived buffer.

Why: glibc's malloc keeps what a thread freed in that thread's arena for the next
allocation, and Pillow's decoded pictures are tens of megabytes in blocks that fall under
malloc's (self-raising) mmap threshold; a server that decoded a few large pictures on its
worker threads then holds their memory for good, although nothing uses it. `malloc_trim`
returns every arena's free pages at once. Elsewhere (musl, macOS) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        return lib if hasattr(lib, "malloc_trim") else None
    except OSError:
        return None


def give_back() -> bool:
    """Return the process's free heap pages to the system (glibc); whether it could."""
    lib = _libc()
    if lib is None:
        return False
    lib.malloc_trim(0)
    return True


__all__ = ["give_back"]
