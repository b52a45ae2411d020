"""The element cap: refused before allocating, and a scoped cap stays in its own thread."""

import threading

import numpy as np
import pytest

import ops
from ops.guard import DEFAULT_ELEMENT_CAP, element_cap
from ops.operators.bitwise import bit_or
from ops.operators.split_join import join


def test_a_scoped_cap_does_not_leak_into_another_thread():
    inside, other = threading.Event(), {}

    def hold_small_cap():
        with ops.element_cap_set_to(4):
            inside.set()
            released.wait(5)

    released = threading.Event()
    holder = threading.Thread(target=hold_small_cap)
    holder.start()
    inside.wait(5)
    other["cap"] = element_cap()
    other["result"] = bit_or(np.zeros(16, np.uint8), np.ones(16, np.uint8))
    released.set()
    holder.join()
    assert other["cap"] == DEFAULT_ELEMENT_CAP
    assert other["result"].tolist() == [1] * 16


def test_the_cap_is_checked_on_the_output_before_allocating_it():
    parts = [np.zeros(3, np.float32), np.zeros(3, np.float32)]
    with ops.element_cap_set_to(4), pytest.raises(ops.DescriptorError, match=r"OutputTensor Sizes \[6\]: 6 elements"):
        join(parts, 0)
    with ops.element_cap_set_to(6):
        assert join(parts, 0).shape == (6,)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "8"])
def test_a_cap_must_be_a_positive_integer(bad):
    with pytest.raises(ops.DescriptorError, match="element cap"), ops.element_cap_set_to(bad):
        pass
