"""A demo tournament in the middle of the game, so that every page has life in it.

Ten players registered and seated, the clock running in level 4 (timed home structure),
three players knocked out, one of them back with a rebuy, an add-on due at level 4.
"""

from __future__ import annotations

import random

from sqlite_utils import Database

from director.core.i18n import gettext
from director.core.store import load_state
from director.night import commands as night_commands
from director.setup.commands import create_tournament
from director.tables.commands import draw

DEMO_NAMES = ("Alice", "Ben", "Chloé", "Dev", "Erin", "Farid", "Gina", "Hugo", "Ines", "Jack")


def fill_demo(db: Database, now: float, *, seed: int = 7, name: str | None = None) -> int:
    """Create the demo tournament (events dated in the last hour); returns its id. Its name is
    written in the language of whoever asks for it (the name is the night's own from then on,
    as a host's would be)."""
    rng = random.Random(seed)
    if name is None:
        name = gettext("Demo: Saturday night")
    start = now - (3 * 15 + 6) * 60  # level 4, six minutes in
    t = start - 20 * 60
    settings = {
        "name": name,
        "preset": "home-short",
        "table_size": 6,
        "buy_in": 20,
        "rebuy_levels": 3,
        "max_rebuys": 1,
        "rebuy_cost": 20,
        "addon_level": 4,
        "addon_cost": 10,
        "addon_chips": 5000,
        "late_registration_levels": 2,
    }
    tid = create_tournament(db, settings, t)
    for name in DEMO_NAMES:
        t += 60
        night_commands.register_player(db, tid, name, None, t)
    draw(db, tid, None, t + 60, rng=rng)
    night_commands.clock_action(db, tid, "start", None, start)

    def by(player: int, *besides: int) -> int:
        """Someone else at the player's table (not one of ``besides``): the one who knocks the
        player out, whose stack takes the chips."""
        state = load_state(db, tid)
        table = state.player(player).table
        return next(p.id for p in state.alive if p.table == table and p.id not in (player, *besides))

    night_commands.bust(db, tid, [9], None, start + 20 * 60, by=by(9))  # Ines, level 2
    night_commands.rebuy(db, tid, 9, None, start + 22 * 60)
    night_commands.bust(db, tid, [4], None, start + 38 * 60, by=by(4))  # Dev, level 3
    partner = by(7, 1)  # out in the same hand as player 7, level 4 (Alice takes the add-on)
    night_commands.bust(db, tid, [7, partner], None, start + 47 * 60, by=by(7, partner),
                  stacks={"7": 2500, str(partner): 4100})
    night_commands.addon(db, tid, 1, None, start + 48 * 60)
    return tid
