"""ui.charts.chart_data: what the browser is told about a figure, so that it redraws only what changed
(ui/plotly_chart.js keeps one graph per chart and relays out only the layout when the revision is unchanged)."""

import json

from support.app import charts, run_through_app
from ui.charts import chart_data
from viz.spec import SpecFigure


def sent(at, index=0):
    return json.loads(charts(at)[index].proto.bytes)


def test_the_figure_travels_whole_with_its_config_title_and_revisions():
    figure = SpecFigure({"data": [{"type": "heatmap", "z": [[1, 2], [3, 4]], "text": ["</script>"]}],
                         "layout": {"height": 200}, "frames": [{"name": "0", "data": [{"z": [[4, 3], [2, 1]]}]}]})
    data = json.loads(chart_data(figure, {"displaylogo": False}, "A title", True))
    assert data["figure"] == figure.to_dict()
    assert (data["config"], data["title"], data["clickable"]) == ({"displaylogo": False}, "A title", True)
    other = SpecFigure({**figure.to_dict(), "frames": []})
    changed = json.loads(chart_data(other, {}, "", False))
    assert changed["revision"] == data["revision"] and changed["frames_revision"] != data["frames_revision"]


def test_a_pick_keeps_the_depth_figures_revisions_and_changes_only_its_shapes():
    plain = sent(run_through_app("app_pages/depth_space/page.py"))
    pick = sent(run_through_app("app_pages/depth_space/page.py", query={"ds_pick": "26"}))
    assert (pick["revision"], pick["frames_revision"]) == (plain["revision"], plain["frames_revision"])
    changed = {key for key in plain["figure"]["layout"].keys() | pick["figure"]["layout"].keys()
               if plain["figure"]["layout"].get(key) != pick["figure"]["layout"].get(key)}
    assert changed == {"shapes"}


def test_a_pick_on_the_split_page_changes_its_frames_not_its_traces():
    query = {"sj_sizes": "6,8", "sj_axis": "1", "sj_split": "3,5"}
    plain = sent(run_through_app("app_pages/split_join/page.py", query=query))
    pick = sent(run_through_app("app_pages/split_join/page.py", query={**query, "sj_pick": "2,4"}))
    assert pick["revision"] == plain["revision"]
    assert pick["frames_revision"] != plain["frames_revision"]


def test_another_setting_is_another_revision():
    assert sent(run_through_app("app_pages/depth_space/page.py"))["revision"] != \
        sent(run_through_app("app_pages/depth_space/page.py", query={"C": "16"}))["revision"]
