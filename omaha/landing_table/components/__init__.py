"""The components of D-Day at Omaha Beach as typed records, with their loaders.

``charts`` holds the published charts; ``terrain``, ``forces``, ``positions``
and ``cards`` the reconstructed map facts, orders of battle, German positions
and fire card deck. Every record keeps its provenance (``omaha provenance
landing_table``).
"""
