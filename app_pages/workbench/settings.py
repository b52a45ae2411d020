"""The workbench's settings: where a model comes from (the bundled examples, a pasted text and its link form, an
upload), the limits a model is held to, and the tensor-desc builder's presets and the desc built from its fields."""

from __future__ import annotations

import base64
import binascii
import zlib
from pathlib import Path

from ops import DescriptorError
from ops.descriptors.dxdispatch import MAX_TEXT_BYTES
from ops.tensor_desc import Problem, TensorDesc, parse_tensor_desc
from ui import url_state
from ui.values import parse_int_list

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
PARTIAL_EXAMPLES_DIR = EXAMPLES_DIR / "partial"
DXDISPATCH_EXAMPLES_DIR = EXAMPLES_DIR / "dxdispatch"
DXDISPATCH_MODELS_DIR = EXAMPLES_DIR / "dxdispatch_models"  # our mirrors of DxDispatch's models/ folder
MAX_MODEL_BYTES = MAX_TEXT_BYTES
# A model is untrusted data: every tensor and buffer it asks for is held to this many elements.
ELEMENT_CAP = 2**20

# Shapes that show one idea each in the memory map.
PRESETS: dict[str, tuple[list[int], list[int] | None]] = {
    "packed": ([1, 2, 3, 4], None),
    "broadcast (0 strides)": ([1, 2, 3, 4], [0, 0, 0, 1]),
    "padded rows": ([1, 1, 3, 4], [18, 18, 6, 1]),
    "NHWC expressed with strides": ([1, 3, 2, 4], [24, 1, 12, 3]),
}
CUSTOM = "custom"


def preset_texts(name: str) -> dict[str, str]:
    """The builder's text fields for a preset: {"wb_sizes": ..., "wb_strides": ...}."""
    sizes, strides = PRESETS[name]
    return {"wb_sizes": ", ".join(map(str, sizes)),
            "wb_strides": "" if strides is None else ", ".join(map(str, strides))}


def matching_preset(sizes_text: str, strides_text: str) -> str:
    """The preset whose fields these are, or CUSTOM."""
    return next((name for name in PRESETS
                 if preset_texts(name) == {"wb_sizes": sizes_text, "wb_strides": strides_text}), CUSTOM)


def builder_desc(data_type: str, sizes_text: str, strides_text: str,
                 total_text: str) -> tuple[TensorDesc | None, list[Problem]]:
    """(TensorDesc or None, [Problem]) from the builder's fields (blank Strides: packed, blank total: implied);
    DescriptorError naming the field for text that is not a list of integers."""
    obj: dict[str, object] = {"DataType": data_type, "Sizes": list(parse_int_list(sizes_text, "Sizes"))}
    if strides_text.strip():
        obj["Strides"] = list(parse_int_list(strides_text, "Strides", minimum=0))
    if total_text.strip():
        obj["TotalTensorSizeInBytes"] = parse_int_list(total_text, "TotalTensorSizeInBytes", minimum=0,
                                                       max_count=1)[0]
    return parse_tensor_desc(obj, "desc")


class LinkCodec:
    """Model text <-> a URL-safe compressed form, so a pasted model travels in the page's link; decoding refuses
    what does not inflate to a bounded text."""

    @staticmethod
    def encode(text: str) -> str:
        return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")

    @staticmethod
    def decode(token: str) -> str:
        try:
            packed = base64.urlsafe_b64decode(token.encode("ascii"))
            inflater = zlib.decompressobj()
            data = inflater.decompress(packed, MAX_MODEL_BYTES + 1)
            if len(data) > MAX_MODEL_BYTES or inflater.unconsumed_tail:
                raise ValueError(f"must inflate to at most {MAX_MODEL_BYTES:,} bytes")
            return data.decode("utf-8")
        except (binascii.Error, zlib.error, UnicodeError) as error:
            raise ValueError(f"is not a model packed by this app ({type(error).__name__})") from None


LINK_CODEC = LinkCodec()


# Reading a model text, per character: parsing, loading and its notes, measured (support/costs.py) at 0.56 s and
# 42 MB for a 500,000-value model of 0.5 MB, 0.70 s and 47 MB for 8,900 resources of 8 ignored fields (1 MB), and the
# page drawing it at 1.2-1.5 s: a 1 MB text is a heavy view.
TEXT_SECONDS = 1.5e-6
TEXT_BYTES = 100


def text_cost(text: str) -> tuple[int, float]:
    """(bytes, CPU seconds) reading a model text holds and takes."""
    return len(text) * TEXT_BYTES, len(text) * TEXT_SECONDS


def travels_in_link(text: str) -> bool:
    """Whether a pasted model text fits in the page's link once packed (LINK_CODEC)."""
    # Compressing a text past the model cap (a crafted message can carry far more than the box lets one type)
    # would cost more than the model is allowed to; such a text is refused by its size, uncompressed.
    return len(text) <= MAX_MODEL_BYTES and len(LINK_CODEC.encode(text)) <= url_state.LINK_VALUE_CHARS


def example_files(directory: Path = EXAMPLES_DIR) -> dict[str, Path]:
    """Bundled example models by name (file stem), sorted."""
    return {path.stem: path for path in sorted(directory.glob("*.json"))}


def strict_examples() -> dict[str, Path]:
    """The examples this project runs whole: one per operator, then the ones written in DxDispatch's own syntax
    (comments, trailing commas, wrapping sequences), named by their folder."""
    folder = DXDISPATCH_EXAMPLES_DIR.name
    return {**example_files(),
            **{f"{folder}/{name}": path for name, path in example_files(DXDISPATCH_EXAMPLES_DIR).items()}}


def model_text_from_bytes(data: bytes, name: str = "upload") -> str:
    """UTF-8 text of an uploaded model, refusing what the 1 MB cap or the encoding rule out."""
    if len(data) > MAX_MODEL_BYTES:
        raise DescriptorError(
            f"{name}: {len(data):,} bytes exceed the {MAX_MODEL_BYTES:,}-byte limit for a model file"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DescriptorError(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x})") from None
