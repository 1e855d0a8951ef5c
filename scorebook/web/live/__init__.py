"""The live pages' version endpoint, answered by Flask when the WSGI poll does not."""
