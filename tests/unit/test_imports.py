"""Importing the app's packages writes nothing to disk: the served plotly.js is the server launcher's job."""

import subprocess
import sys

from support.paths import ROOT

# Records every file opened for writing while the packages import, in a fresh interpreter (an audit hook sees the
# opens of every module, Streamlit's and plotly's included). Opens of a descriptor (the DirectML worker's pipes, which
# the warm-up starts) are not files on disk.
RECORD = r"""
import sys
writes = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], (str, bytes))
                 and isinstance(args[1], str) and any(mode in args[1] for mode in "wax+")
                 and writes.append(str(args[0])))
import serve.launch
serve.launch.warm_up_process()
print(writes)
"""


def test_importing_every_module_writes_no_file():
    run = subprocess.run([sys.executable, "-c", RECORD], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_the_launcher_publishes_plotly_js(tmp_path):
    from ui.charts import PLOTLY_JS, publish_plotly_js

    publish_plotly_js(tmp_path / "static")
    publish_plotly_js(tmp_path / "static")  # again: already there, left alone
    served = tmp_path / "static" / "plotly.min.js"
    assert served.read_bytes() == PLOTLY_JS.read_bytes()
    assert [p.name for p in (tmp_path / "static").iterdir()] == ["plotly.min.js"]
