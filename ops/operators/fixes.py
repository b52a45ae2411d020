"""The nearest valid settings to an invalid one: what an error message offers to change in one click.

An operator's `fixes` (its family's fixes.py) takes settings that break one of its rules and returns a `Fixes`: the
broken rule in a few words and a short list of `Fix`es, each a complete change (one click applies all of it) that
the core accepts. "Nearest" means the smallest change of one setting: the valid value just below and just above
for a BlockSize or a part count, the nearest multiple for a size. Settings that break no rule get no fixes
(`Fixes.reason` is None).
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Fix:
    """One click's change: `changes` is ((setting name, new value), ...); `label` says it in words."""

    label: str
    changes: tuple

    @property
    def as_dict(self):
        return dict(self.changes)


@dataclasses.dataclass(frozen=True)
class Fixes:
    reason: str | None
    options: tuple = ()

    def suggestion(self):
        """'use BlockSize 2 or 4, or C = 18': the fixes in words, the values of one setting grouped."""
        groups = {}
        for fix in self.options:
            value = str(fix.changes[0][1])
            if len(fix.changes) == 1 and fix.label.endswith(" " + value):
                groups.setdefault(fix.label[: -len(value) - 1], []).append(value)
            else:
                groups.setdefault(fix.label, [])
        parts = [f"{key} {' or '.join(values)}" if values else key for key, values in groups.items()]
        return f"use {', or '.join(parts)}" if parts else ""


NONE = Fixes(None)


def nearest_below_and_above(value, candidates):
    """The largest candidate below `value` and the smallest above it (those that exist)."""
    below = [c for c in candidates if c < value]
    above = [c for c in candidates if c > value]
    return ([max(below)] if below else []) + ([min(above)] if above else [])


def nearest_multiple(value, unit):
    """The multiple of `unit` (at least `unit`) nearest `value`; on a tie, the larger."""
    lower = max(unit, value // unit * unit)
    upper = max(unit, -(-value // unit) * unit)
    return upper if upper - value <= value - lower else lower


def values_text(values):
    """Sizes as a fix's label writes them: 2,1,3."""
    return ",".join(str(v) for v in values)
