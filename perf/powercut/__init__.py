"""The power-cut simulator and its run: does the office keep every deal it acknowledged when the power goes?

``disk`` models what a disk holds after a power loss (only what was fsynced), ``mount``
serves it with FUSE, ``office`` runs ``serve`` on it and cuts, ``phones`` enter deals,
``run`` counts what was lost (``manage.py powercut``).
"""
