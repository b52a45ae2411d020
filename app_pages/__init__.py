"""The app's pages: one folder each (app_pages/<page>/), and the registry that lists them (registry.py)."""
