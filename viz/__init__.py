"""Figure builders: pure functions from arrays and settings to Plotly figures."""
