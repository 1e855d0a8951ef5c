"""A game's pages (new game, its scoreboard, finish, delete) and the game and hand forms."""
