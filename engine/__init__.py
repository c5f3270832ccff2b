"""The rules of poker-director: pure functions of events, standard library only.

Nothing here reads the clock, draws a random number on its own or does I/O:
time comes in as ``now``, randomness as a seeded ``random.Random`` or an
explicit deck, so every answer can be reproduced.
"""
