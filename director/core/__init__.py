"""The machinery every area of the director stands on: the store and the unit of work, the
command ids, and (as the second version of the director moves in) the contract, roles,
languages and the errors at the edge. Each area's inputs, answers and views live with the
area, not here."""
