"""Physical chips: chip sets, the starting-stack breakdown, and the colour-up chip race.

A colour-up removes the smallest chip from play at a break (TDA 24, RRoP 15):
each player's chips of it are changed up into the next chip, and the odd chips
left over are raced for with cards, at most one new chip per player.

The chips live in three modules, all of whose names this one gives:

* :mod:`engine.chip_sets`: the chip sets (values, colours, counts), the ready-made ones,
  and a host's own set as data;
* :mod:`engine.chip_plan`: the starting stacks a set makes, and the plan of a night with
  the host's chip box (stacks, rebuys, add-ons, colour-ups);
* :mod:`engine.chip_race`: the colour-up and its chip race.

>>> HOME_SET.values
(25, 100, 500, 1000, 5000)
>>> HOME_SET.denomination(1000).hex
'#f9a825'
"""

from __future__ import annotations

from engine.chip_plan import MIN_BIG_BLINDS as MIN_BIG_BLINDS
from engine.chip_plan import ChipPlan as ChipPlan
from engine.chip_plan import StackBreakdown as StackBreakdown
from engine.chip_plan import plan as plan
from engine.chip_plan import round_stacks as round_stacks
from engine.chip_plan import suggest_stack as suggest_stack
from engine.chip_plan import suggest_starting_stack as suggest_starting_stack
from engine.chip_race import ColourUp as ColourUp
from engine.chip_race import RacedOutAward as RacedOutAward
from engine.chip_race import Seat as Seat
from engine.chip_race import colour_up as colour_up
from engine.chip_sets import CHIP_SETS as CHIP_SETS
from engine.chip_sets import CLUB_SET as CLUB_SET
from engine.chip_sets import COLOURS as COLOURS
from engine.chip_sets import HOME_SET as HOME_SET
from engine.chip_sets import MAX_CHIP_COUNT as MAX_CHIP_COUNT
from engine.chip_sets import MAX_DENOMINATIONS as MAX_DENOMINATIONS
from engine.chip_sets import SMALL_SET as SMALL_SET
from engine.chip_sets import Chips as Chips
from engine.chip_sets import ChipSet as ChipSet
from engine.chip_sets import Denomination as Denomination
from engine.chip_sets import chip_set_from_dict as chip_set_from_dict
from engine.chip_sets import chip_set_to_dict as chip_set_to_dict
from engine.chip_sets import payable as payable
