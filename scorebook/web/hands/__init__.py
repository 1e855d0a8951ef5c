"""Recording, editing and deleting a hand (at its end or move by move), and its forms."""
