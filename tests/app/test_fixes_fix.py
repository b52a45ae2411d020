"""Issue 30: every fix fixes. On every operator page that offers fixes, invalid settings of each kind (sizes, axes,
block sizes, types, operand counts, values) are opened after a valid view, each fix offered is clicked, and the
view it leads to must be valid, or a different refusal that offers a fix again, within three clicks: never the same
refusal, never a dead end. An error keeps the greyed last valid figure, and no success line ("Valid at ...") stands
beside it. (Layouts offers no fixes: its problems are the descriptor's own, listed one by one.)
"""

import pytest

from support.app import charts, error_texts, run_through_app, shown

# page -> invalid settings, each a link query opened after the page's default (valid) view
INVALID = {
    "depth_space": [dict(C="7"), dict(BlockSize="0"), dict(BlockSize="3"), dict(N="-1"),
                    dict(direction="space_to_depth", H="3"), dict(pattern="custom", values="1 2 3")],
    "bitwise_or": [dict(or_sizes="0"), dict(or_bcast="5"), dict(bw_op="ELEMENT_WISE_BIT_SHIFT_LEFT", dtype="FLOAT32"),
                   dict(pattern="custom", values="1"), dict(or_b_source="typed", or_b_text="1 2"),
                   # The issue's: a float's typed values under a shift, which takes unsigned integers only.
                   dict(bw_op="ELEMENT_WISE_BIT_SHIFT_LEFT", dtype="FLOAT32", pattern="custom", values="-0.0 1.5 2",
                        or_sizes="3", or_b_source="typed", or_b_text="1 2 3"),
                   dict(pattern="custom", values="1", or_sizes="3", or_b_source="typed", or_b_text="1"),
                   dict(pattern="custom", values="1 x 3 4 5 6")],
    "split_join": [dict(sj_axis="5"), dict(sj_axis="-9"), dict(sj_split="2,2"), dict(sj_mode="even", sj_parts="4"),
                   dict(sj_op="join", sj_inputs="2", sj_join="1,2,3"), dict(pattern="custom", values="1 2")],
}
CASES = [(page, query) for page, queries in INVALID.items() for query in queries]
CLICKS = 3


def fixes(at):
    return [b for b in at.button if b.key and "_fix_" in b.key]


def refusal(at):
    return tuple(error_texts(at))


def opened(page, query):
    """The page's default view, then the invalid link opened in the same session (so a last valid view exists)."""
    at = run_through_app(page)
    assert not at.exception and not refusal(at)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    return at


def check_refused(at):
    """A refusal that keeps its context: a fix offered, the greyed last valid figure, no 'valid' beside it."""
    assert fixes(at), f"a dead end: {refusal(at)}"
    assert any(node.key and "last_valid" in node.key for node in charts(at)), "no greyed last valid figure"
    assert not [s for s in (shown(x.value) for x in at.success) if s.startswith("Valid at")], refusal(at)


def follow(page, query, path=()):
    """Click each fix of the view `path` leads to (after opening `query`), recursively, up to CLICKS deep: each must
    reach a valid view, or a different refusal that offers fixes again. Returns the paths taken."""
    at = opened(page, query)
    for index in path:
        fixes(at)[index].click().run()
    before = refusal(at)
    check_refused(at)
    taken = []
    for index in range(len(fixes(at))):
        after = opened(page, query)
        for step in (*path, index):
            fixes(after)[step].click().run()
        assert not after.exception, after.exception
        now = refusal(after)
        if not now:
            assert charts(after), "a valid view draws its figure"
            taken.append((*path, index))
            continue
        assert now != before, f"fix {fixes(at)[index].label!r} left the same refusal: {now}"
        assert len(path) + 1 < CLICKS, f"no valid view within {CLICKS} clicks: {now}"
        taken += follow(page, query, (*path, index))
    return taken


@pytest.mark.parametrize("page, query", CASES, ids=[f"{p}-{'&'.join(f'{k}={v}' for k, v in q.items())}"
                                                    for p, q in CASES])
def test_every_fix_offered_leads_to_a_valid_view(page, query):
    at = opened(page, query)
    assert not at.exception, at.exception
    assert refusal(at), "these settings should be refused"
    assert follow(page, query)
