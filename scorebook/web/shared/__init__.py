"""A finished game's result shared by link: the page anyone with the link opens, and the
members' page that makes (and the owner's that stops) the link."""
