"""Where the project's files are, for tests, benchmarks and scripts."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCREENSHOTS = ROOT / "screenshots"
