"""`python -m serve.launch [streamlit options]`: `streamlit run app.py`, with the process warmed up first.

Started with plain `streamlit run`, the server answers its health check (and accepts a class) before any page has
imported pandas, plotly's validators, ONNX Runtime or our own modules: the first thirty visitors then all wait on
the first one's imports (the p95 page time of a cold 30-visitor burst). Here those imports happen before the server
listens, so a load balancer's health check means "ready".
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ops", "ui", "viz", "app_pages")
# Run as a program of its own in another process (with lavapipe's libraries), never imported by the server.
OTHER_PROCESSES = ("ops.runtime.directml.worker",)


def warm_up_process() -> None:
    from serve.warmup import warm_up

    warm_up()
    for name in PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            if module.name not in OTHER_PROCESSES:
                importlib.import_module(module.name)
    # DirectML's worker and its device (0.7-2.5 s), so that the first cross-checks of a class do not wait for them.
    from ops import directml_status

    directml_status()


def main(argv: list[str]) -> None:
    sys.path.insert(0, str(ROOT))
    warm_up_process()
    from ui.charts import publish_plotly_js

    publish_plotly_js(ROOT / "static")  # the figures' plotly.js (ui/plotly_chart.js loads it from app/static)
    from streamlit.web import cli

    from serve import uploads

    uploads.install()  # uploads held by bytes and count, per session and for the server (serve/uploads.py)

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
