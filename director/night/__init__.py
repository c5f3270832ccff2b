"""The running night: the dashboard and its clock controls, registration, busts, rebuys,
re-entries and add-ons, undo and redo, the results, and the tournament's JSON API."""
