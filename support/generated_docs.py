"""What the scripts writing a generated page on DirectML (docs/directml_matrix.md, docs/directml_catalogue.md) share:
their command line and DirectML's status."""

import argparse
import pathlib
import sys

from ops import directml_status


def start(doc, default_output):
    """(the parsed arguments, DirectML's status), or (None, None) after saying why DirectML is not available."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=default_output)
    args = parser.parse_args()
    status = directml_status()
    if not status.available:
        print(status.reason, file=sys.stderr)
        return None, None
    return args, status
