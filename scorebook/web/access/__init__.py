"""Leagues, their members and passwords: the access pages and their forms."""
