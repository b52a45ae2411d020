"""Open an ONNX model: page.py is the page, work.py its shared work (the model opened, a node's cross-check)."""
