"""The layout detective page through app.py (AppTest): the examples, uploads and pastes of good and hostile
outputs, the links into the operator pages, and every view reopened from its URL."""

import io
from urllib.parse import parse_qsl

import numpy as np
import pytest

import ops
from ops.detective.examples import EXAMPLES as DETECTIVE_EXAMPLES
from ops.detective.examples import detective_example
from ops.detective.identify import mix_up_diff
from ops.detective.origin import NPY_BYTE_CAP, to_npy_bytes
from ops.operators.depth_space import depth_to_space
from ops.operators.split_join import split
from support.app import chart_figure, chart_figures, charts, error_texts, run_through_app, shown, uploader
from support.paths import ROOT

PAGE = "app_pages/detective/page.py"


def detective(**settings):
    at = run_through_app(PAGE, **settings)
    assert not at.exception, at.exception
    return at


def links(at):
    """(page url path, query dict) of every page link on the page."""
    return [(link.proto.page, dict(parse_qsl(link.proto.query_string))) for link in at.get("page_link")]


def chart(at, key):
    return chart_figure(at, key)


def hover_texts(at):
    spec = chart_figures(at)[-1]
    return next(t["text"] for t in spec["data"] if t["type"] == "scatter")


def upload(at, *files):
    """Upload `files` as a user does: one file, or several once "Several outputs" is checked."""
    at.radio(key="dt_source").set_value("upload").run()
    if len(files) > 1:
        at.checkbox(key="dt_several").check().run()
    chosen = [(name, data, "application/octet-stream") for name, data in files]
    uploader(at).set_value(chosen if len(files) > 1 else chosen[0]).run()
    assert not at.exception, at.exception
    return at


def npy(array, **kwargs):
    stream = io.BytesIO()
    np.save(stream, array, **kwargs)
    return stream.getvalue()


# ---------------------------------------------------------------- the default view and the examples


def test_default_view_names_the_pixel_shuffle_example_crd_and_links_to_its_page():
    at = detective()
    assert at.title[0].value == "The layout detective"
    assert [s.value for s in at.success] == [
        "y is x through DEPTH_TO_SPACE1 with BlockSize 2 and Order COLUMN_ROW_DEPTH (CRD)."]
    [(page, query)] = links(at)
    assert page == "depth_space"
    assert query == {"dtype": "FLOAT32", "direction": "depth_to_space", "N": "1", "C": "8", "H": "2", "W": "3",
                     "BlockSize": "2", "Order": "COLUMN_ROW_DEPTH"}
    assert dict(at.query_params) == {}
    # Hover names every output cell's source; the first output row of a CRD output reads channels 0 and 1 of x.
    texts = hover_texts(at)
    assert "y[0, 0, 0, 1] came from x[0, 1, 0, 0], flat 6" in texts
    assert "x[0, 7, 1, 2], flat 47" in texts


def test_the_link_opens_the_depth_page_with_those_settings():
    at = detective()
    [(_, query)] = links(at)
    opened = run_through_app("app_pages/depth_space/page.py", query=query)
    assert not opened.exception, opened.exception
    widgets = {w.key: w.value for kind in ("number_input", "radio") for w in opened.get(kind) if w.key}
    assert {k: widgets[k] for k in ("N", "C", "H", "W", "BlockSize", "Order", "direction")} == {
        "N": 1, "C": 8, "H": 2, "W": 3, "BlockSize": 2, "Order": "COLUMN_ROW_DEPTH", "direction": "depth_to_space"}
    assert opened.selectbox(key="dtype").value == "FLOAT32"


def test_the_mix_up_example_shows_its_permutation_fix_and_diff_and_its_link_reopens_it():
    at = detective()
    at.button(key="dt_try_mixed_up").click().run()
    assert not at.exception, at.exception
    assert dict(at.query_params) == {"dt_example": "mixed_up"}
    [warning] = [w.value for w in at.warning]
    assert "No descriptor maps x to y as given" in warning
    [x], [y] = detective_example("mixed_up")
    report = ops.identify(x, y)
    p = report.permutation.tolist()
    assert any(f"P = `{p}`" in m.value for m in at.markdown)
    assert any("permute_conv_output_channels" in c.value for c in at.code)
    diff = chart(at, "dt_diff_chart")
    texts = [a["text"] for a in diff["layout"]["annotations"]]
    before = int(mix_up_diff(report, x.shape)["before"].sum())
    assert any(f"{before} of 48 cells differ" in t for t in texts) and any("0 of 48 cells differ" in t for t in texts)
    [(page, query)] = links(at)
    assert page == "depth_space" and query["Order"] == report.permuted_matches[0]["descriptor"]["Order"]
    fresh = run_through_app(PAGE, query=dict(at.query_params))
    assert [w.value for w in fresh.warning] == [warning]


@pytest.mark.parametrize("name", list(DETECTIVE_EXAMPLES))
def test_every_example_button_gives_the_cores_verdict(name):
    at = detective()
    at.button(key=f"dt_try_{name}").click().run()
    assert not at.exception, at.exception
    xs, ys = detective_example(name)
    report = ops.identify(xs if len(xs) > 1 else xs[0], ys if len(ys) > 1 else ys[0])
    notes = [shown(e.value) for e in [*at.success, *at.warning, *at.error, *at.info]]
    assert report.note in notes
    assert len(npy_downloads(at)) == len(xs)
    operators = [q.get("direction") or q.get("sj_mode") for _, q in links(at)]
    assert len(operators) == len(report.matches or report.permuted_matches[:1] or report.near_matches)
    if name == "corrupted":
        table = at.dataframe[0].value
        assert table["index"].tolist() == [str(list(c["index"])) for c in report.offending]
        crosses = chart_figures(at)[-1]["data"][1]["text"]
        assert sum(row.count("✗") for row in crosses) == report.unmatched_count


def test_a_join_example_link_opens_split_join_with_the_joined_sizes():
    at = detective(dt_example="join", dt_sizes="1,2,2,3;1,1,2,3")
    [(page, query)] = links(at)
    assert page == "split_join"
    assert query == {"dtype": "FLOAT32", "sj_sizes": "1,3,2,3", "sj_axis": "1", "sj_mode": "sizes", "sj_split": "2,1"}


def test_the_example_follows_the_chosen_sizes_and_type():
    at = detective(dt_example="pixel_shuffle", dt_sizes="2,16,3,2", dt_dtype="INT32")
    [(_, query)] = links(at)
    assert (query["N"], query["C"], query["dtype"]) == ("2", "16", "INT32")


# ---------------------------------------------------------------- uploads


def test_an_uploaded_float64_output_is_identified_by_value():
    x = ops.origin_coded_input((1, 8, 2, 3))
    at = upload(detective(), ("out.npy", npy(depth_to_space(x, 2, "DCR").astype(np.float64))))
    [success] = [s.value for s in at.success]
    assert "Order DEPTH_COLUMN_ROW" in success
    assert any("compared by value" in c.value for c in at.caption)


def test_several_uploaded_outputs_are_taken_in_name_order_as_a_split():
    x = ops.origin_coded_input((1, 8, 2, 3))
    parts = split(x, 1, [2, 6])
    at = upload(detective(), ("out_1.npy", npy(parts[1])), ("out_0.npy", npy(parts[0])))
    [(page, query)] = links(at)
    assert page == "split_join" and query["sj_split"] == "2,6" and query["sj_axis"] == "1"


def test_an_upload_replaces_the_one_before_and_new_input_sizes_drop_it():
    x = ops.origin_coded_input((1, 8, 2, 3))
    at = upload(detective(), ("dcr.npy", npy(depth_to_space(x, 2, "DCR"))))
    assert "Order DEPTH_COLUMN_ROW" in " ".join(s.value for s in at.success)
    uploader(at).set_value(("crd.npy", npy(depth_to_space(x, 2, "CRD")), "application/octet-stream")).run()
    [success] = [s.value for s in at.success]
    assert "Order COLUMN_ROW_DEPTH" in success  # the second file alone, not a split of the two
    at.text_input(key="dt_sizes").set_value("1,4,2,3").run()
    assert not uploader(at).value  # a file for other inputs is not kept
    assert any("Upload or paste" in i.value for i in at.info)


class Trap:
    ran = False

    def __reduce__(self):
        return (setattr, (Trap, "ran", True))


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("out.npy", b"PK\x03\x04 not an array", "file 'out.npy': not a readable .npy file"),
        ("out.npy", b"", "not a readable .npy file"),
        ("obj.npy", npy(np.array([Trap()], dtype=object), allow_pickle=True), "dtype object is refused"),
        ("cut.npy", npy(np.arange(48, dtype=np.float32))[:-4], "the file holds 188"),
        ("str.npy", npy(np.array(["a", "b"])), "dtype"),
    ],
)
def test_hostile_uploads_are_refused_by_name_without_running_anything(name, data, message):
    at = upload(detective(), (name, data))
    errors = error_texts(at)
    assert len(errors) == 1 and message in errors[0]
    assert Trap.ran is False
    assert not charts(at)


def upload_cap():
    """The page's cap: what the upload box admits (16 MB of 10^6 bytes, as a browser outside Windows counts them),
    under what Streamlit's server accepts (config.toml, in MiB) and within the core's .npy cap."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    return min(16 * 10**6, config["server"]["maxUploadSize"] * 2**20, NPY_BYTE_CAP)


def test_an_upload_over_the_cap_is_refused():
    cap = upload_cap()
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (cap // 4,)})
    data = header.getvalue() + bytes(4 * (cap // 4))
    at = upload(detective(), ("big.npy", data))
    assert f"exceed the cap of {cap:,} bytes" in error_texts(at)[0]


def test_an_output_of_the_wrong_shape_or_of_another_input_is_reported_not_raised():
    # A transpose the user forgot to undo: every element kept, no descriptor.
    x = ops.origin_coded_input((1, 8, 2, 3))
    at = upload(detective(), ("nhwc.npy", npy(depth_to_space(x, 2, "DCR").transpose(0, 2, 3, 1).copy())))
    assert any("none of DEPTH_TO_SPACE1" in i.value for i in at.info)
    # An output made from a bigger input: most values are in no input.
    other = ops.origin_coded_input((1, 8, 4, 4))
    at = upload(detective(), ("other.npy", npy(depth_to_space(other, 2, "CRD"))))
    assert "not a rearrangement" in error_texts(at)[0]


# ---------------------------------------------------------------- pasted printouts


def test_a_pasted_numpy_printout_is_identified_and_stays_in_the_link():
    x = ops.origin_coded_input((1, 8, 2, 3))
    text = np.array2string(depth_to_space(x, 2, "CRD"), separator=", ")
    at = detective(dt_source="paste")
    at.text_area(key="dt_text").set_value(text).run()
    assert not at.exception, at.exception
    assert "Order COLUMN_ROW_DEPTH" in at.success[0].value
    fresh = run_through_app(PAGE, query=dict(at.query_params))
    assert fresh.success[0].value == at.success[0].value


def test_a_long_printout_is_identified_but_left_out_of_the_link():
    x = ops.origin_coded_input((1, 16, 8, 16))
    text = np.array2string(depth_to_space(x, 2, "CRD"), separator=", ", threshold=10**6)
    at = detective(dt_source="paste", dt_sizes="1,16,8,16")
    at.text_area(key="dt_text").set_value(text).run()
    assert "Order COLUMN_ROW_DEPTH" in at.success[0].value
    assert "dt_text" not in at.query_params and any("leaves it out" in c.value for c in at.caption)


def test_pasted_outputs_of_a_split_and_plain_numbers_with_sizes():
    x = ops.origin_coded_input((2, 3))
    a, b = split(x, 1, [1, 2])
    at = detective(dt_source="paste", dt_sizes="2,3", dt_text=f"{a.tolist()}\n---\n{b.tolist()}")
    assert "SPLIT along Axis 1" in at.success[0].value
    flat = " ".join(str(v) for v in x.T.ravel().tolist())
    at = detective(dt_source="paste", dt_sizes="2,3", dt_text=flat, dt_out_sizes="3,2")
    assert "transposed with axes (1, 0)" in at.info[0].value


@pytest.mark.parametrize(
    "settings, message",
    [
        (dict(dt_text="[0., 1., ..., 47.]"), "summarized"),
        (dict(dt_text="[[0, 1], [2]]"), "not rectangular"),
        (dict(dt_text="0 1 2", dt_out_sizes="2,2"), "3 values given, but Sizes [2, 2] hold 4"),
        (dict(dt_text="1\n---\n2", dt_out_sizes="1"), "Output sizes: give them only for a single pasted output"),
        (dict(dt_text="rm -rf /"), "is not a number"),
    ],
)
def test_hostile_pastes_are_refused_by_name(settings, message):
    at = detective(dt_source="paste", **settings)
    errors = error_texts(at)
    assert len(errors) == 1 and message in errors[0]


# ---------------------------------------------------------------- hostile settings


@pytest.mark.parametrize(
    "settings, message",
    [
        (dict(dt_sizes="1,a,2"), "Input sizes '1,a,2': 'a' is not a whole number"),
        (dict(dt_sizes="1,0,2"), "a size of 0 is invalid"),
        (dict(dt_sizes="4096,4096"), "exceed the cap of 1,048,576 elements"),
        (dict(dt_sizes="1,8,2,30", dt_dtype="UINT8"), "UINT8 holds whole numbers exactly only up to 256"),
        (dict(dt_sizes="1,6,2,2"), "C divisible by 4"),
        (dict(dt_sizes=";".join(["2"] * 9)), "at most 8"),
    ],
)
def test_hostile_settings_show_a_message_naming_the_field(settings, message):
    at = detective(**settings)
    errors = error_texts(at)
    assert len(errors) == 1 and message in errors[0]


def test_a_link_value_the_page_cannot_take_is_named_and_replaced():
    at = detective(dt_example="bogus", dt_source="nowhere")
    notes = [w.value for w in at.warning]
    assert any("dt_example=`bogus`" in n for n in notes) and any("dt_source=`nowhere`" in n for n in notes)
    assert "COLUMN_ROW_DEPTH" in at.success[0].value


def npy_downloads(at):
    """The inputs' .npy buttons (every chart also has its 'Download animated HTML')."""
    return [b for b in at.get("download_button") if b.proto.label != "Download animated HTML"]


def test_the_input_download_is_the_origin_coded_input():
    at = detective(dt_sizes="1,2,2,3;1,1,2,3", dt_example="join")
    assert [shown(b.proto.label) for b in npy_downloads(at)] == [
        "Download input0.npy [1, 2, 2, 3] FLOAT32", "Download input1.npy [1, 1, 2, 3] FLOAT32"]
    from app_pages.detective.work import inputs

    # What the buttons' callables return: the shared inputs as .npy bytes.
    arrays = [ops.read_npy(to_npy_bytes(a)) for a in inputs(((1, 2, 2, 3), (1, 1, 2, 3)), "FLOAT32")]
    np.testing.assert_array_equal(np.concatenate([a.ravel() for a in arrays]), np.arange(18, dtype=np.float32))
