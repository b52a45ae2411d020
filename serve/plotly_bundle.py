"""plotly.js for the app's figures: its "cartesian" partial bundle where the set-up could fetch it, else the full one.

Every figure the app draws is heatmaps and scatter traces on cartesian axes. The full plotly.js (4.6 MB, the copy
plotly.py ships) took 1.3-1.5 s to evaluate in a fresh browser on this project's 2-core machine, most of the gap
between an operator page's first figure and a one-heatmap Streamlit page (1.35-1.67x, benchmarks/
bench_first_figure.py). plotly.js's own partial bundle "cartesian" (1.5 MB; heatmap, scatter, bar, box, contour,
histogram, image, pie, violin: https://github.com/plotly/plotly.js/tree/master/dist#partial-bundles) holds all of
them; with it the same pages drew in 1.14-1.40x. It has no WebGL traces: plotly_chart.js then keeps its click
targets as SVG scatter.

The bundle is plotly.js's own release on the npm registry, of the version plotly.py ships (figures are written for
it), pinned by the tarball's sha256. `python -m serve.plotly_bundle` (scripts/setup.sh) fetches it once into
.plotly/; where it cannot (no network), the launcher serves the full copy and says nothing is lost but time.
"""

import hashlib
import io
import tarfile
import urllib.request
from pathlib import Path

import plotly
from plotly.offline import get_plotlyjs_version

ROOT = Path(__file__).resolve().parent.parent

VERSION = "4.1.1"
TARBALL = f"https://registry.npmjs.org/plotly.js-cartesian-dist-min/-/plotly.js-cartesian-dist-min-{VERSION}.tgz"
SHA256 = "c5f9a84666b97e571a04de689e09319869e60900e265c89eac2f71d0b5a0de88"
MEMBER = "package/plotly-cartesian.min.js"
BUNDLE = ROOT / ".plotly" / f"plotly-cartesian-{VERSION}.min.js"
FULL = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def served_plotly_js() -> Path:
    """The plotly.js file the app serves: the cartesian bundle when it is here and of plotly.py's version."""
    return BUNDLE if BUNDLE.exists() and get_plotlyjs_version() == VERSION else FULL


def fetch(timeout: float = 60) -> str:
    """Fetch and check the bundle into .plotly/ unless it is there; returns a line saying what happened."""
    if get_plotlyjs_version() != VERSION:
        return f"plotly.py ships plotly.js {get_plotlyjs_version()}, this pin is {VERSION}: serving the full copy"
    if BUNDLE.exists():
        return f"{BUNDLE.name} already there"
    try:
        with urllib.request.urlopen(TARBALL, timeout=timeout) as response:
            data = response.read()
    except OSError as error:
        return f"could not fetch {TARBALL} ({error}): serving the full plotly.js (the first figure comes later)"
    if hashlib.sha256(data).hexdigest() != SHA256:
        return f"{TARBALL} does not have the pinned sha256: not used, serving the full plotly.js"
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile(MEMBER)  # one named member read into memory: no path from the archive
        if member is None:
            return f"{TARBALL} holds no file {MEMBER}: serving the full plotly.js"
        script = member.read()
    BUNDLE.parent.mkdir(exist_ok=True)
    partial = BUNDLE.with_suffix(".part")
    partial.write_bytes(script)
    partial.replace(BUNDLE)
    return f"{BUNDLE.name}: {len(script) / 2**20:.1f} MB, checked"


if __name__ == "__main__":
    print(f"plotly_bundle: {fetch()}")
