"""Recording, editing and deleting a hand."""
