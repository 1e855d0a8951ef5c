"""Statistics that only real cards can tell: per player, per league and season, per game.

- :mod:`scorebook.services.stats.cards` — SQL expressions over the stored cards: a card's rank,
  its value under a game's rules (the referee's values), low and high aces, a meld's
  shape;
- :mod:`scorebook.services.stats.cache` — the per-game cache the database aggregates from the
  cards (``game_stat``, ``player_game_stat``, ``stat_tally``, ``layoff_tally``),
  rebuilt for every game whose revision moved on;
- :mod:`scorebook.services.stats.players` — a player's figures over a season or all time;
- :mod:`scorebook.services.stats.records` — a league's records, head to head, who feeds whom;
- :mod:`scorebook.services.stats.recap` — a season's recap: podium, records, signature stats;
- :mod:`scorebook.services.stats.games` — one finished game: who melded and stranded most, the
  turning point.

Every figure is a SQL aggregate over the cache; the pages never walk hands or cards.
The sums per player and season (:mod:`scorebook.services.sums`) and the figures kept in
this process (:mod:`scorebook.services.memo`) sit beside this package, below the league
and the ratings, whose writes keep them up to date too.
"""
