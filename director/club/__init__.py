"""The club: the players' database (people), seasons and their standings, imports of players
and past results, and the backup and restore of the whole database."""
