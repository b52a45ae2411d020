"""Handing freed memory back to the system after heavy work.

Python frees a large array's buffer with munmap (the launch scripts set MALLOC_MMAP_THRESHOLD_ so that arrays of
a megabyte and more get their own mappings), but the many small objects of a heavy view (65,536 parts' arrays,
figure dicts, protobuf messages) come from glibc's heap arenas, which keep freed pages: the idle server held
3.5-4.0 GB after heavy Split views, 1.1 GB after mixed probing. glibc's malloc_trim(0) returns every whole free
page of every arena to the system (madvise MADV_DONTNEED since glibc 2.8; man 3 malloc_trim).
"""

import ctypes
import ctypes.util
import gc


def _trim():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim with
        return None


_MALLOC_TRIM = _trim()


def release() -> bool:
    """Collect reference cycles, then give the heap's free pages back to the system; True if trimmed."""
    gc.collect()
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True
