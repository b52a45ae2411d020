"""The operators themselves: what each DirectML operator computes, and where every output element comes from."""
