"""Hostile inputs the tests and the benchmark make (never stored as files)."""


def unclosed_escapes(size):
    """The issue's freezing text: a quote, then escaped quotes, never closed (10.7 s at 30 KB, hours at 1 MB)."""
    return '{"resources": "' + '\\"' * ((size - 16) // 2)
