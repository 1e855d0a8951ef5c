"""The site's blueprints, one module each."""
