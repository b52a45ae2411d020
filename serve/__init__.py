"""Serving the app to many people at once: work shared between sessions, a server-wide memory budget, warm-up.

Nothing here imports Streamlit: the pieces are plain Python, so the tests can drive them with threads directly.
"""
