"""The home page (the tournaments, in play first) and the demo night."""
