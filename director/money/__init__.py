"""The night's money on its pages: the final table's deal and the host's sheet. (Payouts,
bounties and the ledger are the engine's; the dashboard shows the prizes as they stand.)"""
