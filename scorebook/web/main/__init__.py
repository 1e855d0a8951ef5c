"""The home page and the helpers every template has."""
