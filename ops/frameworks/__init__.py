"""The same operation elsewhere: code for other frameworks (snippets.py) and operators found in ONNX models
(onnx_models.py)."""
