"""Setting a night up and changing it: the new tournament, its settings and structure in play,
templates, the host's chips, and a tournament's life (duplicate, archive, delete)."""
