"""Issue 31, point 2: what a page run sends is bounded like what it reads. Lists that grow with a visitor's input are
summarized past a few; whatever a page draws, a run stops at its output budget and says so (ui/output_budget.py)."""

import pytest

from app_pages.workbench.settings import LINK_CODEC
from support.app import run_through_app, shown
from support.attacks import unknown_fields_model, unknown_keys_model
from ui import output_budget

WORKBENCH = "app_pages/workbench/page.py"


def notes(at):
    return [shown(i.value) for i in at.info if "DxDispatch reads" in i.value]


def test_a_link_of_ignored_fields_lists_a_few_and_counts_the_rest():
    # 8,900 resources of 8 fields DxDispatch ignores, in a 33 KB link: 71,200 elements before.
    text = unknown_fields_model(8900, 8)
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON", "wb_text": LINK_CODEC.encode(text)})
    assert not at.exception
    listed = notes(at)
    assert len(listed) == output_budget.FEW + 1
    assert "DxDispatch reads 71,195 more places of this model differently" in listed[-1]


def test_a_pasted_model_of_90000_unknown_keys_lists_a_few_and_counts_the_rest():
    at = run_through_app(WORKBENCH, query={"wb_source": "Paste JSON"})
    at.text_area(key="wb_text").set_value(unknown_keys_model(90_000)).run()
    assert not at.exception
    assert "89,995 more places" in notes(at)[-1]


# Past the router's first element, which carries the chart component's script (about 20 KB), and short of the figure.
@pytest.mark.parametrize("limit, value, named", [("MAX_MESSAGES", 40, "more than 40 elements"),
                                                 ("MAX_BYTES", 40_000, "more than 0.0381 MB")])
def test_a_run_past_its_output_budget_stops_there_and_says_so(monkeypatch, limit, value, named):
    monkeypatch.setattr(output_budget, limit, value)
    at = run_through_app("app_pages/depth_space/page.py")
    assert not at.exception
    [notice] = [w for w in at.warning if "This view stopped here" in w.value]
    assert named in notice.value
    # The page stopped where it passed the budget: none of its panels under the figure were drawn.
    assert not [t for t in at.tabs if t.label == "Cross-check"]


def test_a_page_within_its_budget_is_not_stopped():
    at = run_through_app("app_pages/depth_space/page.py")
    assert not [w for w in at.warning if "This view stopped here" in w.value]
