"""The DCR <-> CRD converter page run through app.py (Streamlit AppTest): defaults, settings from the URL, hostile
values, the downloads as a person would load them, and the convolution recipe it prints."""

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ops
from app_pages.converter import work
from ops.detective.channels import inverse_permutation, permute_conv_input_channels
from ops.operators.depth_space import depth_to_space, space_to_depth
from support.app import chart_figures, charts, error_texts, run_through_app, shown

PAGE = "app_pages/converter/page.py"
ORDERS = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")


def shown_permutations(at):
    """P and Q as the page prints them."""
    namespace = {}
    exec(at.code[0].value, namespace)
    return namespace["P"], namespace["Q"]


def figure(at):
    return chart_figures(at)[0]


def test_default_is_crd_to_dcr_for_eight_channels():
    at = run_through_app(PAGE)
    assert not at.exception and not error_texts(at)
    p, q = shown_permutations(at)
    assert p == ops.channel_permutation(8, 2, "CRD", "DCR").tolist() and q == inverse_permutation(p).tolist()
    assert any('depth_to_space(x[:, P], 2, "DEPTH_COLUMN_ROW") == depth_to_space(x, 2, "COLUMN_ROW_DEPTH")' in m.value
               for m in at.markdown)
    labels = [t for t in figure(at)["data"] if t.get("mode") == "markers+text"]
    assert [t["text"] for t in labels] == [[str(i) for i in range(8)]] * 2  # every index printed
    assert dict(at.query_params) == {}  # defaults stay out of the link


@pytest.mark.parametrize("channels, bs, convert", [(12, 2, "DCR_to_CRD"), (18, 3, "CRD_to_DCR"), (5, 1, "DCR_to_CRD")])
def test_settings_come_from_the_url(channels, bs, convert):
    at = run_through_app(PAGE, query={"C": str(channels), "BlockSize": str(bs), "convert": convert})
    assert not at.exception and not error_texts(at)
    source, target = ("DCR", "CRD") if convert == "DCR_to_CRD" else ("CRD", "DCR")
    p, _ = shown_permutations(at)
    assert p == ops.channel_permutation(channels, bs, source, target).tolist()
    assert at.number_input(key="C").value == channels and at.radio(key="convert").value == convert


def test_changing_a_widget_writes_the_link():
    at = run_through_app(PAGE)
    at.number_input(key="C").set_value(36).run()
    at.number_input(key="BlockSize").set_value(3).run()
    assert not at.exception and not error_texts(at)
    at.radio(key="convert").set_value("DCR_to_CRD").run()
    assert not at.exception and not error_texts(at)
    assert dict(at.query_params) == {"C": "36", "BlockSize": "3", "convert": "DCR_to_CRD"}
    assert shown_permutations(at)[0] == ops.channel_permutation(36, 3, "DCR", "CRD").tolist()
    fresh = run_through_app(PAGE, query=dict(at.query_params))  # the link alone gives the same view
    assert [c.value for c in fresh.code] == [c.value for c in at.code] and figure(fresh) == figure(at)


@pytest.mark.parametrize(
    "query, message",
    [
        ({"C": "0"}, "C (channels) 0: must be at least 1"),
        ({"BlockSize": "0"}, "BlockSize 0: must be at least 1"),
        ({"C": "6"}, "C (channels) 6: must be divisible by BlockSize^2 = 4 (BlockSize 2)"),
        ({"C": "8", "BlockSize": "3"}, "C (channels) 8: must be divisible by BlockSize^2 = 9 (BlockSize 3)"),
    ],
)
def test_settings_breaking_a_rule_get_a_message_naming_it(query, message):
    at = run_through_app(PAGE, query=query)
    assert not at.exception
    assert error_texts(at) == [message]
    assert not charts(at) and not at.code


@pytest.mark.parametrize(
    "query, note",
    [
        ({"C": "-4"}, "C=`-4` must be at least 0"),
        ({"C": "eight"}, "C=`eight` must be a whole number"),
        ({"C": "1" + "0" * 30}, "must be at most 1048576"),
        ({"BlockSize": "65"}, "BlockSize=`65` must be at most 64"),
        ({"convert": "RCD_to_DCR"}, "convert=`RCD_to_DCR` must be one of CRD_to_DCR, DCR_to_CRD"),
    ],
)
def test_hostile_link_values_are_named_and_replaced_by_defaults(query, note):
    at = run_through_app(PAGE, query=query)
    assert not at.exception and not error_texts(at)
    assert any(note in shown(w.value) for w in at.warning)
    assert shown_permutations(at)[0] == [0, 4, 1, 5, 2, 6, 3, 7]


def test_a_huge_channel_count_is_computed_listed_in_part_and_not_drawn():
    at = run_through_app(PAGE, query={"C": str(1 << 20), "BlockSize": "64"})
    assert not at.exception and not error_texts(at)
    assert "# the first 256 of 1,048,576" in at.code[0].value
    assert "draws up to 64" in json.dumps(figure(at)["layout"]["annotations"])


def test_the_convolution_recipe_runs_and_makes_dcr_compute_what_crd_did(tmp_path, monkeypatch):
    at = run_through_app(PAGE, query={"C": "18", "BlockSize": "3"})
    recipe = next(c.value for c in at.code if "permute_conv_output_channels" in c.value)
    name = recipe.split('np.load("')[1].split('"')[0]
    (tmp_path / name).write_bytes(work.permutation_npy(18, 3, "COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW", 0))
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(3)
    weights, bias, x = rng.normal(size=(18, 2)), rng.normal(size=18), rng.normal(size=(1, 2, 2, 3))
    namespace = {"weights": weights, "bias": bias}
    exec(recipe, namespace)

    def conv(w, b):  # a 1x1 convolution
        return np.einsum("oi,nihw->nohw", w, x) + b[None, :, None, None]

    np.testing.assert_allclose(depth_to_space(conv(namespace["new_weights"], namespace["new_bias"]), 3, "DCR"),
                               depth_to_space(conv(weights, bias), 3, "CRD"))


@pytest.mark.parametrize("convert", ["CRD_to_DCR", "DCR_to_CRD"])
def test_the_space_to_depth_advice_keeps_the_following_convolution_result(convert):
    at = run_through_app(PAGE, query={"C": "18", "BlockSize": "3", "convert": convert})
    source, target = ("COLUMN_ROW_DEPTH", "DEPTH_COLUMN_ROW") if convert == "CRD_to_DCR" else (
        "DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")
    advice = next(m.value for m in at.markdown if m.value.startswith("The other way round"))
    assert f'space_to_depth(x, 3, "{source}")' in advice and "permute_conv_input_channels(weights, Q)" in advice
    _, q = shown_permutations(at)
    rng = np.random.default_rng(5)
    x, weights = rng.normal(size=(1, 2, 6, 3)), rng.normal(size=(4, 18))
    old = np.einsum("oi,nihw->nohw", weights, space_to_depth(x, 3, source))
    new = np.einsum("oi,nihw->nohw", permute_conv_input_channels(weights, np.array(q)),
                    space_to_depth(x, 3, target))
    np.testing.assert_allclose(new, old)


def test_the_overview_links_to_the_converter():
    at = run_through_app()
    assert not at.exception
    assert [link.proto.label for link in at.get("page_link") if link.proto.page == "converter"] == [
        "Open the DCR ↔ CRD converter"]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.sampled_from(ORDERS), st.sampled_from(ORDERS),
       st.integers(0, 2**32 - 1))
def test_downloaded_permutation_converts_the_orders_for_random_shapes(bs, c_out, source, target, seed):
    channels = c_out * bs * bs
    p = np.load(io.BytesIO(work.permutation_npy(channels, bs, source, target, 0)), allow_pickle=False)
    q = np.load(io.BytesIO(work.permutation_npy(channels, bs, source, target, 1)), allow_pickle=False)
    p_text = np.loadtxt(io.StringIO(work.permutation_text(channels, bs, source, target, 0)), delimiter=",",
                        dtype=np.int64, ndmin=1)
    q_text = np.loadtxt(io.StringIO(work.permutation_text(channels, bs, source, target, 1)), delimiter=",",
                        dtype=np.int64, ndmin=1)
    np.testing.assert_array_equal(p_text, p)
    np.testing.assert_array_equal(q_text, q)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2**16, (int(rng.integers(1, 3)), channels, int(rng.integers(1, 4)), int(rng.integers(1, 4))),
                     dtype=np.uint16)
    np.testing.assert_array_equal(depth_to_space(x[:, p], bs, target), depth_to_space(x, bs, source))
    np.testing.assert_array_equal(x[:, p][:, q], x)
