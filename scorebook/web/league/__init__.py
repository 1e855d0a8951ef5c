"""The league pages (standings, seasons, players, imports and exports) and its statistics."""
