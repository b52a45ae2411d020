"""The DCR <-> CRD converter: page.py is the page, work.py its shared work; its figure is viz/converter_fig.py."""
