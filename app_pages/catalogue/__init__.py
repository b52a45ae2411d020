"""The Operator catalogue: every DirectML operator of DirectML's schema with its fields, enums, feature level and
whether the core models it, its minimal example opening in the Descriptor workbench and running on DirectML in one
click. page.py is the page, work.py its tables, read from ops.schema, ops.catalogue and the ONNX twins."""
