"""The player's page, opened from the QR code on a seat card: no login, read-only."""
