"""The JSON API: the referee's questions (``/api/v1/…``) and the games API, with their
pydantic schemas and the OpenAPI document generated from them."""
