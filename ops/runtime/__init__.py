"""The same operators run by a real runtime (ONNX Runtime, and DirectML where it exists), compared bit for bit."""
