"""Views for the link tests (AppTest and Chromium): each page's presets and a starting view far from all of
them, so a preset has to set every setting it names; and every link parameter of every page, set to Markdown and
HTML."""

import re

from .app import run_through_app

# A starting view far from every preset: the preset has to set each of its settings, not inherit them.
AWAY = {
    "depth_space": dict(dtype="FLOAT16", pattern="random", seed=7, N=2, C=18, H=3, W=2, BlockSize=3,
                        Order="COLUMN_ROW_DEPTH", direction="depth_to_space", level="4_0"),
    "bitwise_or": dict(dtype="UINT16", pattern="sequence", start=3.0, delta=2.0, or_sizes="4,5", or_bcast="1",
                       or_inplace=True, or_first=2, or_rows=3, or_pick=(3, 1), level="3_0",
                       bw_op="ELEMENT_WISE_BIT_XOR"),
    "split_join": dict(dtype="INT8", pattern="random_bytes", seed=3, sj_sizes="2,3,4", sj_axis=1, sj_mode="even",
                       sj_parts=3, sj_pick=(1, 2, 3), level="2_1"),
    "gather_scatter": dict(dtype="UINT16", pattern="sequence", start=3.0, delta=2.0, gs_op="GATHER_ELEMENTS",
                           gs_sizes="2,3", gs_indices_sizes="2,2", gs_indices="1 0 0 1", gs_indices_type="INT64",
                           gs_axis=1, gs_pick=(2, 1), level="4_1"),
    "slice_pad": dict(dtype="INT16", pattern="random", seed=5, sp_op="TILE", sp_sizes="2,3", sp_repeats="2,2",
                      sp_pick=(1, 4), level="5_0"),
    "layouts": dict(dtype="UINT8", pattern="sequence", start=5.0, delta=3.0, ly_in_sizes="3,5",
                    ly_out_strides="1,3", ly_out_total="16", level="4_1"),
}
PRESET_COUNTS = {"depth_space": 5, "bitwise_or": 5, "split_join": 3, "gather_scatter": 17, "slice_pad": 10,
                 "layouts": 6}
# Each page's key prefix.
PRESET_KEYS = {"depth_space": "ds", "bitwise_or": "or", "split_join": "sj", "gather_scatter": "gs", "slice_pad": "sp",
               "layouts": "ly"}
OVERVIEW_BUTTONS = ["overview_0_0", "overview_0_1", "overview_1_0", "overview_2_0", "overview_3_0", "overview_3_1",
                    "overview_4_0", "overview_4_1", "overview_5_0"]


# ------------------------------------------------------------------ every link parameter, set to markup

# What a stranger might put in a link value: Markdown (a link, an image, an autolink in angle brackets that survives
# being cut into tokens, a bare www address) and HTML (a link, an image, a frame). Nothing of it may become a live
# element or a request: the host is reserved for examples (RFC 2606).
FOREIGN_HOST = "x.example"
PAYLOADS = {
    "markdown": f"<http://{FOREIGN_HOST}/t> [Log in](http://{FOREIGN_HOST}/a) ![p](http://{FOREIGN_HOST}/p.png) "
                f"www.{FOREIGN_HOST}/w",
    "html": f'<a href="http://{FOREIGN_HOST}/h">h</a><img src="http://{FOREIGN_HOST}/i.png">'
            f'<iframe src="http://{FOREIGN_HOST}/f"></iframe>',
}
PAYLOADS["both"] = f"{PAYLOADS['markdown']} {PAYLOADS['html']}"  # one load for both, where loads are counted
# The buttons that set a whole view (presets, examples): each view they lead to may read keys the default does not.
_VIEW_BUTTON = re.compile(r"_(preset|try)_")
_FEW_OPTIONS = 8  # a key with up to this many named options is tried with each (a source, a mode, an open tab)


def _used(at):
    return at.session_state["_url_state"]["used"]


def link_keys(page):
    """{key: (query, Rule)}: every link parameter `page` (an app_pages.registry Page) reads, each with the first query
    found to make the page read it. The keys are the ones the page declares to ui.url_state as it runs (every widget
    and value it takes from the link), found in its default view, the views its presets and examples set, and the
    views one switch or named option away from those."""
    found = {}

    def record(at, query):
        for key, rule in _used(at).items():
            found.setdefault(key, (query, rule))
        return at

    at = record(run_through_app(page.path), {})
    views = [{}]
    for button in [b for b in at.button if b.key and _VIEW_BUTTON.search(b.key)]:
        clicked = run_through_app(page.path)
        clicked.button(key=button.key).click().run()
        query = dict(clicked.query_params)
        views.append(query)
        record(clicked, query)
    for view in views:
        for key, (_, rule) in list(found.items()):
            if key in view:
                continue
            if isinstance(rule.default, bool):
                choices = [True]
            elif rule.options and len(rule.options) <= _FEW_OPTIONS and all(isinstance(o, str) for o in rule.options):
                choices = [o for o in rule.options if o != rule.default]
            else:
                continue
            for choice in choices:
                query = {**view, key: rule.text(choice)}
                record(run_through_app(page.path, query=query), query)
    return found


def fuzz_cases(keys, payload, whole=False):
    """The link queries that set every key in `keys` (link_keys') to `payload`: each key alone in the query that
    reaches it (`whole`), or else each key that takes free text alone and, per reaching query, every key that refuses
    the payload together (each refusal is echoed by the same note, so one load shows them all)."""
    cases, refused = [], {}
    for key, (query, rule) in keys.items():
        try:
            rule.parse(payload)
            takes_text = True
        except (ValueError, TypeError):
            takes_text = False
        if whole or takes_text:
            cases.append(({**query, key: payload}, (key,)))
        else:
            refused.setdefault(tuple(sorted(query.items())), []).append(key)
    for query, names in refused.items():
        query = dict(query)
        names = [n for n in names if n not in query]
        cases.append(({**query, **dict.fromkeys(names, payload)}, tuple(names)))
    return cases


# What a page load drew that a stranger's link value could have put there: elements naming the foreign host in an
# attribute (links, images, frames, styles), frames of any kind, and the text of a traceback.
FOREIGN_ELEMENTS = """(host) => {
    const named = [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(
        a => a.name !== 'value' && a.value.includes(host))).map(e => e.outerHTML.slice(0, 160));
    const frames = [...document.querySelectorAll('iframe, frame, object, embed')].map(e => e.outerHTML.slice(0, 160));
    const live = [...document.querySelectorAll('a[href], img[src]')]
        .filter(e => new URL(e.href || e.src, location.href).hostname.endsWith(host))
        .map(e => e.outerHTML.slice(0, 160));
    return {named, frames, live, traceback: document.body.innerText.includes('Traceback'),
            exceptions: document.querySelectorAll('[data-testid="stException"]').length};
}"""


def fuzz_load(browser, address, timeout=60_000):
    """Open `address` in a fresh context and return what is wrong with the page it draws ({} when nothing): requests
    to other hosts, elements naming the foreign host, frames, a traceback or an exception element, JavaScript
    errors."""
    from urllib.parse import urlsplit

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from .browser import SETTLED

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    own = urlsplit(address).hostname
    foreign, errors = [], []
    page.on("request", lambda r: foreign.append(r.url) if urlsplit(r.url).hostname not in (own, None) else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(address)
        page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout)
        try:
            page.wait_for_function(SETTLED, timeout=timeout)
        except PlaywrightTimeout:
            errors.append("the page never settled")
        drawn = page.evaluate(FOREIGN_ELEMENTS, FOREIGN_HOST)
    finally:
        context.close()
    found = {name: value for name, value in drawn.items() if value}
    if foreign:
        found["requests"] = foreign
    if errors:
        found["errors"] = errors
    return found
