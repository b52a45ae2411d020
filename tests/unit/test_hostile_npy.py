"""Issue 24, point 7: .npy headers and printed arrays read without Python's parser or unbounded int(); every
hostile file made here."""

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ops
from ops.detective.npy_header import MAX_HEADER_CHARS, parse_header
from support.app import error_texts, run_through_app, uploader


def npy_with_header(header, payload=b"", version=(1, 0)):
    """An .npy file around a header text, padded as numpy pads it."""
    width = 2 if version == (1, 0) else 4
    header += " " * ((64 - (len(header) + 1 + 8 + width) % 64) % 64) + "\n"
    return b"\x93NUMPY" + bytes(version) + len(header).to_bytes(width, "little") + header.encode("latin1") + payload


def npy(array, version=None):
    stream = io.BytesIO()
    np.lib.format.write_array(stream, array, version=version, allow_pickle=False)
    return stream.getvalue()


@pytest.mark.parametrize("signs", [1_000, 3_000, 9_000])
def test_a_header_of_minus_signs_is_refused_naming_the_shape(signs):
    # Python's parser: a message at 1,000, RecursionError at 3,000, MemoryError at 9,000.
    data = npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "-" * signs + "1,), }", bytes(4))
    with pytest.raises(ops.DescriptorError,
                       match=r"^file: not a readable \.npy file \(the header has '-+' at character 51 where "
                             r"the shape's next size \(a whole number of at least 0\)"):
        ops.read_npy(data)


@pytest.mark.parametrize("header, rule", [
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "9" * 5000 + ",), }", "a size of 5,000 digits"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "key 'extra'"),
    ("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "key 'descr'"),
    ("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "structured array"),
    ("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "fortran_order must be True or False"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} __import__('os')", "goes on after its dict"),
    ("{'descr': '" + "(" * 5000 + "', 'fortran_order': False, 'shape': (2,)}", "descr is 5,000 characters"),
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)" + " " * MAX_HEADER_CHARS + "}", "characters long"),
])
def test_a_header_outside_the_format_is_refused_with_its_rule(header, rule):
    with pytest.raises(ops.DescriptorError, match="not a readable .npy file") as error:
        ops.read_npy(npy_with_header(header, bytes(8)))
    assert rule in str(error.value)


@given(hnp.arrays(st.sampled_from([np.float32, np.float64, np.int8, np.uint16, ">i4", ">f8"]),
                  hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4)),
       st.booleans(), st.sampled_from([(1, 0), (2, 0)]))
def test_every_file_numpy_writes_reads_back(array, fortran, version):
    array = np.asfortranarray(array) if fortran else array
    read = ops.read_npy(npy(array, version))
    assert read.shape == array.shape and read.dtype == array.dtype.newbyteorder("=")
    assert read.tobytes() == array.astype(read.dtype).tobytes()


def test_headers_written_by_python_2_or_with_double_quotes_read():
    assert parse_header('{"descr": "<f4", "fortran_order": True, "shape": (2L, 3L), }') == ("<f4", True, (2, 3))
    assert parse_header("{'shape': (), 'descr': '|u1', 'fortran_order': False}") == ("|u1", False, ())


def test_a_printed_integer_of_thousands_of_digits_is_read_as_a_float():
    assert ops.read_printed_array("[1, " + "9" * 5000 + "]").dtype == np.float64


def test_the_detective_names_the_rule_for_a_hostile_header():
    at = run_through_app("app_pages/detective/page.py", query={"dt_source": "upload"})
    data = npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "-" * 9000 + "1,), }", bytes(4))
    uploader(at).set_value(("minus.npy", data, "application/octet-stream")).run()
    assert not at.exception
    assert any("where the shape's next size (a whole number of at least 0) or ')' should be" in text
               for text in error_texts(at)), error_texts(at)

