"""compat: the stateful Variable / .backward() API of PyTorch-style scripts, on funcgrad's engine.

Empty until its issue lands; see the README for what exists today.
"""
