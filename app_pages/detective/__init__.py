"""The layout detective: page.py is the page, settings.py its URL keys and what it makes of its fields (the input
sizes, the outputs brought), work.py its shared work (the origin-coded inputs, a case and its figures, drawn by
viz/detective_fig.py), texts.py what it writes about a case."""
