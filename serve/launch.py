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
    from ops import directml_status, isolated

    directml_status()
    isolated.start()  # the fork server that checks uploaded models in limited children (0.2-0.4 s)


# How long a thread holds the interpreter lock while others wait for it (Python's default: 5 ms). A heavy view admitted
# to the heavy lane computes in Python beside the light views of a class, which need the lock for many short
# moments: each waited up to 5 ms behind it at every turn (a convoy). Measured on this project's 2-core machine
# (benchmarks/bench_hostile.py, load 11-16), a default page opened 20 times beside one 5,000-part Split view at a
# time: p95 1.71 s before, 0.52 s at 1 ms (alone: 0.34-0.42 s).
SWITCH_SECONDS = 0.001


def main(argv: list[str]) -> None:
    sys.setswitchinterval(SWITCH_SECONDS)
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
