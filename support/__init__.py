"""What the tests, the benchmarks and the scripts share: the app run as a user runs it (AppTest), a browser,
a websocket visitor and a served app, and small readers of the figures' JSON."""
