"""A background job's page: how far it has got, refreshed until it ends."""
