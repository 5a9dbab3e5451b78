"""Exact backends beyond the PuLP integer program, and ``--solver auto`` that picks among them.

``sweep``: the exact objective of many coefficient vectors at once; ``enumerate``: exhaustive
search with valid bounds; ``cpsat``: OR-Tools CP-SAT; ``auto``: the dispatch.
"""
