"""The layout detective: which input element each output element came from, and which descriptor does that.

origin.py makes and reads the arrays a user carries to and from their own framework (an origin-coded input,
.npy bytes, printed arrays); identify.py names the rearrangement; channels.py converts between the two
depth/space orders by a channel permutation.
"""
