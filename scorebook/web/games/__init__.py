"""A game's pages (new game, its scoreboard, finish, rematch, delete) and the new-game form."""
