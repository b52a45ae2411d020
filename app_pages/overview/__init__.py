"""The Overview: what the operators do, a small picture of each, and ways into each page with a telling preset."""
