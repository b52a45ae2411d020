"""Descriptors around the operators: tensor descs, feature-level support, validation, DxDispatch models, export."""
