"""The Descriptor workbench: page.py is the page, settings.py its settings (a model's sources and link form, its
limits, the desc builder's presets), reading.py what it reads from a model for its reports, work.py its runs shared
between sessions, view.py how it draws their results, directml.py a model run on DirectML itself, which the Operator
catalogue's one-click run draws too."""
